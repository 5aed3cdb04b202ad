package cursor_test

import (
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/tidwall/gjson"
)

// The dialect is a table of pure hooks: a Conn identified as Cursor uses
// them; a registry tries Match on the agent's initialize agentInfo.
func ExampleDialect() {
	d := cursor.Dialect()
	fmt.Println(d.ID, d.Match("cursor-agent", ""), d.Match("claude-code", ""))
	fmt.Println(d.Allows(cursor.MethodTask), d.Allows("cursor/unknown"))
	// Output:
	// cursor true false
	// true false
}

// The answers a client gives to Cursor's blocking requests, in the shapes
// Cursor reads.
func ExampleAnswered() {
	fmt.Printf("%s\n", cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}}))
	fmt.Printf("%s\n", cursor.Skipped("not now"))
	fmt.Printf("%s\n", cursor.Cancelled())
	fmt.Printf("%s\n", cursor.Accepted("file:///plans/p1.md"))
	fmt.Printf("%s\n", cursor.Rejected("too broad"))
	// Output:
	// {"outcome":{"outcome":"answered","answers":[{"questionId":"lang","selectedOptionIds":["go"]}]}}
	// {"outcome":{"outcome":"skipped","reason":"not now"}}
	// {"outcome":{"outcome":"cancelled"}}
	// {"outcome":{"outcome":"accepted","planUri":"file:///plans/p1.md"}}
	// {"outcome":{"outcome":"rejected","reason":"too broad"}}
}

// A parameterized model id splits into its base and parameters, and
// formats back exactly; any other id passes through unchanged.
func ExampleParseModelID() {
	m, ok := cursor.ParseModelID("grok-4.5[effort=high,fast=true]")
	effort, _ := m.Get("effort")
	fmt.Println(ok, m.Base, effort)
	fmt.Println(m.With("effort", "low"))
	plain, ok := cursor.ParseModelID("composer-2.5-fast")
	fmt.Println(ok, plain)
	// Output:
	// true grok-4.5 high
	// grok-4.5[effort=low,fast=true]
	// false composer-2.5-fast
}

// ParseTask reads cursor/task's params; wrong types read as absent.
func ExampleParseTask() {
	t, ok := cursor.ParseTask(gjson.Parse(`{"toolCallId":"tool-1","description":"Summarize src","model":"composer-2.5-fast","agentId":42}`))
	fmt.Printf("%v %q %q %q %q\n", ok, t.ToolCallID, t.Description, t.Model, t.AgentID)
	// Output:
	// true "tool-1" "Summarize src" "composer-2.5-fast" ""
}

// MergeLate folds cursor/task's metadata into the Task tool call's card,
// whichever arrived first.
func ExampleMergeLate() {
	card := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
		SubagentTask: &acpdialect.SubagentTask{}}
	late := cursor.HandleTask(gjson.Parse(`{"toolCallId":"tool-1","description":"Summarize src"}`)).Late
	merged, ok := cursor.MergeLate(card, late.Payload)
	fmt.Println(ok, merged.Status, merged.SubagentTask.Description)
	// Output:
	// true in_progress Summarize src
}
