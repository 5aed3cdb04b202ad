package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tidwall/gjson"
)

// subagentUpdate is a subagent_update object with fields (a JSON object's
// members, each after a comma).
func subagentUpdate(fields string) string {
	return `{"sessionUpdate":"subagent_update"` + fields + `}`
}

func TestReadSubagentUpdate(t *testing.T) {
	task := func(st acpdialect.SubagentTask, card, title string) acpdialect.Late {
		return acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: card, Title: title, SubagentTask: &st}}
	}
	tests := []struct {
		name   string
		fields string
		want   acpdialect.Late
	}{
		// The reworked draft (claude-agent-acp's): an upsert.
		{"reworked: opened", `,"sessionId":"c1","title":"Fix the build","description":"Make it pass","capabilities":{}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Description: "Fix the build", Prompt: "Make it pass"}, "", "Fix the build")},
		{"reworked: an identifier is the role", `,"sessionId":"c1","title":"Fix the build","description":"general-purpose","capabilities":{"cancel":{}},"state":{"state":"running"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Description: "Fix the build", SubagentType: "general-purpose", Status: "running", Cancellable: true}, "in_progress", "Fix the build")},
		{"reworked: a description with a space is the task", `,"sessionId":"c1","description":"Explore\tthe repo"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Prompt: "Explore\tthe repo"}, "", "")},
		{"reworked: a plugin's agent is a role", `,"sessionId":"c1","description":"review-kit:reviewer_2.1"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", SubagentType: "review-kit:reviewer_2.1"}, "", "")},
		{"reworked: a word with other characters is the task", `,"sessionId":"c1","description":"<fix>"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Prompt: "<fix>"}, "", "")},
		{"reworked: idle end_turn", `,"sessionId":"c1","state":{"state":"idle","stopReason":"end_turn"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "completed"}, "completed", "")},
		{"reworked: idle max_tokens is a normal stop", `,"sessionId":"c1","state":{"stopReason":"max_tokens","state":"idle"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "completed"}, "completed", "")},
		{"reworked: idle cancelled", `,"sessionId":"c1","state":{"state":"idle","stopReason":"cancelled"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "cancelled"}, "cancelled", "")},
		{"reworked: idle refusal", `,"sessionId":"c1","state":{"state":"idle","stopReason":"refusal"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: idle error is a failure, with its message", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":"boom"}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed", Error: "boom"}, "failed", "")},
		{"reworked: a blank message is no error text", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":" \n\t"}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: idle error without its error", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: the error before the state", `,"sessionId":"c1","state":{"error":{"message":"API Error: 529 overloaded","code":-32603},"stopReason":"error","state":"idle"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed", Error: "API Error: 529 overloaded"}, "failed", "")},
		{"reworked: an escaped message is unescaped", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":"line 1\nsaid \"no\""}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed", Error: "line 1\nsaid \"no\""}, "failed", "")},
		{"reworked: the first message counts", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":{"message":"first","message":"second"}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed", Error: "first"}, "failed", "")},
		{"reworked: the first error counts", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":{"code":1},"error":{"message":"second"}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: a message that is not a string is absent", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":{"text":"boom"}}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: an error that is not an object is absent", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":"boom"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: an empty message is absent", `,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":""}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		// The RFD gives the error only to the error stop reason.
		{"reworked: an error beside end_turn is not read", `,"sessionId":"c1","state":{"state":"idle","stopReason":"end_turn","error":{"code":-32603,"message":"boom"}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "completed"}, "completed", "")},
		{"reworked: an error beside refusal is not read", `,"sessionId":"c1","state":{"state":"idle","stopReason":"refusal","error":{"code":-32603,"message":"boom"}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: an error without a stop reason is not read", `,"sessionId":"c1","state":{"state":"idle","error":{"code":-32603,"message":"boom"}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: an error of a running child is not read", `,"sessionId":"c1","state":{"state":"running","stopReason":"error","error":{"code":-32603,"message":"boom"}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "running"}, "in_progress", "")},
		{"reworked: idle without a stop reason is a failure", `,"sessionId":"c1","state":{"state":"idle"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "failed"}, "failed", "")},
		{"reworked: unknown is a disconnected child", `,"sessionId":"c1","state":{"state":"unknown"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "disconnected"}, "failed", "")},
		{"reworked: running", `,"sessionId":"c1","state":{"state":"running"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "running"}, "in_progress", "")},
		{"reworked: requires_action is running", `,"sessionId":"c1","state":{"state":"requires_action"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Status: "running"}, "in_progress", "")},
		{"reworked: a resumed generation is its own child", `,"sessionId":"task_1:generation:2","title":"T"`,
			task(acpdialect.SubagentTask{ChildSessionID: "task_1:generation:2", Description: "T"}, "", "T")},
		// cwd (claude-agent-acp from 0.100.0, codex-acp 2.6.0): where the
		// child works, kept as sent; null (the RFD's clearing, which the
		// Conn applies) and other types read as absent.
		{"reworked: cwd", `,"sessionId":"c1","title":"T","cwd":"/w/.claude/worktrees/agent_1","capabilities":{"cancel":{}},"state":{"state":"running"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Description: "T", Cwd: "/w/.claude/worktrees/agent_1", Status: "running", Cancellable: true}, "in_progress", "T")},
		{"reworked: cwd alone", `,"sessionId":"c1","cwd":"/w/tree"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Cwd: "/w/tree"}, "", "")},
		{"reworked: cwd null reads as absent", `,"sessionId":"c1","cwd":null`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1"}, "", "")},
		{"reworked: cwd of a wrong type", `,"sessionId":"c1","cwd":["/w"]`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1"}, "", "")},
		{"reworked: the first cwd counts", `,"sessionId":"c1","cwd":"/a","cwd":"/b"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Cwd: "/a"}, "", "")},
		{"reworked: an escaped cwd is unescaped", `,"sessionId":"c1","cwd":"C:\\src\u002fapp"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Cwd: `C:\src/app`}, "", "")},
		// capabilities.cancel (claude-agent-acp's announcement, codex-acp
		// 2.6.0's publishCancellation): an object, or the original
		// draft's true, grants it; anything else in an object, or null
		// capabilities, withdraws it (the Conn applies that); another
		// type says nothing.
		{"capabilities: cancel {} grants", `,"sessionId":"c1","capabilities":{"cancel":{}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Cancellable: true}, "", "")},
		{"capabilities: cancel true grants", `,"sessionId":"c1","capabilities":{"cancel":true}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Cancellable: true}, "", "")},
		{"capabilities: cancel null does not", `,"sessionId":"c1","capabilities":{"cancel":null}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1"}, "", "")},
		{"capabilities: cancel false does not", `,"sessionId":"c1","capabilities":{"cancel":false}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1"}, "", "")},
		{"capabilities: none granted", `,"sessionId":"c1","capabilities":{}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1"}, "", "")},
		{"capabilities: the first cancel counts", `,"sessionId":"c1","capabilities":{"cancel":null,"cancel":{}}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1"}, "", "")},
		{"capabilities: the first capabilities count", `,"sessionId":"c1","capabilities":{"cancel":{}},"capabilities":null`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1", Cancellable: true}, "", "")},
		{"capabilities: a wrong type", `,"sessionId":"c1","capabilities":["cancel"]`,
			task(acpdialect.SubagentTask{ChildSessionID: "c1"}, "", "")},
		// The original draft.
		{"original: opened", `,"subagentSessionId":"c2","name":"explore","task":"Scan for unused exports","capabilities":{"cancel":true},"state":"running"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c2", Name: "explore", Description: "Scan for unused exports", Status: "running", Cancellable: true}, "in_progress", "Scan for unused exports")},
		{"original: completed", `,"subagentSessionId":"c2","state":"completed"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c2", Status: "completed"}, "completed", "")},
		{"original: failed", `,"subagentSessionId":"c2","state":"failed"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c2", Status: "failed"}, "failed", "")},
		{"original: cancelled", `,"subagentSessionId":"c2","state":"cancelled"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c2", Status: "cancelled"}, "cancelled", "")},
		{"original: disconnected fails the card", `,"subagentSessionId":"c2","state":"disconnected"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c2", Status: "disconnected"}, "failed", "")},
		{"original: an unknown state is kept and leaves the card", `,"subagentSessionId":"c2","state":"paused"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c2", Status: "paused"}, "", "")},
		{"original: without a state", `,"subagentSessionId":"c2","name":"explore"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c2", Name: "explore"}, "", "")},
		// Both shapes' keys: subagentSessionId names the child, title
		// wins over task.
		{"mixed: subagentSessionId wins", `,"sessionId":"s1","subagentSessionId":"c3","title":"T","task":"t"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c3", Description: "T"}, "", "T")},
		// Missing fields and wrong types read as absent.
		{"no child: nothing", `,"title":"T","state":{"state":"idle"}`, acpdialect.Late{}},
		{"empty child: nothing", `,"sessionId":"","subagentSessionId":""`, acpdialect.Late{}},
		{"child of a wrong type: nothing", `,"sessionId":7,"subagentSessionId":{"id":"c"}`, acpdialect.Late{}},
		{"wrong-typed fields", `,"sessionId":"c4","title":["T"],"description":null,"name":1,"task":true`,
			task(acpdialect.SubagentTask{ChildSessionID: "c4"}, "", "")},
		{"wrong-typed state", `,"sessionId":"c4","state":3`,
			task(acpdialect.SubagentTask{ChildSessionID: "c4"}, "", "")},
		{"state object without a string state", `,"sessionId":"c4","state":{"state":1,"stopReason":"end_turn"}`,
			task(acpdialect.SubagentTask{ChildSessionID: "c4"}, "", "")},
		{"state null", `,"sessionId":"c4","state":null`,
			task(acpdialect.SubagentTask{ChildSessionID: "c4"}, "", "")},
		{"the first of a repeated key counts", `,"sessionId":"c5","sessionId":"c6","title":"A","title":"B"`,
			task(acpdialect.SubagentTask{ChildSessionID: "c5", Description: "A"}, "", "A")},
		{"escaped strings are unescaped", `,"sessionId":"c\u0037","title":"say \"hi\""`,
			task(acpdialect.SubagentTask{ChildSessionID: "c7", Description: `say "hi"`}, "", `say "hi"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := acpdialect.ReadSubagentUpdate(gjson.Parse(subagentUpdate(tt.fields)))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	for _, bad := range []string{``, `null`, `[]`, `"subagent_update"`, `{"sessionUpdate":"subagent_update","sessionId":"c1"`, `{"sessionId":`} {
		if got := acpdialect.ReadSubagentUpdate(gjson.Parse(bad)); got.Payload.Kind != "" && got.Payload.SubagentTask == nil {
			t.Errorf("%q: %+v", bad, got)
		}
	}
}

// The reader's strings are its own: a caller reusing the frame's buffer
// changes nothing it returned. Its Raw may run on past the object.
func TestReadSubagentUpdateOwnsItsStrings(t *testing.T) {
	for _, fields := range []string{
		`,"sessionId":"c1","title":"Fix","description":"Do it","name":"n","state":"weird"`,
		`,"sessionId":"c1","title":"Fix","description":"Do it","name":"n","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":"weird"}}`,
		`,"sessionId":"c1","title":"Fix","cwd":"/w/tree","state":"weird"`,
		`,"sessionId":"c1","title":"Fix","description":"Explore","state":"weird"`,
	} {
		frame := []byte(`{"update":` + subagentUpdate(fields) + `,"sessionId":"parent","title":"not this"}`)
		// The Result views the buffer, as the Conn's does (GetBytes and
		// string() would copy, and the test could not fail), and its Raw
		// runs on past the object, as the Conn passes it.
		whole := unsafe.String(&frame[0], len(frame))
		u := gjson.Get(whole, "update")
		u.Raw = whole[u.Index:]
		got := acpdialect.ReadSubagentUpdate(u)
		// JSON, not Clone, holds what it read: Clone's strings share
		// their bytes, and would change with the frame too.
		want, _ := json.Marshal(got.Payload)
		for i := range frame {
			frame[i] = 'Z'
		}
		after, _ := json.Marshal(got.Payload)
		if d := cmp.Diff(string(want), string(after)); d != "" || !strings.Contains(string(want), `"child_session_id":"c1"`) {
			t.Fatalf("the Late changed with the frame (-want +got):\n%s", d)
		}
	}
}

func FuzzReadSubagentUpdate(f *testing.F) {
	for _, s := range []string{
		subagentUpdate(`,"sessionId":"c1","title":"Fix the build","description":"Make it pass","capabilities":{}`),
		subagentUpdate(`,"sessionId":"c1","state":{"state":"idle","stopReason":"end_turn"}`),
		subagentUpdate(`,"sessionId":"c1","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":"boom"}}`),
		subagentUpdate(`,"sessionId":"agent_2","state":{"state":"idle","stopReason":"error","error":{"code":-32603,"message":"API Error: 529 overloaded"}}`),
		subagentUpdate(`,"sessionId":"sess-1:subagent:019e-child","state":{"state":"idle","usage":{"inputTokens":3},"stopReason":"error","error":{"code":-32603,"message":"Subagent work failed"}}`),
		subagentUpdate(`,"sessionId":"c1","title":"Fix the build","description":"general-purpose","cwd":"/w/tree","capabilities":{"cancel":{}},"state":{"state":"running"}`),
		subagentUpdate(`,"sessionId":"c1","state":{"state":"unknown"}`),
		subagentUpdate(`,"sessionId":"c1","cwd":null`),
		subagentUpdate(`,"sessionId":"c1","cwd":null,"cwd":"/w"`),
		subagentUpdate(`,"sessionId":"c1","cwd":"/w","cwd":null`),
		subagentUpdate(`,"sessionId":"c1","cwd":nul`),
		subagentUpdate(`,"sessionId":"c1","title":null`),
		subagentUpdate(`,"sessionId":"c1","capabilities":{"cancel":null}`),
		subagentUpdate(`,"sessionId":"c1","capabilities":null,"capabilities":{"cancel":{}}`),
		subagentUpdate(`,"sessionId":"c1","capabilities":{"cancel":true,"cancel":null}`),
		subagentUpdate(`,"sessionId":"c1","title":null,"title":"Fix","task":"Scan"`),
		subagentUpdate(`,"subagentSessionId":"c2","name":"explore","task":"Scan","capabilities":{"cancel":true},"state":"running"`),
		subagentUpdate(`,"subagentSessionId":"c2","state":"disconnected"`),
		subagentUpdate(`,"sessionId":7,"state":[{"state":"idle"}],"title":{"x":1}`),
		`{"sessionUpdate":"subagent_update","sessionId":"c1","state":{"state":"idle"`,
		`[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		// The Result views in itself (gjson.ParseBytes would copy it),
		// and the check compares JSON, not strings a Clone shares, so
		// that a string the Late keeps of the frame shows when in is
		// overwritten.
		in := append([]byte(nil), b...)
		got := acpdialect.ReadSubagentUpdate(gjson.Parse(unsafe.String(&in[0], len(in))))
		again := acpdialect.ReadSubagentUpdate(gjson.ParseBytes(b))
		if !got.Payload.Equal(again.Payload) || got.ToolCallID != again.ToolCallID {
			t.Fatalf("not pure: %+v then %+v", got, again)
		}
		keep := got.Payload.Clone()
		want, _ := json.Marshal(got.Payload)
		for i := range in {
			in[i] = 'Z'
		}
		if now, _ := json.Marshal(got.Payload); !bytes.Equal(now, want) {
			t.Fatalf("the Late views the frame:\n%s\n%s", want, now)
		}
		if got == (acpdialect.Late{}) {
			return
		}
		st := got.Payload.SubagentTask
		if got.Payload.Kind != acpdialect.KindSubagentTask || st == nil || st.ChildSessionID == "" || got.ToolCallID != "" || got.Alias != "" {
			t.Fatalf("a late half for no child: %+v", got)
		}
		switch got.Payload.Status {
		case "", acpdialect.StatusInProgress, acpdialect.StatusCompleted, acpdialect.StatusFailed, acpdialect.StatusCancelled:
		default:
			t.Fatalf("card status %q", got.Payload.Status)
		}
		if st.Error != "" && (got.Payload.Status != acpdialect.StatusFailed || st.Status != acpdialect.SubagentFailed) {
			t.Fatalf("an error %q on a child that did not fail: %+v", st.Error, got.Payload)
		}
		// A cwd or a title is either a value or a clearing, never both:
		// the Conn clears the card's only for the null one. A null
		// title leaves the description to the original draft's task.
		late, cwdNull, titleNull, noCancel := acpdialect.ReadSubagentUpdateNulls(gjson.ParseBytes(b))
		if !late.Payload.Equal(keep) {
			t.Fatalf("the readings differ: %+v and %+v", late.Payload, keep)
		}
		if cwdNull && late.Payload.SubagentTask.Cwd != "" {
			t.Fatalf("a null cwd with a directory %q", late.Payload.SubagentTask.Cwd)
		}
		if noCancel && late.Payload.SubagentTask.Cancellable {
			t.Fatal("capabilities that both grant and withdraw cancel")
		}
		if titleNull && gjson.ValidBytes(b) && !gjson.GetBytes(b, "task").Exists() && late.Payload.SubagentTask.Description != "" {
			t.Fatalf("a null title with a description %q", late.Payload.SubagentTask.Description)
		}
	})
}

// subagentStep is one frame of a subagent card's story and the events
// it must give, in order; none for a frame that changes nothing.
type subagentStep struct {
	name  string
	frame []byte
	want  []string
}

// playSteps feeds each step's frame to h and compares its events.
func playSteps(t *testing.T, h *harness, steps []subagentStep) {
	t.Helper()
	for _, s := range steps {
		r := h.in(s.frame)
		if d := cmp.Diff(s.want, eventLines(t, r.Events), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s (-want +got):\n%s", s.name, d)
		}
	}
}

// draftConn is a connection of an agent no dialect knows, with a turn of
// session s1 open.
func draftConn(t *testing.T, reg *acpdialect.Registry, agent string) *harness {
	h := newHarness(t, reg, acpdialect.Options{})
	h.initialize(agent)
	h.session(2, "s1")
	h.out(testwire.Prompt(3, "s1", "go"))
	return h
}

func draftUpdate(sid, update string) []byte {
	return []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":` + update + `}}`)
}

// On an unknown agent's connection, both shapes make the child's card,
// quarantined; the child's tool calls nest under it; an update without a
// state leaves the status; a repeated one changes nothing.
func TestSubagentUpdateUnknownAgent(t *testing.T) {
	h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
	steps := []struct {
		frame []byte
		want  []string
	}{
		{draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix","description":"Make it pass"`)),
			[]string{`{"type":"tool_call","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Fix","subagent_task":{"description":"Fix","prompt":"Make it pass","status":"running","child_session_id":"c1"}}}`}},
		{draftUpdate("c1", `{"sessionUpdate":"session_message","messageId":"prompt","content":[{"type":"text","text":"Make it pass"}]}`), nil},
		{[]byte(toolCallFrame("c1", "read-1", `{}`)),
			[]string{`{"type":"tool_call","session_id":"c1","tool_call_id":"read-1","payload":{"kind":"generic","status":"in_progress","title":"Task: Subagent task","parent_tool_call_id":"c1","generic":{"acp_kind":"other"}}}`}},
		{draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix it"`)),
			[]string{`{"type":"tool_call_update","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Fix it","subagent_task":{"description":"Fix it","prompt":"Make it pass","status":"running","child_session_id":"c1"}}}`}},
		// A role (one word) is kept beside the prompt.
		{draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","description":"general-purpose"`)),
			[]string{`{"type":"tool_call_update","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Fix it","subagent_task":{"description":"Fix it","prompt":"Make it pass","subagent_type":"general-purpose","status":"running","child_session_id":"c1"}}}`}},
		{draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"idle","stopReason":"end_turn"}`)),
			[]string{`{"type":"tool_call_update","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"completed","title":"Fix it","subagent_task":{"description":"Fix it","prompt":"Make it pass","subagent_type":"general-purpose","status":"completed","child_session_id":"c1"}}}`}},
		{draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"idle","stopReason":"end_turn"}`)), nil},
		{draftUpdate("s1", subagentUpdate(`,"sessionId":"c1"`)), nil},
		{draftUpdate("s1", subagentUpdate(`,"subagentSessionId":"c2","name":"explore","task":"Scan","state":"cancelled"`)),
			[]string{`{"type":"tool_call","session_id":"s1","tool_call_id":"c2","payload":{"kind":"subagent_task","status":"cancelled","title":"Scan","subagent_task":{"description":"Scan","status":"cancelled","child_session_id":"c2","name":"explore"}}}`}},
		// A session that says it is its own child, and no child at all.
		{draftUpdate("s1", subagentUpdate(`,"sessionId":"s1","title":"Me"`)), nil},
		{draftUpdate("s1", subagentUpdate(`,"title":"Nobody"`)), nil},
	}
	for i, s := range steps {
		r := h.in(s.frame)
		wantEvents(t, r.Events, s.want...)
		if !r.Quarantine && !bytes.Contains(s.frame, []byte(`"tool_call"`)) {
			t.Errorf("step %d not quarantined", i)
		}
		if r.Quarantine && bytes.Contains(s.frame, []byte(`"tool_call"`)) {
			t.Errorf("step %d: a tool call quarantined", i)
		}
	}
	if st := h.c.Stats(); st.LateDropped != 2 {
		t.Errorf("late dropped %d, want 2 (itself, no child)", st.LateDropped)
	}
}

// A failed child's text reaches its card: a failed end without it
// (claude-agent-acp's idle/error before the SDK gave the text) is filled
// by a later one that has it (its supplyError), a later failure's text
// replaces it, and an end that is no failure leaves it, as the result
// text stays. The card's status is the state's, as without the text.
func TestSubagentUpdateErrorText(t *testing.T) {
	h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
	failed := func(msg string) []byte {
		e := ""
		if msg != "" {
			e = `,"error":{"code":-32603,"message":"` + msg + `"}`
		}
		return draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"idle","stopReason":"error"`+e+`}`))
	}
	card := func(status, sub, err string) string {
		if err != "" {
			err = `,"error":"` + err + `"`
		}
		return `{"type":"tool_call_update","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"` + status +
			`","title":"Fix","subagent_task":{"description":"Fix","status":"` + sub + `","child_session_id":"c1"` + err + `}}}`
	}
	steps := []subagentStep{
		{"opened", draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix","state":{"state":"running"}`)),
			[]string{`{"type":"tool_call","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Fix","subagent_task":{"description":"Fix","status":"running","child_session_id":"c1"}}}`}},
		{"failed without a text", failed(""), []string{card("failed", "failed", "")}},
		{"the text supplied", failed("API Error: 529 overloaded"), []string{card("failed", "failed", "API Error: 529 overloaded")}},
		{"the same again", failed("API Error: 529 overloaded"), nil},
		{"a failure without a text keeps it", failed(""), nil},
		{"resumed", draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"running"}`)),
			[]string{card("in_progress", "running", "API Error: 529 overloaded")}},
		{"a later failure's text replaces it", failed("Prompt is too long"), []string{card("failed", "failed", "Prompt is too long")}},
		{"an end that is no failure leaves it", draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"idle","stopReason":"end_turn"}`)),
			[]string{card("completed", "completed", "Prompt is too long")}},
		{"an error beside another stop reason is not read", draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"idle","stopReason":"end_turn","error":{"code":-32603,"message":"no"}}`)), nil},
	}
	playSteps(t, h, steps)
}

// A child's directory reaches its card: the RFD's cwd sets it, a later
// one replaces it (claude-agent-acp reports a child's worktree once a
// hook gives it, codex-acp a child's settings as they change), an update
// without one leaves it, null clears it (the child is back in its
// parent's directory: claude-agent-acp's publishCwd, and its replay of a
// worktree that is gone), and a cwd of a wrong type or an empty one says
// nothing.
func TestSubagentUpdateCwd(t *testing.T) {
	h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
	update := func(fields string) []byte {
		return draftUpdate("s1", subagentUpdate(`,"sessionId":"c1"`+fields))
	}
	card := func(typ, cwd string) []string {
		if cwd != "" {
			cwd = `,"cwd":"` + cwd + `"`
		}
		return []string{`{"type":"` + typ + `","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Fix",` +
			`"subagent_task":{"description":"Fix","status":"running","child_session_id":"c1"` + cwd + `}}}`}
	}
	steps := []subagentStep{
		{"opened with a cwd", update(`,"title":"Fix","cwd":"/w/.claude/worktrees/agent_1","state":{"state":"running"}`),
			card("tool_call", "/w/.claude/worktrees/agent_1")},
		{"the same again", update(`,"cwd":"/w/.claude/worktrees/agent_1"`), nil},
		{"an update without one leaves it", update(`,"title":"Fix"`), nil},
		{"a later cwd replaces it", update(`,"cwd":"/w/other"`), card("tool_call_update", "/w/other")},
		{"a wrong type says nothing", update(`,"cwd":7`), nil},
		{"an object says nothing", update(`,"cwd":{"path":"/x"}`), nil},
		{"an empty cwd says nothing", update(`,"cwd":""`), nil},
		{"null clears it", update(`,"cwd":null`), card("tool_call_update", "")},
		{"null again changes nothing", update(`,"cwd":null`), nil},
		{"set again", update(`,"cwd":"/w/tree"`), card("tool_call_update", "/w/tree")},
		{"null beside other fields clears it too", update(`,"title":"Fix","cwd":null,"state":{"state":"running"}`), card("tool_call_update", "")},
	}
	playSteps(t, h, steps)
}

// A null title clears a child's title (codex-acp 2.6.0 sends one when a
// child thread's name is unset; the RFD says the client then chooses a
// fallback): the card's title falls back to the child's type, a later
// title sets it again, and null on a first report makes a card without
// one.
func TestSubagentUpdateTitleNull(t *testing.T) {
	h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
	update := func(fields string) []byte {
		return draftUpdate("s1", subagentUpdate(`,"sessionId":"c1"`+fields))
	}
	card := func(typ, title string) []string {
		desc := ""
		if title != "general-purpose" {
			desc = `"description":"` + title + `",`
		}
		return []string{`{"type":"` + typ + `","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"` + title + `",` +
			`"subagent_task":{` + desc + `"subagent_type":"general-purpose","status":"running","child_session_id":"c1"}}}`}
	}
	steps := []subagentStep{
		{"opened with a title and a type", update(`,"title":"Fix","description":"general-purpose","state":{"state":"running"}`), card("tool_call", "Fix")},
		{"null clears it: the type is the title", update(`,"title":null`), card("tool_call_update", "general-purpose")},
		{"null again changes nothing", update(`,"title":null`), nil},
		{"a title sets it again", update(`,"title":"Fix it"`), card("tool_call_update", "Fix it")},
		{"a wrong type says nothing", update(`,"title":7`), nil},
	}
	playSteps(t, h, steps)
	r := h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c2","title":null,"state":{"state":"running"}`)))
	want := []string{`{"type":"tool_call","session_id":"s1","tool_call_id":"c2","payload":{"kind":"subagent_task","status":"in_progress","subagent_task":{"status":"running","child_session_id":"c2"}}}`}
	if d := cmp.Diff(want, eventLines(t, r.Events)); d != "" {
		t.Errorf("a first report with a null title (-want +got):\n%s", d)
	}
	r = h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c3","title":null,"description":"Explore","state":{"state":"running"}`)))
	want = []string{`{"type":"tool_call","session_id":"s1","tool_call_id":"c3","payload":{"kind":"subagent_task","status":"in_progress","title":"Explore","subagent_task":{"subagent_type":"Explore","status":"running","child_session_id":"c3"}}}`}
	if d := cmp.Diff(want, eventLines(t, r.Events)); d != "" {
		t.Errorf("a first report with a null title and a type: the type is the title (-want +got):\n%s", d)
	}
}

// A child's cancel grant reaches its card as Cancellable: claude-agent-acp
// grants it when it announces a child, codex-acp 2.6.0 while the child's
// turn runs (publishCancellation: {cancel: {}}, then {cancel: null}).
// Capabilities without cancel, or null, withdraw it; an update without
// capabilities, or with a wrong type, leaves it.
func TestSubagentUpdateCancellable(t *testing.T) {
	h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
	update := func(fields string) []byte {
		return draftUpdate("s1", subagentUpdate(`,"sessionId":"c1"`+fields))
	}
	card := func(typ string, cancellable bool) []string {
		c := ""
		if cancellable {
			c = `,"cancellable":true`
		}
		return []string{`{"type":"` + typ + `","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Fix",` +
			`"subagent_task":{"description":"Fix","status":"running","child_session_id":"c1"` + c + `}}}`}
	}
	steps := []subagentStep{
		{"announced without a grant", update(`,"title":"Fix","capabilities":{},"state":{"state":"running"}`), card("tool_call", false)},
		{"granted", update(`,"capabilities":{"cancel":{}}`), card("tool_call_update", true)},
		{"granted again changes nothing", update(`,"capabilities":{"cancel":{}}`), nil},
		{"an update without capabilities leaves it", update(`,"title":"Fix"`), nil},
		{"a wrong type says nothing", update(`,"capabilities":"cancel"`), nil},
		{"cancel null withdraws it", update(`,"capabilities":{"cancel":null}`), card("tool_call_update", false)},
		{"granted once more", update(`,"capabilities":{"cancel":{}}`), card("tool_call_update", true)},
		{"null capabilities withdraw it", update(`,"capabilities":null`), card("tool_call_update", false)},
		{"withdrawn again changes nothing", update(`,"capabilities":{}`), nil},
	}
	playSteps(t, h, steps)
}

// An update that clears nothing (a null cwd, a withdrawn grant the card
// does not hold) costs no more than one without the clearing field: the
// card's subagent object is copied only when a value goes.
func TestSubagentUpdateClearingAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
	h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix","state":{"state":"running"}`)))
	plain := draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"running"}`))
	base := testing.AllocsPerRun(50, func() { h.in(plain) })
	for _, fields := range []string{`,"cwd":null`, `,"capabilities":{}`, `,"capabilities":{"cancel":null}`} {
		f := draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"running"}`+fields))
		if n := testing.AllocsPerRun(50, func() { h.in(f) }); n > base {
			t.Errorf("%s: %v allocations, %v without it", fields, n, base)
		}
	}
}

// A null cwd on a child's first report makes its card without one; a
// null first then a string: the null counts and clears, as a first key
// does.
func TestSubagentUpdateCwdNullFirst(t *testing.T) {
	h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
	r := h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix","cwd":null`)))
	want := []string{`{"type":"tool_call","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Fix","subagent_task":{"description":"Fix","status":"running","child_session_id":"c1"}}}`}
	if d := cmp.Diff(want, eventLines(t, r.Events)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","cwd":"/w/tree"`)))
	if r := h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","cwd":null,"cwd":"/w/other"`))); len(r.Events) != 1 ||
		r.Events[0].Payload.SubagentTask.Cwd != "" {
		t.Errorf("the first cwd, null, does not clear: %s", eventLines(t, r.Events))
	}
}

// The SDK layout takes the fast path, any other layout the slow one: the
// same events and quarantine.
func TestSubagentUpdateLayouts(t *testing.T) {
	sdk := draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix"`))
	sorted := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"title":"Fix","sessionId":"c1","sessionUpdate":"subagent_update"},"sessionId":"s1"}}`)
	var got [][]string
	for _, f := range [][]byte{sdk, sorted} {
		h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
		r := h.in(f)
		if !r.Quarantine {
			t.Errorf("%s not quarantined", f)
		}
		got = append(got, eventLines(t, r.Events))
	}
	if d := cmp.Diff(got[0], got[1]); d != "" || len(got[0]) != 1 {
		t.Errorf("layouts differ (-sdk +sorted):\n%s", d)
	}
}

// A dialect that reads subagent_update itself wins over the standard's
// reading: its handler makes the card, and its entry says whether the kind
// is quarantined.
func TestSubagentUpdateDialectWins(t *testing.T) {
	own := func(standard bool) *acpdialect.Dialect {
		d := spawner()
		d.Updates = append(d.Updates, acpdialect.Update{Kind: acpdialect.UpdateSubagent, Standard: standard, Handle: func(u gjson.Result) acpdialect.Late {
			return acpdialect.Late{ToolCallID: "mine", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
				SubagentTask: &acpdialect.SubagentTask{Description: "the dialect's"}}}
		}})
		return d
	}
	frame := draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix"`))
	for _, standard := range []bool{false, true} {
		h := draftConn(t, acpdialect.NewRegistry(own(standard)), "spawner")
		r := h.in(frame)
		wantEvents(t, r.Events,
			`{"type":"tool_call","agent":"spawner","session_id":"s1","tool_call_id":"mine","payload":{"kind":"subagent_task","status":"in_progress","subagent_task":{"description":"the dialect's"}}}`)
		if r.Quarantine == standard {
			t.Errorf("Standard %v: quarantine %v", standard, r.Quarantine)
		}
	}
	// A dialect that lists the kind with no handler reads it for nothing.
	quiet := spawner()
	quiet.Updates = append(quiet.Updates, acpdialect.Update{Kind: acpdialect.UpdateSubagent})
	h := draftConn(t, acpdialect.NewRegistry(quiet), "spawner")
	if r := h.in(frame); len(r.Events) != 0 || !r.Quarantine {
		t.Errorf("listed for nothing: %+v", r)
	}
}

// On a connection identified as a dialect that does not read the kind,
// the standard's reading applies, merging into a card the dialect's own
// update linked the child to.
func TestSubagentUpdateLinkedByDialect(t *testing.T) {
	h := spawnConn(t)
	h.in([]byte(toolCallFrame("s1", "t1", `{"_toolName":"task"}`)))
	h.in(vupdate("spawned", `,"child":"c1","toolCallId":"t1"`))
	r := h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","state":{"state":"idle","stopReason":"end_turn"}`)))
	// The card is a real tool call's: it keeps its own status and title;
	// the subagent's status is the update's.
	wantEvents(t, r.Events,
		`{"type":"tool_call_update","agent":"spawner","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{"status":"completed","child_session_id":"c1"}}}`)
	if !r.Quarantine {
		t.Error("not quarantined")
	}
}

// A child ends with its parent, whether or not it has spoken: frames it
// sends later nest under nothing.
func TestSubagentChildEndsWithParent(t *testing.T) {
	for _, spoke := range []bool{true, false} {
		h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
		h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix"`)))
		if spoke {
			h.in([]byte(toolCallFrame("c1", "read-1", `{}`)))
		}
		if _, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":9,"method":"session/close","params":{"sessionId":"s1"}}`)); err != nil {
			t.Fatal(err)
		}
		if s := h.c.Sessions(); len(s) != 0 {
			t.Fatalf("spoke %v: sessions left: %v", spoke, s)
		}
		r := h.in([]byte(toolCallFrame("c1", "read-2", `{}`)))
		if lines := eventLines(t, r.Events); len(lines) != 1 || strings.Contains(lines[0], "parent_tool_call_id") {
			t.Fatalf("spoke %v: a late child frame: %s", spoke, lines)
		}
	}
}

// The standard's reading is the same on every connection, whatever the
// registry holds: the output of an unknown agent's transcript does not
// change with the dialects registered, nor with a dialect's identity
// that does not read the kind.
func TestSubagentUpdateIsolation(t *testing.T) {
	path := filepath.Join("testdata", "subagents", "unknown-agent-draft.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	run := func(reg *acpdialect.Registry) []byte {
		r, err := replay.Run(reg, bytes.NewReader(b), replay.Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := r.WriteEvents(&out); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteFinal(&out); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	bare, all := run(acpdialect.NewRegistry()), run(dialects.Registry())
	if d := cmp.Diff(string(bare), string(all)); d != "" {
		t.Fatalf("the registered dialects changed an unknown agent's output (-bare +all):\n%s", d)
	}
}

// TestSubagentGoldens replays the hand-written transcripts of
// testdata/subagents through the built-in dialects: their goldens are the
// spec (go test . -update rewrites them; review the diff).
func TestSubagentGoldens(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "subagents", "*.jsonl"))
	if len(paths) == 0 {
		t.Fatal("no transcripts")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			final, events, err := replay.File(dialects.Registry(), path)
			if err != nil {
				t.Fatal(err)
			}
			base := strings.TrimSuffix(path, ".jsonl")
			dialecttest.Golden(t, base+".final.golden", final, *testwire.Update)
			dialecttest.Golden(t, base+".events.golden", events, *testwire.Update)
			for _, want := range subagentSemantics[filepath.Base(base)] {
				if !bytes.Contains(final, []byte(want)) {
					t.Errorf("--final lacks %s", want)
				}
			}
		})
	}
}

// subagentSemantics are fragments of each transcript's --final that its
// scenario requires, so that a golden blessed with -update by mistake still
// fails.
var subagentSemantics = map[string][]string{
	"unknown-agent-draft": {
		`"tool_call_id":"task_1","payload":{"kind":"subagent_task","status":"completed","title":"Fix the build","subagent_task":{"description":"Fix the build","prompt":"Run make and fix what fails","status":"completed","child_session_id":"task_1"}}`,
		`"tool_call_id":"call_make","payload":{"kind":"generic","status":"completed","title":"make","parent_tool_call_id":"task_1"`,
		`"tool_call_id":"sub_2","payload":{"kind":"subagent_task","status":"failed","title":"Find exports nothing imports","subagent_task":{"description":"Find exports nothing imports","status":"disconnected","child_session_id":"sub_2","name":"explore","cancellable":true}}`,
		`"tool_call_id":"call_grep","payload":{"kind":"generic","status":"in_progress","title":"grep export","parent_tool_call_id":"sub_2"`,
		`"tool_call_id":"task_3","payload":{"kind":"subagent_task","status":"failed","title":"Typecheck the app","subagent_task":{"description":"Typecheck the app","prompt":"Run tsc","status":"failed"`,
		`"tool_call_id":"task_4","payload":{"kind":"subagent_task","status":"cancelled"`,
		`"tool_call_id":"task_5","payload":{"kind":"subagent_task","status":"failed","title":"Bench","subagent_task":{"description":"Bench","prompt":"Run the benchmarks","status":"disconnected"`,
		`"tool_call_id":"sub_6","payload":{"kind":"subagent_task","status":"completed"`,
		`"tool_call_id":"sub_7","payload":{"kind":"subagent_task","status":"failed"`,
		`"tool_call_id":"sub_8","payload":{"kind":"subagent_task","status":"cancelled"`,
		`"tool_call_id":"call_late","payload":{"kind":"generic","status":"pending","title":"late","generic"`,
		`"late_dropped":1,`,
	},
	"cursor-agent-draft": {
		`"tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Find dead CSS","prompt":"List CSS rules no template uses","status":"completed","model":"composer-2.5-fast","child_session_id":"sub-1","name":"explore","duration_ms":4200}}`,
		`"session_id":"sub-1","tool_call_id":"tool-9","payload":{"kind":"generic","status":"in_progress","title":"grep -r class=","parent_tool_call_id":"tool-1"`,
		`"tool_call_id":"sub-2","payload":{"kind":"subagent_task","status":"completed","title":"Find unused images","subagent_task":{"description":"Find unused images","status":"completed","child_session_id":"sub-2","name":"explore","cancellable":true}}`,
		`"session_id":"sub-2","tool_call_id":"tool-9","payload":{"kind":"generic","status":"completed","title":"ls assets","parent_tool_call_id":"sub-2"`,
	},
}

// draftStateFrame is the reworked draft's end of child i: idle with stop
// reason stop.
func draftStateFrame(i int, stop string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"%s","update":{"sessionUpdate":"subagent_update","sessionId":"child_%06d","state":{"state":"idle","stopReason":"%s"}}}}`,
		benchSession, i, stop)
}

// draftOpenedConn is an unknown agent's connection that knows 1024 children
// opened by the reworked draft's subagent_update.
func draftOpenedConn(tb testing.TB) *acpdialect.Conn {
	h := newHarness(tb, acpdialect.NewRegistry(), acpdialect.Options{})
	h.initialize("some-agent")
	h.session(2, benchSession)
	h.out([]byte(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"` + benchSession + `","prompt":[]}}`))
	opens, _ := framesOf(1024, func(i int) []byte {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"%s","update":{"sessionUpdate":"subagent_update","sessionId":"child_%06d","title":"Summarize src %d","description":"Summarize the JS files under src","capabilities":{}}}}`,
			benchSession, i, i)
	})
	feed(tb, h.c, opens)
	return h.c
}

// draftStateFrames on draftOpenedConn: each ends a known child, found by
// its session id; the stop reason alternates by round so that every frame
// changes the card.
func draftStateFrames() ([][]byte, int64) {
	stops := [2]string{"end_turn", "cancelled"}
	return framesOf(2048, func(i int) []byte { return draftStateFrame(i%1024, stops[i/1024]) })
}

func BenchmarkInboundSubagentUpdate(b *testing.B) {
	frames, size := draftStateFrames()
	benchInbound(b, draftOpenedConn(b), frames, size)
}

// BenchmarkBaselineSubagentUpdate reads the state and finds the child's
// card.
func BenchmarkBaselineSubagentUpdate(b *testing.B) {
	frames, size := draftStateFrames()
	cards := map[string]string{}
	for i := range 1024 {
		cards[fmt.Sprintf("child_%06d", i)] = fmt.Sprintf("Summarize src %d", i)
	}
	benchBaseline(b, frames, size, func(m map[string]any) {
		_, u := readUpdate(m)
		st := obj(u, "state")
		sinkString = str(st, "state")
		sinkString = str(st, "stopReason")
		sinkString = cards[str(u, "sessionId")]
	})
}

// TestSubagentUpdateBenchFrames: every frame of the benchmark, over more
// than one round, changes a card and is quarantined.
func TestSubagentUpdateBenchFrames(t *testing.T) {
	c := draftOpenedConn(t)
	frames, _ := draftStateFrames()
	for i := range 2 * len(frames) {
		r, err := c.Inbound(frames[i%len(frames)])
		if err != nil || len(r.Events) != 1 || r.Events[0].Type != acpdialect.EventToolCallUpdate || !r.Quarantine {
			t.Fatalf("frame %d: %+v %v", i, r, err)
		}
	}
}

// sessionMessage is a session_message update with the given fields.
func sessionMessage(fields string) string {
	return `{"sessionUpdate":"session_message","messageId":"m"` + fields + `}`
}

// TestSessionMessage: a message to a linked child is its card's prompt
// when the card has none (the parent's outgoing view or the child's
// incoming one; later messages are follow-ups), and one from the child to
// its parent session its result text (the last wins); any other message
// says nothing.
func TestSessionMessage(t *testing.T) {
	const card = `{"type":"tool_call_update","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Fix","subagent_task":{"description":"Fix",%s"subagent_type":"general-purpose","status":"running","child_session_id":"c1"%s}}}`
	open := draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix","description":"general-purpose","state":{"state":"running"}`))
	text := func(s string) string { return `,"content":[{"type":"text","text":"` + s + `"}]` }
	tests := []struct {
		name   string
		frames [][]byte
		want   []string // the last frame's events
	}{
		{"the parent's outgoing view",
			[][]byte{open, draftUpdate("s1", sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1","recipientMessageId":"m"`+text("Make it pass")))},
			[]string{fmt.Sprintf(card, `"prompt":"Make it pass",`, ``)}},
		{"the child's incoming view",
			[][]byte{open, draftUpdate("c1", sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1","senderMessageId":"m"`+text("Make it pass")))},
			[]string{fmt.Sprintf(card, `"prompt":"Make it pass",`, ``)}},
		{"both views: the prompt once",
			[][]byte{open, draftUpdate("s1", sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1"`+text("Make it pass"))),
				draftUpdate("c1", sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1"`+text("Make it pass")))},
			nil},
		{"a follow-up keeps the task",
			[][]byte{open, draftUpdate("s1", sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1"`+text("Make it pass"))),
				draftUpdate("s1", sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1"`+text("Also lint")))},
			nil},
		{"the answer, text blocks joined, others skipped",
			[][]byte{open, draftUpdate("s1", sessionMessage(`,"messageId":"t:reply","senderSessionId":"c1","recipientSessionId":"s1","content":[{"type":"text","text":"Done."},{"type":"image","data":"x"},{"type":"text","text":"All green."}]`))},
			[]string{fmt.Sprintf(card, ``, `,"result_text":"Done.\nAll green."`)}},
		{"a later answer wins",
			[][]byte{open, draftUpdate("s1", sessionMessage(`,"senderSessionId":"c1","recipientSessionId":"s1"`+text("First."))),
				draftUpdate("s1", sessionMessage(`,"senderSessionId":"c1","recipientSessionId":"s1"`+text("Second.")))},
			[]string{fmt.Sprintf(card, ``, `,"result_text":"Second."`)}},
		{"between sessions no card links",
			[][]byte{open, draftUpdate("s1", sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c9"`+text("Hi")))},
			nil},
		{"a child's message to a session that is not its parent",
			[][]byte{open, draftUpdate("c1", sessionMessage(`,"senderSessionId":"c1","recipientSessionId":"s7"`+text("Hi")))},
			nil},
		{"to itself",
			[][]byte{open, draftUpdate("c1", sessionMessage(`,"senderSessionId":"c1","recipientSessionId":"c1"`+text("Hi")))},
			nil},
		{"no text",
			[][]byte{open, draftUpdate("s1", sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1","content":[{"type":"image","data":"x"}]`))},
			nil},
		{"wrong-typed fields",
			[][]byte{open, draftUpdate("s1", sessionMessage(`,"senderSessionId":1,"recipientSessionId":"c1"`+text("Hi")))},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
			var r acpdialect.Result
			for _, f := range tt.frames {
				r = h.in(f)
				if !r.Quarantine {
					t.Errorf("%s not quarantined", f)
				}
			}
			wantEvents(t, r.Events, tt.want...)
		})
	}
}

// FuzzSessionMessage feeds a session_message update, on the parent and on
// the child session of a linked child: the card keeps its child, and
// what it got views nothing of the frame.
func FuzzSessionMessage(f *testing.F) {
	for _, s := range []string{
		sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1","content":[{"type":"text","text":"Run the suite three times"}],"recipientMessageId":"m"`),
		sessionMessage(`,"senderSessionId":"s1","recipientSessionId":"c1","content":[{"type":"text","text":"Run the suite three times"}],"senderMessageId":"m"`),
		sessionMessage(`,"messageId":"toolu_1:reply","senderSessionId":"c1","recipientSessionId":"s1","content":[{"type":"text","text":"No test failed."},{"type":"image","data":"x"}]`),
		sessionMessage(`,"senderSessionId":"c1","recipientSessionId":"c1","content":[{"type":"text","text":"x"}]`),
		sessionMessage(`,"senderSessionId":null,"recipientSessionId":["c1"],"content":{"type":"text"}`),
		`{"sessionUpdate":"session_message","senderSessionId":"s1"`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
		h.in(draftUpdate("s1", subagentUpdate(`,"sessionId":"c1","title":"Fix","state":{"state":"running"}`)))
		for _, sid := range []string{"s1", "c1"} {
			in := draftUpdate(sid, string(b))
			r, err := h.c.Inbound(in)
			if err != nil {
				continue // not JSON: refused whole
			}
			// JSON, not a Clone, whose strings would be the event's.
			var keep [][]byte
			for _, ev := range r.Events {
				if ev.Payload != nil {
					j, _ := json.Marshal(ev.Payload)
					keep = append(keep, j)
				}
			}
			for i := range in {
				in[i] = 'Z'
			}
			i := 0
			for _, ev := range r.Events {
				if ev.Payload == nil {
					continue
				}
				if now, _ := json.Marshal(ev.Payload); !bytes.Equal(now, keep[i]) {
					t.Fatalf("the event views the frame:\n%s\n%s", keep[i], now)
				}
				if st := ev.Payload.SubagentTask; ev.ToolCallID == "c1" && (st == nil || st.ChildSessionID != "c1") {
					t.Fatalf("the card lost its child: %+v", ev.Payload)
				}
				i++
			}
		}
	})
}
