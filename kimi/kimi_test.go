package kimi_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/audit"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/kimi"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"Kimi Code CLI", "", true},
		{"kimi code cli", "", true},
		{"Kimi CLI", "", true}, // the name before the rename
		{"", " kimi-cli ", true},
		{"kimi", "", true},
		{"kimi-cli-proxy", "", false},
		{"Kimi Chat", "", false},
		{"kimiko", "", false},
		{"Kimi Code CLI Pro", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := kimi.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

// The session is identified as Kimi's and gets standard behaviour. The
// model reused its tool call id Shell:0 in the second turn; Kimi's
// turn-prefixed ids keep the two calls apart: two cards, the first still
// failed.
func TestGoldenSemantics(t *testing.T) {
	final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := string(final) + string(events)
	for _, w := range []string{
		`"agent":"kimi","session_id":"k1","tool_call_id":"6a1f0c2e-8d4b-4e7a-9c3d-1b2a3c4d5e6f/Shell:0","payload":{"kind":"generic","status":"failed","title":"Shell: ls"`,
		`"agent":"kimi","session_id":"k1","tool_call_id":"0b9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f/Shell:0","payload":{"kind":"generic","status":"completed","title":"Shell: ls"`,
		`"tools":{"stored":2,`,
		`"replies":0,"declined":0`,
	} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %s", w)
		}
	}
	for _, w := range []string{`"tool_call_id":"Shell:0"`, `"type":"reply"`, `"usage"`} {
		if strings.Contains(out, w) {
			t.Errorf("unexpected %s", w)
		}
	}
}

// TestVendorDataIgnored audits the initialize Kimi Code CLI 1.49.0 sends
// (src/kimi_cli/acp/server.py, docs/kimi.md section 3): its login
// method's _meta.terminal-auth is known and ignored, not unknown.
func TestVendorDataIgnored(t *testing.T) {
	const frames = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"authMethods":[{"id":"login","name":"Login with Kimi account","_meta":{"terminal-auth":{"command":"kimi","args":["login"],"label":"Kimi Code Login","env":{},"type":"terminal"}}}],"agentInfo":{"name":"Kimi Code CLI","version":"1.49.0"}}}
`
	a := audit.New()
	if err := a.File(dialects.Registry(), "frames", strings.NewReader(frames), ""); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, it := range a.Items() {
		got[it.Kind+" "+it.Name] = it.Status
		if it.Status == audit.Unknown {
			t.Errorf("%s %s is unknown to the %s dialect", it.Kind, it.Name, it.Agent)
		}
	}
	for _, k := range []string{"command", "args", "label", "env", "type"} {
		w := "meta _meta.terminal-auth." + k
		if got[w] != audit.Ignored {
			t.Errorf("%s: status %q, want %q", w, got[w], audit.Ignored)
		}
	}
}

// The 1.49.0 login transcript is identified as Kimi's, so that the
// dialects' audit of the testdata judges its _meta.terminal-auth.
func TestGoldenLogin(t *testing.T) {
	final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", "login-1.49.0.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := string(final) + string(events)
	for _, w := range []string{`"agent":"kimi"`, `"replies":0,"declined":0`} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %s", w)
		}
	}
}
