package cursor_test

import (
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/frame"
	_ "github.com/acpdialect/acpdialect/internal/testwire" // registers -update for `go test ./... -update`
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// TestMatch: Cursor is its known names, in any case, alone or with a
// version; names that only contain "cursor" are other agents, which must
// not run Cursor's rules.
func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"cursor-agent", "", true},
		{"cursor-agent", "Cursor Agent", true}, // what Cursor's agent reports
		{"Cursor Agent", "", true},
		{"", "Cursor", true},
		{"agent", "CURSOR agent", true},
		{" cursor-agent ", "", true},
		{"cursor-agent 2025.11.25", "", true},
		{"cursor-agent/1.2.3", "", true},
		{"cursor-agent@v1", "", true},
		{"", "Cursor Agent v0.9", true},
		{"@agentclientprotocol/claude-agent-acp", "Claude Agent", false},
		{"codex-acp", "Codex", false},
		{"", "", false},
		{"curs", "or", false},
		// Near misses: the substring is there, the agent is not Cursor.
		{"precursor", "", false},
		{"claude-code (cursor-compatible)", "", false},
		{"", "Claude Code (Cursor compatible)", false},
		{"cursor-compatible", "", false},
		{"not-cursor-agent", "", false},
		{"cursor-agent-shim", "", false},
		{"cursor_agent", "", false},
		{"cursoragent", "", false},
		{"", "Cursor Agent Compatible Shim", false},
		{"", "Cursor-like", false},
		{"my cursor", "My Cursor Agent", false},
		{"cursor-agent beta", "", false},
		{"cursor-agent/", "", false},
		{"cursor-agent v", "", false},
	}
	for _, tc := range tests {
		if got := cursor.Match(tc.name, tc.title); got != tc.want {
			t.Errorf("Match(%q, %q) = %v; want %v", tc.name, tc.title, got, tc.want)
		}
	}
}

func TestDialect(t *testing.T) {
	d := cursor.Dialect()
	if d.ID != "cursor" || cursor.ID != "cursor" {
		t.Errorf("ID = %q", d.ID)
	}
	if !d.SweepAtTurnEnd {
		t.Error("Cursor reuses tool call ids across turns: SweepAtTurnEnd must be set")
	}
	for _, m := range []string{"cursor/task", "cursor/ask_question", "cursor/create_plan", "cursor/update_todos", "cursor/generate_image"} {
		if !d.Allows(m) {
			t.Errorf("%s not allowed", m)
		}
	}
	// Client -> agent and unknown names are not the agent's to send; an
	// alias is the SDK's name, not the wire's.
	for _, m := range []string{"cursor/list_available_models", "cursor/unknown", "_cursor/task"} {
		if d.Allows(m) {
			t.Errorf("%s allowed", m)
		}
	}
	for _, k := range []string{"subagent_spawned", "subagent_state_update"} {
		if !d.Quarantines(k) {
			t.Errorf("update kind %s not claimed", k)
		}
	}
	if d.CommandDescription == nil || d.CommandDescription("---") != "" {
		t.Error("CommandDescription must drop all-dash descriptions")
	}
	if d2 := cursor.Dialect(); d2 == d {
		t.Error("Dialect() must return a fresh value each call")
	}
}

func TestParseTask(t *testing.T) {
	full := cursor.Task{ToolCallID: "tool-1", Description: "Summarize JS", Prompt: "Summarize src JS files",
		Model: "composer-2.5-fast", AgentID: "agent-1"}
	tests := []struct {
		name   string
		params string
		want   cursor.Task
		ok     bool
	}{
		{"kandev fixture", `{"agentId":"agent-1","description":"Summarize JS","model":"composer-2.5-fast","prompt":"Summarize src JS files","subagentType":{"custom":{"unspecified":{}}},"toolCallId":"tool-1"}`, full, true},
		{"only toolCallId", `{"toolCallId":"t"}`, cursor.Task{ToolCallID: "t"}, true},
		{"no toolCallId", `{"description":"d","prompt":"p"}`, cursor.Task{Description: "d", Prompt: "p"}, false},
		{"empty toolCallId", `{"toolCallId":"","prompt":"p"}`, cursor.Task{Prompt: "p"}, false},
		{"escaped strings are unescaped", `{"toolCallId":"t\u0031","prompt":"a\"b\nc"}`, cursor.Task{ToolCallID: "t1", Prompt: "a\"b\nc"}, true},
		{"durationMs is not read", `{"toolCallId":"t","durationMs":812}`, cursor.Task{ToolCallID: "t"}, true},
		{"empty object", `{}`, cursor.Task{}, false},
		{"params string", `"tool-1"`, cursor.Task{}, false},
		{"params array", `[{"toolCallId":"t"}]`, cursor.Task{}, false},
		{"params null", `null`, cursor.Task{}, false},
		{"params number", `7`, cursor.Task{}, false},
		{"params missing", ``, cursor.Task{}, false},
	}
	// Each field of the wrong type is absent and never blocks the others.
	for _, field := range []string{"toolCallId", "description", "prompt", "model", "agentId"} {
		for _, bad := range []string{`5`, `1.5`, `true`, `false`, `{"a":"b"}`, `["x"]`, `null`} {
			want, ok := full, true
			switch field {
			case "toolCallId":
				want.ToolCallID, ok = "", false
			case "description":
				want.Description = ""
			case "prompt":
				want.Prompt = ""
			case "model":
				want.Model = ""
			case "agentId":
				want.AgentID = ""
			}
			tests = append(tests, struct {
				name   string
				params string
				want   cursor.Task
				ok     bool
			}{field + "=" + bad, withField(t, field, bad), want, ok})
		}
	}
	// subagentType of any shape never blocks the rest.
	for _, st := range []string{`{"custom":{"unspecified":{}}}`, `"explore"`, `42`, `null`, `[]`, `true`} {
		tests = append(tests, struct {
			name   string
			params string
			want   cursor.Task
			ok     bool
		}{"subagentType=" + st, withField(t, "subagentType", st), full, true})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := cursor.ParseTask(gjson.Parse(tc.params))
			if ok != tc.ok {
				t.Errorf("ok = %v; want %v", ok, tc.ok)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Task (-want +got):\n%s", d)
			}
		})
	}
}

// withField returns the kandev fixture params with field set to raw JSON.
func withField(t *testing.T, field, raw string) string {
	t.Helper()
	m := map[string]json.RawMessage{
		"agentId": json.RawMessage(`"agent-1"`), "description": json.RawMessage(`"Summarize JS"`),
		"model": json.RawMessage(`"composer-2.5-fast"`), "prompt": json.RawMessage(`"Summarize src JS files"`),
		"subagentType": json.RawMessage(`{"custom":{"unspecified":{}}}`), "toolCallId": json.RawMessage(`"tool-1"`),
	}
	m[field] = json.RawMessage(raw)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHandleTask(t *testing.T) {
	tests := []struct {
		name   string
		params string
		want   acpdialect.Late
	}{
		{"full", `{"toolCallId":"tool-1","description":"d","prompt":"p","model":"m-fast","agentId":"a","subagentType":"explore","durationMs":5}`,
			acpdialect.Late{ToolCallID: "tool-1", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
				SubagentTask: &acpdialect.SubagentTask{Description: "d", Prompt: "p", Model: "m-fast", AgentID: "a"}}}},
		{"no model", `{"toolCallId":"t","prompt":"p"}`,
			acpdialect.Late{ToolCallID: "t", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
				SubagentTask: &acpdialect.SubagentTask{Prompt: "p"}}}},
		// Nothing to correlate: a half without a tool call id, which the
		// Conn drops and counts.
		{"no tool call id", `{"description":"d"}`, acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
			SubagentTask: &acpdialect.SubagentTask{Description: "d"}}}},
		{"params not an object", `"x"`, acpdialect.Late{}},
		{"params missing", ``, acpdialect.Late{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			act := cursor.HandleTask(gjson.Parse(tc.params))
			// The reply is always an empty success: never an error.
			if act.Result != nil || act.Error != nil {
				t.Errorf("reply: result %s, error %v; want {} (nil, nil)", act.Result, act.Error)
			}
			if d := cmp.Diff(tc.want, act.Late); d != "" {
				t.Errorf("Late (-want +got):\n%s", d)
			}
		})
	}
}

func TestIsTask(t *testing.T) {
	tests := []struct {
		update string
		want   bool
	}{
		{`{"rawInput":{"_toolName":"task"}}`, true},
		{`{"rawInput":{"_toolName":"Task"}}`, true},
		{`{"rawInput":{"_toolName":"TASK"}}`, true},
		{`{"rawInput":{"_toolName":"tasks"}}`, false},
		{`{"rawInput":{"_toolName":" task"}}`, false},
		{`{"rawInput":{"_toolName":""}}`, false},
		{`{"rawInput":{"_toolName":"readFile"}}`, false},
		{`{"rawInput":{"_toolName":1}}`, false},
		{`{"rawInput":{"_toolName":true}}`, false},
		{`{"rawInput":{"_toolName":null}}`, false},
		{`{"rawInput":{"_toolName":{"name":"task"}}}`, false},
		{`{"rawInput":{"_toolName":["task"]}}`, false},
		{`{"rawInput":"task"}`, false},
		{`{"rawInput":null}`, false},
		{`{"title":"Task: Subagent task"}`, false}, // the title alone does not claim it
		{`{"_toolName":"task"}`, false},
		{`null`, false},
		{``, false},
	}
	for _, tc := range tests {
		if got := cursor.IsTask(frame.ReadToolUpdate(gjson.Parse(tc.update))); got != tc.want {
			t.Errorf("IsTask(%s) = %v; want %v", tc.update, got, tc.want)
		}
	}
}

// generic is the payload a Conn hands to ToolCall for a new tool call.
func generic() acpdialect.Payload {
	return acpdialect.Payload{Kind: acpdialect.KindGeneric, Status: "in_progress", Generic: &acpdialect.Generic{ACPKind: "other"}}
}

func subagent(st acpdialect.SubagentTask) acpdialect.Payload {
	return acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "in_progress", SubagentTask: &st}
}

func TestToolCall(t *testing.T) {
	const task = `"_toolName":"task"`
	tests := []struct {
		name   string
		update string
		prev   acpdialect.Payload
		want   acpdialect.Payload
	}{
		{"other tool call is left alone", `{"rawInput":{"_toolName":"readFile","description":"x"},"rawOutput":{"durationMs":5,"isBackground":true}}`,
			generic(), generic()},
		{"no rawInput is left alone", `{"title":"Task: Subagent task","rawOutput":{"durationMs":5}}`, generic(), generic()},
		{"task is claimed", `{"rawInput":{` + task + `}}`, generic(), claimed(acpdialect.SubagentTask{})},
		{"rawInput fills description and prompt", `{"rawInput":{` + task + `,"description":"d","prompt":"p"}}`,
			generic(), claimed(acpdialect.SubagentTask{Description: "d", Prompt: "p"})},
		{"rawInput of the wrong types is ignored", `{"rawInput":{` + task + `,"description":7,"prompt":{"x":1}}}`,
			generic(), claimed(acpdialect.SubagentTask{})},
		{"subagentType is never mapped", `{"rawInput":{` + task + `,"subagentType":"explore"}}`,
			generic(), claimed(acpdialect.SubagentTask{})},
		{"a -fast model sets nothing", `{"rawInput":{` + task + `,"model":"composer-2.5-fast"},"rawOutput":{"model":"composer-2.5-fast"}}`,
			generic(), claimed(acpdialect.SubagentTask{})},
		{"empty never blanks", `{"rawInput":{"description":"","prompt":""}}`,
			subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p"}), subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p"})},
		{"rawInput only fills: cursor/task's metadata stays", `{"rawInput":{"description":"d2","prompt":"p2"}}`,
			subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p"}), subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p"})},
		{"rawInput fills what is empty", `{"rawInput":{"description":"d2","prompt":"p2"}}`,
			subagent(acpdialect.SubagentTask{Description: "d"}), subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p2"})},
		{"isBackground false clears an earlier true", `{"rawOutput":{"isBackground":false}}`,
			subagent(acpdialect.SubagentTask{IsAsync: true}), subagent(acpdialect.SubagentTask{})},
		{"isBackground absent keeps it", `{"rawOutput":{"durationMs":5}}`,
			subagent(acpdialect.SubagentTask{IsAsync: true}), subagent(acpdialect.SubagentTask{IsAsync: true, DurationMs: count(5)})},
		{"isBackground of the wrong type keeps it", `{"rawOutput":{"isBackground":"false"}}`,
			subagent(acpdialect.SubagentTask{IsAsync: true}), subagent(acpdialect.SubagentTask{IsAsync: true})},
		{"completion without _toolName still merges", `{"status":"completed","rawOutput":{"durationMs":4200,"isBackground":false}}`,
			subagent(acpdialect.SubagentTask{Model: "m"}), subagent(acpdialect.SubagentTask{Model: "m", DurationMs: count(4200)})},
	}
	for _, tc := range durationCases() {
		tests = append(tests, struct {
			name   string
			update string
			prev   acpdialect.Payload
			want   acpdialect.Payload
		}{"durationMs " + tc.raw, `{"rawOutput":{"durationMs":` + tc.raw + `}}`,
			subagent(acpdialect.SubagentTask{DurationMs: count(7)}), subagent(acpdialect.SubagentTask{DurationMs: count(tc.want)})})
	}
	for _, tc := range backgroundCases() {
		tests = append(tests, struct {
			name   string
			update string
			prev   acpdialect.Payload
			want   acpdialect.Payload
		}{"isBackground " + tc.raw, `{"rawInput":{` + task + `},"rawOutput":{"isBackground":` + tc.raw + `}}`,
			generic(), claimed(acpdialect.SubagentTask{IsAsync: tc.want})})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prev := tc.prev.Clone()
			got := cursor.ToolCall(frame.ReadToolUpdate(gjson.Parse(tc.update)), prev)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("payload (-want +got):\n%s", d)
			}
		})
	}
}

// claimed is a generic payload after ToolCall claimed it: the Conn drops
// the Generic object itself.
func claimed(st acpdialect.SubagentTask) acpdialect.Payload {
	p := generic()
	p.Kind = acpdialect.KindSubagentTask
	p.SubagentTask = &st
	return p
}

// durationCases: a whole, non-negative number is the run time (0 included);
// anything else leaves the previous value (7).
func durationCases() []struct {
	raw  string
	want int64
} {
	return []struct {
		raw  string
		want int64
	}{
		{"4200", 4200}, {"0", 0}, {"1e3", 1000}, {"4200.0", 4200},
		{"4200.5", 7}, {`"4200"`, 7}, {"-1", 7}, {"null", 7}, {"true", 7}, {"1e300", 7}, {`{"ms":1}`, 7},
	}
}

// backgroundCases: only JSON true makes a subagent async.
func backgroundCases() []struct {
	raw  string
	want bool
} {
	return []struct {
		raw  string
		want bool
	}{{"true", true}, {"false", false}, {`"true"`, false}, {"1", false}, {"null", false}, {`{}`, false}}
}

func TestToolCallDurationZeroIsWritten(t *testing.T) {
	got := cursor.ToolCall(frame.ReadToolUpdate(gjson.Parse(`{"rawInput":{"_toolName":"task"},"rawOutput":{"durationMs":0}}`)), generic())
	b, err := json.Marshal(got.SubagentTask)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"duration_ms":0}` {
		t.Errorf("JSON = %s; want a written zero", b)
	}
}

func TestMergeLate(t *testing.T) {
	late := func(st acpdialect.SubagentTask) acpdialect.Payload {
		return acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &st}
	}
	tests := []struct {
		name   string
		cur, l acpdialect.Payload
		want   acpdialect.Payload
		wantOK bool
	}{
		{"fills a subagent", subagent(acpdialect.SubagentTask{Description: "d", DurationMs: count(9), IsAsync: true}),
			late(acpdialect.SubagentTask{Prompt: "p", Model: "m", AgentID: "a"}),
			subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p", Model: "m", AgentID: "a", DurationMs: count(9), IsAsync: true}), true},
		{"non-empty replaces", subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p", Model: "m", AgentID: "a"}),
			late(acpdialect.SubagentTask{Description: "D", Prompt: "P", Model: "M", AgentID: "A"}),
			subagent(acpdialect.SubagentTask{Description: "D", Prompt: "P", Model: "M", AgentID: "A"}), true},
		{"empty never blanks", subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p", Model: "m", AgentID: "a"}),
			late(acpdialect.SubagentTask{}),
			subagent(acpdialect.SubagentTask{Description: "d", Prompt: "p", Model: "m", AgentID: "a"}), true},
		{"late fields beyond the four are not merged", subagent(acpdialect.SubagentTask{}),
			late(acpdialect.SubagentTask{DurationMs: count(5), SubagentType: "x", IsAsync: true}),
			subagent(acpdialect.SubagentTask{}), true},
		{"two late halves merge", late(acpdialect.SubagentTask{Description: "d", Model: "m"}),
			late(acpdialect.SubagentTask{Prompt: "p", Model: "m2"}),
			late(acpdialect.SubagentTask{Description: "d", Prompt: "p", Model: "m2"}), true},
		{"generic payload: keeps waiting", generic(), late(acpdialect.SubagentTask{Prompt: "p"}), generic(), false},
		{"subagent kind without object", acpdialect.Payload{Kind: acpdialect.KindSubagentTask},
			late(acpdialect.SubagentTask{Prompt: "p"}), acpdialect.Payload{Kind: acpdialect.KindSubagentTask}, false},
		{"late without object", subagent(acpdialect.SubagentTask{Prompt: "p"}), acpdialect.Payload{Kind: acpdialect.KindSubagentTask},
			subagent(acpdialect.SubagentTask{Prompt: "p"}), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.cur.Clone()
			got, ok := cursor.MergeLate(tc.cur, tc.l)
			if ok != tc.wantOK {
				t.Errorf("ok = %v; want %v", ok, tc.wantOK)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("merged (-want +got):\n%s", d)
			}
			// The merge must not write through cur's pointer: the Conn
			// compares the old and new state to decide on an event.
			if d := cmp.Diff(before, tc.cur); d != "" {
				t.Errorf("cur was modified (-before +after):\n%s", d)
			}
		})
	}
}

// count returns a pointer to v, for a payload's optional counters.
func count(v int64) *int64 { return &v }
