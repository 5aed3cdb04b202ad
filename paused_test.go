package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
)

// ACP v2's paused status is a card status on every connection: a tool
// call that started goes paused and back to in_progress any number of
// times, then ends. An update that came before its tool_call said more
// than the tool_call does: its paused stays over the tool_call's pending
// or in_progress, and an end it said is never moved back to paused.
func TestToolCallPaused(t *testing.T) {
	h := draftConn(t, acpdialect.NewRegistry(), "some-agent")
	update := func(typ, fields string) []byte {
		return draftUpdate("s1", `{"sessionUpdate":"`+typ+`","toolCallId":"w1"`+fields+`}`)
	}
	card := func(typ, status string) []string {
		return []string{`{"type":"` + typ + `","session_id":"s1","tool_call_id":"w1","payload":{"kind":"generic","status":"` + status + `","title":"Workflow","generic":{"acp_kind":"other"}}}`}
	}
	playSteps(t, h, []subagentStep{
		{"started", update("tool_call", `,"title":"Workflow","kind":"other","status":"in_progress"`), card("tool_call", "in_progress")},
		{"paused", update("tool_call_update", `,"status":"paused"`), card("tool_call_update", "paused")},
		{"paused again changes nothing", update("tool_call_update", `,"status":"paused"`), nil},
		{"resumed", update("tool_call_update", `,"status":"in_progress"`), card("tool_call_update", "in_progress")},
		{"paused once more", update("tool_call_update", `,"status":"paused"`), card("tool_call_update", "paused")},
		{"ended while paused", update("tool_call_update", `,"status":"cancelled"`), card("tool_call_update", "cancelled")},
	})
	for _, c := range []struct{ early, call, want string }{
		{"paused", "pending", "paused"},
		{"paused", "in_progress", "paused"},
		{"completed", "paused", "completed"},
		{"in_progress", "paused", "paused"},
	} {
		id := "w-" + c.early + "-" + c.call
		h.in(draftUpdate("s1", `{"sessionUpdate":"tool_call_update","toolCallId":"`+id+`","status":"`+c.early+`"}`))
		r := h.in(draftUpdate("s1", `{"sessionUpdate":"tool_call","toolCallId":"`+id+`","title":"Workflow","kind":"other","status":"`+c.call+`"}`))
		if len(r.Events) != 1 || r.Events[0].Payload.Status != c.want {
			t.Errorf("an early %s, then the tool_call's %s: %s, want status %s", c.early, c.call, eventLines(t, r.Events), c.want)
		}
	}
}
