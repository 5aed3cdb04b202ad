package testwire

// InvalidFrames are agent lines that are not JSON, though they start like
// frames the Conn acts on. The SDKs drop such a line (encoding/json will
// not decode it), so the Conn must not answer it, under an id read from
// its prefix or at all, nor act on it. They assume a Cursor connection
// with session s1 open.
var InvalidFrames = []struct{ Name, Frame string }{
	{"truncated request", `{"jsonrpc":"2.0","id":7,"method":"cursor/task","params":{"toolCallId":"x"`},
	{"trailing garbage, unknown method", `{"jsonrpc":"2.0","id":7,"method":"cursor/unknown"}xyz`},
	{"trailing garbage, allowed method", `{"jsonrpc":"2.0","id":8,"method":"cursor/task","params":{"toolCallId":"x"}}}`},
	{"two objects", `{"jsonrpc":"2.0","id":9,"method":"cursor/task","params":{}}{"jsonrpc":"2.0","id":10}`},
	{"bad token in params", `{"jsonrpc":"2.0","id":11,"method":"cursor/task","params":{"toolCallId":tru}}`},
	{"missing comma", `{"jsonrpc":"2.0" "id":12,"method":"cursor/task","params":{}}`},
	{"bad escape", `{"jsonrpc":"2.0","id":13,"method":"cursor/task","params":{"toolCallId":"\x"}}`},
	{"raw control character", "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"cursor/task\",\"params\":{\"toolCallId\":\"a\tb\"}}"},
	{"bad number id", `{"jsonrpc":"2.0","id":01,"method":"cursor/unknown"}`},
	{"truncated notification", `{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"todos":[{"id":"1","content":"x"}]`},
	{"truncated blocking request", `{"jsonrpc":"2.0","id":15,"method":"cursor/ask_question","params":{"toolCallId":"q","questions":[]}`},
	{"truncated alias", `{"jsonrpc":"2.0","id":16,"method":"_cursor/create_plan","params":{"plan":"# x"}`},
	{"truncated tool call, SDK layout", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-9","title":"Task: x","status":"pending","rawInput":{"_toolName":"task"}`},
	{"tool call, trailing garbage", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-9","status":"pending"}}},`},
	{"tool call, sorted keys, truncated", `{"jsonrpc":"2.0","method":"session/update","params":{"update":{"status":"pending","sessionUpdate":"tool_call","toolCallId":"tool-9"},"sessionId":"s1"`},
	{"native subagent update, truncated", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"c1","_meta":{"cursor":{"toolCallId":"tool-9"}}}`},
	{"commands, trailing garbage", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"available_commands_update","availableCommands":[]}}}]`},
	{"tool call, control character in the session id", "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\x011\",\"update\":{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"tool-9\",\"status\":\"pending\"}}}"},
	{"tool call, sorted keys, control character in the session id", "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\t1\",\"update\":{\"status\":\"pending\",\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"tool-9\"}}}"},
	{"tool call, bad member after the update", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-9","status":"pending"},"x":tru}}`},
	{"truncated standard request", `{"jsonrpc":"2.0","id":17,"method":"session/request_permission","params":{"sessionId":"s1"`},
}
