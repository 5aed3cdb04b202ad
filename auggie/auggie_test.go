package auggie_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/auggie"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"auggie", "Auggie Agent", true},
		{"auggie", "", true},
		{"", "Auggie Agent", true},
		{" AUGGIE ", "", true},
		{"@augmentcode/auggie", "", true},
		{"", "Auggie CLI", true},
		// near misses: names that only contain Auggie's
		{"auggie-proxy", "", false},
		{"my-auggie", "", false},
		{"augment", "Augment Code", false},
		{"@augmentcode/auggie-sdk", "", false},
		{"", "Auggie Agent Pro", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := auggie.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

func TestParseTitle(t *testing.T) {
	tests := []struct {
		title, typ, desc string
		ok               bool
	}{
		{"sub-agent-explore: Find the config", "explore", "Find the config", true},
		{"sub-agent- plan :  Draft: the fix ", "plan", "Draft: the fix", true}, // the first ":" ends the type
		{"sub-agent-review:", "review", "", true},                              // a cut description may be empty
		{"sub-agent-: no type", "", "", false},
		{"sub-agent-  : blank type", "", "", false},
		{"Sub-Agent-explore: x", "", "", false}, // Auggie writes the prefix in lower case
		{"run sub-agent-explore: x", "", "", false},
		{"", "", "", false},
		// the generic tool, live: "sub-agent: <instruction>", no type
		{"sub-agent: Find where the config file is loaded", "", "Find where the config file is loaded", true},
		{"sub-agent: ", "", "", true}, // action "output": no instruction
		{"sub-agent:", "", "", true},
		{"sub-agent: a: b", "", "a: b", true},
		// session/load: the bare tool name
		{"sub-agent", "", "", true},
		{"sub-agent-explore", "explore", "", true},
		{"sub-agent-code_review-2", "code_review-2", "", true},
		{"sub-agent--x", "-x", "", true}, // Auggie turns a leading space of the name into "-"
		// other titles that only start alike
		{"sub-agents", "", "", false},
		{"sub-agents-list", "", "", false},
		{"sub-agent_explore", "", "", false},
		{"sub-agentx: y", "", "", false},
		{"sub-agent : x", "", "", false},
		{"sub-agent ", "", "", false},
		{" sub-agent", "", "", false},
		{"Sub-Agent", "", "", false},
		{"Sub-Agent: x", "", "", false},
		{"run sub-agent: x", "", "", false},
		{"sub-agent-", "", "", false},                 // no type
		{"sub-agent- ", "", "", false},                // a blank type
		{"sub-agent-explore the repo", "", "", false}, // text, not a tool name
		{"sub-agent-explore.v2", "", "", false},       // Auggie makes "." a "-"
		{"sub-agent-é", "", "", false},                // and any non-ASCII letter
		{"sub-agent-explore\n", "", "", false},
	}
	for _, tt := range tests {
		typ, desc, ok := auggie.ParseTitle(tt.title)
		if typ != tt.typ || desc != tt.desc || ok != tt.ok {
			t.Errorf("ParseTitle(%q) = %q, %q, %v; want %q, %q, %v", tt.title, typ, desc, ok, tt.typ, tt.desc, tt.ok)
		}
	}
}

// update reads an update object as the Conn does, and the payload the
// Conn would pass (its standard fields merged).
func update(s string, prev acpdialect.Payload) (frame.ToolUpdate, acpdialect.Payload) {
	u := frame.ReadToolUpdate(gjson.Parse(s))
	if u.Title.Type == gjson.String {
		prev.Title = u.Title.Str
	}
	if u.Status.Type == gjson.String {
		prev.Status = u.Status.Str
	}
	return u, prev
}

func TestToolCall(t *testing.T) {
	task := func(typ, desc, result string) *acpdialect.SubagentTask {
		return &acpdialect.SubagentTask{SubagentType: typ, Description: desc, ResultText: result}
	}
	tests := []struct {
		name   string
		prev   acpdialect.Payload
		update string
		want   acpdialect.Payload
	}{
		{"the title names a subagent",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent-explore: Find it","kind":"other"}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore: Find it", SubagentTask: task("explore", "Find it", "")}},
		{"the result text from rawOutput.output",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore: Find it", SubagentTask: task("explore", "Find it", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"completed","rawOutput":{"output":"Found."}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "completed", Title: "sub-agent-explore: Find it", SubagentTask: task("explore", "Find it", "Found.")}},
		{"a later title does not blank what the first said",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore: Find it", SubagentTask: task("explore", "Find it", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","title":"sub-agent-explore:"}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore:", SubagentTask: task("explore", "Find it", "")}},
		{"a later, longer title gives the description the card shows",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore: Find", SubagentTask: task("explore", "Find", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","title":"sub-agent-explore: Find where the config is loaded"}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore: Find where the config is loaded", SubagentTask: task("explore", "Find where the config is loaded", "")}},
		{"a later title that names no subagent keeps the subagent",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore: Find it", SubagentTask: task("explore", "Find it", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","title":"Explore"}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "Explore", SubagentTask: task("explore", "Find it", "")}},
		{"an empty or non-string output is no result",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-x: y", SubagentTask: task("x", "y", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","rawOutput":{"output":["a"]}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-x: y", SubagentTask: task("x", "y", "")}},
		{"a failed subagent's output is its error, not its result",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "in_progress", Title: "sub-agent-plan: Draft", SubagentTask: task("plan", "Draft", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"failed","rawOutput":{"output":"Sub-agent plan failed: the model is unavailable."}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "failed", Title: "sub-agent-plan: Draft", SubagentTask: &acpdialect.SubagentTask{SubagentType: "plan", Description: "Draft", Error: "Sub-agent plan failed: the model is unavailable."}}},
		{"a failed subagent with an empty output has no error",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-plan: Draft", SubagentTask: task("plan", "Draft", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"failed","rawOutput":{"output":""}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "failed", Title: "sub-agent-plan: Draft", SubagentTask: task("plan", "Draft", "")}},
		{"a failed subagent with a blank output has no error",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-plan: Draft", SubagentTask: task("plan", "Draft", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"failed","rawOutput":{"output":" \n "}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "failed", Title: "sub-agent-plan: Draft", SubagentTask: task("plan", "Draft", "")}},
		{"a failure in the first frame is an error too",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent-x: y","status":"failed","rawOutput":{"output":"boom"}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "failed", Title: "sub-agent-x: y", SubagentTask: &acpdialect.SubagentTask{SubagentType: "x", Description: "y", Error: "boom"}}},
		{"output on a card that has not failed is never an error",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "in_progress", Title: "sub-agent-x: y", SubagentTask: task("x", "y", "")},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","rawOutput":{"output":"partial"}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "in_progress", Title: "sub-agent-x: y", SubagentTask: task("x", "y", "partial")}},
		{"the generic tool's live title: no type",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent: Find it","kind":"other"}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent: Find it", SubagentTask: task("", "Find it", "")}},
		{"a replayed subagent: the type from the tool name, the rest from rawInput",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent-explore","rawInput":{"action":"run","name":"finder","instruction":" Find it "},"kind":"other","content":[]}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore", SubagentTask: &acpdialect.SubagentTask{SubagentType: "explore", Description: "Find it", Prompt: "Find it", Name: "finder"}}},
		{"a replayed generic subagent: no type; name is not a type",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent","rawInput":{"instruction":"Find it","name":"finder"},"kind":"other"}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent", SubagentTask: &acpdialect.SubagentTask{Description: "Find it", Prompt: "Find it", Name: "finder"}}},
		{"a replayed output action has no instruction",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent","rawInput":{"action":"output","name":"finder"}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent", SubagentTask: &acpdialect.SubagentTask{Name: "finder"}}},
		{"a title's description stays; the instruction is the whole prompt",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent-explore: Find...","rawInput":{"instruction":"Find it all"}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-explore: Find...", SubagentTask: &acpdialect.SubagentTask{SubagentType: "explore", Description: "Find...", Prompt: "Find it all"}}},
		{"a later frame without rawInput keeps what it gave",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent", SubagentTask: &acpdialect.SubagentTask{Description: "Find it", Prompt: "Find it", Name: "finder"}},
			`{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"completed","rawOutput":{"output":"Found."}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "completed", Title: "sub-agent", SubagentTask: &acpdialect.SubagentTask{Description: "Find it", Prompt: "Find it", Name: "finder", ResultText: "Found."}}},
		{"rawInput that is not strings is not read",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent","rawInput":{"instruction":["Find it"],"name":7}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent", SubagentTask: task("", "", "")}},
		{"rawInput that is no object is not read",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent","rawInput":"Find it"}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Title: "sub-agent", SubagentTask: task("", "", "")}},
		{"rawInput on another tool call is not read",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agents-list","rawInput":{"instruction":"Find it","name":"finder"},"rawOutput":{"output":"[]"}}`,
			acpdialect.Payload{Kind: acpdialect.KindGeneric, Title: "sub-agents-list"}},
		{"output on another tool call is not read",
			acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"sessionUpdate":"tool_call","toolCallId":"t","title":"view a.go","kind":"read","rawOutput":{"output":"package a"}}`,
			acpdialect.Payload{Kind: acpdialect.KindGeneric, Title: "view a.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, prev := update(tt.update, tt.prev)
			keep := prev.Clone()
			got := auggie.ToolCall(u, prev)
			if !prev.Equal(keep) {
				t.Error("ToolCall changed the payload it was given")
			}
			if !got.Equal(tt.want) {
				t.Errorf("got %+v %+v, want %+v %+v", got, got.SubagentTask, tt.want, tt.want.SubagentTask)
			}
		})
	}
}

// A huge output keeps its head within MaxResultText, cut between runes.
func TestResultTextBounded(t *testing.T) {
	out := strings.Repeat("é", auggie.MaxResultText) // 2 bytes a rune
	u, prev := update(`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent-x: y","rawOutput":{"output":"x`+out+`"}}`, acpdialect.Payload{Kind: acpdialect.KindGeneric})
	got := auggie.ToolCall(u, prev).SubagentTask.ResultText
	if len(got) > auggie.MaxResultText || len(got) < auggie.MaxResultText-1 || !utf8.ValidString(got) || !strings.HasPrefix(got, "xé") {
		t.Errorf("result text of %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}

// A huge failure text keeps its head within MaxResultText too.
func TestErrorBounded(t *testing.T) {
	out := strings.Repeat("e", auggie.MaxResultText+5)
	u, prev := update(`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent-x: y","status":"failed","rawOutput":{"output":"`+out+`"}}`, acpdialect.Payload{Kind: acpdialect.KindGeneric})
	st := auggie.ToolCall(u, prev).SubagentTask
	if len(st.Error) != auggie.MaxResultText || st.ResultText != "" {
		t.Errorf("error of %d bytes and result %q, want %d bytes and none", len(st.Error), st.ResultText, auggie.MaxResultText)
	}
}

// A huge instruction keeps its head within MaxResultText, as prompt and
// description.
func TestInputBounded(t *testing.T) {
	in := strings.Repeat("i", auggie.MaxResultText+5)
	u, prev := update(`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent","rawInput":{"instruction":"`+in+`","name":"`+in+`"}}`, acpdialect.Payload{Kind: acpdialect.KindGeneric})
	st := auggie.ToolCall(u, prev).SubagentTask
	if st == nil {
		t.Fatal("no subagent card")
	}
	if len(st.Prompt) != auggie.MaxResultText || len(st.Description) != auggie.MaxResultText || len(st.Name) != auggie.MaxResultText {
		t.Errorf("prompt of %d bytes, description of %d, name of %d; want %d each", len(st.Prompt), len(st.Description), len(st.Name), auggie.MaxResultText)
	}
}
