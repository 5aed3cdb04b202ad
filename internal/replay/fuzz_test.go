package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRun: any input replays without panicking, every reply is a valid
// JSON-RPC frame, and both outputs are valid JSON lines.
func FuzzRun(f *testing.F) {
	for _, glob := range []string{"../../testdata/*.jsonl", "../../cursor/testdata/*.jsonl", "../../claude/testdata/*.jsonl", "../../cmd/acpdialect/*.jsonl"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte("{\"id\":1}\n[]\n{\"method\":1}\n\n{"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := Run(Builtins(), bytes.NewReader(in), Options{})
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
