package claude_test

import (
	"encoding/json"
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
)

// A Conn identified as claude-agent-acp turns a subagent's tool call and
// its nested text into a subagent_task card and a message nested under it.
func Example() {
	c := acpdialect.NewRegistry(claude.Dialect()).NewConn(acpdialect.Options{})
	frames := []string{
		`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`<{"jsonrpc":"2.0","id":0,"result":{"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp"},"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":true}}}}}`,
		`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","kind":"think","title":"Explore","status":"in_progress","rawInput":{"description":"Explore","prompt":"Find the parser"},"_meta":{"claudeCode":{"toolName":"Agent"}}}}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Looking."},"_meta":{"claudeCode":{"parentToolUseId":"t1"}}}}}`,
	}
	for _, f := range frames {
		var res acpdialect.Result
		if f[0] == '>' {
			res, _ = c.Outbound([]byte(f[1:]))
		} else {
			res, _ = c.Inbound([]byte(f[1:]))
		}
		for _, ev := range res.Events {
			b, _ := json.Marshal(ev)
			fmt.Println(string(b))
		}
	}
	// Output:
	// {"type":"capabilities","agent":"claude","method":"initialize","id":0,"capabilities":{"prompt_queueing":true}}
	// {"type":"tool_call","agent":"claude","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Explore","tool":{"name":"Agent"},"subagent_task":{"description":"Explore","prompt":"Find the parser"}}}
	// {"type":"message","agent":"claude","session_id":"s1","message":{"role":"assistant","text":"Looking.","parent_tool_call_id":"t1"}}
}

// Claude names an MCP tool mcp__<server>__<tool>; an ambiguous name is
// left unparsed.
func ExampleParseMCPName() {
	fmt.Println(claude.ParseMCPName("mcp__docs__search"))
	fmt.Println(claude.ParseMCPName("mcp__a___b"))
	// Output:
	// docs search true
	//   false
}

// Match takes claude-agent-acp's names exactly, not every name that
// mentions Claude.
func ExampleMatch() {
	fmt.Println(claude.Match("@agentclientprotocol/claude-agent-acp", "Claude Agent"))
	fmt.Println(claude.Match("claude-code (cursor-compatible)", ""))
	// Output:
	// true
	// false
}
