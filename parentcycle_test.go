package acpdialect_test

import (
	"fmt"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
)

// claudeCall is a Claude tool call frame (kind tool_call or
// tool_call_update) of session sid for card id, made inside the subagent
// tool call parent ("" for none).
func claudeCall(sid, kind, id, parent string) string {
	meta := `"toolName":"Read"`
	if parent != "" {
		meta += fmt.Sprintf(`,"parentToolUseId":%q`, parent)
	}
	return string(seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":%q,"toolCallId":%q,"kind":"read","status":"pending","_meta":{"claudeCode":{%s}}}`, kind, id, meta)))
}

// devinCall is a Devin tool call frame (kind tool_call or
// tool_call_update) of card id, tagged as the work of agent parent.
func devinCall(kind, id, parent string) string {
	return string(seqUpdate("s1", fmt.Sprintf(`{"sessionUpdate":%q,"toolCallId":%q,"status":"in_progress",`+
		`"_meta":{"cognition.ai/subagent_context":{"parentAgentId":%q}}}`, kind, id, parent)))
}

// TestParentCycleRefused: a card never takes a parent whose chain leads
// back to itself, whatever the dialect read it from: the card keeps the
// parent it had, so that a client walking up the cards stops.
func TestParentCycleRefused(t *testing.T) {
	tests := []struct {
		name   string
		agent  string
		frames []string
		want   map[string]string // card (session/id) -> its parent, as last reported
	}{
		{"claude: two cards naming each other", "claude", []string{
			claudeCall("s1", "tool_call", "t1", "t2"),
			claudeCall("s1", "tool_call", "t2", "t1"),
		}, map[string]string{"s1/t1": "t2", "s1/t2": ""}},
		{"claude: an update names the card's child", "claude", []string{
			claudeCall("s1", "tool_call", "t4", ""),
			claudeCall("s1", "tool_call", "t1", "t4"),
			claudeCall("s1", "tool_call_update", "t4", "t1"),
			claudeCall("s1", "tool_call_update", "t4", "t3"), // taken: kept once set, set only now
		}, map[string]string{"s1/t1": "t4", "s1/t4": "t3"}},
		{"claude: a cycle of three", "claude", []string{
			claudeCall("s1", "tool_call", "t1", "t2"),
			claudeCall("s1", "tool_call", "t2", "t3"),
			claudeCall("s1", "tool_call", "t3", "t1"),
		}, map[string]string{"s1/t1": "t2", "s1/t2": "t3", "s1/t3": ""}},
		{"claude: its own parent", "claude", []string{
			claudeCall("s1", "tool_call", "t1", "t1"),
		}, map[string]string{"s1/t1": ""}},
		{"claude: a chain with no cycle is taken", "claude", []string{
			claudeCall("s1", "tool_call", "t1", "t2"),
			claudeCall("s1", "tool_call", "t2", "t3"),
			claudeCall("s1", "tool_call", "t4", "t1"),
		}, map[string]string{"s1/t1": "t2", "s1/t2": "t3", "s1/t4": "t1"}},
		{"claude: the same ids in another session make no cycle", "claude", []string{
			claudeCall("s1", "tool_call", "t1", "t2"),
			claudeCall("s2", "tool_call", "t2", "t1"),
		}, map[string]string{"s1/t1": "t2", "s2/t2": "t1"}},
		// A child session's card that shares the id of the card the
		// session nests under: the parent of that id is the card in the
		// parent session, which a client finds, not the child's own.
		{"claude: the session's parent card is in another session", "claude", []string{
			claudeCall("c1", "tool_call", "c1", "x"),
			claudeCall("c1", "tool_call", "x", ""),
			string(seqUpdate("s1", `{"sessionUpdate":"subagent_update","sessionId":"c1","title":"T","description":"d","capabilities":{}}`)),
			claudeCall("c1", "tool_call_update", "x", "c1"),
		}, map[string]string{"c1/c1": "x", "c1/x": "c1", "s1/c1": ""}},
		// Devin names a card's parent on every update, and a new one
		// replaces it: the refused parent leaves the one the card had.
		{"devin: a refused parent keeps the old one", "devin", []string{
			devinCall("tool_call", "a", "x"),
			devinCall("tool_call", "b", "a"),
			devinCall("tool_call_update", "a", "b"),
			devinCall("tool_call_update", "a", "y"), // no cycle: taken
			devinCall("tool_call_update", "a", "b"),
		}, map[string]string{"s1/a": "y", "s1/b": "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialects.Registry().NewConn(acpdialect.Options{Agent: tt.agent})
			got := map[string]string{}
			for _, f := range tt.frames {
				res, err := c.Inbound([]byte(f))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				for _, e := range res.Events {
					if e.Payload != nil {
						got[e.SessionID+"/"+e.ToolCallID] = e.Payload.ParentToolCallID
					}
				}
			}
			for k, want := range tt.want {
				if p, ok := got[k]; !ok || p != want {
					t.Errorf("card %s: parent %q (reported %t), want %q", k, p, ok, want)
				}
			}
		})
	}
}
