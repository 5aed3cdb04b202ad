package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
)

// Cursor frames, written out so that key order and bytes are the wire's.

// toolCallFrame is a tool_call as Cursor sends it for a subagent (rawInput
// decides whether it is one).
func toolCallFrame(sid, id, rawInput string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid +
		`","update":{"sessionUpdate":"tool_call","toolCallId":"` + id +
		`","title":"Task: Subagent task","kind":"other","status":"in_progress","rawInput":` + rawInput + `}}}`
}

// updateFrame is a tool_call_update with the given extra fields.
func updateFrame(sid, id, fields string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid +
		`","update":{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `",` + fields + `}}}`
}

// taskFrame is a cursor/task request with a raw id, or a notification when
// id is "".
func taskFrame(id, params string) string {
	if id == "" {
		return `{"jsonrpc":"2.0","method":"cursor/task","params":` + params + `}`
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"cursor/task","params":` + params + `}`
}

const (
	taskInput  = `{"_toolName":"task"}`
	fullParams = `{"toolCallId":"tool-1","description":"Summarize src","prompt":"Summarize the JS files","subagentType":{"custom":{"unspecified":{}}},"model":"composer-2.5-fast","agentId":"agent-1"}`
	enriched   = `"subagent_task":{"description":"Summarize src","prompt":"Summarize the JS files","agent_id":"agent-1","model":"composer-2.5-fast"}`
	okReply7   = `{"jsonrpc":"2.0","id":7,"result":{}}` + "\n"
	replyEv7   = `{"type":"reply","agent":"cursor","method":"cursor/task","id":7,"result":{}}`
	cardHead   = `"agent":"cursor","session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task",`
)

// Scenario 1: tool_call, then cursor/task enriches the card.
func TestCursorTaskAfterToolCall(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	r := h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	wantEvents(t, r.Events, `{"type":"tool_call",`+cardHead+`"subagent_task":{}}}`)

	r = h.in([]byte(taskFrame("7", fullParams)))
	if string(r.Reply) != okReply7 {
		t.Errorf("reply %q; want %q", r.Reply, okReply7)
	}
	wantEvents(t, r.Events, `{"type":"tool_call_update",`+cardHead+enriched+`}}`, replyEv7)
	if st := h.c.Stats(); st.LateMerged != 1 || st.Pending.Live != 0 || st.Pending.Stored != 0 {
		t.Errorf("stats %+v", st)
	}
}

// Scenario 2: cursor/task first; the tool_call arrives already enriched.
func TestCursorTaskBeforeToolCall(t *testing.T) {
	for _, id := range []string{"7", ""} { // a request, then a notification
		t.Run("id="+id, func(t *testing.T) {
			h := cursorConn(t, acpdialect.Options{})
			r := h.in([]byte(taskFrame(id, fullParams)))
			if id == "" {
				if r.Reply != nil || len(r.Events) != 0 {
					t.Errorf("notification got %q, %v", r.Reply, r.Events)
				}
			} else {
				wantEvents(t, r.Events, replyEv7)
			}
			if st := h.c.Stats(); st.Pending.Live != 1 {
				t.Fatalf("pending %+v; want the half waiting", st.Pending)
			}
			r = h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
			wantEvents(t, r.Events, `{"type":"tool_call",`+cardHead+enriched+`}}`)
			if st := h.c.Stats(); st.Pending.Live != 0 || st.Pending.Matched != 1 || st.LateMerged != 1 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// The half also waits for a tool call that is only recognized later, for
// example one first seen through an update.
func TestCursorTaskBeforeUpdateOnlyToolCall(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.in([]byte(taskFrame("7", `{"toolCallId":"tool-1","model":"m"}`)))
	// An update that claims nothing: no card yet, the half keeps waiting.
	h.quiet([]byte(updateFrame("s1", "tool-1", `"status":"in_progress"`)))
	r := h.in([]byte(updateFrame("s1", "tool-1", `"rawInput":{"_toolName":"task","prompt":"p"}`)))
	wantEvents(t, r.Events, `{"type":"tool_call","agent":"cursor","session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"in_progress","subagent_task":{"prompt":"p","model":"m"}}}`)
}

// Scenario 3: the completion's isBackground decides is_async.
func TestCursorCompletion(t *testing.T) {
	tests := []struct {
		rawOutput string
		want      string // the subagent_task object after the completion
	}{
		{`{"durationMs":4200,"isBackground":true}`, `{"duration_ms":4200,"is_async":true}`},
		{`{"durationMs":4200,"isBackground":false}`, `{"duration_ms":4200}`},
		{`{"durationMs":4200}`, `{"duration_ms":4200}`},
		{`{"durationMs":0}`, `{"duration_ms":0}`},
		{`{"isBackground":"true"}`, `{}`},
		{`{"durationMs":12.5,"isBackground":1}`, `{}`},
		{`"done"`, `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.rawOutput, func(t *testing.T) {
			h := cursorConn(t, acpdialect.Options{})
			h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
			r := h.in([]byte(updateFrame("s1", "tool-1", `"status":"completed","rawOutput":`+tc.rawOutput)))
			wantEvents(t, r.Events, `{"type":"tool_call_update","agent":"cursor","session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":`+tc.want+`}}`)
		})
	}
}

// Scenario 4: no model in cursor/task means no model key at all.
func TestCursorTaskWithoutModel(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	r := h.in([]byte(taskFrame("7", `{"toolCallId":"tool-1","prompt":"Calculate the sum"}`)))
	lines := eventLines(t, r.Events)
	if len(lines) != 2 || !strings.Contains(lines[0], `"subagent_task":{"prompt":"Calculate the sum"}`) {
		t.Fatalf("events %s", lines)
	}
	if strings.Contains(lines[0], `"model"`) {
		t.Errorf("model key present: %s", lines[0])
	}
}

// cursorFrames is one Cursor turn with every kind of vendor frame: what a
// connection not identified as Cursor must treat as plain ACP.
func cursorFrames() []string {
	return []string{
		"> " + string(testwire.Prompt(3, "s1", "go")),
		"< " + toolCallFrame("s1", "tool-1", `{"_toolName":"task","description":"d","prompt":"p"}`),
		"< " + taskFrame("7", fullParams),
		"< " + taskFrame("", `{"toolCallId":"tool-2","prompt":"p2"}`),
		"< " + toolCallFrame("s1", "tool-2", taskInput),
		"< " + `{"jsonrpc":"2.0","id":8,"method":"cursor/not_a_method","params":{"toolCallId":"q"}}`,
		"< " + `{"jsonrpc":"2.0","method":"cursor/not_a_notification","params":{"todos":[]}}`,
		"< " + `{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1"}}`,
		"< " + updateFrame("s1", "tool-1", `"status":"completed","rawOutput":{"durationMs":4200,"isBackground":true}`),
		"< " + `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`,
		"< " + string(testwire.PromptResponse(3, "")),
	}
}

// run feeds "> " frames Outbound and "< " frames Inbound and renders all
// output.
func run(t testing.TB, h *harness, frames []string) []string {
	t.Helper()
	var out []string
	for _, f := range frames {
		if strings.HasPrefix(f, "> ") {
			h.out([]byte(f[2:]))
			continue
		}
		out = append(out, transcript(t, h.in([]byte(f[2:])))...)
	}
	return out
}

// Scenario 5: a Claude or unknown connection never runs Cursor logic: its
// output is byte-identical to a client that does not know Cursor at all,
// and cursor/task is declined.
func TestCursorIsolation(t *testing.T) {
	tests := []struct {
		name, agent string
		without     *acpdialect.Registry
	}{
		{"claude", "claude-code-acp", acpdialect.NewRegistry(claude())},
		{"unknown", "codex-acp", acpdialect.NewRegistry()},
		{"unknown, no dialects", "codex-acp", acpdialect.NewRegistry(claude())},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			output := func(reg *acpdialect.Registry) []string {
				h := newHarness(t, reg, acpdialect.Options{})
				h.initialize(tc.agent)
				h.session(2, "s1")
				return run(t, h, cursorFrames())
			}
			with, without := output(registry()), output(tc.without)
			if d := cmp.Diff(without, with); d != "" {
				t.Errorf("output differs with Cursor registered (-without +with):\n%s", d)
			}
			joined := strings.Join(with, "\n")
			if !strings.Contains(joined, `reply {"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}`) {
				t.Errorf("cursor/task was not declined:\n%s", joined)
			}
			if strings.Contains(joined, "subagent_task") {
				t.Errorf("Cursor logic ran:\n%s", joined)
			}
		})
	}
}

// The same frames on a Cursor connection, pinned whole.
func TestCursorTurn(t *testing.T) {
	h := newHarness(t, registry(), acpdialect.Options{})
	h.initialize("cursor-agent")
	h.session(2, "s1")
	got := run(t, h, cursorFrames())
	head := `"agent":"cursor","session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task",`
	want := []string{
		`{"type":"tool_call",` + head + `"status":"in_progress","title":"Task: Subagent task","subagent_task":{"description":"d","prompt":"p"}}}`,
		`reply ` + okReply7,
		`{"type":"tool_call_update",` + head + `"status":"in_progress","title":"Task: Subagent task",` + enriched + `}}`,
		replyEv7,
		`{"type":"tool_call","agent":"cursor","session_id":"s1","tool_call_id":"tool-2","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{"prompt":"p2"}}}`,
		`reply {"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found"}}` + "\n",
		`{"type":"reply","agent":"cursor","method":"cursor/not_a_method","id":8,"error":{"code":-32601,"message":"Method not found"}}`,
		`{"type":"tool_call_update",` + head + `"status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Summarize src","prompt":"Summarize the JS files","agent_id":"agent-1","model":"composer-2.5-fast","duration_ms":4200,"is_async":true}}}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
	st := h.c.Stats()
	if st.IgnoredNotifications != 1 || st.Declined != 1 || st.Replies != 2 || st.LateMerged != 2 {
		t.Errorf("stats %+v", st)
	}
}

// Scenario 6a: metadata that never finds its tool call is swept at turn
// end and does not enrich the same id in the next turn.
func TestCursorTaskSweptAtTurnEnd(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.in([]byte(taskFrame("7", `{"toolCallId":"tool-9","description":"stale"}`)))
	if st := h.c.Stats().Pending; st.Live != 1 {
		t.Fatalf("pending %+v", st)
	}
	h.quiet(testwire.PromptResponse(3, ""))
	if st := h.c.Stats().Pending; st.Live != 0 || st.Swept != 1 {
		t.Fatalf("after turn end: pending %+v; want swept", st)
	}
	h.out(testwire.Prompt(4, "s1", "again"))
	r := h.in([]byte(toolCallFrame("s1", "tool-9", taskInput)))
	wantEvents(t, r.Events, `{"type":"tool_call","agent":"cursor","session_id":"s1","tool_call_id":"tool-9","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{}}}`)
}

// Scenario 6b: and at session end, without leaking into another session.
func TestCursorTaskSweptAtSessionEnd(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.session(4, "s2")
	h.in([]byte(taskFrame("7", `{"toolCallId":"tool-9","description":"stale"}`))) // s1: the turn in flight
	r := h.in([]byte(toolCallFrame("s2", "tool-9", taskInput)))
	wantEvents(t, r.Events, `{"type":"tool_call","agent":"cursor","session_id":"s2","tool_call_id":"tool-9","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{}}}`)
	h.out(testwire.Request(5, "session/close", map[string]any{"sessionId": "s1"}))
	if st := h.c.Stats().Pending; st.Live != 0 || st.Swept != 1 {
		t.Fatalf("after session/close: pending %+v; want swept", st)
	}
	if d := cmp.Diff([]string{"s2"}, h.c.Sessions()); d != "" {
		t.Errorf("sessions (-want +got):\n%s", d)
	}
	// A new s1 starts clean.
	h.out(testwire.Prompt(6, "s1", "new"))
	r = h.in([]byte(toolCallFrame("s1", "tool-9", taskInput)))
	if strings.Contains(eventLines(t, r.Events)[0], "stale") {
		t.Errorf("swept metadata came back: %s", eventLines(t, r.Events))
	}
}

// Metadata with no session to belong to is dropped and counted; the
// request is still answered.
func TestCursorTaskWithoutSession(t *testing.T) {
	h := newHarness(t, registry(), acpdialect.Options{})
	h.initialize("cursor-agent")
	r := h.in([]byte(taskFrame("7", fullParams)))
	if string(r.Reply) != okReply7 {
		t.Errorf("reply %q", r.Reply)
	}
	// A session with no turn in flight and no such tool call: still nowhere.
	h.session(2, "s1")
	h.in([]byte(taskFrame("8", fullParams)))
	if st := h.c.Stats(); st.LateDropped != 2 || st.Pending.Stored != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestCursorTaskWithoutToolCallID: cursor/task params (an object) that
// name no tool call carry metadata nothing can take: each is dropped and
// counted, with a turn in flight or not. Params that are not an object
// say nothing and count nothing. Every request is answered {}.
func TestCursorTaskWithoutToolCallID(t *testing.T) {
	tests := []struct {
		name, params string
		dropped      uint64
	}{
		{"no toolCallId", `{"description":"d","prompt":"p"}`, 1},
		{"empty toolCallId", `{"toolCallId":"","description":"d"}`, 1},
		{"numeric toolCallId", `{"toolCallId":7,"description":"d"}`, 1},
		{"empty object", `{}`, 1},
		{"array params", `["tool-1"]`, 0},
		{"string params", `"tool-1"`, 0},
		{"with a toolCallId it waits", `{"toolCallId":"tool-9","description":"d"}`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := cursorConn(t, acpdialect.Options{}) // s1, a turn in flight
			if r := h.in([]byte(taskFrame("7", tc.params))); string(r.Reply) != okReply7 {
				t.Errorf("reply %q", r.Reply)
			}
			if st := h.c.Stats(); st.LateDropped != tc.dropped {
				t.Errorf("late dropped %d, want %d", st.LateDropped, tc.dropped)
			}
		})
	}
}

// Scenario 7: two sessions on one connection; nothing crosses.
func TestCursorTwoSessions(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{}) // s1, turn 3 in flight
	h.session(4, "s2")
	h.out(testwire.Prompt(5, "s2", "other")) // s2's turn is the latest
	card := func(sid, id, st string) string {
		return `{"type":"tool_call_update","agent":"cursor","session_id":"` + sid + `","tool_call_id":"` + id +
			`","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":` + st + `}}`
	}

	// The session that has the tool call wins over the latest turn.
	h.in([]byte(toolCallFrame("s1", "a", taskInput)))
	r := h.in([]byte(taskFrame("7", `{"toolCallId":"a","prompt":"for s1"}`)))
	wantEvents(t, r.Events, card("s1", "a", `{"prompt":"for s1"}`), replyEv7)

	// No session has it: the latest turn in flight (s2) gets it.
	h.quiet([]byte(taskFrame("", `{"toolCallId":"b","prompt":"for s2"}`)))
	r = h.in([]byte(toolCallFrame("s1", "b", taskInput)))
	if strings.Contains(eventLines(t, r.Events)[0], "for s2") {
		t.Errorf("s2's metadata went to s1: %s", eventLines(t, r.Events))
	}
	r = h.in([]byte(toolCallFrame("s2", "b", taskInput)))
	if !strings.Contains(eventLines(t, r.Events)[0], `"session_id":"s2","tool_call_id":"b"`) ||
		!strings.Contains(eventLines(t, r.Events)[0], `"prompt":"for s2"`) {
		t.Errorf("s2 not enriched: %s", eventLines(t, r.Events))
	}

	// Both have the id: the one with the latest turn in flight.
	h.in([]byte(toolCallFrame("s1", "c", taskInput)))
	h.in([]byte(toolCallFrame("s2", "c", taskInput)))
	r = h.in([]byte(taskFrame("", `{"toolCallId":"c","prompt":"both"}`)))
	wantEvents(t, r.Events, card("s2", "c", `{"prompt":"both"}`))

	// s2's turn ends: now s1's turn is the one in flight.
	h.quiet(testwire.PromptResponse(5, ""))
	r = h.in([]byte(taskFrame("", `{"toolCallId":"c","model":"m"}`)))
	wantEvents(t, r.Events, card("s1", "c", `{"model":"m"}`))
}

// A cursor/task whose tool call id two sessions have is weighed against
// both cards; the merge that does not win must leave no trace in the one
// that does (the merge may take over the half's object).
func TestCursorTwoSessionsShareNoHalf(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{}) // s1, turn 3 in flight
	h.session(4, "s2")
	h.out(testwire.Prompt(5, "s2", "other")) // s2's turn is the latest
	// Several ids, because the sessions are weighed in map order.
	for i := range 8 {
		id := fmt.Sprintf("d%d", i)
		h.in([]byte(toolCallFrame("s1", id, `{"_toolName":"task","description":"one"}`)))
		h.in([]byte(toolCallFrame("s2", id, `{"_toolName":"task","description":"two"}`)))
		r := h.in([]byte(taskFrame("", `{"toolCallId":"`+id+`","prompt":"both"}`)))
		wantEvents(t, r.Events, `{"type":"tool_call_update","agent":"cursor","session_id":"s2","tool_call_id":"`+id+
			`","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{"description":"two","prompt":"both"}}}`)
	}
}

// Scenario 8: malformed params never fail the request; a frame that is not
// JSON gets no reply at all (the SDKs drop it, and its id is a guess).
// Neither panics or disturbs later frames.
func TestCursorTaskMalformed(t *testing.T) {
	tests := []struct {
		name, frame string
		reply       string // "" for none
	}{
		{"toolCallId number", taskFrame("11", `{"toolCallId":5,"prompt":"p"}`), "11"},
		{"every field wrong", taskFrame("12", `{"toolCallId":"tool-x","description":1,"prompt":true,"model":{},"agentId":[],"durationMs":"x"}`), "12"},
		{"subagentType string", taskFrame("13", `{"toolCallId":"tool-x","subagentType":"explore"}`), "13"},
		{"subagentType number", taskFrame("14", `{"toolCallId":"tool-x","subagentType":3}`), "14"},
		{"subagentType null", taskFrame("15", `{"toolCallId":"tool-x","subagentType":null}`), "15"},
		{"params string", taskFrame("16", `"tool-x"`), "16"},
		{"params array", taskFrame("17", `[{"toolCallId":"tool-x"}]`), "17"},
		{"params null", taskFrame("18", `null`), "18"},
		{"params missing", `{"jsonrpc":"2.0","id":19,"method":"cursor/task"}`, "19"},
		{"truncated params", `{"jsonrpc":"2.0","id":20,"method":"cursor/task","params":{"toolCallId":"tool-x","desc`, ""},
		{"invalid JSON", `{"jsonrpc":"2.0","id":21,"method":"cursor/task","params":{"toolCallId":"tool-x",,,}}`, ""},
		{"unquoted value", `{"jsonrpc":"2.0","id":22,"method":"cursor/task","params":{"toolCallId":tool}}`, ""},
		{"truncated before the id", `{"jsonrpc":"2.0","method":"cursor/task","params":{"toolCallId":"to`, ""},
		// An id gjson reads but that is not JSON cannot be echoed: a reply
		// with it (or with a raw line break) would break the agent's stream.
		{"unreadable id", `{"jsonrpc":"2.0","id":tru,"method":"cursor/task"}`, ""},
		{"id with a raw line break", "{\"jsonrpc\":\"2.0\",\"id\":\"a\nb\",\"method\":\"cursor/task\"}", ""},
		{"truncated id", `{"jsonrpc":"2.0","method":"cursor/task","id":"ab`, ""},
		{"method of the wrong type", `{"jsonrpc":"2.0","id":23,"method":7}`, ""},
		{"neither method nor id", `{"jsonrpc":"2.0"}`, ""},
	}
	h := cursorConn(t, acpdialect.Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := h.c.Inbound([]byte(tc.frame))
			if valid := json.Valid([]byte(tc.frame)); err != nil && (valid || !errors.Is(err, acpdialect.ErrInvalidJSON)) {
				t.Fatalf("error %v", err)
			} else if err == nil && !valid {
				t.Errorf("no error for invalid JSON")
			}
			want := ""
			if tc.reply != "" {
				want = `{"jsonrpc":"2.0","id":` + tc.reply + `,"result":{}}` + "\n"
			}
			if string(r.Reply) != want {
				t.Errorf("reply %q; want %q", r.Reply, want)
			}
		})
	}
	// Later frames still work, and what was readable was kept.
	r := h.in([]byte(toolCallFrame("s1", "tool-x", taskInput)))
	if len(r.Events) != 1 || r.Events[0].Payload.SubagentTask == nil || r.Events[0].Payload.SubagentTask.SubagentType != "" {
		t.Fatalf("events %s", eventLines(t, r.Events))
	}
	h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	r = h.in([]byte(taskFrame("7", fullParams)))
	wantEvents(t, r.Events, `{"type":"tool_call_update",`+cardHead+enriched+`}}`, replyEv7)
}

// Metadata with only some fields fills only those; the rest of the card is
// kept, and the completion's duration is never overwritten by cursor/task's
// (which is the launch time, not the run time).
func TestCursorMergeKeepsFields(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.in([]byte(toolCallFrame("s1", "tool-1", `{"_toolName":"task","description":"from input","prompt":"p"}`)))
	h.in([]byte(updateFrame("s1", "tool-1", `"status":"completed","rawOutput":{"durationMs":4200}`)))
	r := h.in([]byte(taskFrame("7", `{"toolCallId":"tool-1","description":"","prompt":"","model":"m","durationMs":99}`)))
	wantEvents(t, r.Events,
		`{"type":"tool_call_update","agent":"cursor","session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"from input","prompt":"p","model":"m","duration_ms":4200}}}`,
		replyEv7)
	// An update with empty values and no duration blanks nothing, so
	// nothing changed and no event is due.
	r = h.in([]byte(updateFrame("s1", "tool-1", `"title":"","rawInput":{"description":""},"rawOutput":{}`)))
	wantEvents(t, r.Events)
	// The same metadata again changes nothing either.
	r = h.in([]byte(taskFrame("7", `{"toolCallId":"tool-1","model":"m"}`)))
	wantEvents(t, r.Events, replyEv7)
}

// The same, with cursor/task first.
func TestCursorDurationFromCompletionOnly(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.in([]byte(taskFrame("7", `{"toolCallId":"tool-1","durationMs":99}`)))
	h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	r := h.in([]byte(updateFrame("s1", "tool-1", `"status":"completed","rawOutput":{"durationMs":4200}`)))
	if got := r.Events[0].Payload.SubagentTask.DurationMs; got == nil || *got != 4200 {
		t.Errorf("duration %v; want 4200", got)
	}
}

// A tool_call for an id already known is a new tool call with a new card.
func TestToolCallRestartsCard(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	h.in([]byte(taskFrame("7", fullParams)))
	r := h.in([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-1","title":"Read File","kind":"read","status":"pending","rawInput":{"_toolName":"readFile"}}}}`))
	wantEvents(t, r.Events, `{"type":"tool_call","agent":"cursor","session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"generic","status":"pending","title":"Read File","generic":{"acp_kind":"read"}}}`)
}

// Cursor reuses tool call ids across turns: each turn's card gets only its
// own turn's metadata.
func TestToolCallIDsReusedAcrossTurns(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	h.in([]byte(taskFrame("7", `{"toolCallId":"tool-1","prompt":"turn one","model":"m1"}`)))
	h.in([]byte(updateFrame("s1", "tool-1", `"status":"completed","rawOutput":{"durationMs":5,"isBackground":true}`)))
	h.quiet(testwire.PromptResponse(3, ""))

	h.out(testwire.Prompt(4, "s1", "turn two"))
	r := h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	wantEvents(t, r.Events, `{"type":"tool_call",`+cardHead+`"subagent_task":{}}}`)
	r = h.in([]byte(taskFrame("7", `{"toolCallId":"tool-1","prompt":"turn two"}`)))
	wantEvents(t, r.Events, `{"type":"tool_call_update",`+cardHead+`"subagent_task":{"prompt":"turn two"}}}`, replyEv7)
}

// MaxSessions bounds the sessions; the oldest goes with everything it held
// (when every session is busy: an idle one goes first).
func TestMaxSessions(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{MaxSessions: 2})
	h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	h.in([]byte(taskFrame("7", `{"toolCallId":"pending-1"}`)))
	h.session(4, "s2")
	h.out(testwire.Prompt(6, "s2", "go on"))
	h.session(5, "s3")
	st := h.c.Stats()
	if st.SessionsEvicted != 1 || st.Tools.Live != 0 || st.Tools.Swept != 1 || st.Pending.Swept != 1 {
		t.Errorf("stats %+v", st)
	}
	got := h.c.Sessions()
	if d := cmp.Diff([]string{"s2", "s3"}, got, sortStrings); d != "" {
		t.Errorf("sessions (-want +got):\n%s", d)
	}
	for i := range 50 {
		h.session(10+i, fmt.Sprint("x", i))
	}
	if n := len(h.c.Sessions()); n != 2 {
		t.Errorf("%d sessions; want 2", n)
	}
}

var sortStrings = cmp.Transformer("sort", func(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

// MaxRequests bounds the client requests awaiting a response: the oldest is
// forgotten, so its response no longer ends the turn.
func TestMaxRequests(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{MaxRequests: 2}) // prompt 3 is tracked
	h.out(testwire.Request(4, "session/set_mode", map[string]any{"sessionId": "s1"}))
	h.out(testwire.Request(5, "session/set_mode", map[string]any{"sessionId": "s1"}))
	h.in([]byte(taskFrame("7", `{"toolCallId":"tool-9"}`)))
	h.quiet(testwire.PromptResponse(3, "")) // forgotten: the turn does not end
	if st := h.c.Stats().Pending; st.Live != 1 {
		t.Errorf("pending %+v; want the half kept", st)
	}
	// Many requests, answered or not, stay within the bound.
	for i := range 10_000 {
		h.out(testwire.Request(100+i, "session/prompt", map[string]any{"sessionId": "s1"}))
		if i%3 == 0 {
			h.quiet(testwire.Response(100+i, nil))
		}
	}
	h.quiet(testwire.PromptResponse(10_099, ""))
	if st := h.c.Stats().Pending; st.Live != 0 {
		t.Errorf("pending %+v; a tracked prompt response must end the turn", st)
	}
}

// Close ends every session and drops what they held.
func TestCloseSweeps(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.session(4, "s2")
	h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	h.in([]byte(toolCallFrame("s2", "tool-1", taskInput)))
	h.in([]byte(taskFrame("7", `{"toolCallId":"waiting"}`)))
	h.c.Close()
	st := h.c.Stats()
	if st.Tools.Live != 0 || st.Pending.Live != 0 || st.Tools.Swept != 2 || st.Pending.Swept != 1 || len(h.c.Sessions()) != 0 {
		t.Errorf("after Close: stats %+v, sessions %v", st, h.c.Sessions())
	}
	h.c.Close() // idempotent
}

// A single-session agent's new session ends the one before it.
func TestSingleSessionDialect(t *testing.T) {
	d := cursor.Dialect()
	d.SingleSession = true
	h := newHarness(t, acpdialect.NewRegistry(d), acpdialect.Options{})
	h.initialize("cursor-agent")
	h.session(2, "s1")
	h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	h.session(3, "s2")
	if d := cmp.Diff([]string{"s2"}, h.c.Sessions()); d != "" {
		t.Errorf("sessions (-want +got):\n%s", d)
	}
	if st := h.c.Stats().Tools; st.Live != 0 {
		t.Errorf("tools %+v", st)
	}
}

// Scenario 9: a flood of unmatched cursor/task requests stays bounded.
func TestCursorTaskFlood(t *testing.T) {
	const n = 1_000_000 // about 2 s, 8 s under -race
	h := cursorConn(t, acpdialect.Options{})
	frame := make([]byte, 0, 128)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for i := range n {
		frame = append(frame[:0], `{"jsonrpc":"2.0","id":`...)
		frame = strconv.AppendInt(frame, int64(i), 10)
		frame = append(frame, `,"method":"cursor/task","params":{"toolCallId":"flood-`...)
		frame = strconv.AppendInt(frame, int64(i), 10)
		frame = append(frame, `","description":"d","prompt":"p"}}`...)
		r, err := h.c.Inbound(frame)
		if err != nil || len(r.Reply) == 0 {
			t.Fatalf("frame %d: %v, %q", i, err, r.Reply)
		}
	}
	elapsed := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := h.c.Stats()
	growth := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d frames in %v; heap growth %d KiB; pending %+v", n, elapsed, growth>>10, st.Pending)
	if st.Pending.Live != correlate.DefaultPerSession {
		t.Errorf("pending live %d; want the bound %d", st.Pending.Live, correlate.DefaultPerSession)
	}
	if st.Pending.Evicted != n-correlate.DefaultPerSession {
		t.Errorf("evicted %d; want %d", st.Pending.Evicted, n-correlate.DefaultPerSession)
	}
	if st.Replies != n {
		t.Errorf("replies %d; want %d", st.Replies, n)
	}
	if growth > 16<<20 {
		t.Errorf("heap grew %d bytes", growth)
	}
	runtime.KeepAlive(h.c)
}

// Separate Conns are independent: many goroutines each drive their own,
// sharing the registry and its dialects (run with -race).
func TestConcurrentConns(t *testing.T) {
	reg := registry()
	transcriptFor := func(t testing.TB) []string {
		h := newHarness(t, reg, acpdialect.Options{})
		h.initialize("cursor-agent")
		h.session(2, "s1")
		return run(t, h, cursorFrames())
	}
	want := transcriptFor(t)
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if got := transcriptFor(t); !cmp.Equal(want, got) {
					errs <- fmt.Sprintf("goroutine %d: %s", g, cmp.Diff(want, got))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// Events are snapshots: the Conn's later merges never change an event
// already returned.
func TestEventsAreSnapshots(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	r1 := h.in([]byte(toolCallFrame("s1", "tool-1", taskInput)))
	first := eventLines(t, r1.Events)
	h.in([]byte(taskFrame("7", fullParams)))
	h.in([]byte(updateFrame("s1", "tool-1", `"status":"completed","rawOutput":{"durationMs":1,"isBackground":true}`)))
	if d := cmp.Diff(first, eventLines(t, r1.Events)); d != "" {
		t.Errorf("a returned event changed (-then +now):\n%s", d)
	}
	if !bytes.Contains([]byte(first[0]), []byte(`"subagent_task":{}`)) {
		t.Errorf("first event %s", first[0])
	}
}

// TestCursorTodosWithoutID: Cursor's todos without an id are shown, keyed
// by their text, so that a merge updates the todo of the same text and
// appends a new one.
func TestCursorTodosWithoutID(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	h.out([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}`))
	h.in([]byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`))
	todos := func(merge bool, items string) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"merge":` + strconv.FormatBool(merge) + `,"todos":[` + items + `]}}`)
	}
	steps := []struct {
		frame []byte
		want  string
	}{
		{todos(false, `{"content":"Read","status":"pending"},{"content":"Write","status":"pending"}`),
			`[{"id":"content:Read","content":"Read","status":"pending"},{"id":"content:Write","content":"Write","status":"pending"}]`},
		{todos(true, `{"content":"Write","status":"in_progress"},{"content":"Test","status":"pending"}`),
			`[{"id":"content:Read","content":"Read","status":"pending"},{"id":"content:Write","content":"Write","status":"in_progress"},` +
				`{"id":"content:Test","content":"Test","status":"pending"}]`},
	}
	for i, s := range steps {
		wantEvents(t, h.in(s.frame).Events, `{"type":"todos","agent":"cursor","session_id":"s1","todos":{"items":`+s.want+`}}`)
		if t.Failed() {
			t.Fatalf("step %d", i)
		}
	}
}

// TestCursorTodosOwnIDLikeTextKey: a todo whose own id is "content:X" and
// an id-less todo whose text is X are two todos, in one list and in a
// merge, whichever comes first; each merge updates its own. Both show
// their ids as they are.
func TestCursorTodosOwnIDLikeTextKey(t *testing.T) {
	todos := func(merge bool, items string) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"merge":` + strconv.FormatBool(merge) + `,"todos":[` + items + `]}}`)
	}
	const (
		own     = `{"id":"content:X","content":"mine","status":"pending"}`
		text    = `{"content":"X","status":"pending"}`
		ownDone = `{"id":"content:X","status":"completed"}`
		wantOwn = `{"id":"content:X","content":"mine","status":"pending"}`
		wantTxt = `{"id":"content:X","content":"X","status":"pending"}`
	)
	// filler makes a merge of more than 16 items, which looks ids up
	// through an index.
	var filler, wantFiller string
	for i := range 17 {
		n := strconv.Itoa(i)
		filler += `,{"id":"f` + n + `"}`
		wantFiller += `,{"id":"f` + n + `"}`
	}
	tests := []struct {
		name   string
		frames [][]byte
		want   string // the last event's items
	}{
		{"one list", [][]byte{todos(false, own+","+text)}, `[` + wantOwn + `,` + wantTxt + `]`},
		{"one merge", [][]byte{todos(true, own+","+text)}, `[` + wantOwn + `,` + wantTxt + `]`},
		{"own id, then text in a merge", [][]byte{todos(false, own), todos(true, text)}, `[` + wantOwn + `,` + wantTxt + `]`},
		{"text, then own id in a merge", [][]byte{todos(false, text), todos(true, own)}, `[` + wantTxt + `,` + wantOwn + `]`},
		{"a merge updates the own id's todo only", [][]byte{todos(false, own+","+text), todos(true, ownDone)},
			`[{"id":"content:X","content":"mine","status":"completed"},` + wantTxt + `]`},
		{"a merge updates the text's todo only", [][]byte{todos(false, own+","+text), todos(true, `{"content":"X","status":"completed"}`)},
			`[` + wantOwn + `,{"id":"content:X","content":"X","status":"completed"}]`},
		{"through the index", [][]byte{todos(false, own), todos(true, text+filler)}, `[` + wantOwn + `,` + wantTxt + wantFiller + `]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := cursorConn(t, acpdialect.Options{})
			h.out([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}`))
			h.in([]byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`))
			var evs []acpdialect.Event
			for _, f := range tc.frames {
				evs = h.in(f).Events
			}
			wantEvents(t, evs, `{"type":"todos","agent":"cursor","session_id":"s1","todos":{"items":`+tc.want+`}}`)
		})
	}
}

// TestCursorChildClaimedOnce: a subagent card names as its child session
// only a child that nests under it, so that a client resolving a child's
// parent finds cards of one session only and never walks into a loop. A
// card whose spawn names its own session, an ancestor of it, or a child
// already nested under a card of another session shows without the
// child; a second card of the child's parent session keeps it.
func TestCursorChildClaimedOnce(t *testing.T) {
	const prompt = `>{"jsonrpc":"2.0","id":10,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
	spawn := func(sid, child, tool string) string {
		meta := ""
		if tool != "" {
			meta = `,"_meta":{"cursor":{"toolCallId":"` + tool + `"}}`
		}
		return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid +
			`","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"` + child + `","task":"d","name":"n"` + meta + `}}}`
	}
	state := func(sid, child string) string {
		return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid +
			`","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"` + child + `","state":"completed"}}}`
	}
	tests := []struct {
		name   string
		frames []string
		card   [2]string // session, tool call id
		child  string    // the child it names, "" for none
		parent string    // the card it nests under
	}{
		{"its own session", []string{prompt, spawn("s1", "s1", "")}, [2]string{"s1", "s1"}, "", ""},
		// The fuzz input: c1 nests under c2's t4, c2 under s1's card c2.
		{"an ancestor", []string{prompt, spawn("s1", "c2", ""), spawn("c2", "c1", "t4"), spawn("c1", "c2", "")},
			[2]string{"c1", "c2"}, "", "t4"},
		{"an ancestor, then its state", []string{prompt, spawn("s1", "c2", ""), spawn("c2", "c1", "t4"), spawn("c1", "c2", ""), state("c1", "c2")},
			[2]string{"c1", "c2"}, "", "t4"},
		{"an ancestor, by tool call", []string{prompt, spawn("s1", "c2", "t1"), spawn("c2", "c1", "t4"), spawn("c1", "c2", "t2")},
			[2]string{"c1", "t2"}, "", "t4"},
		{"another session's child", []string{prompt, spawn("s1", "c1", "t1"), spawn("x9", "c1", "t2")},
			[2]string{"x9", "t2"}, "", ""},
		{"the first parent keeps it", []string{prompt, spawn("s1", "c1", "t1"), spawn("x9", "c1", "t2"), state("s1", "c1")},
			[2]string{"s1", "t1"}, "c1", ""},
		{"a second card of its parent session", []string{prompt, spawn("s1", "c1", "t1"), spawn("s1", "c1", "t2")},
			[2]string{"s1", "t2"}, "c1", ""},
		{"a card that claimed one before keeps it", []string{prompt, spawn("s1", "c2", ""), spawn("c2", "c1", "t4"), spawn("c1", "c3", "t5"), spawn("c1", "c2", "t5")},
			[2]string{"c1", "t5"}, "c3", "t4"},
		// The child's first frame comes after the refused card: it nests
		// under the first parent's card.
		{"the child nests under its first parent", []string{prompt, spawn("s1", "c1", "t1"), spawn("x9", "c1", "t2"), "<" + toolCallFrame("c1", "t3", taskInput)},
			[2]string{"c1", "t3"}, "", "t1"},
	}
	for _, tt := range tests {
		c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: cursor.ID})
		var last *acpdialect.Payload
		for _, e := range feedFrames(t, c, tt.frames...) {
			var ev acpdialect.Event
			if err := json.Unmarshal([]byte(e), &ev); err != nil {
				t.Fatal(err)
			}
			if ev.SessionID == tt.card[0] && ev.ToolCallID == tt.card[1] && ev.Payload != nil {
				last = ev.Payload
			}
		}
		switch {
		case last == nil || last.SubagentTask == nil:
			t.Errorf("%s: no subagent card %v", tt.name, tt.card)
		case last.SubagentTask.ChildSessionID != tt.child:
			t.Errorf("%s: card %v names child %q, want %q", tt.name, tt.card, last.SubagentTask.ChildSessionID, tt.child)
		case last.ParentToolCallID != tt.parent:
			t.Errorf("%s: card %v nests under %q, want %q", tt.name, tt.card, last.ParentToolCallID, tt.parent)
		}
	}
}

// TestCursorEndedChildStaysClaimed: a child session that ends (evicted
// here) while the card that names it lives stays that card's: a card of
// another session may not claim it, and when it comes back it nests
// under the same card.
func TestCursorEndedChildStaysClaimed(t *testing.T) {
	c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: cursor.ID, MaxSessions: 3})
	prompt := func(sid, id string) string {
		return `>{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[]}}`
	}
	spawn := func(sid, child, tool string) string {
		return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":{"sessionUpdate":"subagent_spawned",` +
			`"subagentSessionId":"` + child + `","task":"d","name":"n","_meta":{"cursor":{"toolCallId":"` + tool + `"}}}}}`
	}
	read := func(sid, id string) string {
		return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","kind":"read","status":"pending"}}}`
	}
	feedFrames(t, c, prompt("s1", "1"), spawn("s1", "c1", "t1"), read("c1", "r1"), prompt("x9", "2"))
	got := feedFrames(t, c, read("z", "r2")) // z evicts c1, the one idle session
	if sessions := fmt.Sprint(c.Sessions()); strings.Contains(sessions, "c1") {
		t.Fatalf("c1 was not evicted: %s", sessions)
	}
	got = append(got, feedFrames(t, c, spawn("z", "c1", "t5"))...)
	for _, e := range got {
		if strings.Contains(e, `"child_session_id":"c1"`) {
			t.Errorf("a card of another session claims c1: %s", e)
		}
	}
	if got := feedFrames(t, c, read("c1", "r3")); len(got) != 1 || !strings.Contains(got[0], `"parent_tool_call_id":"t1"`) {
		t.Errorf("c1 no longer nests under t1: %v", got)
	}
}

// A vendor event without a session id goes to the session that has a card
// for its tool call, a busy one before a newer idle one.
func TestVendorEventBusySessionWithTheCard(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{}) // s1, turn 3 in flight
	h.session(4, "s2")                       // newer, idle
	h.in([]byte(toolCallFrame("s1", "q", taskInput)))
	h.in([]byte(toolCallFrame("s2", "q", taskInput)))
	r := h.in([]byte(`{"jsonrpc":"2.0","method":"cursor/ask_question","params":{"toolCallId":"q","questions":[]}}`))
	if len(r.Events) != 1 || r.Events[0].SessionID != "s1" {
		t.Errorf("events %s: want one, of s1", eventLines(t, r.Events))
	}
}
