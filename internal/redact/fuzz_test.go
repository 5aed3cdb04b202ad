package redact

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLine: any line redacts without a panic to valid JSON (a line that
// is not JSON to InvalidLine, a blank one to nothing), and a planted secret never survives,
// wherever in a string the fuzzer puts it and whatever surrounds it
// (markup, phrases, identifiers). Seeded from the repository's
// transcripts.
func FuzzLine(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "*", "testdata", "*.jsonl"))
	for i, name := range files {
		if i%4 != 0 { // a spread of them: each line is a seed
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for l := range bytes.Lines(data) {
			if len(l) < 4096 {
				f.Add(bytes.TrimSpace(l), "text", "")
			}
		}
	}
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"content":{"text":"x"}}}}`),
		"text", "<task-notification><task-id>")
	f.Add([]byte(`{"a":"b"}`), "title", "Monitor started (task ")
	f.Add([]byte(`not json`), "k", "sub-agent-")
	const secret = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx"
	f.Fuzz(func(t *testing.T, line []byte, key, around string) {
		out := New().Line(line)
		switch {
		case len(bytes.TrimSpace(line)) == 0:
			if len(out) != 0 {
				t.Fatalf("blank in, %q out", out)
			}
		case json.Valid(line) && !json.Valid(out) && string(out) != InvalidLine:
			t.Fatalf("valid in, %q out", out)
		case !json.Valid(line) && string(out) != InvalidLine:
			t.Fatalf("not JSON in, %q out", out)
		}
		for _, s := range []string{around + secret, secret + around, around + " " + secret + " " + around} {
			planted, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "x", "params": map[string]any{key: s}})
			if got := New().Line(planted); strings.Contains(string(got), secret) || !json.Valid(got) {
				t.Fatalf("%s -> %s", planted, got)
			}
		}
	})
}
