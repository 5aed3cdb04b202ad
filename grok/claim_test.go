package grok_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/grok"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// claimConn is a Grok connection with session p open and a turn in flight.
func claimConn(t *testing.T) *acpdialect.Conn {
	t.Helper()
	c := acpdialect.NewRegistry(grok.Dialect()).NewConn(acpdialect.Options{Agent: grok.ID})
	feed(t, c, ">"+string(tw.Request(1, "session/new", map[string]any{"cwd": "/w", "mcpServers": []any{}})),
		"<"+string(tw.Response(1, map[string]any{"sessionId": "p"})), ">"+string(tw.Prompt(2, "p", "go")))
	return c
}

// run feeds one frame from the agent and returns its events as JSON lines.
func run(t *testing.T, c *acpdialect.Conn, f []byte) string {
	t.Helper()
	var b strings.Builder
	for _, ev := range feed(t, c, "<"+string(f)).Events {
		j, _ := json.Marshal(ev)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

func spawnCall(id string) []byte {
	return tw.SessionUpdate("p", map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "spawn_subagent",
		"rawInput": map[string]any{"prompt": "P " + id, "description": "D " + id},
		"_meta":    map[string]any{"x.ai/tool": map[string]any{"name": "spawn_subagent", "kind": "task"}}})
}

func spawned(child string) []byte {
	return tw.Notify("_x.ai/session_notification", map[string]any{"sessionId": "p", "update": map[string]any{
		"sessionUpdate": "subagent_spawned", "subagent_id": child, "parent_session_id": "p", "child_session_id": child, "subagent_type": "general-purpose"}})
}

func childSays(child, text string) []byte {
	return tw.SessionUpdate(child, map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}})
}

func completed(id, child string) []byte {
	return tw.SessionUpdate("p", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
		"rawOutput": map[string]any{"type": "SubagentCompleted", "subagent_id": child, "output": "done"}})
}

// TestClaim pins which spawn card subagent_spawned claims its child for
// (acpdialect.Child.Claim): the only open spawn card of the session that
// names no child; with none or several the child waits for the card whose
// result names it, its text held until then.
func TestClaim(t *testing.T) {
	nested := func(child, id, text string) string {
		return `{"type":"message","agent":"grok","session_id":"` + child + `","message":{"role":"assistant","text":"` + text + `","parent_tool_call_id":"` + id + `"}}`
	}
	t.Run("one open spawn: claimed at once", func(t *testing.T) {
		c := claimConn(t)
		run(t, c, spawnCall("c1"))
		out := run(t, c, spawned("k1"))
		if !strings.Contains(out, `"tool_call_id":"c1","payload":{"kind":"subagent_task","title":"spawn_subagent"`) ||
			!strings.Contains(out, `"status":"running","agent_id":"k1","child_session_id":"k1"}`) {
			t.Fatalf("spawned:\n%s", out)
		}
		if out := run(t, c, childSays("k1", "hi")); !strings.Contains(out, nested("k1", "c1", "hi")) {
			t.Errorf("the child's text is not nested as it comes:\n%s", out)
		}
	})
	t.Run("two open spawns: neither claimed, the result links", func(t *testing.T) {
		c := claimConn(t)
		run(t, c, spawnCall("c1"))
		run(t, c, spawnCall("c2"))
		if out := run(t, c, spawned("k2")); out != "" {
			t.Fatalf("spawned claimed a card of two:\n%s", out)
		}
		if out := run(t, c, childSays("k2", "held")); out != "" {
			t.Fatalf("a held message went out:\n%s", out)
		}
		out := run(t, c, completed("c2", "k2"))
		if !strings.Contains(out, nested("k2", "c2", "held")) || !strings.Contains(out, `"subagent_type":"general-purpose"`) {
			t.Errorf("the result did not link the child, or the waiting half was lost:\n%s", out)
		}
	})
	t.Run("an ended spawn or one with a child is no candidate", func(t *testing.T) {
		c := claimConn(t)
		run(t, c, spawnCall("done"))
		run(t, c, tw.SessionUpdate("p", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "done", "status": "failed",
			"rawOutput": map[string]any{"error": "e", "message": "m"}}))
		run(t, c, spawnCall("busy"))
		run(t, c, spawned("k0")) // claims busy, the only open one
		run(t, c, spawnCall("c3"))
		out := run(t, c, spawned("k3"))
		if !strings.Contains(out, `"tool_call_id":"c3"`) || !strings.Contains(out, `"child_session_id":"k3"`) {
			t.Fatalf("spawned did not claim the one open card without a child:\n%s", out)
		}
	})
	t.Run("a card of another description is no candidate", func(t *testing.T) {
		c := claimConn(t)
		run(t, c, spawnCall("c5"))
		out := run(t, c, tw.Notify("_x.ai/session_notification", map[string]any{"sessionId": "p", "update": map[string]any{
			"sessionUpdate": "subagent_spawned", "subagent_id": "k5", "parent_session_id": "p", "child_session_id": "k5", "description": "another"}}))
		if out != "" {
			t.Fatalf("a start of another description claimed the card:\n%s", out)
		}
		out = run(t, c, tw.Notify("_x.ai/session_notification", map[string]any{"sessionId": "p", "update": map[string]any{
			"sessionUpdate": "subagent_spawned", "subagent_id": "k6", "parent_session_id": "p", "child_session_id": "k6", "description": "D c5"}}))
		if !strings.Contains(out, `"child_session_id":"k6"`) {
			t.Fatalf("a start of the card's description did not claim it:\n%s", out)
		}
	})
	t.Run("a child the card may not take: no claim, the card untouched", func(t *testing.T) {
		c := claimConn(t)
		run(t, c, spawnCall("c7"))
		out := run(t, c, tw.Notify("_x.ai/session_notification", map[string]any{"sessionId": "p", "update": map[string]any{
			"sessionUpdate": "subagent_spawned", "subagent_id": "p", "parent_session_id": "p", "child_session_id": "p", "model": "m-wrong"}}))
		if out != "" {
			t.Fatalf("a start naming the parent's own session changed a card:\n%s", out)
		}
		out = run(t, c, completed("c7", "k7"))
		if strings.Contains(out, "m-wrong") || !strings.Contains(out, `"child_session_id":"k7"`) {
			t.Errorf("the refused start's values reached the card, or the result did not name its child:\n%s", out)
		}
	})
	t.Run("a start names another description: the card without one is no candidate", func(t *testing.T) {
		c := claimConn(t)
		run(t, c, tw.SessionUpdate("p", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c8", "title": "spawn_subagent",
			"rawInput": map[string]any{"prompt": "P"}, "_meta": map[string]any{"x.ai/tool": map[string]any{"name": "spawn_subagent", "kind": "task"}}}))
		out := run(t, c, tw.Notify("_x.ai/session_notification", map[string]any{"sessionId": "p", "update": map[string]any{
			"sessionUpdate": "subagent_spawned", "subagent_id": "k9", "parent_session_id": "p", "child_session_id": "k9", "description": "other"}}))
		if out != "" {
			t.Fatalf("a start claimed a card without a description:\n%s", out)
		}
	})
	t.Run("no open spawn: the half waits", func(t *testing.T) {
		c := claimConn(t)
		if out := run(t, c, spawned("k4")); out != "" {
			t.Fatalf("spawned made an event:\n%s", out)
		}
		run(t, c, spawnCall("c4"))
		out := run(t, c, completed("c4", "k4"))
		if !strings.Contains(out, `"subagent_type":"general-purpose","status":"completed","agent_id":"k4","child_session_id":"k4"`) {
			t.Errorf("the waiting half was not merged at the link:\n%s", out)
		}
	})
}
