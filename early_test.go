package acpdialect_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/tidwall/gjson"
)

// TestToolCallAfterItsUpdates: updates that come before their tool_call,
// out of ACP's order, in the same turn, are kept: the tool_call merges
// into the card they made and its status never moves back. A tool_call
// for a card a tool_call already named, or one of an earlier turn, is a
// new tool call (vendors reuse ids).
func TestToolCallAfterItsUpdates(t *testing.T) {
	const (
		prompt1 = `>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		end1    = `<{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`
		prompt2 = `>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		done    = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","title":"Read a.go"}}}`
		call    = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","kind":"read","status":"pending"}}}`
	)
	tests := []struct {
		name   string
		frames []string
		want   string // the last event
	}{
		{"updates first, in the turn: merged, status kept", []string{prompt1, done, call},
			`{"type":"tool_call","session_id":"s1","tool_call_id":"t1","payload":{"kind":"generic","status":"completed","title":"Read a.go","generic":{"acp_kind":"read"}}}`},
		{"a tool_call again: a new card", []string{prompt1, call, done, call},
			`{"type":"tool_call","session_id":"s1","tool_call_id":"t1","payload":{"kind":"generic","status":"pending","generic":{"acp_kind":"read"}}}`},
		{"updates of an earlier turn: a new card", []string{prompt1, done, end1, prompt2, call},
			`{"type":"tool_call","session_id":"s1","tool_call_id":"t1","payload":{"kind":"generic","status":"pending","generic":{"acp_kind":"read"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := acpdialect.NewRegistry().NewConn(acpdialect.Options{})
			got := feedFrames(t, c, tt.frames...)
			if len(got) == 0 || got[len(got)-1] != tt.want {
				t.Errorf("events %q\nwant last %s", got, tt.want)
			}
		})
	}
}

// TestGenericACPKindFollowsUpdates: a generic card shows the ACP kind the
// latest frame that names one gave; a frame without one keeps it.
func TestGenericACPKindFollowsUpdates(t *testing.T) {
	c := acpdialect.NewRegistry().NewConn(acpdialect.Options{})
	got := feedFrames(t, c,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","kind":"read","status":"pending"}}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","kind":"edit"}}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}}`,
	)
	want := `{"type":"tool_call_update","session_id":"s1","tool_call_id":"t1","payload":{"kind":"generic","status":"completed","generic":{"acp_kind":"edit"}}}`
	if len(got) != 3 || got[2] != want {
		t.Errorf("events %q\nwant last %s", got, want)
	}
}

// TestToolCallAfterItsNativeState: a Task tool call that arrives after
// the native updates of its subagent keeps what they said, a final
// status included.
func TestToolCallAfterItsNativeState(t *testing.T) {
	c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: cursor.ID})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"sub-1","task":"Find dead CSS","name":"explore","_meta":{"cursor":{"toolCallId":"tool-1"}}}}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"sub-1","state":"completed"}}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-1","kind":"other","title":"Task: Find dead CSS","status":"in_progress","rawInput":{"_toolName":"task","description":"Find dead CSS"}}}}`,
	)
	if len(got) == 0 || !strings.Contains(got[len(got)-1], `"tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed"`) {
		t.Errorf("events:\n%s\nwant the last one completed", strings.Join(got, "\n"))
	}
}

// TestChildToolCallAfterItsUpdates: a subagent's session has no turns of
// its own: its parent's turns are its turns. Updates the child sent in
// one turn of its parent merge into a tool_call of that turn, and are an
// older call's in a later turn (the child resumed).
func TestChildToolCallAfterItsUpdates(t *testing.T) {
	const (
		prompt1 = `>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		end1    = `<{"jsonrpc":"2.0","id":1,"result":{"stopReason":"cancelled"}}`
		prompt2 = `>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		spawn   = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"c1","title":"Fix","description":"Make it pass","capabilities":{}}}}`
		running = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"c1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"in_progress","title":"Read a.go"}}}`
		call    = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"c1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","kind":"read","status":"pending"}}}`
	)
	tests := []struct {
		name   string
		frames []string
		want   string // the last event's payload
	}{
		{"in the parent's turn: merged", []string{prompt1, spawn, running, call},
			`"payload":{"kind":"generic","status":"in_progress","title":"Read a.go","parent_tool_call_id":"c1","generic":{"acp_kind":"read"}}}`},
		{"in a later turn of the parent: a new card", []string{prompt1, spawn, running, end1, prompt2, spawn, call},
			`"payload":{"kind":"generic","status":"pending","parent_tool_call_id":"c1","generic":{"acp_kind":"read"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := acpdialect.NewRegistry().NewConn(acpdialect.Options{})
			got := feedFrames(t, c, tt.frames...)
			if len(got) == 0 || !strings.HasSuffix(got[len(got)-1], tt.want) {
				t.Errorf("events:\n%s\nwant the last ending %s", strings.Join(got, "\n"), tt.want)
			}
		})
	}
}

// TestCursorStateBeforeSpawn: a subagent_state_update that arrives before
// the subagent_spawned naming its child (out of order) makes no card of its
// own: it waits for the spawn and folds into the one card, whichever of the
// Task tool call, cursor/task and the spawn comes first. A state whose
// child is never spawned in the turn is dropped with the turn's other
// unmatched metadata.
func TestCursorStateBeforeSpawn(t *testing.T) {
	const (
		prompt = `>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		end    = `<{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`
		state  = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"sub-1","state":"completed"}}}`
		spawn  = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"sub-1","task":"Find dead CSS","name":"explore","_meta":{"cursor":{"toolCallId":"tool-1"}}}}}`
		bare   = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"sub-1","task":"Find dead CSS"}}}`
		call   = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-1","kind":"other","title":"Task: Find dead CSS","status":"in_progress","rawInput":{"_toolName":"task","description":"Find dead CSS"}}}}`
		task   = `<{"jsonrpc":"2.0","id":93,"method":"cursor/task","params":{"toolCallId":"tool-1","description":"Find dead CSS","model":"m1"}}`
		child  = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sub-1","update":{"sessionUpdate":"tool_call","toolCallId":"c-1","kind":"read","status":"pending"}}}`
	)
	tests := []struct {
		name   string
		frames []string
		cards  string // the tool call ids of the cards, in order
		last   string // in the last card event
	}{
		{"state, spawn, Task", []string{prompt, state, spawn, call}, "tool-1",
			`"tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed"`},
		// A card the Task tool call backs keeps the Task's status.
		{"state, Task, spawn", []string{prompt, state, call, spawn}, "tool-1",
			`"status":"in_progress","title":"Task: Find dead CSS","subagent_task":{"description":"Find dead CSS","status":"completed","child_session_id":"sub-1","name":"explore"}}`},
		{"state, cursor/task, Task, spawn", []string{prompt, state, task, call, spawn}, "tool-1",
			`"status":"in_progress","title":"Task: Find dead CSS","subagent_task":{"description":"Find dead CSS","status":"completed","model":"m1","child_session_id":"sub-1","name":"explore"}}`},
		{"two states, spawn: the later state wins", []string{prompt, strings.Replace(state, "completed", "failed", 1), state, spawn}, "tool-1",
			`"tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed"`},
		{"state, spawn without a tool call id", []string{prompt, state, bare}, "sub-1",
			`"tool_call_id":"sub-1","payload":{"kind":"subagent_task","status":"completed"`},
		{"state, the child's tool call, spawn", []string{prompt, state, child, spawn, call}, "c-1 tool-1",
			`"tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed"`},
		{"state never spawned: dropped at the turn's end", []string{prompt, state, end, prompt, spawn}, "tool-1",
			`"status":"running"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: cursor.ID})
			var ids []string
			last := ""
			for _, e := range feedFrames(t, c, tt.frames...) {
				ev := gjson.Parse(e)
				if ev.Get("type").Str != acpdialect.EventToolCall && ev.Get("type").Str != acpdialect.EventToolCallUpdate {
					continue
				}
				if id := ev.Get("tool_call_id").Str; !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
				last = e
			}
			if got := strings.Join(ids, " "); got != tt.cards {
				t.Errorf("cards %q, want %q", got, tt.cards)
			}
			if !strings.Contains(last, tt.last) {
				t.Errorf("last card event %s\nwant it to contain %s", last, tt.last)
			}
		})
	}
}

// TestNestedSpawnNests: a subagent spawned in a subagent's session nests
// under the outer subagent's card, as the session's other tool calls do,
// whether its spawn or its Task tool call comes first.
func TestNestedSpawnNests(t *testing.T) {
	const (
		prompt = `>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		outer  = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"sub-1","task":"Outer","_meta":{"cursor":{"toolCallId":"tool-1"}}}}}`
		spawn  = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sub-1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"sub-2","task":"Inner","_meta":{"cursor":{"toolCallId":"tool-2"}}}}}`
		call   = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sub-1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-2","kind":"other","title":"Task: Inner","status":"in_progress","rawInput":{"_toolName":"task","description":"Inner"}}}}`
	)
	tests := []struct {
		name   string
		frames []string
	}{
		{"spawn first", []string{prompt, outer, spawn, call}},
		{"Task first", []string{prompt, outer, call, spawn}},
	}
	for _, tt := range tests {
		c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: cursor.ID})
		for _, e := range feedFrames(t, c, tt.frames...) {
			if strings.Contains(e, `"tool_call_id":"tool-2"`) && !strings.Contains(e, `"parent_tool_call_id":"tool-1"`) {
				t.Errorf("%s: the inner card does not nest: %s", tt.name, e)
			}
		}
	}
}
