package pair

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Line is one line of a set that Kinds times.
type Line struct {
	Kind string // what the table groups it under
	Size int    // its bytes
	// Run and Base handle the line: the work measured and its baseline.
	Run, Base func()
}

// Kinds times each line of a set through Run and then Base, round after
// round, and tells where the time goes, by kind. Lines are timed one call
// at a time (a clock read costs some tens of nanoseconds), and each Run
// follows another line's Base, as on a connection whose client does other
// work between frames: the table says which kinds pull the set's ratio
// down, not the ratio a benchmark of whole passes measures.
type Kinds struct {
	lines     []Line
	by        map[string]*kindTimes
	run, base time.Duration
	rounds    int
}

type kindTimes struct {
	run, base   time.Duration
	lines, size int
}

// NewKinds returns a Kinds for lines.
func NewKinds(lines []Line) *Kinds {
	k := &Kinds{lines: lines, by: map[string]*kindTimes{}}
	for _, l := range lines {
		t := k.by[l.Kind]
		if t == nil {
			t = &kindTimes{}
			k.by[l.Kind] = t
		}
		t.lines, t.size = t.lines+1, t.size+l.Size
	}
	return k
}

// Round times every line once.
func (k *Kinds) Round() {
	for _, l := range k.lines {
		t0 := time.Now()
		l.Run()
		t1 := time.Now()
		l.Base()
		t2 := time.Now()
		t := k.by[l.Kind]
		t.run, t.base = t.run+t1.Sub(t0), t.base+t2.Sub(t1)
		k.run, k.base = k.run+t1.Sub(t0), k.base+t2.Sub(t1)
	}
	k.rounds++
}

// String is the table: for each kind, most time first, its lines and
// bytes, its share of Run's and of Base's time, Base's time over Run's,
// and Run's time per line.
func (k *Kinds) String() string {
	if k.rounds == 0 {
		return "no rounds"
	}
	kinds := make([]string, 0, len(k.by))
	for name := range k.by {
		kinds = append(kinds, name)
	}
	slices.SortFunc(kinds, func(a, b string) int { return int(k.by[b].run - k.by[a].run) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-36s %5s %7s %6s %6s %6s %8s\n", "kind", "lines", "bytes", "run%", "base%", "ratio", "ns/line")
	for _, name := range kinds {
		t := k.by[name]
		fmt.Fprintf(&sb, "%-36s %5d %7d %5.1f%% %5.1f%% %6.2f %8.0f\n", name, t.lines, t.size,
			100*float64(t.run)/float64(k.run), 100*float64(t.base)/float64(k.base),
			float64(t.base)/float64(t.run), float64(t.run)/float64(k.rounds*t.lines))
	}
	fmt.Fprintf(&sb, "all %d lines: base/run %.2f over %d rounds\n", len(k.lines), float64(k.base)/float64(k.run), k.rounds)
	return sb.String()
}

// Over tells where the run's time beyond the base's goes, by kind, for a
// base that does less than the run (a floor of it): each kind's time over
// the base's, per line and as a share of the whole excess, largest first.
// Kinds whose run is not slower than their base are left out.
func (k *Kinds) Over() string {
	if k.rounds == 0 {
		return "no rounds"
	}
	over := func(t *kindTimes) time.Duration { return t.run - t.base }
	var total time.Duration
	kinds := make([]string, 0, len(k.by))
	for name, t := range k.by {
		if over(t) > 0 {
			kinds = append(kinds, name)
			total += over(t)
		}
	}
	slices.SortFunc(kinds, func(a, b string) int { return int(over(k.by[b]) - over(k.by[a])) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-36s %5s %8s %8s %6s\n", "kind", "lines", "ns/line", "over ns", "over%")
	for _, name := range kinds {
		t := k.by[name]
		per := float64(k.rounds * t.lines)
		fmt.Fprintf(&sb, "%-36s %5d %8.0f %8.0f %5.1f%%\n", name, t.lines, float64(t.run)/per, float64(over(t))/per,
			100*float64(over(t))/float64(total))
	}
	fmt.Fprintf(&sb, "all %d lines: base/run %.2f over %d rounds\n", len(k.lines), float64(k.base)/float64(k.run), k.rounds)
	return sb.String()
}
