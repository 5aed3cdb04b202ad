package acpdialect_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// spawner is a test dialect with two update kinds of its own, shaped like
// Cursor's native subagents: "spawned" names a child session and maybe a
// tool call; "state" names only the child.
func spawner() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "spawner",
		Match: func(name, _ string) bool { return name == "spawner" },
		Updates: []acpdialect.Update{
			{Kind: "spawned", Handle: func(u gjson.Result) acpdialect.Late {
				return acpdialect.Late{ToolCallID: frame.Str(u.Get("toolCallId")), Payload: acpdialect.Payload{
					Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
					SubagentTask: &acpdialect.SubagentTask{ChildSessionID: frame.Str(u.Get("child")), Description: frame.Str(u.Get("task"))},
				}}
			}},
			{Kind: "state", Handle: func(u gjson.Result) acpdialect.Late {
				return acpdialect.Late{Payload: acpdialect.Payload{
					Kind: acpdialect.KindSubagentTask, Status: frame.Str(u.Get("status")),
					SubagentTask: &acpdialect.SubagentTask{ChildSessionID: frame.Str(u.Get("child")), Status: frame.Str(u.Get("state"))},
				}}
			}},
			// "states" speaks of several children: the lead's state
			// (Handle), then each of children's (HandleAll).
			{Kind: "states", Handle: func(u gjson.Result) acpdialect.Late {
				return childState(u.Get("lead"))
			}, HandleAll: func(u gjson.Result) []acpdialect.Late {
				var out []acpdialect.Late
				u.Get("children").ForEach(func(_, c gjson.Result) bool {
					out = append(out, childState(c))
					return true
				})
				return out
			}},
		},
		ToolCall: func(u frame.ToolUpdate, p acpdialect.Payload) acpdialect.Payload {
			if u.RawInput.Get("_toolName").String() == "task" && p.Kind != acpdialect.KindSubagentTask {
				p.Kind, p.SubagentTask = acpdialect.KindSubagentTask, &acpdialect.SubagentTask{}
			}
			return p
		},
		MergeLate: func(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
			if cur.Kind != acpdialect.KindSubagentTask || cur.SubagentTask == nil {
				return cur, false
			}
			st := *cur.SubagentTask
			frame.Fill(&st.ChildSessionID, late.SubagentTask.ChildSessionID)
			frame.Fill(&st.Description, late.SubagentTask.Description)
			frame.Fill(&st.Status, late.SubagentTask.Status)
			cur.SubagentTask = &st
			return cur, true
		},
	}
}

// childState is what {"child","state"} says of a child's card; a zero
// Late without a child.
func childState(c gjson.Result) acpdialect.Late {
	if !c.Get("child").Exists() {
		return acpdialect.Late{}
	}
	return acpdialect.Late{Payload: acpdialect.Payload{
		Kind:         acpdialect.KindSubagentTask,
		SubagentTask: &acpdialect.SubagentTask{ChildSessionID: frame.Str(c.Get("child")), Status: frame.Str(c.Get("state"))},
	}}
}

func spawnConn(t *testing.T) *harness {
	h := newHarness(t, acpdialect.NewRegistry(spawner(), claude()), acpdialect.Options{})
	h.initialize("spawner")
	h.session(2, "s1")
	h.out(testwire.Prompt(3, "s1", "go"))
	return h
}

func vupdate(kind, fields string) []byte {
	return []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"` + kind + `"` + fields + `}}}`)
}

func TestVendorUpdates(t *testing.T) {
	task := []byte(toolCallFrame("s1", "t1", `{"_toolName":"task"}`))
	tests := []struct {
		name   string
		frames [][]byte
		want   []string // the last frame's events
	}{
		{"standalone spawn is a card keyed by the child session",
			[][]byte{vupdate("spawned", `,"child":"c1","task":"explore"`)},
			[]string{`{"type":"tool_call","agent":"spawner","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","subagent_task":{"description":"explore","child_session_id":"c1"}}}`}},
		{"state update finds the standalone card by its child",
			[][]byte{vupdate("spawned", `,"child":"c1","task":"explore"`), vupdate("state", `,"child":"c1","state":"failed","status":"failed"`)},
			[]string{`{"type":"tool_call_update","agent":"spawner","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"failed","subagent_task":{"description":"explore","status":"failed","child_session_id":"c1"}}}`}},
		{"spawn linked to its tool call merges into that card; the card keeps the tool call's status",
			[][]byte{task, vupdate("spawned", `,"child":"c1","task":"explore","toolCallId":"t1"`)},
			[]string{`{"type":"tool_call_update","agent":"spawner","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{"description":"explore","child_session_id":"c1"}}}`}},
		{"state update reaches the linked card through the child",
			[][]byte{task, vupdate("spawned", `,"child":"c1","toolCallId":"t1"`), vupdate("state", `,"child":"c1","state":"completed","status":"completed"`)},
			[]string{`{"type":"tool_call_update","agent":"spawner","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{"status":"completed","child_session_id":"c1"}}}`}},
		{"spawn before its tool call: the tool call keeps what the spawn said",
			[][]byte{vupdate("spawned", `,"child":"c1","task":"explore","toolCallId":"t1"`), task},
			[]string{`{"type":"tool_call","agent":"spawner","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{"description":"explore","child_session_id":"c1"}}}`}},
		{"a generic card named by a spawn becomes a subagent",
			[][]byte{[]byte(toolCallFrame("s1", "t1", `{}`)), vupdate("spawned", `,"child":"c1","toolCallId":"t1"`)},
			[]string{`{"type":"tool_call_update","agent":"spawner","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{"child_session_id":"c1"}}}`}},
		{"nothing to key a card by: dropped",
			[][]byte{vupdate("state", `,"state":"completed"`)}, nil},
		{"one update naming several children updates each card, Handle's first",
			[][]byte{vupdate("spawned", `,"child":"c1"`), vupdate("spawned", `,"child":"c2"`), vupdate("spawned", `,"child":"c3"`),
				vupdate("states", `,"lead":{"child":"c3","state":"running"},"children":[{"child":"c2","state":"completed"},{"child":"c1","state":"failed"}]`)},
			[]string{`{"type":"tool_call_update","agent":"spawner","session_id":"s1","tool_call_id":"c3","payload":{"kind":"subagent_task","status":"in_progress","subagent_task":{"status":"running","child_session_id":"c3"}}}`,
				`{"type":"tool_call_update","agent":"spawner","session_id":"s1","tool_call_id":"c2","payload":{"kind":"subagent_task","status":"in_progress","subagent_task":{"status":"completed","child_session_id":"c2"}}}`,
				`{"type":"tool_call_update","agent":"spawner","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","subagent_task":{"status":"failed","child_session_id":"c1"}}}`}},
		{"a repeated state changes nothing",
			[][]byte{vupdate("spawned", `,"child":"c1"`), vupdate("state", `,"child":"c1","state":"cancelled","status":"cancelled"`), vupdate("state", `,"child":"c1","state":"cancelled","status":"cancelled"`)},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := spawnConn(t)
			var last acpdialect.Result
			for _, f := range tt.frames {
				last = h.in(f)
			}
			wantEvents(t, last.Events, tt.want...)
		})
	}
}

// A dialect whose Late views the frame breaks the Update contract (its
// cards' text changes with the caller's buffer), but the stores' keys are
// the Conn's own copies: a caller reusing its buffer cannot corrupt them.
func TestVendorUpdateKeysAreCopies(t *testing.T) {
	viewer := spawner()
	viewer.Updates = []acpdialect.Update{{Kind: "spawned", Handle: func(u gjson.Result) acpdialect.Late {
		return acpdialect.Late{ToolCallID: u.Get("toolCallId").Str, Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
			SubagentTask: &acpdialect.SubagentTask{ChildSessionID: u.Get("child").Str}}}
	}}}
	h := newHarness(t, acpdialect.NewRegistry(viewer), acpdialect.Options{})
	h.initialize("spawner")
	h.session(2, "s1")
	buf := make([]byte, 512)
	in := func(frame []byte) acpdialect.Result {
		r := h.in(buf[:copy(buf, frame)])
		for i := range buf {
			buf[i] = 'Z'
		}
		return r
	}
	in(vupdate("spawned", `,"toolCallId":"t1","child":"c1"`))
	r := in(vupdate("spawned", `,"pad":"xxxxxxxx","toolCallId":"t1","child":"c1"`))
	if st := h.c.Stats(); st.Tools.Live != 1 || len(r.Events) > 0 && r.Events[0].Type != acpdialect.EventToolCallUpdate {
		t.Fatalf("the same tool call twice: %d cards, events %+v", st.Tools.Live, r.Events)
	}
	child := toolCallFrame("c1", "read-1", `{}`)
	if got := eventLines(t, in([]byte(child)).Events); len(got) != 1 || !strings.Contains(got[0], `"parent_tool_call_id":"t1"`) {
		t.Fatalf("child's tool call not nested: %s", got)
	}
}

// The same update kinds on another agent's connection are unknown kinds:
// passed, as without the dialect.
func TestVendorUpdatesIsolated(t *testing.T) {
	h := newHarness(t, acpdialect.NewRegistry(spawner(), claude()), acpdialect.Options{})
	h.initialize("claude-agent")
	h.session(2, "s1")
	h.quiet(vupdate("spawned", `,"child":"c1","task":"explore"`))
}

// Slash commands are normalized for every agent; the dialect's rule for
// descriptions applies only on its own connections.
func TestCommands(t *testing.T) {
	frame := vupdate("available_commands_update", `,"availableCommands":[{"name":"review","description":"---","input":{"hint":"file"}},{"description":"no name"},{"name":"plan","description":"Make a plan"}]`)
	dashes := spawner()
	dashes.CommandDescription = func(s string) string {
		if s == "---" {
			return ""
		}
		return s
	}
	for _, tt := range []struct{ agent, want string }{
		{"spawner", `{"type":"commands","agent":"spawner","session_id":"s1","commands":{"items":[{"name":"review","input_hint":"file"},{"name":"plan","description":"Make a plan"}]}}`},
		{"claude-agent", `{"type":"commands","agent":"claude","session_id":"s1","commands":{"items":[{"name":"review","description":"---","input_hint":"file"},{"name":"plan","description":"Make a plan"}]}}`},
	} {
		h := newHarness(t, acpdialect.NewRegistry(dashes, claude()), acpdialect.Options{})
		h.initialize(tt.agent)
		h.session(2, "s1")
		wantEvents(t, h.in(frame).Events, tt.want)
	}
}

// A command list's strings are the event's own, not views of the frame
// (overwriting the frame leaves them as they were), and the list costs a
// few allocations, not one per string: its strings share one.
func TestCommandsOwnTheirStrings(t *testing.T) {
	var items []string
	for i := range 30 {
		items = append(items, fmt.Sprintf(`{"name":"cmd%d","description":"Does thing %d.","input":{"hint":"arg%d"}}`, i, i, i))
	}
	frame := vupdate("available_commands_update", `,"availableCommands":[`+strings.Join(items, ",")+`]`)
	h := newHarness(t, acpdialect.NewRegistry(spawner()), acpdialect.Options{})
	h.initialize("spawner")
	h.session(2, "s1")
	evs := h.in(frame).Events
	for i := range frame {
		frame[i] = 'x'
	}
	got := evs[0].Commands().Items
	if len(got) != 30 || got[29] != (acpdialect.Command{Name: "cmd29", Description: "Does thing 29.", InputHint: "arg29"}) {
		t.Fatalf("after the frame was overwritten: %d items, last %+v", len(got), got[len(got)-1])
	}
	frame = vupdate("available_commands_update", `,"availableCommands":[`+strings.Join(items, ",")+`]`)
	if n := testing.AllocsPerRun(50, func() { h.in(frame) }); n > 12 {
		t.Errorf("a list of 30 commands: %.0f allocs, want at most 12 (the list growing, not a copy per string)", n)
	}
}

// A native subagent's child session: its tool calls nest under the
// subagent's card, and it ends with its parent.
func TestChildSessionNests(t *testing.T) {
	h := spawnConn(t)
	h.in(vupdate("spawned", `,"child":"c1","toolCallId":"t1"`))
	child := []byte(toolCallFrame("c1", "read-1", `{}`))
	wantEvents(t, h.in(child).Events,
		`{"type":"tool_call","agent":"spawner","session_id":"c1","tool_call_id":"read-1","payload":{"kind":"generic","status":"in_progress","title":"Task: Subagent task","parent_tool_call_id":"t1","generic":{"acp_kind":"other"}}}`)
	if _, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":9,"method":"session/close","params":{"sessionId":"s1"}}`)); err != nil {
		t.Fatal(err)
	}
	if s := h.c.Sessions(); len(s) != 0 {
		t.Fatalf("sessions left: %v", s)
	}
}
