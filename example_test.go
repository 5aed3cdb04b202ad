package acpdialect_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
)

// play gives a Conn a transcript: lines starting with "> " go client ->
// agent (Outbound), "< " agent -> client (Inbound). It prints every reply
// frame the client owes and every event, as JSON.
func play(c *acpdialect.Conn, lines ...string) {
	for _, l := range lines {
		var res acpdialect.Result
		var err error
		if l[0] == '>' {
			res, err = c.Outbound([]byte(l[2:]))
		} else {
			res, err = c.Inbound([]byte(l[2:]))
		}
		if err != nil {
			fmt.Println("error:", err)
		}
		show(res)
	}
}

func show(res acpdialect.Result) {
	if res.Reply != nil {
		fmt.Printf("reply: %s", res.Reply)
	}
	for _, ev := range res.Events {
		b, _ := json.Marshal(ev)
		fmt.Printf("event: %s\n", b)
	}
}

// The opening of a Cursor session: the Conn identifies the agent from its
// initialize response, sees the session and the turn, recognizes the Task
// tool call as a subagent, merges cursor/task's metadata into it and
// answers the request.
func Example() {
	reg := acpdialect.NewRegistry(cursor.Dialect())
	c := reg.NewConn(acpdialect.Options{})
	play(c,
		`> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"cursor-agent"}}}`,
		`> {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/src","mcpServers":[]}}`,
		`< {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`> {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`< {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Task","status":"in_progress","rawInput":{"_toolName":"task"}}}}`,
		`< {"jsonrpc":"2.0","id":7,"method":"cursor/task","params":{"toolCallId":"t1","description":"Summarize src","model":"composer-2.5-fast"}}`,
	)
	fmt.Println("agent:", c.Agent())
	// Output:
	// event: {"type":"tool_call","agent":"cursor","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task","subagent_task":{}}}
	// reply: {"jsonrpc":"2.0","id":7,"result":{}}
	// event: {"type":"tool_call_update","agent":"cursor","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task","subagent_task":{"description":"Summarize src","model":"composer-2.5-fast"}}}
	// event: {"type":"reply","agent":"cursor","method":"cursor/task","id":7,"result":{}}
	// agent: cursor
}

// A vendor request that the agent's dialect does not allow gets -32601,
// exactly once, with the id as the agent sent it; an unknown vendor
// notification is ignored and counted.
func ExampleConn_Inbound_unknownVendor() {
	c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: "cursor"})
	play(c,
		`< {"jsonrpc":"2.0","id":"a-1","method":"cursor/unknown_method","params":{}}`,
		`< {"jsonrpc":"2.0","method":"cursor/unknown_note","params":{}}`,
	)
	fmt.Println("ignored notifications:", c.Stats().IgnoredNotifications)
	// Output:
	// reply: {"jsonrpc":"2.0","id":"a-1","error":{"code":-32601,"message":"Method not found"}}
	// event: {"type":"reply","agent":"cursor","method":"cursor/unknown_method","id":"a-1","error":{"code":-32601,"message":"Method not found"}}
	// ignored notifications: 1
}

// An unknown agent gets standard ACP behaviour: its tool calls are generic
// cards and its vendor requests are declined.
func ExampleRegistry_NewConn() {
	reg := acpdialect.NewRegistry(cursor.Dialect())
	c := reg.NewConn(acpdialect.Options{})
	play(c,
		`> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"some-agent"}}}`,
		`< {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read","kind":"read"}}}`,
	)
	fmt.Printf("agent: %q\n", c.Agent())
	// Output:
	// event: {"type":"tool_call","session_id":"s1","tool_call_id":"t1","payload":{"kind":"generic","title":"Read","generic":{"acp_kind":"read"}}}
	// agent: ""
}

// ByAgent is how a Conn identifies its agent from the initialize
// response's agentInfo; ByID finds a dialect by its short name.
func ExampleRegistry_ByAgent() {
	reg := acpdialect.NewRegistry(cursor.Dialect())
	fmt.Println(reg.ByAgent("cursor-agent", "") != nil)
	fmt.Println(reg.ByAgent("gemini-cli", "Gemini CLI") != nil)
	fmt.Println(reg.ByID("CURSOR").ID)
	// Output:
	// true
	// false
	// cursor
}

// With Options.ClientAnswers, a blocking request (Cursor's question) waits
// for the client: its event carries the request's ID, and Answer returns
// the reply frame to send. A second answer is refused.
func ExampleConn_Answer() {
	c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: "cursor", ClientAnswers: true})
	play(c, `> {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
	res, _ := c.Inbound([]byte(`{"jsonrpc":"2.0","id":20,"method":"cursor/ask_question","params":{"toolCallId":"q1","questions":[{"id":"lang","prompt":"Which language?","options":[{"id":"go","label":"Go"},{"id":"rust","label":"Rust"}]}]}}`))
	ev := res.Events[0]
	fmt.Println("awaiting:", res.Awaiting, "reply:", res.Reply != nil)
	q := ev.Question()
	fmt.Println(ev.Type, string(ev.ID), q.Questions[0].Prompt, len(q.Questions[0].Options), "options")

	answer, err := c.Answer(ev.ID, cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}}))
	fmt.Printf("%s%v\n", answer.Reply, err)
	_, err = c.Answer(ev.ID, cursor.Cancelled())
	fmt.Println(errors.Is(err, acpdialect.ErrNotPending)) // errors.Is: ErrNoClientAnswers is one too
	// Output:
	// awaiting: true reply: false
	// question 20 Which language? 2 options
	// {"jsonrpc":"2.0","id":20,"result":{"outcome":{"outcome":"answered","answers":[{"questionId":"lang","selectedOptionIds":["go"]}]}}}
	// <nil>
	// true
}

// A blocking request nobody answers gets the dialect's default once its
// deadline passes: Deadline says when, Expire answers, one Result per
// request.
func ExampleConn_Expire() {
	clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{
		Agent:         "cursor",
		ClientAnswers: true,
		AnswerTimeout: time.Minute,
		Now:           func() time.Time { return clock },
	})
	play(c, `> {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
	_, _ = c.Inbound([]byte(`{"jsonrpc":"2.0","id":21,"method":"cursor/create_plan","params":{"toolCallId":"p1","name":"Refactor","plan":"# Steps"}}`))
	deadline, _ := c.Deadline()
	fmt.Println("deadline:", deadline.Format(time.Kitchen))
	fmt.Println("due early:", len(c.Expire(deadline.Add(-time.Second))))
	for _, r := range c.Expire(deadline) {
		fmt.Printf("%s", r.Reply)
	}
	// Output:
	// deadline: 12:01PM
	// due early: 0
	// {"jsonrpc":"2.0","id":21,"result":{"outcome":{"outcome":"cancelled"}}}
}

// The client's own response to a blocking request, fed through Outbound,
// is the answer: its reply event comes back.
func ExampleConn_Outbound() {
	c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: "cursor", ClientAnswers: true})
	play(c,
		`> {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`< {"jsonrpc":"2.0","id":22,"method":"cursor/create_plan","params":{"toolCallId":"p1","name":"Refactor"}}`,
		`> {"jsonrpc":"2.0","id":22,"result":{"outcome":{"outcome":"accepted"}}}`,
	)
	// Output:
	// event: {"type":"plan","agent":"cursor","session_id":"s1","tool_call_id":"p1","method":"cursor/create_plan","id":22,"plan":{"name":"Refactor","todos":[]}}
	// event: {"type":"reply","agent":"cursor","method":"cursor/create_plan","id":22,"result":{"outcome":{"outcome":"accepted"}}}
}

// An event's JSON is the contract: a session-level object is written under
// its type's name, and reads back into Event.Object.
func ExampleEvent_MarshalJSON() {
	ev := acpdialect.Event{Type: acpdialect.EventTodos, Agent: "cursor", SessionID: "s1",
		Object: &acpdialect.Todos{Items: []acpdialect.Todo{{ID: "1", Content: "Split the parser", Status: "in_progress"}}}}
	b, _ := json.Marshal(ev)
	fmt.Println(string(b))

	var back acpdialect.Event
	_ = json.Unmarshal(b, &back)
	fmt.Println(back.Todos().Items[0].Content, back.Question() == nil)
	// Output:
	// {"type":"todos","agent":"cursor","session_id":"s1","todos":{"items":[{"id":"1","content":"Split the parser","status":"in_progress"}]}}
	// Split the parser true
}

// A payload shares its kind objects with the Conn's state: clone it
// before changing it.
func ExamplePayload_Clone() {
	ms := int64(4200)
	p := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{DurationMs: &ms}}
	q := p.Clone()
	*q.SubagentTask.DurationMs = 0
	fmt.Println(*p.SubagentTask.DurationMs, *q.SubagentTask.DurationMs, p.Equal(q))
	// Output:
	// 4200 0 false
}

// A subagent the agent reports as a child session (ACP's subagents
// draft, on every connection, an unknown agent's too) is a card keyed by
// the child's session: running while its work runs, with the agent's
// grant to stop it (Cancellable: send session/cancel on the child's
// session), until the child goes idle. The child's tool calls nest under
// it.
func ExampleSubagentTask() {
	c := acpdialect.NewRegistry().NewConn(acpdialect.Options{})
	render := func(res acpdialect.Result) {
		for _, ev := range res.Events {
			if st := ev.Payload.SubagentTask; st != nil {
				fmt.Printf("%s %s %q: stop button %v\n", ev.ToolCallID, ev.Payload.Status, ev.Payload.Title,
					st.Cancellable && ev.Payload.Status == acpdialect.StatusInProgress)
			} else {
				fmt.Printf("%s %s, under %s\n", ev.ToolCallID, ev.Payload.Kind, ev.Payload.ParentToolCallID)
			}
		}
	}
	for _, update := range []string{
		`{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"c1","title":"Lint the diff","capabilities":{"cancel":{}},"state":{"state":"running"}}}`,
		`{"sessionId":"c1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"npm run lint","kind":"execute"}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"c1","state":{"state":"idle","stopReason":"end_turn"}}}`,
	} {
		res, err := c.Inbound([]byte(`{"jsonrpc":"2.0","method":"session/update","params":` + update + `}`))
		if err != nil {
			fmt.Println(err)
		}
		render(res)
	}
	// Output:
	// c1 in_progress "Lint the diff": stop button true
	// t1 generic, under c1
	// c1 completed "Lint the diff": stop button false
}
