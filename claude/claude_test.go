package claude_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"@agentclientprotocol/claude-agent-acp", "Claude Agent", true},
		{"@zed-industries/claude-code-acp", "", true},
		{"claude-agent-acp", "", true},
		{"claude-code-acp", "", true},
		{"claude-code", "", true},
		{"  Claude-Code  ", "", true},
		{"", "Claude Agent", true},
		{"", "Claude Code", true},
		// Near misses: another agent that mentions Claude is not Claude.
		{"precursor-claude", "", false},
		{"claude-code (cursor-compatible)", "", false},
		{"claude", "", false},
		{"claude-agent-acp-fork", "", false},
		{"@agentclientprotocol/claude-agent-acp-next", "", false},
		{"cursor-agent", "Claude Agent", false}, // a named agent's title does not override its name
		{"", "Claude Agent (unofficial)", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := claude.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

func TestParseMCPName(t *testing.T) {
	tests := []struct {
		in           string
		server, tool string
		ok           bool
	}{
		{"mcp__docs__search", "docs", "search", true},
		{"mcp__my-server__search_docs", "my-server", "search_docs", true},
		{"mcp__srv__tool_x", "srv", "tool_x", true},
		{"mcp__s__t_", "s", "t_", true},
		{"mcp__a___b", "", "", false},   // "a_"+"b" or "a"+"_b"
		{"mcp__a__b__c", "", "", false}, // two separators
		{"mcp____x", "", "", false},     // empty server
		{"mcp__srv__", "", "", false},   // empty tool
		{"mcp___srv__tool", "", "", false},
		{"mcp__srv", "", "", false},
		{"mcp__", "", "", false},
		{"Bash", "", "", false},
		{"MCP__a__b", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		s, tool, ok := claude.ParseMCPName(tt.in)
		if s != tt.server || tool != tt.tool || ok != tt.ok {
			t.Errorf("ParseMCPName(%q) = %q, %q, %v; want %q, %q, %v", tt.in, s, tool, ok, tt.server, tt.tool, tt.ok)
		}
	}
}

func TestParseMonitorStarted(t *testing.T) {
	tests := []struct {
		in, id string
		ok     bool
	}{
		{"Monitor started (task bmon1, timeout 600000ms).", "bmon1", true},
		{"Monitor started (task b-9_x, timeout 1ms)", "b-9_x", true},
		{"Monitor started (task , timeout 1ms)", "", false},
		{"Monitor started (task bmon1)", "", false},
		{"Monitor started (task b mon, timeout 1ms)", "", false},
		{"monitor started (task bmon1, timeout 1ms)", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		id, ok := claude.ParseMonitorStarted(tt.in)
		if id != tt.id || ok != tt.ok {
			t.Errorf("ParseMonitorStarted(%q) = %q, %v; want %q, %v", tt.in, id, ok, tt.id, tt.ok)
		}
	}
}

func TestParseTaskNotifications(t *testing.T) {
	env := func(id, body string) string {
		return "<task-notification>\n<task-id>" + id + "</task-id>\n<summary>s</summary>\n<event>" + body + "</event>\n</task-notification>"
	}
	tests := []struct {
		name, text string
		want       []claude.Notification
	}{
		{"one", env("m1", "E1"), []claude.Notification{{TaskID: "m1", Event: "E1", Start: 0, End: len(env("m1", "E1"))}}},
		{"human prefix", "Human: " + env("m1", "E1"), []claude.Notification{{TaskID: "m1", Event: "E1", Start: 0, End: 7 + len(env("m1", "E1"))}}},
		{"human prefix after a line", "ok\nHuman: " + env("m1", "E1"), []claude.Notification{{TaskID: "m1", Event: "E1", Start: 3, End: 10 + len(env("m1", "E1"))}}},
		{"not a human prefix", "NotHuman: " + env("m1", "E1"), []claude.Notification{{TaskID: "m1", Event: "E1", Start: 10, End: 10 + len(env("m1", "E1"))}}},
		{"in text", "ab " + env("m1", "E1") + " cd", []claude.Notification{{TaskID: "m1", Event: "E1", Start: 3, End: 3 + len(env("m1", "E1"))}}},
		{"two tasks", env("m1", "a") + env("m2", "b"), []claude.Notification{
			{TaskID: "m1", Event: "a", Start: 0, End: len(env("m1", "a"))},
			{TaskID: "m2", Event: "b", Start: len(env("m1", "a")), End: len(env("m1", "a")) + len(env("m2", "b"))}}},
		{"no event", "<task-notification><task-id>bash_1</task-id><status>completed</status></task-notification>", nil},
		{"no id", "<task-notification><event>x</event></task-notification>", nil},
		{"unclosed", "<task-notification><task-id>m1</task-id><event>x</event>", nil},
		{"summary after the event", "<task-notification><task-id>m1</task-id><event>x</event><summary>s</summary></task-notification>",
			[]claude.Notification{{TaskID: "m1", Event: "x", Start: 0, End: 96}}},
		{"id after the event", "<task-notification><summary>s</summary><event>x</event><task-id>m1</task-id></task-notification>",
			[]claude.Notification{{TaskID: "m1", Event: "x", Start: 0, End: 96}}},
		{"an id inside the body is the body's", "<task-notification><event>a <task-id>m9</task-id> b</event></task-notification>", nil},
		{"a body with markup", "<task-notification><task-id>m1</task-id><event>x </event> y</event></task-notification>",
			[]claude.Notification{{TaskID: "m1", Event: "x </event> y", Start: 0, End: 87}}},
		{"an id with markup", "<task-notification><task-id>m<1</task-id><event>x</event></task-notification>", nil},
		{"plain", "no envelope here", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, claude.ParseTaskNotifications(tt.text)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	many := strings.Repeat(env("m", "e"), claude.MaxNotifications+5)
	if n := len(claude.ParseTaskNotifications(many)); n != claude.MaxNotifications {
		t.Errorf("%d notifications, want the bound %d", n, claude.MaxNotifications)
	}
}

func TestParseScheduledFor(t *testing.T) {
	tests := []struct {
		in            string
		at            int64
		present, okay bool
	}{
		{`{"scheduledFor":1767225900000}`, 1767225900000, true, true},
		{`{"scheduledFor":0}`, 0, true, false},
		{`{"scheduledFor":-5}`, 0, true, false},
		{`{"scheduledFor":"<number>"}`, 0, true, false},
		{`{"scheduledFor":1.5}`, 0, true, false},
		{`{"other":1}`, 0, false, false},
		{`[]`, 0, false, false},
	}
	for _, tt := range tests {
		at, present, ok := claude.ParseScheduledFor(gjson.Parse(tt.in))
		if at != tt.at || present != tt.present || ok != tt.okay {
			t.Errorf("ParseScheduledFor(%s) = %d, %v, %v", tt.in, at, present, ok)
		}
	}
}

func TestCapabilitiesEvent(t *testing.T) {
	tests := []struct {
		in   string
		want acpdialect.Capabilities
	}{
		{`{"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":true},"authStatus":{}}}}`, acpdialect.Capabilities{PromptQueueing: true, AuthStatus: true}},
		{`{"capabilities":{"_meta":{"claudeCode":{"promptQueueing":true}}}}`, acpdialect.Capabilities{PromptQueueing: true}},
		{`{"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":"true"}}}}`, acpdialect.Capabilities{}},
		{`{"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":1}}}}`, acpdialect.Capabilities{}},
		{`{"agentCapabilities":{"_meta":{"authStatus":true}}}`, acpdialect.Capabilities{}},
		{`{}`, acpdialect.Capabilities{}},
		{`{"capabilities":{"_meta":{"authStatus":{}}},"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":true}}}}`, acpdialect.Capabilities{PromptQueueing: true}},
		{`{"agentCapabilities":{"_meta":{"claudeCode":{}},"_meta":{"authStatus":{}}}}`, acpdialect.Capabilities{}},
		{`{"agentCapabilities":{"_meta":{"claudeCode":{"x":1},"claudeCode":{"promptQueueing":true},"authStatus":{},"authStatus":1}}}`, acpdialect.Capabilities{PromptQueueing: true, AuthStatus: true}},
		{`{"agentCapabilities":"none","capabilities":{"_meta":{"authStatus":{}}}}`, acpdialect.Capabilities{}},
	}
	for _, tt := range tests {
		ev := claude.CapabilitiesEvent(gjson.Parse(tt.in))
		if ev == nil || ev.Capabilities() == nil || *ev.Capabilities() != tt.want {
			t.Errorf("CapabilitiesEvent(%s) = %+v, want %+v", tt.in, ev, tt.want)
		}
		if ref := capabilitiesLookups(gjson.Parse(tt.in)); ev != nil && ev.Capabilities() != nil && *ev.Capabilities() != ref {
			t.Errorf("CapabilitiesEvent(%s) = %+v; the lookups read %+v", tt.in, *ev.Capabilities(), ref)
		}
	}
}

func usage(t *testing.T, ev *acpdialect.Event) string {
	t.Helper()
	if ev == nil {
		return "nil"
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestUsageEvent(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"sessionUpdate":"usage_update","used":45196,"size":1000000,"cost":{"amount":0.36,"currency":"USD"},"_meta":{"_claude/origin":{"kind":"task-notification"},"_claude/model":"claude-opus-5-5"}}`,
			`{"type":"usage","usage":{"used":45196,"size":1000000,"cost":0.36,"currency":"USD","model":"claude-opus-5-5","origin":"task-notification"}}`},
		{`{"used":"<number>","size":-1,"cost":{"amount":"x"},"_meta":{"_claude/model":7}}`, `nil`},
		{`{"used":0}`, `{"type":"usage","usage":{"used":0}}`},
		{`{"used":1,"_meta":{"_claude/rateLimit":{"status":"rejected","rateLimitType":"five_hour","resetsAt":1767225600000,"utilization":1}}}`,
			`{"type":"usage","usage":{"used":1,"rate_limit":{"status":"rejected","type":"five_hour","utilization":1,"resets_at":1767225600000}}}`},
		// resetsAt below 1e11 is seconds, at 1e11 milliseconds already.
		{`{"used":1,"_meta":{"_claude/rateLimit":{"resetsAt":99999999999}}}`,
			`{"type":"usage","usage":{"used":1,"rate_limit":{"resets_at":99999999999000}}}`},
		{`{"used":1,"_meta":{"_claude/rateLimit":{"resetsAt":100000000000}}}`,
			`{"type":"usage","usage":{"used":1,"rate_limit":{"resets_at":100000000000}}}`},
	}
	for _, tt := range tests {
		if got := usage(t, claude.UsageEvent(gjson.Parse(tt.in))); got != tt.want {
			t.Errorf("UsageEvent(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestTurnEvent(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"stopReason":"end_turn","usage":{"inputTokens":2,"outputTokens":4,"cachedReadTokens":0,"cachedWriteTokens":45190,"totalTokens":45196},"_meta":{"quota":{"model_usage":[{"model":"claude-opus-5-5"}]}}}`,
			`{"type":"usage","usage":{"model":"claude-opus-5-5","turn":true,"input_tokens":2,"output_tokens":4,"cached_read_tokens":0,"cached_write_tokens":45190,"total_tokens":45196}}`},
		{`{"_meta":{"quota":{"token_count":{"inputTokens":1,"cachedInputTokens":3,"reasoningOutputTokens":5},"model_usage":[{"model":"a"},{"model":"b"}]}}}`,
			`{"type":"usage","usage":{"turn":true,"input_tokens":1,"cached_read_tokens":3,"thought_tokens":5}}`},
		{`{"messageId":"m1"}`, `nil`},
		{`{"usage":{"inputTokens":"<number>"}}`, `nil`},
		// ACP's usage wins over the quota's in either order; the quota
		// fills only what ACP's lacks.
		{`{"usage":{"inputTokens":12},"_meta":{"quota":{"token_count":{"inputTokens":999,"outputTokens":7}}}}`,
			`{"type":"usage","usage":{"turn":true,"input_tokens":12,"output_tokens":7}}`},
		{`{"_meta":{"quota":{"token_count":{"inputTokens":999,"outputTokens":7}}},"usage":{"inputTokens":12}}`,
			`{"type":"usage","usage":{"turn":true,"input_tokens":12,"output_tokens":7}}`},
		{`{"_meta":{"quota":{"token_count":{"inputTokens":999}}},"usage":{"inputTokens":-1}}`,
			`{"type":"usage","usage":{"turn":true,"input_tokens":999}}`},
		{`{"usage":{"inputTokens":3,"inputTokens":4}}`, `{"type":"usage","usage":{"turn":true,"input_tokens":3}}`},
	}
	for _, tt := range tests {
		if got := usage(t, claude.TurnEvent(gjson.Parse(tt.in))); got != tt.want {
			t.Errorf("TurnEvent(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestTurnEventAllocs: a turn summary is one allocation, its six counts
// included (a model name is one more, its copy).
func TestTurnEventAllocs(t *testing.T) {
	in := gjson.Parse(`{"stopReason":"end_turn","usage":{"inputTokens":2,"outputTokens":4,"cachedReadTokens":0,"cachedWriteTokens":45190,"thoughtTokens":7,"totalTokens":45196}}`)
	var ev *acpdialect.Event
	if n := testing.AllocsPerRun(100, func() { ev = claude.TurnEvent(in) }); n != 1 {
		t.Errorf("TurnEvent: %.0f allocs, want 1", n)
	}
	if ev == nil || ev.Usage() == nil || *ev.Usage().ThoughtTokens != 7 || *ev.Usage().InputTokens != 2 {
		t.Errorf("TurnEvent: %+v", ev)
	}
}

func TestHandlePermission(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"sessionId":"s","toolCall":{"toolCallId":"t1","title":"rm x","kind":"execute","_meta":{"claudeCode":{"toolName":"Bash"}}},"options":[{"optionId":"a","name":"Yes","kind":"allow_once"},{"name":"no id"}]}`,
			`{"type":"permission","tool_call_id":"t1","permission":{"tool_name":"Bash","title":"rm x","options":[{"id":"a","name":"Yes","kind":"allow_once"}]}}`},
		{`{"toolCall":{"toolCallId":"t2","title":"mcp__docs__search","kind":"other"},"options":[]}`,
			`{"type":"permission","tool_call_id":"t2","permission":{"tool_name":"mcp__docs__search","title":"mcp__docs__search","server":"docs","tool":"search","options":[]}}`},
		{`{"toolCall":{"toolCallId":"t3","title":"mcp__docs__search","kind":"execute"}}`,
			`{"type":"permission","tool_call_id":"t3","permission":{"title":"mcp__docs__search","options":[]}}`},
		{`{"title":"Ready?","subject":{"type":"tool_call","toolCall":{"toolCallId":"t4","name":"ExitPlanMode","_meta":{"claudeCode":{"mcpServer":"srv"}}}}}`,
			`{"type":"permission","tool_call_id":"t4","permission":{"tool_name":"ExitPlanMode","title":"Ready?","server":"srv","options":[]}}`},
		{`"not an object"`, `{"type":"permission","permission":{"options":[]}}`},
	}
	for _, tt := range tests {
		act := claude.HandlePermission(gjson.Parse(tt.in))
		if got := usage(t, act.Event); got != tt.want {
			t.Errorf("HandlePermission(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
		if act.Result != nil || act.Error != nil || act.Await {
			t.Errorf("HandlePermission answers: %+v", act)
		}
	}
}

// TestPermissionOptionsBounded: a permission lists its first 64 options
// with an id.
func TestPermissionOptionsBounded(t *testing.T) {
	var opts []string
	for i := range 65 {
		opts = append(opts, fmt.Sprintf(`{"optionId":"o%d"}`, i))
	}
	p := claude.HandlePermission(gjson.Parse(`{"toolCall":{"toolCallId":"t"},"options":[` + strings.Join(opts, ",") + `]}`)).Event.Permission()
	if len(p.Options) != 64 || p.Options[63].ID != "o63" {
		t.Errorf("%d options", len(p.Options))
	}
}

// toolCalls feeds a card's updates to ToolCall in order, as the Conn
// does (status and title first), and returns the final payload.
func toolCalls(updates ...string) acpdialect.Payload {
	p := acpdialect.Payload{Kind: acpdialect.KindGeneric}
	for _, u := range updates {
		tu := frame.ReadToolUpdate(gjson.Parse(u))
		if s := tu.Status.Str; s != "" {
			p.Status = s
		}
		frame.Set(&p.Title, tu.Title)
		p = claude.ToolCall(tu, p)
	}
	return p
}

func TestToolCall(t *testing.T) {
	tests := []struct {
		name    string
		updates []string
		want    string
	}{
		{"subagent by toolName, kind other, wrong-typed duration",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"a","kind":"other","status":"pending","_meta":{"claudeCode":{"toolName":"Agent"}},"rawInput":{"description":"D"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"a","rawInput":{"description":"other","prompt":"P","subagent_type":"Explore"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"completed","_meta":{"claudeCode":{"toolName":"Agent","toolResponse":{"agentId":"x","agentType":"Plan","status":"completed","totalDurationMs":"<number>","totalTokens":0,"totalToolUseCount":0,"resolvedModel":"claude-haiku-4-5","content":[{"type":"text","text":"A"},{"type":"image"},{"type":"text","text":"B"}]}}}}`},
			`{"kind":"subagent_task","status":"completed","tool":{"name":"Agent"},"subagent_task":{"description":"D","prompt":"P","subagent_type":"Explore","status":"completed","agent_id":"x","model":"claude-haiku-4-5","total_tokens":0,"tool_use_count":0,"result_text":"A\nB"}}`},
		// A failed call's raw tool_result is why it failed (a client
		// that is not AIR gets it as rawOutput; content has it fenced).
		{"subagent failed: its raw output is its error",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"a","kind":"think","status":"pending","_meta":{"claudeCode":{"toolName":"Agent"}},"rawInput":{"description":"D"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"failed","_meta":{"claudeCode":{"toolName":"Agent"}},"content":[{"type":"content","content":{"type":"text","text":"` + "```" + `\nThe build still fails.\n` + "```" + `"}}],"rawOutput":[{"type":"text","text":"The build still fails."}]}`},
			`{"kind":"subagent_task","status":"failed","tool":{"name":"Agent"},"subagent_task":{"description":"D","error":"The build still fails."}}`},
		{"subagent failed: a string output",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"failed","_meta":{"claudeCode":{"toolName":"Task"}},"rawOutput":"Agent type 'nope' not found."}`},
			`{"kind":"subagent_task","status":"failed","tool":{"name":"Task"},"subagent_task":{"error":"Agent type 'nope' not found."}}`},
		{"subagent failed: a blank string output is no error, as a blank text block is none",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"failed","_meta":{"claudeCode":{"toolName":"Task"}},"rawOutput":" \n\t"}`},
			`{"kind":"subagent_task","status":"failed","tool":{"name":"Task"},"subagent_task":{}}`},
		// joinText serves MCP output too: a blank string rawOutput is no
		// output, so the tool response, where there is one, is read.
		{"mcp: a blank string output falls back to the tool response",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"x","status":"pending","_meta":{"claudeCode":{"toolName":"mcp__docs__search"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"x","status":"completed","rawOutput":"  ","_meta":{"claudeCode":{"toolName":"mcp__docs__search","toolResponse":[{"type":"text","text":"R"}]}}}`},
			`{"kind":"mcp_tool","status":"completed","tool":{"name":"mcp__docs__search"},"mcp_tool":{"server":"docs","tool":"search","output":"R"}}`},
		{"mcp failed: a blank string output is no error",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"x","status":"failed","rawOutput":"\n","_meta":{"claudeCode":{"toolName":"mcp__docs__search"}}}`},
			`{"kind":"mcp_tool","status":"failed","tool":{"name":"mcp__docs__search"},"mcp_tool":{"server":"docs","tool":"search"}}`},
		{"subagent failed without rawOutput (AIR, a denial): no error",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"failed","_meta":{"claudeCode":{"toolName":"Agent"}},"content":[{"type":"content","content":{"type":"text","text":"Permission denied: no"}}]}`},
			`{"kind":"subagent_task","status":"failed","tool":{"name":"Agent"},"subagent_task":{}}`},
		{"subagent completed: its raw output is no error",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"completed","_meta":{"claudeCode":{"toolName":"Agent"}},"rawOutput":[{"type":"text","text":"Done."}]}`},
			`{"kind":"subagent_task","status":"completed","tool":{"name":"Agent"},"subagent_task":{}}`},
		{"subagent by flag",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"a","kind":"think","_meta":{"claudeCode":{"subagent":true,"toolName":"Whatever"}}}`},
			`{"kind":"subagent_task","tool":{"name":"Whatever"},"subagent_task":{}}`},
		{"async launch completes the card",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"in_progress","_meta":{"claudeCode":{"toolName":"Task","toolResponse":{"status":"async_launched","isAsync":true,"outputFile":"/o","agentId":"g"}}}}`},
			`{"kind":"subagent_task","status":"completed","tool":{"name":"Task"},"subagent_task":{"status":"async_launched","agent_id":"g","is_async":true,"output_file":"/o"}}`},
		{"parent kept from the first update",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"r","kind":"read","_meta":{"claudeCode":{"toolName":"Read","parentToolUseId":"p1"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"r","status":"completed"}`},
			`{"kind":"generic","status":"completed","parent_tool_call_id":"p1","tool":{"name":"Read"}}`},
		{"bash background without terminal",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"b","_meta":{"claudeCode":{"toolName":"Bash"}},"rawInput":{"command":"sleep 9","run_in_background":true}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"b","rawInput":{"command":"sleep 9","run_in_background":"yes"},"rawOutput":"Command running in background with ID: b1","status":"completed"}`},
			`{"kind":"shell","status":"completed","tool":{"name":"Bash"},"shell":{"command":"sleep 9","output":"Command running in background with ID: b1","background":true}}`},
		{"bash stderr only, no blank first line",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"b","_meta":{"claudeCode":{"toolName":"Bash"}},"rawInput":{"command":"false"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"b","status":"failed","_meta":{"claudeCode":{"toolName":"Bash","toolResponse":{"stdout":"","stderr":"boom","interrupted":false}}}}`},
			`{"kind":"shell","status":"failed","tool":{"name":"Bash"},"shell":{"command":"false","output":"boom"}}`},
		// A client without the terminal channel (claude-agent-acp 0.101.0,
		// claude/testdata/live-0.101.0-stub.jsonl): Claude Code's words for
		// an empty output are none, and a failure's text names its code.
		{"bash: no output, in Claude Code's words",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"b","_meta":{"claudeCode":{"toolName":"Bash"}},"rawInput":{"command":"touch x"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"b","_meta":{"claudeCode":{"toolName":"Bash","toolResponse":{"stdout":"","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":true}}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"b","status":"completed","_meta":{"claudeCode":{"toolName":"Bash"}},"rawOutput":"(Bash completed with no output)"}`},
			`{"kind":"shell","status":"completed","tool":{"name":"Bash"},"shell":{"command":"touch x"}}`},
		{"bash failed: the code from its text",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"b","_meta":{"claudeCode":{"toolName":"Bash"}},"rawInput":{"command":"ls /none"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"b","status":"failed","_meta":{"claudeCode":{"toolName":"Bash"}},"rawOutput":"Exit code 2\nls: cannot access '/none'"}`},
			`{"kind":"shell","status":"failed","tool":{"name":"Bash"},"shell":{"command":"ls /none","output":"Exit code 2\nls: cannot access '/none'","exit_code":2}}`},
		{"bash failed: a text that names no code",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"b","status":"failed","_meta":{"claudeCode":{"toolName":"Bash"}},"rawOutput":"Exit code two\n"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"b","status":"failed","_meta":{"claudeCode":{"toolName":"Bash"}},"rawOutput":"Exit code -1"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"b","status":"failed","_meta":{"claudeCode":{"toolName":"Bash"}},"rawOutput":"Permission to use Bash has been denied."}`},
			`{"kind":"shell","status":"failed","tool":{"name":"Bash"},"shell":{"output":"Permission to use Bash has been denied."}}`},
		{"bash: the code only when the call failed, and at the end of a line",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"b","status":"completed","_meta":{"claudeCode":{"toolName":"Bash"}},"rawOutput":"Exit code 3"}`},
			`{"kind":"shell","status":"completed","tool":{"name":"Bash"},"shell":{"output":"Exit code 3"}}`},
		{"bash failed: a code alone on its line",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"b","status":"failed","_meta":{"claudeCode":{"toolName":"Bash"}},"rawOutput":"Exit code 127"}`},
			`{"kind":"shell","status":"failed","tool":{"name":"Bash"},"shell":{"output":"Exit code 127","exit_code":127}}`},
		{"bash stdout and stderr",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"b","_meta":{"claudeCode":{"toolName":"Bash","toolResponse":{"stdout":"a\n","stderr":"b"}}}}`},
			`{"kind":"shell","tool":{"name":"Bash"},"shell":{"output":"a\nb"}}`},
		{"wakeup: the latest reported time decides, an invalid one clears the earlier",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"w","_meta":{"claudeCode":{"toolName":"ScheduleWakeup"}},"rawInput":{"prompt":"P"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"w","_meta":{"claudeCode":{"toolName":"ScheduleWakeup","toolResponse":{"scheduledFor":1767225900000}}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"w","status":"completed","_meta":{"claudeCode":{"toolName":"ScheduleWakeup","toolResponse":{"scheduledFor":"soon"}}}}`},
			`{"kind":"wakeup","status":"completed","tool":{"name":"ScheduleWakeup"},"wakeup":{"prompt":"P","invalid":true}}`},
		{"wakeup: a valid time after an invalid one",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"w","_meta":{"claudeCode":{"toolName":"ScheduleWakeup","toolResponse":{"scheduledFor":0}}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"w","_meta":{"claudeCode":{"toolName":"ScheduleWakeup","toolResponse":{"scheduledFor":5}}}}`},
			`{"kind":"wakeup","tool":{"name":"ScheduleWakeup"},"wakeup":{"scheduled_for":5}}`},
		{"monitor registration means running",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"m","_meta":{"claudeCode":{"toolName":"Monitor"}},"rawInput":{"command":"tail -f x"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"completed","rawOutput":"Monitor started (task bm1, timeout 5ms)"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"completed","rawOutput":"Monitor started (task bm1, timeout 5ms)"}`},
			`{"kind":"monitor","status":"in_progress","tool":{"name":"Monitor"},"monitor":{"task_id":"bm1","command":"tail -f x","event_count":0}}`},
		{"a v2 monitor's task ends as its tool call's final status, in a later update",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"m","_meta":{"claudeCode":{"toolName":"Monitor"}},"rawInput":{"command":"tail -f x"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"in_progress","rawOutput":"Monitor started (task bm1, timeout 5ms)"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"paused"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"completed","capabilities":null}`},
			`{"kind":"monitor","status":"completed","tool":{"name":"Monitor"},"monitor":{"task_id":"bm1","command":"tail -f x","event_count":0,"ended":true,"end_reason":"completed"}}`},
		{"a later final status ends a monitor registered as completed too (no release sends one to a v1 client)",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"m","_meta":{"claudeCode":{"toolName":"Monitor"}},"rawInput":{"command":"tail -f x"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"completed","rawOutput":"Monitor started (task bm1, timeout 5ms)"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"completed"}`},
			`{"kind":"monitor","status":"completed","tool":{"name":"Monitor"},"monitor":{"task_id":"bm1","command":"tail -f x","event_count":0,"ended":true,"end_reason":"completed"}}`},
		{"a v2 monitor stopped",
			[]string{`{"sessionUpdate":"tool_call_update","toolCallId":"m","_meta":{"claudeCode":{"toolName":"Monitor"}},"rawInput":{"command":"tail -f x"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"in_progress","rawOutput":"Monitor started (task bm1, timeout 5ms)"}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"cancelled"}`},
			`{"kind":"monitor","status":"cancelled","tool":{"name":"Monitor"},"monitor":{"task_id":"bm1","command":"tail -f x","event_count":0,"ended":true,"end_reason":"cancelled"}}`},
		{"monitor registration for AIR: the text in content, no rawOutput",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"m","_meta":{"claudeCode":{"toolName":"Monitor"}},"name":"Monitor","kind":"other","status":"pending","content":[]}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","rawInput":{"command":"tail -f x","description":"Watch x"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"completed","content":[{"type":"content","content":{"type":"text","text":"Monitor started (task bm1, timeout 5ms)"}}]}`},
			`{"kind":"monitor","status":"in_progress","tool":{"name":"Monitor"},"monitor":{"task_id":"bm1","command":"tail -f x","event_count":0}}`},
		{"monitor that failed to start",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"m","_meta":{"claudeCode":{"toolName":"Monitor"}},"status":"failed","rawOutput":"Error: bad command"}`},
			`{"kind":"monitor","status":"failed","tool":{"name":"Monitor"},"monitor":{"event_count":0}}`},
		{"tool name: a later update's replaces it, one without (or empty) keeps it",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"g","kind":"search","_meta":{"claudeCode":{"toolName":"Grep"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"g","_meta":{"claudeCode":{"toolName":"Glob"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"g","_meta":{"claudeCode":{"toolName":""}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"g","status":"completed","_meta":{"claudeCode":{"toolName":7}}}`},
			`{"kind":"generic","status":"completed","tool":{"name":"Glob"}}`},
		{"terminal metadata alone makes a shell",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"t","kind":"execute","_meta":{"terminal_info":{"terminal_id":"t1"}}}`},
			`{"kind":"shell","shell":{"terminal_id":"t1"}}`},
		{"a terminal's output is not replaced by rawOutput",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"t","_meta":{"claudeCode":{"toolName":"Bash"},"terminal_info":{"terminal_id":"t1"}},"rawInput":{"command":"make"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":{"terminal_output":{"terminal_id":"t1","data":"cc a.o\n"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"completed","rawOutput":"summary","_meta":{"claudeCode":{"toolName":"Bash","toolResponse":{"stdout":"other"}}}}`},
			`{"kind":"shell","status":"completed","tool":{"name":"Bash"},"shell":{"command":"make","terminal_id":"t1","output":"cc a.o\n"}}`},
		{"subagent: a later agent id replaces it; a non-text block's text is not the result",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"a","_meta":{"claudeCode":{"toolName":"Agent","toolResponse":{"agentId":"old"}}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"completed","_meta":{"claudeCode":{"toolName":"Agent","toolResponse":{"agentId":"new","content":[{"type":"tool_reference","text":"T"},{"type":"text","text":"A"}]}}}}`},
			`{"kind":"subagent_task","status":"completed","tool":{"name":"Agent"},"subagent_task":{"agent_id":"new","result_text":"A"}}`},
		{"a registered monitor whose call was cancelled stays cancelled",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"m","_meta":{"claudeCode":{"toolName":"Monitor"}}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"m","status":"cancelled","rawOutput":"Monitor started (task bm1, timeout 5ms)"}`},
			`{"kind":"monitor","status":"cancelled","tool":{"name":"Monitor"},"monitor":{"task_id":"bm1","event_count":0}}`},
		{"wakeup: a negative delay is absent",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"w","_meta":{"claudeCode":{"toolName":"ScheduleWakeup"}},"rawInput":{"delaySeconds":-5,"reason":"R"}}`},
			`{"kind":"wakeup","tool":{"name":"ScheduleWakeup"},"wakeup":{"reason":"R"}}`},
		{"mcp output from the tool response without rawOutput",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"x","_meta":{"claudeCode":{"toolName":"mcp__docs__search"}},"rawInput":{"q":"go"}}`,
				`{"sessionUpdate":"tool_call_update","toolCallId":"x","status":"completed","_meta":{"claudeCode":{"toolName":"mcp__docs__search","toolResponse":[{"type":"text","text":"R"}]}}}`},
			`{"kind":"mcp_tool","status":"completed","tool":{"name":"mcp__docs__search"},"mcp_tool":{"server":"docs","tool":"search","arguments":{"q":"go"},"output":"R"}}`},
		{"ambiguous mcp stays generic",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"x","_meta":{"claudeCode":{"toolName":"mcp__a__b__c"}},"rawInput":{"q":1}}`},
			`{"kind":"generic","tool":{"name":"mcp__a__b__c"}}`},
		// AIR's _meta.jetbrains.air.mcp (0.92.0) is the adapter's own
		// split: it resolves an ambiguous name, and wins over the parse.
		{"AIR's split of an ambiguous mcp name",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"x","_meta":{"claudeCode":{"toolName":"mcp__a__b__c"},"jetbrains":{"air":{"version":1,"mcp":{"server":"a","tool":"b__c"}}}},"rawInput":{"q":1}}`},
			`{"kind":"mcp_tool","tool":{"name":"mcp__a__b__c"},"mcp_tool":{"server":"a","tool":"b__c","arguments":{"q":1}}}`},
		{"AIR's split wins",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"x","_meta":{"jetbrains":{"air":{"mcp":{"tool":"t","server":"s"}}},"claudeCode":{"toolName":"mcp__docs__search"}}}`},
			`{"kind":"mcp_tool","tool":{"name":"mcp__docs__search"},"mcp_tool":{"server":"s","tool":"t"}}`},
		{"AIR's split without a tool is absent",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"x","_meta":{"claudeCode":{"toolName":"mcp__a__b__c"},"jetbrains":{"air":{"mcp":{"server":"a","tool":""}}}}}`},
			`{"kind":"generic","tool":{"name":"mcp__a__b__c"}}`},
		{"AIR's split of a wrong type is absent",
			[]string{`{"sessionUpdate":"tool_call","toolCallId":"x","_meta":{"claudeCode":{"toolName":"mcp__a__b__c"},"jetbrains":{"air":{"mcp":["a","b__c"]}}}}`},
			`{"kind":"generic","tool":{"name":"mcp__a__b__c"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(toolCalls(tt.updates...))
			if string(b) != tt.want {
				t.Errorf("\n got %s\nwant %s", b, tt.want)
			}
		})
	}
}

func TestMergeLateAndEndBackground(t *testing.T) {
	mon := acpdialect.Payload{Kind: acpdialect.KindMonitor, Status: acpdialect.StatusInProgress,
		Monitor: &acpdialect.Monitor{TaskID: "m", RecentEvents: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, EventCount: 9}}
	// One late half per monitor named, in the order first named, with
	// that monitor's events only.
	lates := claude.HandleChunk(gjson.Parse(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"<task-notification><task-id>m</task-id><event>10</event></task-notification><task-notification><task-id>other</task-id><event>x</event></task-notification><task-notification><task-id>m</task-id><event>11</event></task-notification>"}}`))
	if len(lates) != 2 || lates[0].Alias != "m" || lates[1].Alias != "other" {
		t.Fatalf("lates %+v", lates)
	}
	if o := lates[1].Payload.Monitor; o == nil || o.EventCount != 1 || len(o.RecentEvents) != 1 || o.RecentEvents[0] != "x" {
		t.Fatalf("the second monitor's late half %+v", o)
	}
	late := lates[0]
	got, ok := claude.MergeLate(mon, late.Payload)
	if !ok || got.Monitor.EventCount != 11 || len(got.Monitor.RecentEvents) != claude.RecentEvents ||
		got.Monitor.RecentEvents[0] != "2" || got.Monitor.RecentEvents[9] != "11" {
		t.Fatalf("merged %+v %v", got.Monitor, ok)
	}
	if mon.Monitor.EventCount != 9 || len(mon.Monitor.RecentEvents) != 9 {
		t.Fatal("MergeLate changed the card it was given")
	}
	ended := claude.EndBackground(got, acpdialect.EndExited)
	if !ended.Monitor.Ended || ended.Monitor.EndReason != "exited" || ended.Status != acpdialect.StatusCompleted || got.Monitor.Ended {
		t.Fatalf("ended %+v, card %+v", ended.Monitor, got.Monitor)
	}
	restarted := claude.EndBackground(got, acpdialect.EndSessionRestart)
	if restarted.Status != acpdialect.StatusCancelled || claude.EndBackground(ended, acpdialect.EndSessionRestart).Monitor.EndReason != "exited" {
		t.Fatal("a monitor ends once")
	}
	// A late half that ends an ended monitor keeps its first end.
	again, _ := claude.MergeLate(ended, acpdialect.Payload{Kind: acpdialect.KindMonitor, Monitor: &acpdialect.Monitor{TaskID: "m", Ended: true, EndReason: "failed"}})
	if again.Monitor.EndReason != acpdialect.EndExited {
		t.Fatalf("a monitor's end reason changed to %q", again.Monitor.EndReason)
	}
	// One chunk with more events than a card keeps: the last ones, all
	// counted.
	var many strings.Builder
	for i := 1; i <= claude.RecentEvents+2; i++ {
		fmt.Fprintf(&many, "<task-notification><task-id>m</task-id><event>%d</event></task-notification>", i)
	}
	chunk, _ := json.Marshal(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": many.String()}})
	lates = claude.HandleChunk(gjson.ParseBytes(chunk))
	if m := lates[0].Payload.Monitor; len(lates) != 1 || m.EventCount != claude.RecentEvents+2 || len(m.RecentEvents) != claude.RecentEvents ||
		m.RecentEvents[0] != "3" || m.RecentEvents[claude.RecentEvents-1] != "12" {
		t.Fatalf("the late half of %d events: %+v", claude.RecentEvents+2, lates[0].Payload.Monitor)
	}
	shell := acpdialect.Payload{Kind: acpdialect.KindShell, Shell: &acpdialect.Shell{}}
	if p := claude.EndBackground(shell, acpdialect.EndExited); p.Shell != shell.Shell || p.Status != "" {
		t.Fatal("EndBackground changed a shell")
	}
}

// TestCompactToolEvent: the compact tool call gives its compaction event
// in either key order; a tool call that only mentions compact" elsewhere
// (its output, a second _meta that is not read) gives none.
func TestCompactToolEvent(t *testing.T) {
	for _, tt := range []struct {
		name, update string
		want         *acpdialect.Compaction
	}{
		{"sorted", `{"_meta":{"claudeCode":{"toolName":"compact"}},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"c1"}`,
			&acpdialect.Compaction{CompactionID: "c1", Status: acpdialect.CompactionCompleted}},
		{"pending is in progress", `{"sessionUpdate":"tool_call","toolCallId":"c0","status":"pending","_meta":{"claudeCode":{"toolName":"compact"}}}`,
			&acpdialect.Compaction{CompactionID: "c0", Status: acpdialect.CompactionInProgress}},
		{"meta last", `{"sessionUpdate":"tool_call","toolCallId":"c2","status":"in_progress","_meta":{"claudeCode":{"toolName":"compact"}}}`,
			&acpdialect.Compaction{CompactionID: "c2", Status: acpdialect.CompactionInProgress}},
		{"figures", `{"_meta":{"claudeCode":{"toolName":"compact"},"contextCompaction":{"trigger":"auto","preTokens":9}},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"c3"}`,
			&acpdialect.Compaction{CompactionID: "c3", Status: acpdialect.CompactionCompleted, Trigger: "auto", PreTokens: frame.Keep(int64(9))}},
		// AIR: no claudeCode.toolName, the figures under jetbrains.air.
		{"AIR", `{"_meta":{"jetbrains":{"air":{"contextCompaction":{"version":1},"version":1}}},"kind":"think","sessionUpdate":"tool_call","status":"in_progress","title":"Compact conversation","toolCallId":"a1"}`,
			&acpdialect.Compaction{CompactionID: "a1", Status: acpdialect.CompactionInProgress}},
		{"AIR figures", `{"_meta":{"jetbrains":{"air":{"contextCompaction":{"durationMs":5,"postTokens":100,"preTokens":1000,"trigger":"automatic","version":1}}}},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"a2"}`,
			&acpdialect.Compaction{CompactionID: "a2", Status: acpdialect.CompactionCompleted, Trigger: "auto", PreTokens: frame.Keep(int64(1000)), PostTokens: frame.Keep(int64(100)), DurationMs: frame.Keep(int64(5))}},
		// The adapter's own /compact of an idle session (0.101.0).
		{"idle is automatic", `{"_meta":{"claudeCode":{"toolName":"compact"},"contextCompaction":{"trigger":"idle","preTokens":9}},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"c4"}`,
			&acpdialect.Compaction{CompactionID: "c4", Status: acpdialect.CompactionCompleted, Trigger: "auto", PreTokens: frame.Keep(int64(9))}},
		{"AIR idle is automatic", `{"_meta":{"jetbrains":{"air":{"contextCompaction":{"trigger":"idle","version":1}}}},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"a6"}`,
			&acpdialect.Compaction{CompactionID: "a6", Status: acpdialect.CompactionCompleted, Trigger: "auto"}},
		{"AIR error", `{"_meta":{"jetbrains":{"air":{"contextCompaction":{"error":"Context too small","version":1}}}},"sessionUpdate":"tool_call_update","status":"failed","toolCallId":"a3"}`,
			&acpdialect.Compaction{CompactionID: "a3", Status: acpdialect.CompactionFailed, Error: "Context too small"}},
		// Both keys (no build sends both): the first in wire order wins,
		// field by field, then rawOutput fills what neither gave.
		{"old key first", `{"_meta":{"claudeCode":{"toolName":"compact"},"contextCompaction":{"trigger":"manual","preTokens":1},"jetbrains":{"air":{"contextCompaction":{"trigger":"automatic","preTokens":2,"postTokens":3}}}},"rawOutput":{"durationMs":4,"postTokens":5},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"a4"}`,
			&acpdialect.Compaction{CompactionID: "a4", Status: acpdialect.CompactionCompleted, Trigger: "manual", PreTokens: frame.Keep(int64(1)), PostTokens: frame.Keep(int64(3)), DurationMs: frame.Keep(int64(4))}},
		{"AIR key first", `{"_meta":{"jetbrains":{"air":{"contextCompaction":{"trigger":"automatic","preTokens":2}}},"contextCompaction":{"trigger":"manual","preTokens":1,"postTokens":3}},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"a5"}`,
			&acpdialect.Compaction{CompactionID: "a5", Status: acpdialect.CompactionCompleted, Trigger: "auto", PreTokens: frame.Keep(int64(2)), PostTokens: frame.Keep(int64(3))}},
		{"AIR key not an object", `{"_meta":{"jetbrains":{"air":{"contextCompaction":null}}},"sessionUpdate":"tool_call","toolCallId":"b4"}`, nil},
		{"another AIR key", `{"_meta":{"claudeCode":{"toolName":"Bash"},"jetbrains":{"air":{"commandTitle":"compact the logs"}}},"sessionUpdate":"tool_call","toolCallId":"b5"}`, nil},
		{"old key without the tool name", `{"_meta":{"contextCompaction":{"version":1}},"sessionUpdate":"tool_call","toolCallId":"b6"}`, nil},
		{"another tool", `{"_meta":{"claudeCode":{"toolName":"Bash"}},"rawOutput":"ran \"compact\"","sessionUpdate":"tool_call_update","toolCallId":"b1"}`, nil},
		{"a second _meta", `{"_meta":{"claudeCode":{"toolName":"Bash"}},"sessionUpdate":"tool_call","toolCallId":"b2","_meta":{"claudeCode":{"toolName":"compact"}}}`, nil},
		{"no _meta", `{"sessionUpdate":"tool_call","toolCallId":"b3","title":"compact"}`, nil},
	} {
		ev := claude.CompactToolEvent(gjson.Parse(tt.update))
		var got *acpdialect.Compaction
		if ev != nil {
			got, _ = ev.Object.(*acpdialect.Compaction)
			if got == nil || ev.Type != acpdialect.EventCompaction {
				t.Fatalf("%s: %+v", tt.name, ev)
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestAsyncTaskStates: an async task's state is its card's status; a
// task that ends (not paused) ends its monitor.
func TestAsyncTaskStates(t *testing.T) {
	for _, tt := range []struct{ state, status string }{
		{"running", acpdialect.StatusInProgress},
		{"paused", acpdialect.StatusPaused},
		{"completed", acpdialect.StatusCompleted},
		{"failed", acpdialect.StatusFailed},
		{"stopped", acpdialect.StatusCancelled},
		{"queued", ""},
	} {
		l := claude.HandleAsyncTask(gjson.Parse(`{"sessionUpdate":"async_task_state_update","asyncTaskId":"w","state":"` + tt.state + `"}`))
		ended := l.Payload.Monitor != nil && l.Payload.Monitor.Ended
		if l.Payload.Status != tt.status || ended != acpdialect.StatusEnded(tt.status) {
			t.Errorf("state %s: status %q (ended %v), want %q", tt.state, l.Payload.Status, ended, tt.status)
		}
	}
}

// TestSubagentChunkNamingNoTask: a subagent's text that mentions the
// envelope's tag, with no envelope, is still the subagent's message.
func TestSubagentChunkNamingNoTask(t *testing.T) {
	ev := claude.ChunkEvent(gjson.Parse(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a <task-notification> tag"},"_meta":{"claudeCode":{"parentToolUseId":"p1"}}}`))
	if m := ev.Message(); m == nil || m.ParentToolCallID != "p1" || m.Text != "a <task-notification> tag" || len(m.Hidden) != 0 {
		t.Errorf("event %+v", ev)
	}
}

// TestLegacyCompactionText: the v1 compaction texts are status updates as
// claude-agent-acp sent them (the completion after a blank line: "\n\n"
// joins it to the "Compacting..." before it in a client's message) and as
// written without the newlines; other text is a plain chunk.
func TestLegacyCompactionText(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       string // the compaction status; "" for no event
	}{
		{"started", `Compacting...`, acpdialect.CompactionInProgress},
		{"completed as sent", `\n\nCompacting completed.`, acpdialect.CompactionCompleted},
		{"completed without the newlines", `Compacting completed.`, acpdialect.CompactionCompleted},
		{"completed, escaped newlines", `\u000a\u000aCompacting completed.`, acpdialect.CompactionCompleted},
		{"more text", `\n\nCompacting completed. Now on.`, ""},
		{"another blank", `\n\n Compacting completed.`, ""},
		{"starts the same", `Compacting... is what I said.`, ""},
	} {
		update := `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + tt.text + `"}}`
		ev := claude.ChunkEvent(gjson.Parse(update))
		var got string
		if ev != nil {
			c, ok := ev.Object.(*acpdialect.Compaction)
			if !ok || ev.Type != acpdialect.EventCompaction {
				t.Fatalf("%s: %+v", tt.name, ev)
			}
			got = c.Status
		}
		if got != tt.want {
			t.Errorf("%s: status %q, want %q", tt.name, got, tt.want)
		}
	}
	// Only the agent's own text: the user's is not a status.
	if ev := claude.ChunkEvent(gjson.Parse(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"Compacting..."}}`)); ev != nil {
		t.Errorf("a user's chunk: %+v", ev)
	}
}

// HandleAccountingUsage books the counts to the session the params name,
// and makes no event when there are none.
func TestHandleAccountingUsage(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"sessionId":"s2","scope":"autonomous","usage":{"inputTokens":1}}`,
			`{"type":"usage","session_id":"s2","usage":{"origin":"autonomous","turn":true,"input_tokens":1}}`},
		{`{"sessionId":"s2","scope":"user_turn","origin":{"kind":"task-notification"},"usage":{"outputTokens":2}}`,
			`{"type":"usage","session_id":"s2","usage":{"origin":"task-notification","turn":true,"output_tokens":2}}`},
		{`{"sessionId":"s2","scope":"autonomous"}`, `nil`},
		{`{"sessionId":"s2","usage":{"inputTokens":"x"}}`, `nil`},
		{`"junk"`, `nil`},
	}
	for _, tt := range tests {
		if got := usage(t, claude.HandleAccountingUsage(gjson.Parse(tt.in)).Event); got != tt.want {
			t.Errorf("HandleAccountingUsage(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// An AIR task of a type the dialect does not know, with no tool call
// behind it, gets a card of the generic kind: never a kind outside the
// contract.
func TestAsyncTaskOfUnknownType(t *testing.T) {
	c := acpdialect.NewRegistry(claude.Dialect()).NewConn(acpdialect.Options{Agent: claude.ID})
	if _, err := c.Outbound([]byte(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)); err != nil {
		t.Fatal(err)
	}
	r, err := c.Inbound([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"async_task_spawned","asyncTaskId":"at4","name":"wf","taskType":"workflow","description":"w"}}}`))
	if err != nil || len(r.Events) != 1 {
		t.Fatalf("%v, %d events", err, len(r.Events))
	}
	if p := r.Events[0].Payload; p == nil || p.Kind != acpdialect.KindGeneric || p.Title != "wf" || r.Events[0].ToolCallID != "at4" {
		t.Errorf("card %+v", r.Events[0])
	}
}

// A monitor's event is counted whichever chunk kind carries it, as its
// span is hidden in each: a thought chunk's too.
func TestMonitorEventInEveryChunkKind(t *testing.T) {
	for _, kind := range []string{"agent_message_chunk", "agent_thought_chunk", "user_message_chunk"} {
		c := acpdialect.NewRegistry(claude.Dialect()).NewConn(acpdialect.Options{Agent: claude.ID})
		if _, err := c.Outbound([]byte(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)); err != nil {
			t.Fatal(err)
		}
		r, err := c.Inbound([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"` + kind +
			`","content":{"type":"text","text":"<task-notification><task-id>bmon1</task-id><event>E1</event></task-notification>"}}}}`))
		if err != nil {
			t.Fatal(err)
		}
		var counted, hidden bool
		for _, ev := range r.Events {
			if p := ev.Payload; p != nil && p.Monitor != nil && p.Monitor.EventCount == 1 && ev.ToolCallID == "bmon1" {
				counted = true
			}
			if m := ev.Message(); m != nil && len(m.Hidden) == 1 {
				hidden = true
			}
		}
		if !counted || !hidden {
			t.Errorf("%s: event counted %v, span hidden %v", kind, counted, hidden)
		}
	}
}

// events feeds update objects to a fresh Claude Conn, as session/updates
// of s1 after a session/prompt on it, and returns its events as JSON.
func events(t *testing.T, updates ...string) []string {
	t.Helper()
	return asJSON(t, feed(t, claudeConn(t, claude.ID), s1Updates(updates)...))
}

// feed returns the events of whole frames fed to c.
func feed(t *testing.T, c *acpdialect.Conn, frames ...string) []acpdialect.Event {
	t.Helper()
	var out []acpdialect.Event
	for _, f := range frames {
		r, err := c.Inbound([]byte(f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.Events...)
	}
	return out
}

// s1Updates wraps update objects as session/updates of s1.
func s1Updates(updates []string) []string {
	out := make([]string, len(updates))
	for i, u := range updates {
		out[i] = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
	}
	return out
}

// asJSON encodes each event.
func asJSON(t *testing.T, evs []acpdialect.Event) []string {
	t.Helper()
	out := make([]string, 0, len(evs))
	for _, ev := range evs {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// TestEscapedFrames: a frame whose JSON escapes what the dialect looks for
// (Go's encoding/json writes '<' as \u003c; any member name may be
// escaped) gives the events of its plain form.
func TestEscapedFrames(t *testing.T) {
	monitor := []string{`{"sessionUpdate":"tool_call","toolCallId":"m1","_meta":{"claudeCode":{"toolName":"Monitor"}},"rawInput":{"command":"x"}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":"Monitor started (task bm, timeout 5ms)"}`}
	tests := []struct {
		name         string
		before       []string
		plain, escap string
	}{
		{"task notification", monitor,
			`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"<task-notification><task-id>bm</task-id><event>E</event></task-notification>"}}`,
			`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\u003ctask-notification\u003e\u003ctask-id\u003ebm\u003c/task-id\u003e\u003cevent\u003eE\u003c/event\u003e\u003c/task-notification\u003e"}}`},
		{"subagent chunk", nil,
			`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hm"},"_meta":{"claudeCode":{"parentToolUseId":"t1"}}}`,
			`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hm"},"_meta":{"\u0063laudeCode":{"parent\u0054oolUseId":"t1"}}}`},
		{"compact tool call", nil,
			`{"sessionUpdate":"tool_call","toolCallId":"c1","status":"in_progress","_meta":{"claudeCode":{"toolName":"compact"}}}`,
			`{"sessionUpdate":"tool_call","toolCallId":"c1","status":"in_progress","_meta":{"claudeCode":{"toolName":"\u0063ompac\u0074"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := events(t, append(tt.before, tt.plain)...)
			got := events(t, append(tt.before, tt.escap)...)
			if len(want) == len(events(t, tt.before...)) {
				t.Fatalf("the plain frame gives no event of its own: %q", want)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("escaped frame (-plain +escaped):\n%s", d)
			}
		})
	}
}

// TestMonitorEventBodyBounded: a monitor keeps the head of each event
// body, the longest of whole runes within MaxEventBody bytes, from a
// notification envelope and from an AIR progress summary alike.
func TestMonitorEventBodyBounded(t *testing.T) {
	register := []string{`{"sessionUpdate":"tool_call","toolCallId":"m1","_meta":{"claudeCode":{"toolName":"Monitor"}},"rawInput":{"command":"x"}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":"Monitor started (task bm, timeout 5ms)"}`}
	for _, b := range []struct {
		name string
		body string
		keep int // bytes of the head kept
	}{
		{"bound splits a rune", strings.Repeat("x", claude.MaxEventBody-1) + "é" + strings.Repeat("y", 1<<20), claude.MaxEventBody - 1},
		{"bound ends a rune", strings.Repeat("x", claude.MaxEventBody-2) + "é" + strings.Repeat("y", 1<<20), claude.MaxEventBody},
	} {
		for _, tt := range []struct{ name, update string }{
			{"envelope", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"<task-notification><task-id>bm</task-id><event>` + b.body + `</event></task-notification>"}}`},
			{"async task summary", `{"sessionUpdate":"async_task_progress","asyncTaskId":"bm","summary":"` + b.body + `"}`},
		} {
			t.Run(b.name+"/"+tt.name, func(t *testing.T) {
				evs := events(t, append(register, tt.update)...)
				var ev acpdialect.Event
				if err := json.Unmarshal([]byte(evs[len(evs)-1]), &ev); err != nil {
					t.Fatal(err)
				}
				m := ev.Payload.Monitor
				if m == nil || m.EventCount != 1 || len(m.RecentEvents) != 1 {
					t.Fatalf("monitor %+v", ev.Payload)
				}
				if got := m.RecentEvents[0]; got != b.body[:b.keep] {
					t.Errorf("kept %d bytes of a %d-byte body (valid UTF-8 %v, its head %v), want %d", len(got), len(b.body), utf8.ValidString(got), strings.HasPrefix(b.body, got), b.keep)
				}
			})
		}
	}
}

// TestMonitorEventsAfterEnd: an event for a monitor whose card ended (its
// turn ended, or its session was loaded again) still counts on that card,
// between turns and in a later turn, and the card stays ended as it was:
// the card of a registered Monitor and the card the Conn made for a task
// id no Monitor registered (whose status the events' late halves give)
// alike.
func TestMonitorEventsAfterEnd(t *testing.T) {
	const (
		prompt   = `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		endTurn  = `{"jsonrpc":"2.0","id":%d,"result":{"stopReason":"end_turn"}}`
		load     = `{"jsonrpc":"2.0","id":%d,"method":"session/load","params":{"sessionId":"s1","cwd":"/","mcpServers":[]}}`
		loaded   = `{"jsonrpc":"2.0","id":%d,"result":{}}`
		register = `{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":"Monitor started (task bm, timeout 5ms)"}`
	)
	type ending struct {
		name           string
		end            []string // > for the client's frames
		reason, status string
	}
	type origin struct {
		name     string
		register []string // the updates before the first event
		card     string   // the card's tool call id
	}
	var tests []struct {
		ending
		origin
	}
	for _, e := range []ending{
		{"turn ended", []string{fmt.Sprintf(endTurn, 1)}, acpdialect.EndExited, acpdialect.StatusCompleted},
		{"session loaded", []string{">" + fmt.Sprintf(load, 2), fmt.Sprintf(loaded, 2)}, acpdialect.EndSessionRestart, acpdialect.StatusCancelled},
	} {
		for _, o := range []origin{
			{"registered", []string{`{"sessionUpdate":"tool_call","toolCallId":"m1","_meta":{"claudeCode":{"toolName":"Monitor"}},"rawInput":{"command":"x"}}`, register}, "m1"},
			{"never registered", nil, "bm"},
		} {
			tests = append(tests, struct {
				ending
				origin
			}{e, o})
		}
	}
	for _, tt := range tests {
		t.Run(tt.ending.name+"/"+tt.origin.name, func(t *testing.T) {
			c := acpdialect.NewRegistry(claude.Dialect()).NewConn(acpdialect.Options{Agent: claude.ID})
			send := func(f string) acpdialect.Result {
				t.Helper()
				var r acpdialect.Result
				var err error
				if out, ok := strings.CutPrefix(f, ">"); ok {
					r, err = c.Outbound([]byte(out))
				} else {
					r, err = c.Inbound([]byte(f))
				}
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			update := func(u string) string {
				return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
			}
			event := func(body string) string {
				return update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"<task-notification><task-id>bm</task-id><event>` + body + `</event></task-notification>"}}`)
			}
			send(">" + fmt.Sprintf(prompt, 1))
			for _, u := range tt.register {
				send(update(u))
			}
			send(event("E1"))
			for _, f := range tt.end {
				send(f)
			}
			count := int64(1)
			for _, body := range []string{"between turns", "next turn"} {
				if body == "next turn" {
					send(">" + fmt.Sprintf(prompt, 3))
				}
				var card *acpdialect.Payload
				hidden := false
				for _, ev := range send(event(body)).Events {
					if ev.Payload != nil && ev.Payload.Monitor != nil && ev.ToolCallID == tt.card {
						card = ev.Payload
					}
					if m := ev.Message(); m != nil && len(m.Hidden) == 1 {
						hidden = true
					}
				}
				if card == nil || !hidden {
					t.Fatalf("%s: an update of the monitor's card %v, its span hidden %v", body, card != nil, hidden)
				}
				count++
				m := card.Monitor
				if m.EventCount != count || m.RecentEvents[len(m.RecentEvents)-1] != body {
					t.Errorf("%s: events %d %q, want %d ending with it", body, m.EventCount, m.RecentEvents, count)
				}
				if !m.Ended || m.EndReason != tt.reason || card.Status != tt.status {
					t.Errorf("%s: card %s, ended %v %q: want %s, %q", body, card.Status, m.Ended, m.EndReason, tt.status, tt.reason)
				}
			}
		})
	}
}

// TestPreReworkSubagentUpdates: claude-agent-acp 0.71's subagent_spawned
// and subagent_state_update, read as the reworked subagent_update would be.
func TestPreReworkSubagentUpdates(t *testing.T) {
	tests := []struct {
		name, update string
		handle       func(gjson.Result) acpdialect.Late
		want         acpdialect.Late
	}{
		{"spawned", `{"sessionUpdate":"subagent_spawned","subagentSessionId":"t1","name":"Lint","task":"Run eslint","capabilities":{}}`,
			claude.HandleSubagentSpawned,
			acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress, Title: "Lint",
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "t1", Description: "Lint", Prompt: "Run eslint", Status: "running"}}}},
		{"spawned without child", `{"sessionUpdate":"subagent_spawned","name":"Lint","task":"Run eslint"}`,
			claude.HandleSubagentSpawned, acpdialect.Late{}},
		{"spawned wrong-typed name", `{"sessionUpdate":"subagent_spawned","subagentSessionId":"t1","name":7,"task":"Run eslint"}`,
			claude.HandleSubagentSpawned,
			acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "t1", Prompt: "Run eslint", Status: "running"}}}},
		{"completed", `{"sessionUpdate":"subagent_state_update","subagentSessionId":"t1","state":"completed"}`,
			claude.HandleSubagentState,
			acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusCompleted,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "t1", Status: "completed"}}}},
		{"cancelled", `{"sessionUpdate":"subagent_state_update","subagentSessionId":"t1","state":"cancelled"}`,
			claude.HandleSubagentState,
			acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusCancelled,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "t1", Status: "cancelled"}}}},
		{"failed", `{"sessionUpdate":"subagent_state_update","subagentSessionId":"t1","state":"failed"}`,
			claude.HandleSubagentState,
			acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusFailed,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "t1", Status: "failed"}}}},
		{"state without child", `{"sessionUpdate":"subagent_state_update","state":"failed"}`,
			claude.HandleSubagentState, acpdialect.Late{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.handle(gjson.Parse(tt.update))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPreReworkChildNests: on a Conn, the child session that
// subagent_spawned opens nests under its card, which subagent_state_update
// ends; without the two kinds the child's tool call named a card that does
// not exist (its spawning Agent call is not on the wire).
func TestPreReworkChildNests(t *testing.T) {
	got := frameEvents(t,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"c1","name":"Lint","task":"Run eslint","capabilities":{}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"c1","update":{"sessionUpdate":"tool_call","toolCallId":"tb","title":"eslint","kind":"execute","status":"pending","_meta":{"claudeCode":{"toolName":"Bash","parentToolUseId":"toolu_agent"}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"c1","state":"completed"}}}`,
	)
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		`"tool_call_id":"c1","payload":{"kind":"subagent_task","status":"in_progress","title":"Lint"`,
		`"tool_call_id":"tb","payload":{"kind":"shell","status":"pending","title":"eslint","parent_tool_call_id":"c1"`,
		`"tool_call_id":"c1","payload":{"kind":"subagent_task","status":"completed"`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %s in:\n%s", want, joined)
		}
	}
}

// frameEvents is events for whole frames, which may name any session, on
// a fresh Claude Conn with no turn open.
func frameEvents(t *testing.T, frames ...string) []string {
	t.Helper()
	c := acpdialect.NewRegistry(claude.Dialect()).NewConn(acpdialect.Options{Agent: claude.ID})
	return asJSON(t, feed(t, c, frames...))
}

// TestV2PausedWorkflow: a v2 client gets a background workflow's tool
// call as paused while Claude Code pauses it, and in_progress again when
// it resumes (claude-agent-acp 0.101.0, background-work.js taskPaused):
// the card's status follows, ACP v2's paused.
func TestV2PausedWorkflow(t *testing.T) {
	frame := func(typ, fields string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"` + typ +
			`","toolCallId":"toolu_w"` + fields + `,"_meta":{"claudeCode":{"toolName":"Workflow"}}}}}`
	}
	got := frameEvents(t,
		frame("tool_call", `,"title":"Workflow","kind":"other","status":"in_progress"`),
		frame("tool_call_update", `,"status":"paused"`),
		frame("tool_call_update", `,"status":"in_progress"`),
		frame("tool_call_update", `,"status":"completed"`),
	)
	var statuses []string
	for _, l := range got {
		statuses = append(statuses, gjson.Get(l, "payload.status").Str)
	}
	if want := []string{"in_progress", "paused", "in_progress", "completed"}; !slices.Equal(statuses, want) {
		t.Errorf("statuses %v, want %v:\n%s", statuses, want, strings.Join(got, "\n"))
	}
}
