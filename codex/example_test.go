package codex_test

import (
	"encoding/json"
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/codex"
)

// A Codex connection turns a spawnAgent tool call into a subagent card,
// and a second child under the same tool call id into a card of its own.
func ExampleDialect() {
	reg := acpdialect.NewRegistry(codex.Dialect())
	c := reg.NewConn(acpdialect.Options{})
	_, _ = c.Outbound([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`))
	for _, f := range []string{
		`{"jsonrpc":"2.0","id":0,"result":{"agentInfo":{"name":"codex-acp"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call-1","title":"spawnAgent","status":"in_progress","rawInput":{"prompt":"Check the weather.","receiverThreadIds":["thread-a"]},"_meta":{"codex":{"collaboration":{"tool":"spawnAgent","senderThreadId":"main","receiverThreadIds":["thread-a"]}}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call-1","title":"Start subagent","status":"completed","_meta":{"codex":{"subagent":{"threadId":"thread-b","path":"/root/news","activity":"started"}}}}}}`,
	} {
		res, _ := c.Inbound([]byte(f))
		for _, ev := range res.Events {
			b, _ := json.Marshal(ev)
			fmt.Println(string(b))
		}
	}
	// Output:
	// {"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"call-1","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","subagent_task":{"description":"Check the weather.","prompt":"Check the weather.","child_session_id":"thread-a"}}}
	// {"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"call-1~run~dGhyZWFkLWI","payload":{"kind":"subagent_task","status":"completed","title":"Start subagent","wire_tool_call_id":"call-1","subagent_task":{"description":"news","subagent_type":"news","status":"started","child_session_id":"thread-b"}}}
}

// ParseModelID splits Codex's "model[effort]" ids.
func ExampleParseModelID() {
	fmt.Println(codex.ParseModelID("gpt-5.2[high]"))
	fmt.Println(codex.ParseModelID("gpt-5.2"))
	// Output:
	// gpt-5.2 high
	// gpt-5.2
}
