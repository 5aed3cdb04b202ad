package devin_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/devin"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"devin", "", true},
		{"Devin", "Devin", true},
		{"", " DEVIN ", true},
		{"devin-proxy", "", false},
		{"devin-mcp", "", false},
		{"kevin", "", false},
		{"", "Devin Cloud Relay", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := devin.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

func TestParseMeta(t *testing.T) {
	tests := []struct {
		name, meta string
		want       devin.Meta
	}{
		{"tool name and parent",
			`{"cognition.ai/inferenceToolName":"exec","cognition.ai/subagent_context":{"parentAgentId":"a1"}}`,
			devin.Meta{ToolName: "exec", Parent: "a1"}},
		{"started, a blank model trimmed away",
			`{"cognition.ai/subagent_started":{"agentId":"a1","title":"T","task":"do it","profile":"explore","model":" \t ","isBackground":true}}`,
			devin.Meta{Started: &devin.Started{AgentID: "a1", Title: "T", Task: "do it", Profile: "explore", Background: true}}},
		{"completed, failed",
			`{"cognition.ai/subagent_completed":{"agentId":"a1","success":false,"error":"boom"}}`,
			devin.Meta{Completed: &devin.Completed{AgentID: "a1", Error: "boom", Failed: true}}},
		{"success absent is not a failure",
			`{"cognition.ai/subagent_completed":{"agentId":"a1","summary":"ok"}}`,
			devin.Meta{Completed: &devin.Completed{AgentID: "a1", Summary: "ok"}}},
		{"markers without an agent id are ignored",
			`{"cognition.ai/subagent_started":{"title":"T"},"cognition.ai/subagent_completed":{"agentId":7}}`,
			devin.Meta{}},
		{"wrong types are absent",
			`{"cognition.ai/inferenceToolName":["exec"],"cognition.ai/subagent_context":"a1"}`,
			devin.Meta{}},
		{"not an object", `"x"`, devin.Meta{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := devin.ParseMeta(gjson.Parse(tt.meta))
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tt.want)
			if string(g) != string(w) {
				t.Errorf("got %s, want %s", g, w)
			}
		})
	}
}

// apply runs ToolCall as the Conn does: the standard fields merged first.
func apply(t *testing.T, prev acpdialect.Payload, update string) acpdialect.Payload {
	t.Helper()
	u := frame.ReadToolUpdate(gjson.Parse(update))
	if u.Title.Type == gjson.String {
		prev.Title = u.Title.Str
	}
	if u.Status.Type == gjson.String {
		prev.Status = u.Status.Str
	}
	keep := prev.Clone()
	next := devin.ToolCall(u, prev)
	if !prev.Equal(keep) {
		t.Fatal("ToolCall changed the payload it was given")
	}
	return next
}

func TestToolCall(t *testing.T) {
	generic := acpdialect.Payload{Kind: acpdialect.KindGeneric}
	tests := []struct {
		name, update string
		want         string // the payload's JSON
		first        string // an update applied before, if any
	}{
		{"the tool's name",
			`{"sessionUpdate":"tool_call","toolCallId":"exec:0","title":"Ran ls","_meta":{"cognition.ai/inferenceToolName":"exec"}}`,
			`{"kind":"generic","title":"Ran ls","tool":{"name":"exec"}}`, ""},
		{"nested under its agent",
			`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Ran pwd","_meta":{"cognition.ai/subagent_context":{"parentAgentId":"a1"}}}`,
			`{"kind":"generic","title":"Ran pwd","parent_tool_call_id":"a1"}`, ""},
		{"a card is never its own parent",
			`{"sessionUpdate":"tool_call_update","toolCallId":"A","_meta":{"cognition.ai/subagent_context":{"parentAgentId":"A"}}}`,
			`{"kind":"generic"}`, ""},
		{"the root agent is no parent",
			`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Ran pwd","_meta":{"cognition.ai/subagent_context":{"parentAgentId":"root"}}}`,
			`{"kind":"generic","title":"Ran pwd"}`, ""},
		{"a subagent starts",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","status":"in_progress","_meta":{"cognition.ai/subagent_started":{"agentId":"a1","title":"Map","task":"Run pwd.","profile":"explore","model":"SWE-1.7","isBackground":true}}}`,
			`{"kind":"subagent_task","status":"in_progress","title":"Map","subagent_task":{"description":"Map","prompt":"Run pwd.","subagent_type":"explore","agent_id":"a1","model":"SWE-1.7","is_async":true}}`, ""},
		{"a subagent fails without a status",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":false,"error":"boom"}}}`,
			`{"kind":"subagent_task","status":"failed","subagent_task":{"status":"failed","agent_id":"a1","error":"boom"}}`, ""},
		{"a failed subagent's summary is its error, not its result",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":false,"summary":"npm is not installed","error":"exit 127"}}}`,
			`{"kind":"subagent_task","status":"failed","subagent_task":{"status":"failed","agent_id":"a1","error":"npm is not installed"}}`, ""},
		{"a failed subagent keeps the frame's own status",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","status":"completed","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":false,"summary":"It gave up."}}}`,
			`{"kind":"subagent_task","status":"completed","subagent_task":{"status":"failed","agent_id":"a1","error":"It gave up."}}`, ""},
		{"a failure with no text has no error",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":false,"summary":"  ","error":7}}}`,
			`{"kind":"subagent_task","status":"failed","subagent_task":{"status":"failed","agent_id":"a1"}}`, ""},
		{"a success's summary is its result, never an error",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","status":"completed","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":true,"summary":"done","error":"ignored"}}}`,
			`{"kind":"subagent_task","status":"completed","subagent_task":{"status":"completed","agent_id":"a1","result_text":"done"}}`, ""},
		{"success absent is no failure: the error field is the result",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","error":"warned"}}}`,
			`{"kind":"subagent_task","status":"completed","subagent_task":{"status":"completed","agent_id":"a1","result_text":"warned"}}`, ""},
		{"the frame's own status stands over the completion's",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","status":"failed","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":true,"summary":"done"}}}`,
			`{"kind":"subagent_task","status":"failed","subagent_task":{"status":"completed","agent_id":"a1","result_text":"done"}}`, ""},
		{"the card's own title stands over the marker's",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_started":{"agentId":"a1","title":"Map"}}}`,
			`{"kind":"subagent_task","title":"Run subagent","subagent_task":{"description":"Map","agent_id":"a1"}}`,
			`{"sessionUpdate":"tool_call","toolCallId":"a1","title":"Run subagent"}`},
		{"a resent marker without isBackground leaves it async",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_started":{"agentId":"a1","title":"Map"}}}`,
			`{"kind":"subagent_task","title":"Map","subagent_task":{"description":"Map","agent_id":"a1","is_async":true}}`,
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_started":{"agentId":"a1","title":"Map","isBackground":true}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			card := generic
			if tt.first != "" {
				card = apply(t, card, tt.first)
			}
			got, _ := json.Marshal(apply(t, card, tt.update))
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// A started marker that arrives after its subagent's completion (resent,
// or out of order) fills what the card lacks but does not reopen it.
func TestStartedAfterCompletion(t *testing.T) {
	started := func(status string) string {
		return `{"sessionUpdate":"tool_call_update","toolCallId":"a1",` + status + `"_meta":{"cognition.ai/subagent_started":{"agentId":"a1","title":"Map","task":"Run pwd."}}}`
	}
	tests := []struct {
		name, completion, started, want string
	}{
		{"in_progress after completed",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","status":"completed","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":true,"summary":"done"}}}`,
			started(`"status":"in_progress",`),
			`{"kind":"subagent_task","status":"completed","title":"Map","subagent_task":{"description":"Map","prompt":"Run pwd.","status":"completed","agent_id":"a1","result_text":"done"}}`},
		{"pending after failed",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":false,"error":"boom"}}}`,
			started(`"status":"pending",`),
			`{"kind":"subagent_task","status":"failed","title":"Map","subagent_task":{"description":"Map","prompt":"Run pwd.","status":"failed","agent_id":"a1","error":"boom"}}`},
		{"no status after completed",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":true}}}`,
			started(``),
			`{"kind":"subagent_task","status":"completed","title":"Map","subagent_task":{"description":"Map","prompt":"Run pwd.","status":"completed","agent_id":"a1"}}`},
		{"an explicit cancelled stands",
			`{"sessionUpdate":"tool_call_update","toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":true}}}`,
			started(`"status":"cancelled",`),
			`{"kind":"subagent_task","status":"cancelled","title":"Map","subagent_task":{"description":"Map","prompt":"Run pwd.","status":"completed","agent_id":"a1"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			card := apply(t, acpdialect.Payload{Kind: acpdialect.KindGeneric}, tt.completion)
			got, _ := json.Marshal(apply(t, card, tt.started))
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// A whole-file write resent with no status leaves the card as it is: the
// same payload, the same Tool object, so the Conn reports nothing.
func TestResentWriteChangesNothing(t *testing.T) {
	write := func(text string) string {
		b, _ := json.Marshal(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "functions.write:1",
			"title": "Writing ./a.py", "content": []any{map[string]any{"type": "diff", "path": "/r/a.py", "newText": text}},
			"rawInput": map[string]any{"file_path": "/r/a.py", "content": text},
			"_meta":    map[string]any{"cognition.ai/inferenceToolName": "write"}})
		return string(b)
	}
	card := apply(t, acpdialect.Payload{Kind: acpdialect.KindGeneric}, write("x"))
	for _, text := range []string{"x = 1\n", "x = 1\ny = 2\n", "x = 1\ny = 2\nz = 3\n"} {
		next := apply(t, card, write(text))
		if !next.Equal(card) || next.Tool != card.Tool {
			t.Fatalf("resend changed the card: %+v -> %+v", card, next)
		}
	}
}

func TestUsageEvent(t *testing.T) {
	tests := []struct {
		name, update string
		want         string // the usage object's JSON, "" for no event
	}{
		{"counters",
			`{"sessionUpdate":"usage_update","used":41000,"size":200000,"_meta":{"cognition.ai/inputTokens":40000,"cognition.ai/cachedReadTokens":35000,"cognition.ai/cachedWriteTokens":1200,"cognition.ai/outputTokens":900,"cognition.ai/totalTokens":40900}}`,
			`{"used":41000,"size":200000,"input_tokens":40000,"output_tokens":900,"cached_read_tokens":35000,"cached_write_tokens":1200,"total_tokens":40900}`},
		{"the root twin is dropped",
			`{"used":1,"_meta":{"cognition.ai/inputTokens":5,"cognition.ai/subagent_context":{"parentAgentId":"root"}}}`, ""},
		{"a subagent's request",
			`{"used":1,"_meta":{"cognition.ai/outputTokens":5,"cognition.ai/subagent_context":{"parentAgentId":"a1"}}}`,
			`{"used":1,"origin":"subagent","output_tokens":5}`},
		{"standard fields alone", `{"used":10,"size":100}`, `{"used":10,"size":100}`},
		{"wrong types and negatives are absent",
			`{"used":"10","_meta":{"cognition.ai/inputTokens":-1,"cognition.ai/outputTokens":1.5}}`, ""},
		{"nothing", `{"sessionUpdate":"usage_update"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := devin.UsageEvent(gjson.Parse(tt.update))
			if tt.want == "" {
				if ev != nil {
					t.Fatalf("got %+v, want none", ev.Usage())
				}
				return
			}
			if ev == nil {
				t.Fatal("no event")
			}
			got, _ := json.Marshal(ev.Usage())
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// A subagent's task longer than MaxText is cut to its head, between runes.
func TestLongTaskCutBetweenRunes(t *testing.T) {
	task := strings.Repeat("a", devin.MaxText-1) + "é" + "tail"
	b, _ := json.Marshal(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "a1",
		"_meta": map[string]any{"cognition.ai/subagent_started": map[string]any{"agentId": "a1", "task": task}}})
	p := apply(t, acpdialect.Payload{Kind: acpdialect.KindGeneric}, string(b))
	if got := p.SubagentTask.Prompt; got != task[:devin.MaxText-1] || !utf8.ValidString(got) {
		t.Errorf("prompt of %d bytes (valid UTF-8 %v), want the %d before the split rune", len(got), utf8.ValidString(got), devin.MaxText-1)
	}
	exact := strings.Repeat("b", devin.MaxText)
	b, _ = json.Marshal(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "a1",
		"_meta": map[string]any{"cognition.ai/subagent_started": map[string]any{"agentId": "a1", "task": exact}}})
	if got := apply(t, acpdialect.Payload{Kind: acpdialect.KindGeneric}, string(b)).SubagentTask.Prompt; got != exact {
		t.Errorf("a task of exactly MaxText bytes became %d bytes", len(got))
	}
}

// A failed subagent's summary longer than MaxText is cut to its head, as
// a result text is: an error is no exception to the bound.
func TestLongErrorCut(t *testing.T) {
	summary := strings.Repeat("e", devin.MaxText+10)
	b, _ := json.Marshal(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "a1",
		"_meta": map[string]any{"cognition.ai/subagent_completed": map[string]any{"agentId": "a1", "success": false, "summary": summary}}})
	st := apply(t, acpdialect.Payload{Kind: acpdialect.KindGeneric}, string(b)).SubagentTask
	if len(st.Error) != devin.MaxText || st.ResultText != "" {
		t.Errorf("error of %d bytes and result %q, want %d bytes and none", len(st.Error), st.ResultText, devin.MaxText)
	}
}

// TestEndNested pins which frames end a subagent's own tool calls: its
// completion marker, with its status.
func TestEndNested(t *testing.T) {
	tests := []struct {
		name, update   string
		parent, status string
		ok             bool
	}{
		{"completed", `{"toolCallId":"a1","status":"completed","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":true,"summary":"done"}}}`,
			"a1", acpdialect.StatusCompleted, true},
		{"failed", `{"toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":false,"summary":"boom"}}}`,
			"a1", acpdialect.StatusFailed, true},
		{"success missing: completed", `{"toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1"}}}`,
			"a1", acpdialect.StatusCompleted, true},
		{"no agent id", `{"toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"success":true}}}`, "", "", false},
		{"the root agent", `{"toolCallId":"a1","_meta":{"cognition.ai/subagent_completed":{"agentId":"root","success":true}}}`, "", "", false},
		{"a start is no end", `{"toolCallId":"a1","_meta":{"cognition.ai/subagent_started":{"agentId":"a1","title":"t"}}}`, "", "", false},
		{"a child's own update", `{"toolCallId":"c1","status":"completed","_meta":{"cognition.ai/subagent_context":{"parentAgentId":"a1"}}}`, "", "", false},
		{"no _meta", `{"toolCallId":"a1","status":"completed"}`, "", "", false},
	}
	for _, tt := range tests {
		parent, status, ok := devin.EndNested(frame.ReadToolUpdate(gjson.Parse(tt.update)))
		if parent != tt.parent || status != tt.status || ok != tt.ok {
			t.Errorf("%s: EndNested = %q, %q, %v; want %q, %q, %v", tt.name, parent, status, ok, tt.parent, tt.status, tt.ok)
		}
	}
}
