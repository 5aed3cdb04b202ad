package acpdialect_test

import (
	"fmt"
	"testing"

	"github.com/acpdialect/acpdialect"
	claudedialect "github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/devin"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/tidwall/gjson"
)

// toolFrame is a tool call frame of session s1 for tool call t1, its
// update's members after sessionUpdate given.
func toolFrame(kind, members string) string {
	return fmt.Sprintf(`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":%q,"toolCallId":"t1"%s}}}`, kind, members)
}

// TestToolName: a card's tool name is ACP's standard name (the update's
// string name, the tool-call-name RFD) when a frame gives one, over the
// vendor's, on every connection; a later frame without it keeps it, a
// value of another type is ignored. Without it the name is the vendor's
// (Claude's _meta.claudeCode.toolName, Devin's, Grok's).
func TestToolName(t *testing.T) {
	const (
		claudeRead = `,"_meta":{"claudeCode":{"toolName":"Read"}}`
		claudeBash = `,"_meta":{"claudeCode":{"toolName":"Bash"}}`
	)
	tests := []struct {
		name   string
		agent  string // "" for an agent no dialect knows
		frames []string
		want   string // the last card's payload.tool, "" for none
	}{
		{"standard name alone, unknown agent", "",
			[]string{toolFrame("tool_call", `,"name":"read_file","kind":"read"`)},
			`{"name":"read_file"}`},
		{"no name, unknown agent", "",
			[]string{toolFrame("tool_call", `,"kind":"read","title":"Read a.go"`)},
			""},
		{"absent on a later update: kept", "",
			[]string{toolFrame("tool_call", `,"name":"read_file","kind":"read"`),
				toolFrame("tool_call_update", `,"status":"completed"`)},
			`{"name":"read_file"}`},
		{"a later standard name renames", "",
			[]string{toolFrame("tool_call", `,"name":"read_file","kind":"read"`),
				toolFrame("tool_call_update", `,"name":"grep","status":"completed"`)},
			`{"name":"grep"}`},
		{"non-string name ignored", "",
			[]string{toolFrame("tool_call", `,"name":{"x":1},"kind":"read"`),
				toolFrame("tool_call_update", `,"name":7,"status":"completed"`),
				toolFrame("tool_call_update", `,"name":null,"title":"Read"`)},
			""},
		{"non-string and empty names keep the standard one", "",
			[]string{toolFrame("tool_call", `,"name":"read_file","kind":"read"`),
				toolFrame("tool_call_update", `,"name":["grep"],"status":"in_progress"`),
				toolFrame("tool_call_update", `,"name":"","status":"completed"`)},
			`{"name":"read_file"}`},
		{"Claude: the vendor's name", claudedialect.ID,
			[]string{toolFrame("tool_call", `,"kind":"read"`+claudeRead),
				toolFrame("tool_call_update", `,"status":"completed"`)},
			`{"name":"Read"}`},
		{"Claude: standard and vendor, standard wins", claudedialect.ID,
			[]string{toolFrame("tool_call", `,"name":"read_file","kind":"read"`+claudeRead)},
			`{"name":"read_file"}`},
		{"Claude: the vendor's on a later update does not replace the standard", claudedialect.ID,
			[]string{toolFrame("tool_call", `,"name":"read_file","kind":"read"`),
				toolFrame("tool_call_update", `,"status":"completed"`+claudeRead)},
			`{"name":"read_file"}`},
		{"Claude: non-string standard name, the vendor's", claudedialect.ID,
			[]string{toolFrame("tool_call", `,"name":true,"kind":"read"`+claudeRead)},
			`{"name":"Read"}`},
		{"Claude: a shell card keeps its kind under a standard name", claudedialect.ID,
			[]string{toolFrame("tool_call", `,"name":"run_shell","rawInput":{"command":"ls"}`+claudeBash)},
			`{"name":"run_shell"}`},
		{"Devin: standard and vendor, standard wins", devin.ID,
			[]string{toolFrame("tool_call", `,"name":"exec_cmd","kind":"execute","_meta":{"cognition.ai/inferenceToolName":"exec"}`),
				toolFrame("tool_call_update", `,"status":"completed","_meta":{"cognition.ai/inferenceToolName":"exec"}`)},
			`{"name":"exec_cmd"}`},
		{"Grok: standard name over x.ai/tool's, its other fields kept", grok.ID,
			[]string{toolFrame("tool_call", `,"name":"read","_meta":{"x.ai/tool":{"name":"read_file","kind":"read","namespace":"grok_build"}}`),
				toolFrame("tool_call_update", `,"status":"completed","_meta":{"x.ai/tool":{"name":"read_file","kind":"read","namespace":"grok_build"}}`)},
			`{"name":"read","kind":"read","namespace":"grok_build"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialects.Registry().NewConn(acpdialect.Options{Agent: tt.agent})
			if tt.agent == "" {
				c = acpdialect.NewRegistry().NewConn(acpdialect.Options{})
			}
			got := feedFrames(t, c, tt.frames...)
			if len(got) == 0 {
				t.Fatal("no event")
			}
			last := gjson.Get(got[len(got)-1], "payload.tool").Raw
			if last != tt.want {
				t.Errorf("payload.tool = %s, want %s\nevents %q", last, tt.want, got)
			}
		})
	}
}

// TestToolNameGrokShell: a Grok terminal card stays a shell card, its
// later updates merged, when ACP's standard name names the tool otherwise
// than x.ai/tool.
func TestToolNameGrokShell(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: grok.ID})
	got := feedFrames(t, c,
		toolFrame("tool_call", `,"name":"terminal","rawInput":{"command":"ls"},"_meta":{"x.ai/tool":{"name":"run_terminal_command"}}`),
		toolFrame("tool_call_update", `,"status":"completed","rawOutput":{"output":"a.go","exit_code":0}`))
	want := `{"kind":"shell","status":"completed","tool":{"name":"terminal"},"shell":{"command":"ls","output":"a.go","exit_code":0}}`
	if len(got) == 0 || gjson.Get(got[len(got)-1], "payload").Raw != want {
		t.Errorf("events %q\nwant last payload %s", got, want)
	}
}

// TestPermissionToolNameFromCard: a permission request that names no tool
// (claude-agent-acp's for AIR clients) takes the tool name of its tool
// call's card; one that names its tool keeps it, and one whose card the
// Conn does not hold names none.
func TestPermissionToolNameFromCard(t *testing.T) {
	const card = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","kind":"execute","title":"ls","_meta":{"claudeCode":{"toolName":"Bash"}}}}}`
	ask := func(toolCall string) string {
		return `<{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":` + toolCall + `,"options":[{"optionId":"allow","kind":"allow_once"}]}}`
	}
	tests := []struct {
		name   string
		frames []string
		want   string // the permission's tool_name
	}{
		{"no tool name: the card's", []string{card, ask(`{"toolCallId":"t1","title":"ls"}`)}, "Bash"},
		{"its own tool name kept", []string{card, ask(`{"toolCallId":"t1","_meta":{"claudeCode":{"toolName":"Shell"}}}`)}, "Shell"},
		{"ACP's name kept", []string{card, ask(`{"toolCallId":"t1","name":"run"}`)}, "run"},
		{"no card", []string{ask(`{"toolCallId":"t1","title":"ls"}`)}, ""},
		{"another tool call's card", []string{card, ask(`{"toolCallId":"t2","title":"ls"}`)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialects.Registry().NewConn(acpdialect.Options{Agent: claudedialect.ID})
			got := feedFrames(t, c, tt.frames...)
			if len(got) == 0 || gjson.Get(got[len(got)-1], "type").Str != acpdialect.EventPermission {
				t.Fatalf("events %q: want a permission event last", got)
			}
			if name := gjson.Get(got[len(got)-1], "permission.tool_name").Str; name != tt.want {
				t.Errorf("tool_name = %q, want %q\nevents %q", name, tt.want, got)
			}
		})
	}
}

// TestPermissionMCPIdentityFromCard: a permission request that names its
// tool (ACP's name) but no MCP server takes the server and tool of its
// card's MCP call, as one that names nothing does.
func TestPermissionMCPIdentityFromCard(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: claudedialect.ID})
	got := feedFrames(t, c,
		toolFrame("tool_call", `,"kind":"other","_meta":{"claudeCode":{"toolName":"mcp__docs__search"}}`),
		`<{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1","name":"search"},"options":[]}}`)
	want := `{"tool_name":"search","server":"docs","tool":"search","options":[]}`
	if p := lastField(t, got, "permission"); p != want {
		t.Errorf("permission %s, want %s\nevents %q", p, want, got)
	}
}
