package floor

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/scan"
)

// panics reports whether f.Line(s) panicked.
func panics(f *Floor, s string) (p bool) {
	defer func() { p = recover() != nil }()
	f.Line(s)
	return false
}

// TestLineChecks: the floor takes exactly the lines scan.Valid takes,
// whichever walk checks the part that is broken.
func TestLineChecks(t *testing.T) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","rawInput":{"a":[1,2}}}}`, // in the update
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call"}}`,                                         // after it
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":s,"update":{"sessionUpdate":"tool_call"}}}`,                                          // before it
		`{"jsonrpc":2.0.1,"method":"session/update","params":{"sessionId":"s","update":{}}}`,                                                                   // in the envelope
		`{"jsonrpc":"2.0","id":1,"result":{"agentInfo":{"name":"x\q"}}}`,                                                                                       // in a result
		`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"options":[{"optionId":"a",}]}}`,                                              // in params
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":tru}}`,                                                                  // an update that is no object
		`{"jsonrpc":"2.0","id":1,"result":nul}`,  // a result that is no object
		`{"jsonrpc":"2.0","id":1,"result":{}} x`, // after the line
		`{"jsonrpc":"2.0"`, `[1,`, ``,
	} {
		if scan.Valid(s) {
			t.Fatalf("%s: valid, want a broken line", s)
		}
		for _, f := range []*Floor{New("v"), NewOutputs("v")} {
			if !panics(f, s) {
				t.Errorf("%s: taken", s)
			}
		}
	}
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":5}}`,
		`{"jsonrpc":"2.0","id":1,"result":null}`,
		`[1,2]`, `"x"`,
		` { "id" : 1 , "result" : { "a" : [ ] } } `,
	} {
		for _, f := range []*Floor{New("v"), NewOutputs("v")} {
			if panics(f, s) {
				t.Errorf("%s: refused", s)
			}
		}
	}
}

// FuzzLineChecks holds the floor's checks, split over its walks, to
// scan.Valid over the whole line.
func FuzzLineChecks(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"_meta":{"v":{"k":1}},"sessionUpdate":"tool_call","toolCallId":"t"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"agentInfo":{"name":"x"},"agentCapabilities":{"_meta":{"v":{"promptQueueing":true}}}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t"},"options":[{"optionId":"a","name":"A","kind":"allow_once"}]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fl := NewOutputs("v", "k")
		if got, want := !panics(fl, s), scan.Valid(s); got != want {
			t.Fatalf("%q: taken %v, valid %v", s, got, want)
		}
	})
}

// TestOutputs: the outputs floor makes each event the contract asks for
// from these lines, with what it says it reads.
func TestOutputs(t *testing.T) {
	f := NewOutputs("claudeCode", "toolName", "parentToolUseId")
	step := func(s string) []acpdialect.Event {
		t.Helper()
		f.Events = nil
		f.Line(s)
		return f.Events
	}
	if ev := step(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`); ev != nil {
		t.Fatalf("a request: %+v", ev)
	}
	ev := step(`{"id":1,"jsonrpc":"2.0","result":{"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing": true}}},"agentInfo":{"name":"claude-agent-acp"}}}`)
	if c, _ := ev[0].Object.(*acpdialect.Capabilities); len(ev) != 1 || ev[0].Agent != "claude-agent-acp" || c == nil || !c.PromptQueueing {
		t.Errorf("initialize's result: %+v", ev)
	}
	if ev := step(`{"id":1,"jsonrpc":"2.0","result":{"agentInfo":{"name":"again"}}}`); ev != nil {
		t.Errorf("a response answered already: %+v", ev)
	}
	step(`{"jsonrpc":"2.0","id":"p","method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`)
	ev = step(`{"jsonrpc":"2.0","id":"p","result":{"stopReason":"end_turn","usage":{"inputTokens":3,"outputTokens":4,"totalTokens":7}}}`)
	if u, _ := ev[0].Object.(*acpdialect.Usage); len(ev) != 1 || u == nil || !u.Turn || *u.InputTokens != 3 || *u.OutputTokens != 4 || *u.TotalTokens != 7 || u.CachedReadTokens != nil {
		t.Errorf("session/prompt's result: %+v", ev)
	}
	ev = step(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"usage_update","size":200000,"used":2}}}`)
	if u, _ := ev[0].Object.(*acpdialect.Usage); len(ev) != 1 || u == nil || *u.Used != 2 || *u.Size != 200000 {
		t.Errorf("usage_update: %+v", ev)
	}
	ev = step(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"availableCommands":[{"name":"a","description":"A"},{"name":"b"}],"sessionUpdate":"available_commands_update"}}}`)
	if c, _ := ev[0].Object.(*acpdialect.Commands); len(ev) != 1 || c == nil || len(c.Items) != 2 || c.Items[0] != (acpdialect.Command{Name: "a", Description: "A"}) || c.Items[1].Name != "b" {
		t.Errorf("available_commands_update: %+v", ev)
	}
	line := `{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"options":[{"kind":"allow_once","name":"Allow","optionId":"allow"}],"sessionId":"s","toolCall":{"toolCallId":"toolu_1"}}}`
	ev = step(line)
	if p, _ := ev[0].Object.(*acpdialect.Permission); len(ev) != 1 || ev[0].ToolCallID != "toolu_1" || p == nil || len(p.Options) != 1 || p.Options[0] != (acpdialect.PermissionOption{ID: "allow", Name: "Allow", Kind: "allow_once"}) {
		t.Errorf("a permission request: %+v", ev)
	}
	if unsafe.StringData(ev[0].ToolCallID) == unsafe.StringData(line[strings.Index(line, "toolu_1"):]) {
		t.Errorf("the event views the line, which it must not keep")
	}
	ev = step(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"_meta":{"claudeCode":{"parentToolUseId":"toolu_p","toolName":"Bash"}},"sessionUpdate":"tool_call","toolCallId":"toolu_2"}}}`)
	if len(ev) != 1 || ev[0].Type != `"tool_call"` || ev[0].ToolCallID != `"toolu_2"` || ev[0].Payload.Title != `"Bash"` || ev[0].Payload.ParentToolCallID != `"toolu_p"` {
		t.Errorf("a tool call: %+v", ev)
	}
}

// TestMustCheck: only a session/update's message chunk without _meta is
// left unchecked.
func TestMustCheck(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`, false},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_thought_chunk","content":{}}}}`, false},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"content":{},"sessionUpdate":"user_message_chunk"}}}`, false},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","_meta":{"codex":{"phase":"commentary"}}}}}`, true},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t"}}}`, true},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":"agent_message_chunk"}}`, true},
		{`{"jsonrpc":"2.0","method":"_codex/x","params":{"update":{"sessionUpdate":"agent_message_chunk"}}}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}`, true},
	} {
		if got := MustCheck(c.line); got != c.want {
			t.Errorf("%s: %v, want %v", c.line, got, c.want)
		}
	}
}
