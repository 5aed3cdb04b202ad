package wiretap_test

import (
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// TestSDKClaudeQuarantine: Claude's native subagent update and AIR's async
// task updates, which the SDK does not know (it would read one with
// content as a user chunk, and drop the rest), reach the client on the
// quarantine method with their params as sent, in order; the standard
// frames around them, a nested chunk and usage_update included, reach the
// SDK as they were; and the cards reach OnEvent.
func TestSDKClaudeQuarantine(t *testing.T) {
	h := startReg(t, acpdialect.NewRegistry(cursor.Dialect(), claude.Dialect()), acpdialect.Options{}, wiretap.Options{})
	h.handshake("@agentclientprotocol/claude-agent-acp")
	end := h.prompt()
	chunk := func(text string, meta map[string]any) []byte {
		u := map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}}
		if meta != nil {
			u["_meta"] = meta
		}
		return testwire.SessionUpdate(h.sid, u)
	}
	upd := func(u map[string]any) []byte { return testwire.SessionUpdate(h.sid, u) }
	frames := [][]byte{
		chunk("a", nil),
		upd(map[string]any{"sessionUpdate": "subagent_update", "sessionId": "task_1", "title": "Fix the build", "description": "Make it pass", "capabilities": map[string]any{}}),
		chunk("b", map[string]any{"claudeCode": map[string]any{"parentToolUseId": "toolu_x"}}),
		upd(map[string]any{"sessionUpdate": "async_task_spawned", "asyncTaskId": "monitor_1", "taskType": "monitor", "name": "Watch", "description": "tail -f log", "toolCallId": "toolu_mon"}),
		upd(map[string]any{"sessionUpdate": "async_task_progress", "asyncTaskId": "monitor_1", "summary": "line one"}),
		upd(map[string]any{"sessionUpdate": "usage_update", "used": 2, "size": 200000, "_meta": map[string]any{"_claude/model": "claude-sonnet-4-6"}}),
		upd(map[string]any{"sessionUpdate": "async_task_state_update", "asyncTaskId": "monitor_1", "state": "completed"}),
		upd(map[string]any{"sessionUpdate": "subagent_update", "sessionId": "task_1", "state": map[string]any{"state": "idle", "stopReason": "end_turn"}}),
		chunk("c", nil),
	}
	h.send(frames...)
	end()
	if rest := h.rest(); len(rest) != 0 {
		t.Fatalf("agent got frames: %q", rest)
	}
	log, ext := h.client.calls()
	q := "ext:" + wiretap.QuarantineMethod + ":"
	// usage_update reaches the SDK as a standard update ("other" here).
	want := strings.Join([]string{"chunk:a", q, "chunk:b", q, q, "other", q, q, "chunk:c"}, " ")
	got := strings.Join(log, " ")
	if got != want {
		t.Fatalf("client saw %s\nwant      %s", got, want)
	}
	quarantined := []int{1, 3, 4, 6, 7}
	if len(ext) != len(quarantined) {
		t.Fatalf("extension calls %+v", ext)
	}
	for i, f := range quarantined {
		if wantParams := gjson.GetBytes(frames[f], "params").Raw; ext[i].params != wantParams || !ext[i].handled {
			t.Fatalf("call %d: params %s handled %v, want as sent: %s", i, ext[i].params, ext[i].handled, wantParams)
		}
	}
	if st := h.tap.Stats(); st.Quarantined != uint64(len(quarantined)) {
		t.Fatalf("stats %+v", st)
	}
	cards := map[string]*acpdialect.Payload{}
	var nested bool
	for _, ev := range h.rec.all() {
		if ev.Payload != nil {
			cards[ev.ToolCallID] = ev.Payload
		}
		if m := ev.Message(); m != nil && m.ParentToolCallID == "toolu_x" && m.Text == "b" {
			nested = true
		}
	}
	if c := cards["task_1"]; c == nil || c.SubagentTask == nil || c.SubagentTask.ChildSessionID != "task_1" || c.Status != acpdialect.StatusCompleted {
		t.Fatalf("subagent card %+v", c)
	}
	if c := cards["toolu_mon"]; c == nil || c.Monitor == nil || c.Monitor.EventCount != 1 || !c.Monitor.Ended || c.Status != acpdialect.StatusCompleted {
		t.Fatalf("monitor card %+v", c)
	}
	if !nested {
		t.Fatal("no nested message event")
	}
}
