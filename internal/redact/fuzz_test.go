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
// (markup, phrases, identifiers), and nothing under a secret-named key
// survives. Seeded from the repository's
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
	f.Add([]byte(`{"rawOutput":{"output":"x"}}`), "output", `<task id="`)
	// escaped member names and ids, secret-named keys with nested values,
	// identity objects out of place, one-word tool data
	f.Add([]byte(`{"jsonrpc":"2.0","id":"p\u0031","\u006dethod":"session/update","params":{"sessionId":"s\u0031"}}`), "id", "")
	f.Add([]byte(`{"password":{"value":"hunter2"},"apiKey":["sk-x"],"secret":12345678,"X-Api-Key":{"a":[1,true,null]}}`), "x-api-key", "")
	f.Add([]byte(`{"result":{"info":{"name":"acme","title":"Acme Agent"}},"params":{"rawOutput":{"info":{"name":"falcon"}}}}`), "info", "")
	f.Add([]byte(`{"rawInput":{"type":"confidential","_toolName":"task"},"rawOutput":{"name":"falcon","code":"X7Q"}}`), "Set-Cookie", "")
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
		// Under a secret-named key, nothing survives, however deep.
		const plain, number = "plainvalue", "12345678"
		if strings.Contains(key, plain) || strings.Contains(key, number) {
			return
		}
		for _, v := range []any{map[string]any{key: plain}, []any{plain, json.Number(number)}, map[string]any{key: []any{map[string]any{key: json.Number(number)}}}} {
			planted, _ := json.Marshal(map[string]any{"params": map[string]any{"X-Api-Key": v, "password": map[string]any{key: v}}})
			if got := New().Line(planted); strings.Contains(string(got), plain) || strings.Contains(string(got), number) || !json.Valid(got) {
				t.Fatalf("%s -> %s", planted, got)
			}
		}
	})
}
