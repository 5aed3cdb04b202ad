package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
	"github.com/tidwall/gjson"
)

// connSeeds are agent -> client lines from the captures (claude, codex) and
// Cursor frames, short and of every shape the Conn sees.
var connSeeds = []string{
	// claude/v2__bash-foreground.jsonl
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"running"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"rawInput":{"command":"ls -la","description":"List files"},"sessionUpdate":"tool_call_update","toolCallId":"toolu_bash"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"_claude/model":"claude-sonnet-4-6"},"sessionUpdate":"usage_update","size":200000,"used":2}}}`,
	// claude/origin-main-plain__permission-denied.jsonl
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"content":[],"kind":"execute","name":"Bash","rawInput":{},"sessionUpdate":"tool_call","status":"pending","title":"Terminal","toolCallId":"toolu_denied"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"content":[{"content":{"text":"denied","type":"text"},"type":"content"}],"rawOutput":"denied","sessionUpdate":"tool_call_update","status":"failed","toolCallId":"toolu_denied"}}}`,
	// codex/approval-command-allow-once.jsonl (shortened)
	`{"jsonrpc":"2.0","id":1001,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"item-snapshot","kind":"execute","status":"pending","rawInput":null},"options":[{"optionId":"allow_once","name":"Allow Once","kind":"allow_once"}]}}`,
	// Cursor
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-1","title":"Task: Subagent task","kind":"other","status":"in_progress","rawInput":{"_toolName":"task","description":"d","prompt":"p"}}}}`,
	`{"jsonrpc":"2.0","id":93,"method":"cursor/task","params":{"toolCallId":"tool-1","description":"Sum 1 through 100","prompt":"Calculate the sum"}}`,
	`{"jsonrpc":"2.0","id":"x","method":"cursor/task","params":{"agentId":"agent-1","model":"composer-2.5-fast","subagentType":{"custom":{"unspecified":{}}},"toolCallId":"tool-2"}}`,
	`{"jsonrpc":"2.0","method":"cursor/task","params":{"toolCallId":"tool-1","model":"m"}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"tool-1","status":"completed","rawOutput":{"durationMs":4200,"isBackground":true}}}}`,
	`{"jsonrpc":"2.0","id":1.50,"method":"cursor/ask_question","params":{}}`,
	`{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"todos":[]}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`,
	// responses to the prelude's prompt, and broken frames
	`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":"a\"b","method":"x/y"}`,
	`{"id":[1,{"a":null}],"method":"v/w"}`,
	`{"jsonrpc":"2.0","id":20,"method":"cursor/task","params":{"toolCallId":"t","desc`,
	`{"method":"cursor/task","id":tru}`,
	`[1,2]`, ``, `{`,
	// Cursor's session-level frames. The blocking requests get their
	// default reply at once (fuzzOpts has no ClientAnswers).
	`{"jsonrpc":"2.0","id":40,"method":"cursor/ask_question","params":{"toolCallId":"tc-1","title":"Pick a stack","questions":[` +
		`{"id":"q1","prompt":"Language?","options":[{"id":"go","label":"Go"},{"id":"rs","label":"Rust"}],"allowMultiple":false},` +
		`{"id":"q2","prompt":"Extras?","options":[{"id":"ci","label":"CI"}],"allowMultiple":true}]}}`,
	`{"jsonrpc":"2.0","method":"cursor/ask_question","params":{"questions":[{"id":"q1","options":[{"id":"a"},{"label":"no id"}]},{"prompt":"no id"}]}}`,
	`{"jsonrpc":"2.0","id":"plan-1","method":"cursor/create_plan","params":{"toolCallId":"tc-2","name":"Refactor","overview":"Split the parser",` +
		`"plan":"# Plan\n\n1. Split","todos":[{"id":"t1","content":"Split","status":"pending"}],"isProject":true}}`,
	`{"jsonrpc":"2.0","id":43,"method":"_cursor/create_plan","params":[]}`,
	`{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"toolCallId":"tc-3","todos":[{"id":"1","content":"Read","status":"completed"},` +
		`{"id":"2","content":"Write","status":"in_progress"}],"merge":false}}`,
	`{"jsonrpc":"2.0","id":41,"method":"cursor/update_todos","params":{"todos":[{"id":"2","status":"completed"},{"id":"3","content":"Ship","status":"bogus"},{"content":"no id"}],"merge":true}}`,
	`{"jsonrpc":"2.0","id":42,"method":"cursor/generate_image","params":{"toolCallId":"tc-4","description":"A red fox","filePath":"assets/fox.png","referenceImagePaths":["a.png",""]}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"c1","task":"Find the bug","name":"explorer",` +
		`"_meta":{"cursor":{"model":"composer-2","toolCallId":"tool-1"}}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"c2","task":"t"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"c1","state":"completed"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"c2","state":"disconnected"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"state":"failed","sessionUpdate":"subagent_state_update"}}}`,
	// the subagents draft's subagent_update, both shapes, read on every connection
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"c4","title":"Fix","description":"Make it pass","capabilities":{}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"c4","state":{"state":"idle","stopReason":"end_turn"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"subagent_update","subagentSessionId":"c1","name":"explore","task":"t","state":"disconnected"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"c4","update":{"sessionUpdate":"session_message","messageId":"prompt","content":[{"type":"text","text":"p"}]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"available_commands_update","availableCommands":[` +
		`{"name":"review","description":"---","input":{"hint":"file"}},{"description":"no name"}]}}}`,
	// a native subagent's life in one input, with a question and todos on the way
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"c3","_meta":{"cursor":{"toolCallId":"tool-3"}}}}}` + "\n" +
		`{"jsonrpc":"2.0","id":44,"method":"cursor/ask_question","params":{"toolCallId":"tool-3","questions":[{"id":"q","options":[{"id":"y","label":"Yes"}]}]}}` + "\n" +
		`{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"toolCallId":"tool-3","todos":[{"id":"1","status":"completed"}],"merge":true}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"c3","state":"cancelled"}}}`,
	// an MCP-over-ACP request: the client's to answer, as ACP's own
	`{"jsonrpc":"2.0","id":45,"method":"mcp/connect","params":{"sessionId":"s1","acpId":"m1"}}`,
}

// standard reports whether ACP defines method as one the agent sends to
// the client: those are never answered by the Conn. MCP over ACP's
// mcp/connect, mcp/message and mcp/disconnect are among them (client
// methods in the SDK: TestClientServedMethodsGetNoReply).
func standard(method string) bool {
	switch method {
	case "session/update", "session/request_permission", "fs/read_text_file", "fs/write_text_file",
		"terminal/create", "terminal/output", "terminal/release", "terminal/wait_for_exit", "terminal/kill",
		"elicitation/create", "elicitation/complete", "$/cancel_request",
		"mcp/connect", "mcp/message", "mcp/disconnect":
		return true
	}
	return false
}

var fuzzOpts = acpdialect.Options{
	Pending:     correlate.Limits{PerSession: 3, Total: 5},
	Tools:       correlate.Limits{PerSession: 3, Total: 5},
	MaxSessions: 2,
	MaxRequests: 4,
}

// FuzzConnInbound feeds each line of the input to a Cursor connection with
// a session and a turn open, between fixed Cursor frames, and checks the
// reply rules and the bounds after every frame.
func FuzzConnInbound(f *testing.F) {
	for _, s := range connSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(connSeeds[7] + "\n" + connSeeds[6] + "\n" + connSeeds[14]))
	f.Fuzz(func(t *testing.T, input []byte) {
		h := cursorConn(t, fuzzOpts)
		h.session(4, "s2")
		for line := range bytes.SplitSeq(input, []byte("\n")) {
			checkInbound(t, h.c, line)
			checkInbound(t, h.c, []byte(toolCallFrame("s1", "tool-1", taskInput)))
			checkInbound(t, h.c, []byte(taskFrame("7", fullParams)))
		}
		h.c.Close()
		if st := h.c.Stats(); st.Pending.Live != 0 || st.Tools.Live != 0 || st.Pending.Bytes != 0 || st.Tools.Bytes != 0 {
			t.Fatalf("after Close: %+v", st)
		}
	})
}

func checkInbound(t *testing.T, c *acpdialect.Conn, frame []byte) {
	t.Helper()
	orig := append([]byte(nil), frame...)
	r, _ := c.Inbound(frame)
	if !bytes.Equal(orig, frame) {
		t.Fatalf("Inbound modified its input")
	}
	if r.Reply != nil && (!json.Valid(r.Reply) || r.Reply[len(r.Reply)-1] != '\n') {
		t.Fatalf("reply %q to %q is not one JSON line", r.Reply, frame)
	}
	if r.Awaiting {
		// Without ClientAnswers a blocking request is answered at once.
		t.Fatalf("%q awaits an answer, with fuzzOpts.ClientAnswers false", frame)
	}
	checkReplyRule(t, frame, r)
	st := c.Stats()
	if st.Pending.Live > fuzzOpts.Pending.Total || st.Tools.Live > fuzzOpts.Tools.Total ||
		len(c.Sessions()) > fuzzOpts.MaxSessions || st.Budget.Used > st.Budget.Limit {
		t.Fatalf("bounds broken: %+v, sessions %v", st, c.Sessions())
	}
	for _, e := range r.Events {
		if _, err := json.Marshal(e); err != nil {
			t.Fatalf("event %+v does not encode: %v", e, err)
		}
	}
}

// checkReplyRule: a valid frame with a non-standard method gets exactly one
// reply, with its id bytes, if it has a non-null id, and none otherwise; an
// invalid one gets no reply and no event.
func checkReplyRule(t *testing.T, frame []byte, r acpdialect.Result) {
	t.Helper()
	frame = bytes.TrimSpace(frame)
	if !json.Valid(frame) {
		// The SDKs drop such a line: nothing answers it or comes of it.
		if r.Reply != nil || len(r.Events) != 0 {
			t.Fatalf("reply %q, %d events for %q, which is not JSON", r.Reply, len(r.Events), frame)
		}
		return
	}
	if len(frame) == 0 || frame[0] != '{' {
		return
	}
	method, id := gjson.GetBytes(frame, "method"), gjson.GetBytes(frame, "id")
	request := id.Exists() && id.Type != gjson.Null
	if method.Type != gjson.String || standard(method.Str) || !request {
		if r.Reply != nil {
			t.Fatalf("reply %q to %q, which is owed none", r.Reply, frame)
		}
		return
	}
	if r.Reply == nil {
		t.Fatalf("no reply to request %q", frame)
	}
	if got := gjson.GetBytes(r.Reply, "id").Raw; got != id.Raw {
		t.Fatalf("reply id %s; want %s", got, id.Raw)
	}
	replies := 0
	for _, e := range r.Events {
		if e.Type == acpdialect.EventReply {
			replies++
			if string(e.ID) != id.Raw {
				t.Fatalf("reply event id %s; want %s", e.ID, id.Raw)
			}
		}
	}
	if replies != 1 {
		t.Fatalf("%d reply events for %q", replies, frame)
	}
}
