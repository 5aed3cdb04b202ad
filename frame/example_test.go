package frame_test

import (
	"fmt"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Reading params the way a hook does: wrong types are absent, never
// coerced, and kept strings are copies of the borrowed frame.
func ExampleStr() {
	params := gjson.Parse(`{"description":"Summarize src","model":7,"durationMs":4200,"ratio":0.5}`)
	fmt.Printf("%q %q\n", frame.Str(params.Get("description")), frame.Str(params.Get("model")))
	ms, ok := frame.Int64(params.Get("durationMs"))
	_, frac := frame.Int64(params.Get("ratio"))
	fmt.Println(ms, ok, frac)
	// Output:
	// "Summarize src" ""
	// 4200 true false
}

// Members reads several fields of an object in one pass, skipping the
// values it is not asked about (a tool's output can be megabytes).
func ExampleMembers() {
	update := gjson.Parse(`{"toolCallId":"t1","rawOutput":{"content":"...a large output..."},"status":"completed"}`)
	frame.Members(update, func(key string, v gjson.Result) bool {
		if key != "rawOutput" {
			fmt.Println(key, v.Str)
		}
		return true // false stops the walk
	})
	// Output:
	// toolCallId t1
	// status completed
}

// Get, First and Path read one field of a large object without gjson's
// slower skip of the members before it. Path reads a dotted path as gjson
// does: each member of a name in turn, until one has the rest.
func ExamplePath() {
	result := gjson.Parse(`{"_meta":{"large":["..."]},"info":{"name":"old-agent"},` +
		`"agentCapabilities":{"_meta":{"claudeCode":1,"claudeCode":{"promptQueueing":true}}}}`)
	fmt.Println(frame.First(result, "agentInfo", "info").Get("name").Str)
	meta := frame.Get(frame.Get(result, "agentCapabilities"), "_meta")
	fmt.Println(frame.Path(meta, "claudeCode", "promptQueueing").Raw, meta.Get("claudeCode.promptQueueing").Raw)
	// Output:
	// old-agent
	// true true
}

// A Reader reads nested params in one pass: here a list of questions,
// each with its options. Views are copied once with Own for what is kept.
func ExampleReader() {
	params := gjson.Parse(`{"questions":[{"id":"lang","options":[{"id":"go"},{"id":"rust"}]},{"id":"tests","options":[]}]}`)
	r := frame.NewReader(params)
	r.Object(func(key string) {
		if key != "questions" {
			return // the value is skipped
		}
		r.Array(func() {
			var id string
			var options []string
			r.Object(func(key string) {
				switch key {
				case "id":
					id = r.String()
				case "options":
					r.Array(func() {
						r.Object(func(key string) {
							if key == "id" {
								options = append(options, r.String())
							}
						})
					})
				}
			})
			frame.Own(&id)
			fmt.Println(id, options)
		})
	})
	// Output:
	// lang [go rust]
	// tests []
}

// ReadToolUpdate reads the top-level fields of a tool call in one pass:
// the view a Dialect.ToolCall hook gets.
func ExampleReadToolUpdate() {
	u := frame.ReadToolUpdate(gjson.Parse(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Task","kind":"think","rawInput":{"_toolName":"task"}}`))
	fmt.Println(u.Kind, u.ID.Str, u.Title.Str, u.ACPKind.Str, u.RawInput.Get("_toolName").Str)
	// Output:
	// tool_call t1 Task think task
}

// A merge builds the new kind object on the stack and keeps it only when
// it differs from the card's: a frame that changes nothing allocates
// nothing, and the old object, which events already handed out share, is
// never written.
func ExampleKeep() {
	type shell struct{ Command, Output string }
	merge := func(prev *shell, output string) *shell {
		var n shell
		if prev != nil {
			n = *prev
		}
		if output != "" {
			n.Output = output
		}
		if prev != nil && *prev == n {
			return prev
		}
		return frame.Keep(n)
	}
	first := merge(&shell{Command: "ls"}, "a.go")
	same := merge(first, "")
	next := merge(first, "b.go")
	fmt.Println(same == first, first.Output, next.Output)
	// Output:
	// true a.go b.go
}
