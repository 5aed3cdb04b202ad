package grok_test

import (
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/grok"
)

// A client's session/set_config_option goes to Grok as session/set_model,
// and Grok's reply comes back as the response the client asked for, under
// the client's id. The Conn says what to write; wiretap writes it.
func ExampleDialect() {
	c := acpdialect.NewRegistry(grok.Dialect()).NewConn(acpdialect.Options{Agent: grok.ID})
	c.Outbound([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`))
	res, _ := c.Inbound([]byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","models":{"currentModelId":"grok-4.5","availableModels":[` +
		`{"modelId":"grok-4.5","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","high"],"reasoningEffort":"high"}},` +
		`{"modelId":"grok-build"}]}}}`))
	fmt.Println(res.Events[0].Type, string(res.Events[0].Config().Options))

	res, _ = c.Outbound([]byte(`{"jsonrpc":"2.0","id":2,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"reasoning_effort","value":"low"}}`))
	fmt.Print("to the agent: ", string(res.Wire.Frame))

	res, _ = c.Inbound([]byte(`{"jsonrpc":"2.0","id":2,"result":{}}`))
	fmt.Print("to the client: ", string(res.Wire.Frame))

	res, _ = c.Outbound([]byte(`{"jsonrpc":"2.0","id":3,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"model","value":"grok-9"}}`))
	fmt.Print("refused: ", res.Wire.Frame == nil, " ", string(res.Wire.Deliver))
	// Output:
	// config [{"id":"model","name":"Model","category":"model","type":"select","currentValue":"grok-4.5","options":[{"value":"grok-4.5","name":"grok-4.5"},{"value":"grok-build","name":"grok-build"}]},{"id":"reasoning_effort","name":"Reasoning Effort","category":"thought_level","type":"select","currentValue":"high","options":[{"value":"low","name":"Low"},{"value":"high","name":"High"}]}]
	// to the agent: {"jsonrpc":"2.0","id":2,"method":"session/set_model","params":{"sessionId":"s1","modelId":"grok-4.5","_meta":{"reasoningEffort":"low"}}}
	// to the client: {"jsonrpc":"2.0","id":2,"result":{"configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"grok-4.5","options":[{"value":"grok-4.5","name":"grok-4.5"},{"value":"grok-build","name":"grok-build"}]},{"id":"reasoning_effort","name":"Reasoning Effort","category":"thought_level","type":"select","currentValue":"low","options":[{"value":"low","name":"Low"},{"value":"high","name":"High"}]}]}}
	// refused: true {"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"unknown model \"grok-9\"; use one of: grok-4.5, grok-build"}}
}

// The answer to x.ai/ask_user_question is keyed by each question's text,
// the question item's ID in the question event.
func ExampleAnswered() {
	fmt.Println(string(grok.Answered(grok.Answer{Question: "Which database?", Labels: []string{"Postgres"}})))
	fmt.Println(string(grok.Declined()))
	// Output:
	// {"outcome":"accepted","answers":{"Which database?":"Postgres"}}
	// {"outcome":"cancelled"}
}
