package testwire

import "bytes"

// Windows cuts a transcript into runs of n lines, each overlapping the
// next by one, leaving out any run longer than limit bytes: fuzz seeds.
// A whole transcript as a seed starves a short fuzz run, since Go
// minimizes each input that finds new coverage (quadratic in its length)
// before it fuzzes on; short windows keep every line's shape and the
// frames around it. An n under 2 is taken as 2.
func Windows(b []byte, n, limit int) [][]byte {
	n = max(n, 2)
	lines := bytes.SplitAfter(b, []byte("\n"))
	var out [][]byte
	for i := 0; i < len(lines); i += n - 1 {
		w := bytes.Join(lines[i:min(i+n, len(lines))], nil)
		if len(bytes.TrimSpace(w)) > 0 && len(w) <= limit {
			out = append(out, w)
		}
		if i+n >= len(lines) {
			break
		}
	}
	return out
}
