package cursor_test

import (
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// taskSeeds are cursor/task params as Cursor and its clients send them,
// plus the malformed shapes the parser must survive.
var taskSeeds = []string{
	`{"agentId":"agent-1","description":"Summarize JS","model":"composer-2.5-fast","prompt":"Summarize src JS files","subagentType":{"custom":{"unspecified":{}}},"toolCallId":"tool-1"}`,
	`{"toolCallId":"call-1","description":"Sum 1 through 100","prompt":"Calculate the sum"}`,
	`{"toolCallId":"t","durationMs":812,"subagentType":"explore"}`,
	`{"toolCallId":5,"description":null,"prompt":true,"model":[1],"agentId":{"a":"b"}}`,
	`{"toolCallId":"t\u0031","prompt":"a\"b\\nc"}`,
	`{"toolCallId":"t","toolCallId":"u"}`,
	`{"toolCallId":"t"`,
	`"tool-1"`, `[]`, `null`, ``, `{`,
}

func FuzzParseTask(f *testing.F) {
	for _, s := range taskSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		p := gjson.Parse(params)
		got, ok := cursor.ParseTask(p)
		if ok && got.ToolCallID == "" {
			t.Fatalf("ok with an empty ToolCallID")
		}
		if ok != (p.IsObject() && got.ToolCallID != "") {
			t.Fatalf("ok = %v for params %q, ToolCallID %q", ok, params, got.ToolCallID)
		}
		if !p.IsObject() {
			if got != (cursor.Task{}) {
				t.Fatalf("params not an object gave %+v", got)
			}
			return
		}
		// On valid JSON every field is exactly what gjson's Get reads when
		// it is a string, and empty otherwise: nothing is coerced. (On
		// broken JSON the one-pass reader and Get may stop at different
		// places; it must only not panic.)
		if !json.Valid([]byte(params)) {
			return
		}
		for field, v := range map[string]string{
			"toolCallId": got.ToolCallID, "description": got.Description, "prompt": got.Prompt,
			"model": got.Model, "agentId": got.AgentID,
		} {
			r := p.Get(field)
			want := ""
			if r.Type == gjson.String {
				want = r.Str
			}
			if v != want {
				t.Fatalf("%s = %q; gjson reads %q (%s)", field, v, want, r.Raw)
			}
		}
	})
}

// toolCallSeeds are Cursor tool_call and tool_call_update objects (the
// params.update of a session/update), real and broken.
var toolCallSeeds = []string{
	`{"sessionUpdate":"tool_call","toolCallId":"tool-1","title":"Task: Subagent task","kind":"other","status":"in_progress","rawInput":{"_toolName":"task","description":"Summarize JS","prompt":"Summarize src JS files","subagentType":"explore"}}`,
	`{"sessionUpdate":"tool_call_update","toolCallId":"tool-1","status":"completed","rawOutput":{"durationMs":4200,"isBackground":false}}`,
	`{"sessionUpdate":"tool_call_update","toolCallId":"tool-1","status":"completed","rawOutput":{"durationMs":0,"isBackground":true}}`,
	`{"sessionUpdate":"tool_call","toolCallId":"tool-2","title":"Read File","kind":"read","rawInput":{"_toolName":"readFile","path":"a.go"}}`,
	`{"rawInput":{"_toolName":"TASK"},"rawOutput":{"durationMs":"4200","isBackground":"true"}}`,
	`{"rawInput":{"_toolName":"task"},"rawOutput":{"durationMs":-1.5e400,"isBackground":1}}`,
	`{"rawInput":{"_toolName":"task"`, `null`, `[]`, ``,
}

func FuzzToolCall(f *testing.F) {
	for _, s := range toolCallSeeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, update string, wasSubagent bool) {
		u := frame.ReadToolUpdate(gjson.Parse(update))
		prev := acpdialect.Payload{Kind: acpdialect.KindGeneric, Generic: &acpdialect.Generic{}}
		if wasSubagent {
			prev = acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{}}
		}
		before := prev.Clone()
		got := cursor.ToolCall(u, prev)
		if !prev.Equal(before) {
			t.Fatalf("ToolCall modified the payload it was given (copy-on-write)")
		}
		switch got.Kind {
		case acpdialect.KindGeneric:
			if wasSubagent || cursor.IsTask(u) {
				t.Fatalf("kind generic for a task tool call or a subagent")
			}
			if !got.Equal(prev) {
				t.Fatalf("a tool call ToolCall does not claim was changed: %+v", got)
			}
			return
		case acpdialect.KindSubagentTask:
			if got.SubagentTask == nil {
				t.Fatalf("subagent_task without its object")
			}
		default:
			t.Fatalf("kind %q", got.Kind)
		}
		st := got.SubagentTask
		if st.IsAsync && json.Valid([]byte(update)) && u.Raw.Get("rawOutput.isBackground").Type != gjson.True {
			t.Fatalf("is_async without rawOutput.isBackground true")
		}
		if st.DurationMs != nil && *st.DurationMs < 0 {
			t.Fatalf("negative duration %d", *st.DurationMs)
		}
		if st.SubagentType != "" || st.Model != "" || st.AgentID != "" {
			t.Fatalf("a tool call set fields only cursor/task carries: %+v", st)
		}
	})
}
