package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect/internal/testwire"
)

// fuzzAgents are the Options.Agent values FuzzRun picks from: identified
// from the input's own initialize line, Cursor's rules, standard ACP,
// Codex's rules (its recorded transcripts have no initialize line).
var fuzzAgents = [...]string{"", "cursor", "unknown", "codex"}

// seedWindow is how many transcript lines make one seed, and seedMax the
// longest seed. A whole transcript (up to 10 KB) as a seed made the
// fuzzer's first new inputs as long, and minimizing one (its subset pass
// is quadratic in the length) took the whole run: 35 executions in 60 s.
// Short windows keep every line's shape and the frames around it.
const (
	seedWindow = 4
	seedMax    = 2 << 10
)

// FuzzRun: any input replays without panicking, every reply is a valid
// JSON-RPC frame, and both outputs are valid JSON lines.
func FuzzRun(f *testing.F) {
	for _, seed := range []struct {
		glob  string
		agent uint8 // index in fuzzAgents: Cursor's transcripts run as Cursor without their initialize line
	}{
		{"../../cursor/testdata/*.jsonl", 1}, {"../../cmd/acpdialect/*.jsonl", 1},
		{"../../claude/testdata/*.jsonl", 0}, {"../../codex/testdata/*.jsonl", 3}, {"../../grok/testdata/*.jsonl", 0},
	} {
		paths, _ := filepath.Glob(seed.glob)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			for _, w := range testwire.Windows(b, seedWindow, seedMax) {
				f.Add(seed.agent, w)
			}
		}
	}
	f.Add(uint8(0), []byte("{\"id\":1}\n[]\n{\"method\":1}\n\n{"))
	f.Fuzz(func(t *testing.T, agent uint8, in []byte) {
		// A small reader of its own: Feed's default 256 KiB one, cleared
		// for every exec, cost a short input seven times its replay. A
		// line longer than it takes Feed's long-line path.
		src := bufio.NewReaderSize(bytes.NewReader(in), 4<<10)
		r, err := Run(Builtins(), src, Options{Agent: fuzzAgents[int(agent)%len(fuzzAgents)]})
		if err != nil {
			t.Fatal(err)
		}
		for _, rep := range r.Replies {
			if !json.Valid(rep.Frame) {
				t.Fatalf("invalid reply %q", rep.Frame)
			}
		}
		for _, write := range []func(*bytes.Buffer) error{
			func(b *bytes.Buffer) error { return r.WriteFinal(b) },
			func(b *bytes.Buffer) error { return r.WriteEvents(b) },
		} {
			var b bytes.Buffer
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(&b)
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				if !json.Valid(sc.Bytes()) {
					t.Fatalf("invalid output line %q", sc.Bytes())
				}
			}
		}
	})
}
