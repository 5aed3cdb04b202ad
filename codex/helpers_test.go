package codex_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/codex"
)

// conn is a Codex connection in a turn of session s1.
func conn(t testing.TB, opts acpdialect.Options) *acpdialect.Conn {
	t.Helper()
	if opts.Agent == "" {
		opts.Agent = codex.ID
	}
	c := acpdialect.NewRegistry(codex.Dialect()).NewConn(opts)
	if _, err := c.Outbound([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)); err != nil {
		t.Fatal(err)
	}
	return c
}

// feed sends frames (agent -> client, or client -> agent when prefixed
// with '>') and returns the events' JSON, one per line.
func feed(t testing.TB, c *acpdialect.Conn, frames ...string) string {
	t.Helper()
	var out []string
	for _, f := range frames {
		var res acpdialect.Result
		var err error
		if strings.HasPrefix(f, ">") {
			res, err = c.Outbound([]byte(f[1:]))
		} else {
			res, err = c.Inbound([]byte(f))
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if res.Reply != nil {
			t.Errorf("%s: replied %s: Codex frames are the client's to answer", f, res.Reply)
		}
		for _, ev := range res.Events {
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	return strings.Join(out, "\n")
}

// update is a session/update of s1 carrying the update object u.
func update(u string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
}

// spawn is a spawnAgent tool call (kind tool_call or tool_call_update)
// for child, sent by sender, with the child's state.
func spawn(kind, id, sender, child, status, message string) string {
	return update(fmt.Sprintf(`{"sessionUpdate":%q,"toolCallId":%q,"kind":"other","title":"spawnAgent","status":"in_progress",`+
		`"rawInput":{"prompt":"Do %s.","senderThreadId":%q,"receiverThreadIds":[%q],"agentsStates":{%q:{"status":%q,"message":%q}},"model":"gpt-5.2","status":"inProgress"},`+
		`"_meta":{"codex":{"collaboration":{"tool":"spawnAgent","senderThreadId":%q,"receiverThreadIds":[%q]}}}}`,
		kind, id, child, sender, child, child, status, message, sender, child))
}

// activity is a subagent activity tool call for child.
func activity(id, child, path, act string) string {
	return update(fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"title":"Start subagent","kind":"other","status":"completed",`+
		`"rawInput":{"agentThreadId":%q,"agentPath":%q,"activityKind":%q},"_meta":{"codex":{"subagent":{"threadId":%q,"path":%q,"activity":%q}}}}`,
		id, child, path, act, child, path, act))
}

// collab is a collaboration tool call of tool for children, with each
// child's status.
func collab(id, tool, status string, children ...string) string {
	var states []string
	for _, c := range children {
		states = append(states, fmt.Sprintf(`%q:{"status":%q,"message":null}`, c, status))
	}
	ids, _ := json.Marshal(children)
	return update(fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"kind":"other","title":%q,"status":"completed",`+
		`"rawInput":{"senderThreadId":"main","receiverThreadIds":%s,"agentsStates":{%s}},`+
		`"_meta":{"codex":{"collaboration":{"tool":%q,"senderThreadId":"main","receiverThreadIds":%s}}}}`,
		id, tool, ids, strings.Join(states, ","), tool, ids))
}

// has fails the test for each fragment of want that out lacks and each of
// notWant that it has.
func has(t *testing.T, out string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %s:\n%s", w, out)
		}
	}
	for _, w := range notWant {
		if strings.Contains(out, w) {
			t.Errorf("output has %s:\n%s", w, out)
		}
	}
}
