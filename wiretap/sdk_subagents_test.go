package wiretap_test

import (
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// TestSDKSubagentDraftQuarantine: the ACP subagents draft's kinds, which
// the SDK does not know, are quarantined on every connection, whichever
// dialect it was identified as and when it was identified as none: both
// shapes of subagent_update and the child's session_message reach the
// client on the quarantine method, handled, params as sent, in order with
// the standard frames around them, which reach the SDK as they were; and
// the child's card and its nested tool call reach OnEvent. So do ACP
// v2's state_update and terminal updates, which the SDK would read as
// session_info_updates; the terminal's output reaches the tool call's
// card.
func TestSDKSubagentDraftQuarantine(t *testing.T) {
	for _, agent := range []string{"some-new-agent", "cursor-agent", "@agentclientprotocol/claude-agent-acp", "codex-acp", "grok-build"} {
		t.Run(agent, func(t *testing.T) {
			h := startReg(t, dialects.Registry(), acpdialect.Options{}, wiretap.Options{})
			h.handshake(agent)
			end := h.prompt()
			chunk := func(sid, text string) []byte {
				return testwire.SessionUpdate(sid, map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}})
			}
			upd := func(sid string, u map[string]any) []byte { return testwire.SessionUpdate(sid, u) }
			frames := [][]byte{
				chunk(h.sid, "a"),
				upd(h.sid, map[string]any{"sessionUpdate": "subagent_update", "sessionId": "child-1", "title": "Fix the build", "description": "Make it pass", "capabilities": map[string]any{}}),
				upd("child-1", map[string]any{"sessionUpdate": "session_message", "messageId": "prompt", "senderSessionId": h.sid, "recipientSessionId": "child-1",
					"content": []any{map[string]any{"type": "text", "text": "Make it pass"}}}),
				upd("child-1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "run-1", "title": "make", "kind": "execute", "status": "pending"}),
				upd(h.sid, map[string]any{"sessionUpdate": "subagent_update", "subagentSessionId": "child-2", "name": "explore", "task": "Scan", "capabilities": map[string]any{"cancel": true}, "state": "running"}),
				upd(h.sid, map[string]any{"sessionUpdate": "subagent_update", "sessionId": "child-1", "state": map[string]any{"state": "idle", "stopReason": "end_turn"}}),
				upd(h.sid, map[string]any{"sessionUpdate": "subagent_update", "subagentSessionId": "child-2", "state": "cancelled"}),
				chunk(h.sid, "b"),
				upd(h.sid, map[string]any{"sessionUpdate": "state_update", "state": "running", "background": []any{map[string]any{"type": "subagent", "sessionId": "child-1"}}}),
				upd("child-1", map[string]any{"sessionUpdate": "terminal_update", "terminalId": "run-1", "command": "make", "capabilities": map[string]any{"cancel": map[string]any{}}}),
				upd("child-1", map[string]any{"sessionUpdate": "terminal_output_chunk", "terminalId": "run-1", "data": "bWFrZTogKioqIEVycm9yIDI="}),
			}
			h.send(frames...)
			end()
			if rest := h.rest(); len(rest) != 0 {
				t.Fatalf("agent got frames: %q", rest)
			}
			log, ext := h.client.calls()
			q := "ext:" + wiretap.QuarantineMethod + ":"
			want := strings.Join([]string{"chunk:a", q, q, "tool_call:run-1", q, q, q, "chunk:b", q, q, q}, " ")
			if got := strings.Join(log, " "); got != want {
				t.Fatalf("client saw %s\nwant      %s", got, want)
			}
			quarantined := []int{1, 2, 4, 5, 6, 8, 9, 10}
			if len(ext) != len(quarantined) {
				t.Fatalf("extension calls %+v", ext)
			}
			for i, f := range quarantined {
				if wantParams := gjson.GetBytes(frames[f], "params").Raw; ext[i].params != wantParams || !ext[i].handled || ext[i].err != nil {
					t.Fatalf("call %d: params %s handled %v err %v, want handled as sent: %s", i, ext[i].params, ext[i].handled, ext[i].err, wantParams)
				}
			}
			if st := h.tap.Stats(); st.Quarantined != uint64(len(quarantined)) {
				t.Fatalf("stats %+v", st)
			}
			cards := map[string]*acpdialect.Payload{}
			var state *acpdialect.State
			for _, ev := range h.rec.all() {
				if ev.Payload != nil {
					cards[ev.ToolCallID] = ev.Payload
				}
				if ev.State() != nil {
					state = ev.State()
				}
			}
			if state == nil || state.State != acpdialect.StateRunning || len(state.Background) != 1 || state.Background[0].ID != "child-1" {
				t.Fatalf("state %+v", state)
			}
			if c := cards["child-1"]; c == nil || c.SubagentTask == nil || c.SubagentTask.ChildSessionID != "child-1" ||
				c.Status != acpdialect.StatusCompleted || c.SubagentTask.Status != acpdialect.SubagentCompleted {
				t.Fatalf("child-1 card %+v", c)
			}
			if c := cards["child-2"]; c == nil || c.SubagentTask == nil || c.Status != acpdialect.StatusCancelled || c.SubagentTask.Name != "explore" {
				t.Fatalf("child-2 card %+v", c)
			}
			if c := cards["run-1"]; c == nil || c.ParentToolCallID != "child-1" || c.Kind != acpdialect.KindShell ||
				*c.Shell != (acpdialect.Shell{Command: "make", TerminalID: "run-1", Output: "make: *** Error 2", Cancellable: true}) {
				t.Fatalf("child tool call %+v", c)
			}
		})
	}
}
