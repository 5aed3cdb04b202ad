package dialects_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
)

// TestMCPArgumentsBound: Claude and Codex keep an MCP call's arguments on
// its card up to the one shared bound, acpdialect.MaxMCPArguments, and
// leave larger ones out whole. The Conn's default per-value cap (4 MiB)
// is far above the bound, so what is kept here is the dialect's choice.
func TestMCPArgumentsBound(t *testing.T) {
	// frame returns the tool call that carries args in each dialect's way.
	frames := map[string]func(args string) string{
		"claude": func(args string) string {
			return `{"sessionUpdate":"tool_call","toolCallId":"m1","kind":"other","title":"mcp__s__t","status":"in_progress",` +
				`"rawInput":` + args + `,"_meta":{"claudeCode":{"toolName":"mcp__s__t"}}}`
		},
		"codex": func(args string) string {
			return `{"sessionUpdate":"tool_call","toolCallId":"m1","kind":"execute","title":"mcp.s.t","status":"in_progress",` +
				`"rawInput":{"server":"s","tool":"t","arguments":` + args + `},"_meta":{"is_mcp_tool_call":true}}`
		},
	}
	for _, size := range []struct {
		name string
		n    int // the arguments' bytes
		kept bool
	}{
		{"under", acpdialect.MaxMCPArguments - 1, true},
		{"at", acpdialect.MaxMCPArguments, true},
		{"over", acpdialect.MaxMCPArguments + 1, false},
	} {
		args := `{"q":"` + strings.Repeat("a", size.n-len(`{"q":""}`)) + `"}`
		for agent, frame := range frames {
			t.Run(agent+"/"+size.name, func(t *testing.T) {
				m := mcpCard(t, agent, frame(args))
				if m.Server != "s" || m.Tool != "t" {
					t.Fatalf("not the call's card: %+v", m)
				}
				if kept := len(m.Arguments) > 0; kept != size.kept {
					t.Fatalf("%d bytes of arguments: kept %v, want %v", size.n, kept, size.kept)
				}
				if size.kept && !bytes.Equal(m.Arguments, []byte(args)) {
					t.Errorf("arguments changed: %.80s...", m.Arguments)
				}
			})
		}
	}
}

// mcpCard feeds update to a Conn of agent in a turn of s1 and returns the
// MCP card of the last tool call event.
func mcpCard(t *testing.T, agent, update string) acpdialect.MCPTool {
	t.Helper()
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: agent})
	if _, err := c.Outbound([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)); err != nil {
		t.Fatal(err)
	}
	r, err := c.Inbound([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + update + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	var card *acpdialect.MCPTool
	for _, ev := range r.Events {
		if ev.Payload != nil && ev.Payload.MCPTool != nil {
			card = ev.Payload.MCPTool
		}
	}
	if card == nil {
		t.Fatalf("no mcp_tool card in %+v", r.Events)
	}
	if st := c.Stats(); st.Tools.Cut != 0 || st.Tools.Refused != 0 {
		t.Errorf("the Conn cut or refused the card %+v: the test is of the dialect's bound", st.Tools)
	}
	return *card
}
