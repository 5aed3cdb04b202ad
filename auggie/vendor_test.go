package auggie_test

import (
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/audit"
)

// TestVendorDataIgnored audits Auggie's vendor frames (0.36.0's bundled
// code, docs/auggie.md section 2) as the auggie dialect judges them: each
// vendor method and _meta path must be known and ignored (not unknown,
// nor taken for ACP's own), none unknown.
func TestVendorDataIgnored(t *testing.T) {
	const init = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"auggie","title":"Auggie Agent","version":"0.36.0"},"authMethods":[]}}
`
	tests := []struct {
		name   string
		frames string
		want   []string // kind name, each judged ignored
	}{
		{"session/list messageCount", `{"jsonrpc":"2.0","id":1,"method":"session/list","params":{}}
{"jsonrpc":"2.0","id":1,"result":{"sessions":[{"sessionId":"s1","cwd":"/w","title":"Fix it","_meta":{"messageCount":4}}]}}
`, []string{"meta _meta.messageCount"}},
		{"completions", `{"jsonrpc":"2.0","id":2,"method":"completion/request","params":{"sequenceId":1,"language":"go","path":"/w/a.go"}}
{"jsonrpc":"2.0","method":"completion/resolve","params":{"sequenceId":1}}
{"jsonrpc":"2.0","method":"completion/cancel","params":{"sequenceId":1}}
{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error"}}
`, []string{"method completion/request", "method completion/resolve", "method completion/cancel"}},
		{"session history", `{"jsonrpc":"2.0","id":3,"method":"augment/session/history","params":{"sessionId":"s1","includeExchanges":false}}
{"jsonrpc":"2.0","id":3,"result":{"messages":[{"role":"user","content":[{"type":"text","text":"Fix it"}]}]}}
`, []string{"method augment/session/history"}},
		{"terminal login", `{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"terminal-auth":true,"terminal_output":true,"jetbrains":{"air":{"capabilities":["asyncTasks"]}}}}}}
{"jsonrpc":"2.0","id":4,"result":{"protocolVersion":1,"agentInfo":{"name":"auggie","title":"Auggie Agent"},"authMethods":[{"id":"auggie-login","name":"Log in with Auggie","_meta":{"terminal-auth":{"command":"node","args":["augment.mjs","login"],"label":"Auggie Agent Login"}}}]}}
`, []string{"meta _meta.terminal-auth", "meta _meta.terminal-auth.command", "meta _meta.terminal_output", "meta _meta.jetbrains.air.capabilities"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := audit.New()
			if err := a.File(dialects.Registry(), "frames", strings.NewReader(init+tt.frames), ""); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, it := range a.Items() {
				got[it.Kind+" "+it.Name] = it.Status
				if it.Status == audit.Unknown {
					t.Errorf("%s %s is unknown to the %s dialect", it.Kind, it.Name, it.Agent)
				}
			}
			for _, w := range tt.want {
				if got[w] != audit.Ignored {
					t.Errorf("%s: status %q, want %q", w, got[w], audit.Ignored)
				}
			}
		})
	}
}
