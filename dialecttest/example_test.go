package dialecttest_test

import (
	"fmt"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Check a dialect outside a test: nil when it keeps every rule. Here a
// handler keeps a view of the frame instead of a copy, which the kit
// catches.
func ExampleCheck() {
	d := &acpdialect.Dialect{
		ID:    "acme",
		Match: func(name, _ string) bool { return name == "acme-agent" },
		Methods: []acpdialect.Method{{Name: "acme/task", Kind: acpdialect.Request,
			Handle: func(params gjson.Result) acpdialect.Action {
				return acpdialect.Action{Late: acpdialect.Late{
					ToolCallID: frame.View(params.Get("toolCallId")), // a view: should be frame.Str
					Payload:    acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{}},
				}}
			}}},
	}
	err := dialecttest.Check(d, dialecttest.Options{
		Agents: []string{"acme-agent"},
		Frames: [][]byte{dialecttest.Request(7, "acme/task", map[string]any{"toolCallId": "t1"})},
	})
	first, _, _ := strings.Cut(err.Error(), "(")
	fmt.Println(first)
	// Output:
	// pure: Options.Frames[0]: Methods[acme/task].Handle returned a value that views the frame: it changed when the frame's buffer was overwritten
}
