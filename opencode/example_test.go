package opencode_test

import (
	"encoding/json"
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/opencode"
)

// An OpenCode connection makes the task tool a subagent card and, when
// its completion names the child session, nests the child's card and
// message that came before it under the task.
func ExampleDialect() {
	reg := acpdialect.NewRegistry(opencode.Dialect())
	c := reg.NewConn(acpdialect.Options{})
	for _, f := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"root","prompt":[]}}`,
	} {
		_, _ = c.Outbound([]byte(f))
	}
	for _, f := range []string{
		`{"jsonrpc":"2.0","id":0,"result":{"agentInfo":{"name":"OpenCode","version":"1.14.2"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"root","update":{"sessionUpdate":"tool_call","toolCallId":"call_task","title":"task","kind":"think","status":"pending","rawInput":{}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"ses_child","update":{"sessionUpdate":"tool_call","toolCallId":"call_c1","title":"read","kind":"read","status":"completed"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"ses_child","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Read it."}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"root","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_task","status":"completed","title":"read the notes","rawInput":{"description":"read the notes","prompt":"Read notes.md","subagent_type":"explore"},"rawOutput":{"output":"task_id: ses_child\n\n<task_result>\nRead it.\n</task_result>","metadata":{"sessionId":"ses_child","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}}}}}}`,
	} {
		res, _ := c.Inbound([]byte(f))
		for _, ev := range res.Events {
			b, _ := json.Marshal(ev)
			fmt.Println(string(b))
		}
	}
	// Output:
	// {"type":"tool_call","agent":"opencode","session_id":"root","tool_call_id":"call_task","payload":{"kind":"subagent_task","status":"pending","title":"task","subagent_task":{}}}
	// {"type":"tool_call","agent":"opencode","session_id":"ses_child","tool_call_id":"call_c1","payload":{"kind":"generic","status":"completed","title":"read","generic":{"acp_kind":"read"}}}
	// {"type":"tool_call_update","agent":"opencode","session_id":"root","tool_call_id":"call_task","payload":{"kind":"subagent_task","status":"completed","title":"read the notes","subagent_task":{"description":"read the notes","prompt":"Read notes.md","subagent_type":"explore","model":"anthropic/claude-sonnet-4-5","child_session_id":"ses_child","result_text":"Read it."}}}
	// {"type":"tool_call_update","agent":"opencode","session_id":"ses_child","tool_call_id":"call_c1","payload":{"kind":"generic","status":"completed","title":"read","parent_tool_call_id":"call_task","generic":{"acp_kind":"read"}}}
	// {"type":"message","agent":"opencode","session_id":"ses_child","message":{"role":"assistant","text":"Read it.","parent_tool_call_id":"call_task"}}
}

// ParseOutput reads the task tool's output: the child session it ran in,
// and the subagent's final text.
func ExampleParseOutput() {
	id, result := opencode.ParseOutput("task_id: ses_1 (for resuming to continue this task if needed)\n\n<task_result>\nNo flaky tests.\n</task_result>")
	fmt.Println(id)
	fmt.Println(result)
	// Output:
	// ses_1
	// No flaky tests.
}
