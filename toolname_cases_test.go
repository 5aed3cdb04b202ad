package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	claudedialect "github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/devin"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/tidwall/gjson"
)

// lastField is the JSON at path of the last event.
func lastField(t *testing.T, got []string, path string) string {
	t.Helper()
	if len(got) == 0 {
		t.Fatal("no events")
	}
	return gjson.Get(got[len(got)-1], path).Raw
}

// A standard name survives a Claude async-task half that gives a generic
// card its kind.
func TestToolNameSurvivesNativeKindChange(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: claudedialect.ID})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		toolFrame("tool_call", `,"name":"watch_logs","kind":"other","title":"watch"`),
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"asyncTaskId":"m1","description":"Watch","sessionUpdate":"async_task_spawned","taskType":"monitor","toolCallId":"t1"}}}`,
		toolFrame("tool_call_update", `,"status":"in_progress"`),
	)
	for i, e := range got {
		t.Logf("%d %s", i, e)
	}
	if n := lastField(t, got, "payload.tool"); n != `{"name":"watch_logs"}` {
		t.Errorf("last payload.tool = %s, want {\"name\":\"watch_logs\"}", n)
	}
}

// Same with a vendor name later: the standard one must win.
func TestToolNameNativeKindChangeThenVendor(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: claudedialect.ID})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		toolFrame("tool_call", `,"name":"watch_logs","kind":"other","title":"watch"`),
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"asyncTaskId":"m1","description":"Watch","sessionUpdate":"async_task_spawned","taskType":"monitor","toolCallId":"t1"}}}`,
		toolFrame("tool_call_update", `,"status":"in_progress","_meta":{"claudeCode":{"toolName":"Monitor"}}`),
	)
	if n := lastField(t, got, "payload.tool"); n != `{"name":"watch_logs"}` {
		t.Errorf("last payload.tool = %s, want {\"name\":\"watch_logs\"}\n%q", n, got)
	}
}

// Escaped names, on every read path.
func TestToolNameEscapedName(t *testing.T) {
	for _, agent := range []string{"", claudedialect.ID, devin.ID, grok.ID, codex.ID} {
		c := dialects.Registry().NewConn(acpdialect.Options{Agent: agent})
		if agent == "" {
			c = acpdialect.NewRegistry().NewConn(acpdialect.Options{})
		}
		got := feedFrames(t, c,
			toolFrame("tool_call", `,"name":"a\u0062","kind":"read"`),
			toolFrame("tool_call_update", `,"status":"completed","name":"a\u0062"`),
			toolFrame("tool_call_update", `,"status":"failed"`))
		for _, e := range got {
			if n := gjson.Get(e, "payload.tool.name").Str; n != "ab" {
				t.Errorf("%q: name %q in %s", agent, n, e)
			}
		}
	}
}

// Ownership: the name never views the caller's buffer.
func TestToolNameOwnership(t *testing.T) {
	l := func(s string) ownLine { return ownLine{out: s[0] == '>', b: []byte(s[1:])} }
	for _, agent := range []string{"", claudedialect.ID, devin.ID, grok.ID, codex.ID} {
		lines := []ownLine{
			l(`>{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`),
			l(toolFrame("tool_call", `,"name":"read_file","kind":"read","_meta":{"claudeCode":{"toolName":"Read"}}`)),
			l(toolFrame("tool_call_update", `,"name":"read_file","status":"in_progress"`)),
			l(toolFrame("tool_call_update", `,"name":"grep_x","status":"in_progress"`)),
			l(toolFrame("tool_call_update", `,"status":"completed","_meta":{"claudeCode":{"toolName":"Read"}}`)),
			l(`<{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1"},"options":[{"optionId":"allow","kind":"allow_once"}]}}`),
			l(`<{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`),
		}
		reg := dialects.Registry()
		if agent == "" {
			reg = acpdialect.NewRegistry()
		}
		checkOwnership(t, reg, acpdialect.Options{Agent: agent}, lines)
	}
}

// A permission in session s2 never takes the name of s1's card t1.
func TestPermissionToolNameCardOtherSession(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: claudedialect.ID})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/"}}`,
		`<{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s2"}}`,
		toolFrame("tool_call", `,"kind":"execute","_meta":{"claudeCode":{"toolName":"Bash"}}`),
		`<{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s2","toolCall":{"toolCallId":"t1"},"options":[{"optionId":"allow","kind":"allow_once"}]}}`,
	)
	if n := gjson.Get(got[len(got)-1], "permission.tool_name").Str; n != "" {
		t.Errorf("tool_name %q from another session's card\n%q", n, got)
	}
}

// A tool_call that restarts a card in a later turn drops the old name.
func TestToolNameRestartDropsName(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: claudedialect.ID})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		toolFrame("tool_call", `,"name":"read_file","kind":"read"`),
		`<{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`,
		`>{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		toolFrame("tool_call", `,"kind":"read","_meta":{"claudeCode":{"toolName":"Grep"}}`),
	)
	if n := lastField(t, got, "payload.tool"); n != `{"name":"Grep"}` {
		t.Errorf("payload.tool = %s\n%q", n, got)
	}
}

// Both sessions hold a card t1: a permission in s2 must take s2's card's
// name, not that of s1 (busy with a turn).
func TestPermissionToolNameCardOtherSessionBoth(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: claudedialect.ID})
	frameIn := func(sid, members string) string {
		return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":{"sessionUpdate":"tool_call","toolCallId":"t1"` + members + `}}}`
	}
	got := feedFrames(t, c,
		frameIn("s2", `,"kind":"read","_meta":{"claudeCode":{"toolName":"Read"}}`),
		`>{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		frameIn("s1", `,"kind":"execute","_meta":{"claudeCode":{"toolName":"Bash"}}`),
		`<{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s2","toolCall":{"toolCallId":"t1"},"options":[{"optionId":"allow","kind":"allow_once"}]}}`,
	)
	last := got[len(got)-1]
	if s, n := gjson.Get(last, "session_id").Str, gjson.Get(last, "permission.tool_name").Str; s != "s2" || n != "Read" {
		t.Errorf("session %q tool_name %q, want s2 Read\n%s", s, n, last)
	}
}

func TestToolNameCodexTouchRunKeepsName(t *testing.T) {
	up := func(u string) string {
		return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
	}
	spawn := `{"sessionUpdate":"tool_call","toolCallId":"t1","name":"spawn_agent","kind":"other","title":"spawnAgent","status":"in_progress",` +
		`"rawInput":{"prompt":"Do.","senderThreadId":"main","receiverThreadIds":["c1"],"agentsStates":{"c1":{"status":"running","message":"m"}},"model":"gpt-5.2","status":"inProgress"},` +
		`"_meta":{"codex":{"collaboration":{"tool":"spawnAgent","senderThreadId":"main","receiverThreadIds":["c1"]}}}}`
	wait := `{"sessionUpdate":"tool_call","toolCallId":"t2","name":"wait_agent","kind":"other","title":"wait","status":"completed",` +
		`"rawInput":{"senderThreadId":"main","receiverThreadIds":["c1"],"agentsStates":{"c1":{"status":"completed","message":null}}},` +
		`"_meta":{"codex":{"collaboration":{"tool":"wait","senderThreadId":"main","receiverThreadIds":["c1"]}}}}`
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: codex.ID})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		up(spawn), up(wait))
	for _, e := range got {
		t.Log(e)
		id := gjson.Get(e, "tool_call_id").Str
		n := gjson.Get(e, "payload.tool.name").Str
		if (id == "t1" && n != "spawn_agent") || (id == "t2" && n != "wait_agent") {
			t.Errorf("card %s named %q", id, n)
		}
	}
}
