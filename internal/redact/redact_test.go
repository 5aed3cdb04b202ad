package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

var placeholderRE = regexp.MustCompile(`<(text|path|command|output|secret|email)-\d+>`)

func captures(t *testing.T) []string {
	t.Helper()
	a, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*.jsonl"))
	b, _ := filepath.Glob(filepath.Join("..", "..", "cursor", "testdata", "*.jsonl"))
	c, _ := filepath.Glob(filepath.Join("..", "..", "cmd", "acpdialect", "*.jsonl"))
	all := append(append(a, b...), c...)
	if len(all) == 0 {
		t.Fatal("no captures")
	}
	return all
}

// TestRedactedCapturesReplayTheSame: every capture in the repository,
// redacted, replays to the same events and final state, apart from the
// strings redacted into placeholders.
func TestRedactedCapturesReplayTheSame(t *testing.T) {
	for _, path := range captures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var red bytes.Buffer
			if err := New().Copy(&red, bytes.NewReader(orig)); err != nil {
				t.Fatal(err)
			}
			if n, m := bytes.Count(orig, []byte("\n")), bytes.Count(red.Bytes(), []byte("\n")); n != m {
				t.Fatalf("%d lines, redacted %d", n, m)
			}
			a, b := replayed(t, orig), replayed(t, red.Bytes())
			if len(a) != len(b) {
				t.Fatalf("%d output lines, redacted %d:\n%s\n---\n%s", len(a), len(b), strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			for i := range a {
				var x, y any
				json.Unmarshal([]byte(a[i]), &x)
				json.Unmarshal([]byte(b[i]), &y)
				if where := differs(x, y, ""); where != "" {
					t.Errorf("line %d differs at %s beyond redaction:\n%s\n%s", i+1, where, a[i], b[i])
				}
			}
		})
	}
}

// replayed is the --json then --final output of a transcript, by line.
func replayed(t *testing.T, in []byte) []string {
	t.Helper()
	r, err := replay.Run(replay.Builtins(), bytes.NewReader(in), replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	r.WriteEvents(&b)
	r.WriteFinal(&b)
	return strings.Split(strings.TrimSpace(b.String()), "\n")
}

// differs returns where y is not x, other than a string of x redacted
// into a placeholder, or "". The stats' byte counts measure the kept
// strings, so a placeholder of another length changes them.
func differs(x, y any, at string) string {
	if strings.HasPrefix(at, ".stats.") && (strings.HasSuffix(at, ".bytes") || at == ".stats.budget.used") {
		return ""
	}
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok || len(xv) != len(yv) {
			return at
		}
		for k := range xv {
			if d := differs(xv[k], yv[k], at+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return at
		}
		for i := range xv {
			if d := differs(xv[i], yv[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	case string:
		if ys, ok := y.(string); ok && (ys == xv || placeholderRE.MatchString(ys)) {
			return ""
		}
		return at
	}
	if fmt.Sprint(x) != fmt.Sprint(y) {
		return at
	}
	return ""
}

// secrets are planted everywhere, structural places (ids, names, keys)
// included: they are found by their pattern. private are content, planted
// where content goes: text, titles, paths, commands, outputs, _meta
// values, error messages, permission requests, a line that is not JSON.
var (
	secrets = []string{
		"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx", "sk-proj-0123456789abcdefABCDEF", "ghp_0123456789abcdefghijABCDEFGHIJ0123",
		"github_pat_11ABCDEFG0123456789_abcdefghij", "AKIAIOSFODNN7EXAMPLE", "xoxb-1234567890-abcdefghij",
		"AIzaSyA-0123456789abcdefghijklmnopqrstu", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"alice.smith@example.com", "Bearer abcdef0123456789", "password=hunter2hunter2", "glpat-abcdefghij0123456789",
		"postgres://admin:pa55word@db.internal:5432/app",
	}
	private = []string{
		"hunter2-plain-password-value", "/home/alice/projects/secret-plan/main.go", "rm -rf /home/alice",
		"the quarterly numbers are bad", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA",
	}
)

// TestPlantedSecrets: none of the planted secrets and private strings
// survives.
func TestPlantedSecrets(t *testing.T) {
	var in bytes.Buffer
	line := func(b []byte) { in.Write(append(b, '\n')) }
	req, resp := testwire.Initialize(0, "cursor-agent")
	line(req)
	line(resp)
	for i, s := range append(secrets, private...) {
		line(testwire.Prompt(i, "s1", "please use "+s))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "ok " + s}}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": s, "kind": "execute",
			"rawInput": map[string]any{"command": s, "path": s, "env": map[string]any{"HOME": s, "API_KEY": s}}, "_meta": map[string]any{"vendor": map[string]any{"note": s}},
			"locations": []any{map[string]any{"path": s}}}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed",
			"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": s}}}, "rawOutput": map[string]any{"output": s, "stderr": s}}))
		line(testwire.ErrorResponse(i, -32000, "failed: "+s))
		line(testwire.Request(90+i, "session/request_permission", map[string]any{"sessionId": "s1", "toolCall": map[string]any{"toolCallId": "t1", "title": s},
			"options": []any{map[string]any{"optionId": "allow", "name": "Allow " + s, "kind": "allow_once"}}}))
		line([]byte(`not json ` + s))
	}
	for _, s := range secrets { // in the places kept as they are
		line(testwire.SessionUpdate(s, map[string]any{"sessionUpdate": "tool_call", "toolCallId": s, "kind": s, "status": s, "title": "x",
			"rawInput": map[string]any{"_toolName": s, "model": s}, "_meta": map[string]any{s: map[string]any{"name": s}}}))
	}
	var out bytes.Buffer
	if err := New().Copy(&out, &in); err != nil {
		t.Fatal(err)
	}
	for _, s := range append(secrets, private...) {
		for _, piece := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\n' }) {
			if len(piece) >= 8 && bytes.Contains(out.Bytes(), []byte(piece)) {
				t.Errorf("%q of %q survived", piece, s)
			}
		}
	}
	for l := range bytes.Lines(out.Bytes()) {
		if l = bytes.TrimSpace(l); string(l) != InvalidLine && !json.Valid(l) {
			t.Errorf("redacted line is not JSON: %s", l)
		}
	}
}

// TestConsistent: the same value is the same placeholder; structure stays.
func TestConsistent(t *testing.T) {
	rd := New()
	a := rd.Line([]byte(`{"jsonrpc":"2.0","id":3,"method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t9","kind":"read","status":"pending","title":"Read /a/b.go","rawInput":{"path":"/a/b.go"},"_meta":{"claudeCode":{"toolName":"Read"}}}}}`))
	b := rd.Line([]byte(`{"path":"/a/b.go","x":[1,true,null,"/a/b.go"]}`))
	want := `{"jsonrpc":"2.0","id":3,"method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t9","kind":"read","status":"pending","title":"<text-1>","rawInput":{"path":"<path-1>"},"_meta":{"claudeCode":{"toolName":"Read"}}}}}`
	if string(a) != want {
		t.Errorf("got  %s\nwant %s", a, want)
	}
	if string(b) != `{"path":"<path-1>","x":[1,true,null,"<path-1>"]}` {
		t.Errorf("got %s", b)
	}
}
