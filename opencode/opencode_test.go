package opencode_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/opencode"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"OpenCode", "", true},
		{"opencode", "", true},
		{"  OPENCODE ", "", true},
		{"", "OpenCode", true},
		{"opencode-fork", "", false},
		{"not-opencode", "", false},
		{"OpenCode Agent", "", false},
		{"open code", "", false},
		{"opencoder", "", false},
		{"claude-code (opencode-compatible)", "OpenCode", false}, // a name that is not OpenCode's wins over the title
		{"", "", false},
	}
	for _, tt := range tests {
		if got := opencode.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

func TestParseOutput(t *testing.T) {
	tests := []struct {
		in, id, result string
	}{
		{"task_id: ses_1 (for resuming to continue this task if needed)\n\n<task_result>\nDone.\n</task_result>", "ses_1", "Done."},
		{"task_id: ses_2\n<task_result>\na\n</task_result>\nb\n</task_result>", "ses_2", "a\n</task_result>\nb"},
		{"task_id: ses_3", "ses_3", ""},
		{"<task_result>only</task_result>", "", "only"},
		{"<task_result>\nunterminated", "", ""},
		{"no tags at all", "", ""},
		{" task_id: x", "", ""}, // not at the start: not the tool's line
		// Any white space ends the id, and a CRLF line break is a line
		// break: the id must name the child session exactly.
		{"task_id: ses_4\r\n\r\n<task_result>\r\nDone.\r\n</task_result>", "ses_4", "Done."},
		{"task_id: ses_5\t(for resuming)\n", "ses_5", ""},
		{"task_id: ses_6\r", "ses_6", ""},
		{"<task_result>\n\nkept\n\n</task_result>", "", "\nkept\n"},
		{"", "", ""},
		// OpenCode 1.18: a <task> tag names the child and the state.
		{"<task id=\"ses_7\" state=\"completed\">\n<task_result>\nDone.\n</task_result>\n</task>", "ses_7", "Done."},
		// A task sent to the background: its <task_result> is
		// OpenCode's notice, not the subagent's text.
		{"<task id=\"ses_8\" state=\"running\">\n<summary>Background task started</summary>\n<task_result>\nThe task is working in the background.\n</task_result>\n</task>", "ses_8", ""},
		{"<task id=\"ses_9\" state=\"error\">\n<task_error>\nboom\n</task_error>\n</task>", "ses_9", ""},
		// Not the tag's exact form: nothing read from it.
		{"<task id=\"ses 10\" state=\"running\">\n<task_result>\nx\n</task_result>", "", "x"},
	}
	for _, tt := range tests {
		id, result := opencode.ParseOutput(tt.in)
		if id != tt.id || result != tt.result {
			t.Errorf("ParseOutput(%q) = %q, %q; want %q, %q", tt.in, id, result, tt.id, tt.result)
		}
	}
}

func TestParseTaskTag(t *testing.T) {
	tests := []struct {
		in, id, state string
	}{
		{"<task id=\"ses_1\" state=\"completed\">\n<task_result>\nok\n</task_result>\n</task>", "ses_1", "completed"},
		{"<task id=\"ses_2\" state=\"running\">", "ses_2", "running"},
		{"<task id=\"\" state=\"running\">", "", ""},
		{"<task id=\"ses_3\" state=\"\">", "", ""},
		{"<task id=\"ses_4\">", "", ""},
		{"<task id=\"ses_5\" state=\"running\"", "", ""},
		{"<task id=\"ses\t6\" state=\"running\">", "", ""},
		{" <task id=\"ses_7\" state=\"running\">", "", ""}, // not at the start
		{"<task id=\"ses_8", "", ""},
		{"task_id: ses_9", "", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		id, state := opencode.ParseTaskTag(tt.in)
		if id != tt.id || state != tt.state {
			t.Errorf("ParseTaskTag(%q) = %q, %q; want %q, %q", tt.in, id, state, tt.id, tt.state)
		}
	}
}

func update(t *testing.T, v map[string]any) frame.ToolUpdate {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return frame.ReadToolUpdate(gjson.ParseBytes(b))
}

func TestReadTask(t *testing.T) {
	tests := []struct {
		name string
		in   map[string]any
		want opencode.Task
	}{
		{"pending", map[string]any{"sessionUpdate": "tool_call", "title": "task", "kind": "think", "rawInput": map[string]any{}},
			opencode.Task{IsTask: true}},
		{"title any case", map[string]any{"title": " Task "}, opencode.Task{IsTask: true}},
		{"running: titled by the task, known by kind and input",
			map[string]any{"title": "inspect", "kind": "think", "rawInput": map[string]any{"description": "inspect", "prompt": "p", "subagent_type": "general"}},
			opencode.Task{IsTask: true, Description: "inspect", Prompt: "p", SubagentType: "general"}},
		{"think without a subagent type", map[string]any{"title": "inspect", "kind": "think", "rawInput": map[string]any{"description": "d"}},
			opencode.Task{Description: "d"}},
		{"think with an empty subagent type", map[string]any{"title": "inspect", "kind": "think", "rawInput": map[string]any{"description": "d", "subagent_type": ""}},
			opencode.Task{Description: "d"}},
		{"completed", map[string]any{"title": "inspect", "kind": "think", "rawOutput": map[string]any{
			"output":   "task_id: ses_out (x)\n\n<task_result>\nok\n</task_result>",
			"metadata": map[string]any{"sessionId": "ses_md", "model": map[string]any{"providerID": "anthropic", "modelID": "claude"}}}},
			opencode.Task{ChildSessionID: "ses_md", Model: "anthropic/claude", ResultText: "ok"}},
		{"the output's task id when metadata has none", map[string]any{"rawOutput": map[string]any{
			"output": "task_id: ses_out (x)", "metadata": map[string]any{"model": map[string]any{"modelID": "m"}}}},
			opencode.Task{ChildSessionID: "ses_out", Model: "m"}},
		{"provider alone", map[string]any{"rawOutput": map[string]any{"metadata": map[string]any{"model": map[string]any{"providerID": "p"}}}},
			opencode.Task{Model: "p"}},
		{"wrong types", map[string]any{"title": 3, "kind": "think", "rawInput": map[string]any{"description": 1, "subagent_type": true},
			"rawOutput": map[string]any{"output": 5, "metadata": map[string]any{"sessionId": 7, "model": "x"}}},
			opencode.Task{}},
		{"an error", map[string]any{"title": "task", "status": "failed", "rawOutput": map[string]any{"error": "boom", "metadata": map[string]any{"sessionId": "ses_kid"}}},
			opencode.Task{IsTask: true, ChildSessionID: "ses_kid", Error: "boom"}},
		{"a blank error", map[string]any{"title": "task", "status": "failed", "rawOutput": map[string]any{"error": "  \n", "metadata": map[string]any{"sessionId": "ses_kid"}}},
			opencode.Task{IsTask: true, ChildSessionID: "ses_kid"}},
		{"an error that is not a string", map[string]any{"title": "task", "status": "failed", "rawOutput": map[string]any{"error": map[string]any{"message": "boom"}}},
			opencode.Task{IsTask: true}},
		{"completed, 1.18", map[string]any{"title": "inspect", "kind": "think", "rawOutput": map[string]any{
			"output":   "<task id=\"ses_out\" state=\"completed\">\n<task_result>\nok\n</task_result>\n</task>",
			"metadata": map[string]any{"parentSessionId": "ses_p", "sessionId": "ses_md", "model": map[string]any{"providerID": "p", "modelID": "m"}}}},
			opencode.Task{ChildSessionID: "ses_md", Model: "p/m", State: "completed", ResultText: "ok"}},
		{"the tag's id when metadata has none", map[string]any{"rawOutput": map[string]any{
			"output": "<task id=\"ses_out\" state=\"completed\">\n<task_result>\nok\n</task_result>\n</task>"}},
			opencode.Task{ChildSessionID: "ses_out", State: "completed", ResultText: "ok"}},
		{"sent to the background", map[string]any{"title": "inspect", "kind": "think", "rawOutput": map[string]any{
			"output":   "<task id=\"ses_bg\" state=\"running\">\n<summary>Background task started</summary>\n<task_result>\nThe task is working in the background.\n</task_result>\n</task>",
			"metadata": map[string]any{"sessionId": "ses_bg", "background": true, "jobId": "ses_bg"}}},
			opencode.Task{ChildSessionID: "ses_bg", State: "running"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, opencode.ReadTask(update(t, tt.in))); d != "" {
				t.Error(d)
			}
		})
	}
}

func TestToolCall(t *testing.T) {
	prev := acpdialect.Payload{Kind: acpdialect.KindGeneric, Title: "task"}
	p := opencode.ToolCall(update(t, map[string]any{"title": "task", "kind": "think"}), prev)
	if p.Kind != acpdialect.KindSubagentTask || p.SubagentTask == nil {
		t.Fatalf("not claimed: %+v", p)
	}
	first := p.SubagentTask
	p = opencode.ToolCall(update(t, map[string]any{"title": "d", "rawInput": map[string]any{"description": "d", "prompt": "p", "subagent_type": "s"}}), p)
	if first == p.SubagentTask || *first != (acpdialect.SubagentTask{}) {
		t.Errorf("the subagent object was changed in place")
	}
	p = opencode.ToolCall(update(t, map[string]any{"rawInput": map[string]any{}, "rawOutput": map[string]any{"metadata": map[string]any{"sessionId": "kid"}}}), p)
	want := acpdialect.SubagentTask{Description: "d", Prompt: "p", SubagentType: "s", ChildSessionID: "kid"}
	if d := cmp.Diff(want, *p.SubagentTask); d != "" {
		t.Error(d)
	}
	same := opencode.ToolCall(update(t, map[string]any{"rawInput": map[string]any{"description": "d"}}), p)
	if same.SubagentTask != p.SubagentTask {
		t.Errorf("an unchanged card got a new object")
	}
	// OpenCode 1.18's background task: the card completes at once, the
	// subagent runs on, and the notice is not its result.
	bg := opencode.ToolCall(update(t, map[string]any{"rawOutput": map[string]any{
		"output":   "<task id=\"kid\" state=\"running\">\n<summary>Background task started</summary>\n<task_result>\nnotice\n</task_result>\n</task>",
		"metadata": map[string]any{"sessionId": "kid", "background": true}}}), p)
	want.Status = "running"
	if d := cmp.Diff(want, *bg.SubagentTask); d != "" {
		t.Error(d)
	}
	// A failed task: its rawOutput.error is the card's error, on a failed
	// card only.
	failed := bg
	failed.Status = acpdialect.StatusFailed
	failed = opencode.ToolCall(update(t, map[string]any{"title": "task", "status": "failed",
		"rawOutput": map[string]any{"error": "Subagent failed (task_id: kid): ProviderModelNotFoundError"}}), failed)
	want.Error = "Subagent failed (task_id: kid): ProviderModelNotFoundError"
	if d := cmp.Diff(want, *failed.SubagentTask); d != "" {
		t.Error(d)
	}
	if got := opencode.ToolCall(update(t, map[string]any{"rawOutput": map[string]any{"error": "not a failure"}}), bg); got.SubagentTask.Error != "" {
		t.Errorf("an error on a card that did not fail: %+v", got.SubagentTask)
	}
	other := acpdialect.Payload{Kind: acpdialect.KindGeneric, Title: "read"}
	if got := opencode.ToolCall(update(t, map[string]any{"title": "read", "kind": "read"}), other); !got.Equal(other) {
		t.Errorf("another tool was claimed: %+v", got)
	}
	// A card of the task's kind without its object (a caller's own
	// payload): a frame that is not the task's leaves it as it is.
	bare := acpdialect.Payload{Kind: acpdialect.KindSubagentTask}
	if got := opencode.ToolCall(update(t, map[string]any{"title": "bash"}), bare); !got.Equal(bare) {
		t.Errorf("a bare task card changed: %+v", got)
	}
}

func TestReadNodeAndChild(t *testing.T) {
	tests := []struct {
		in    string
		node  opencode.Node
		child *acpdialect.Child
	}{
		{`{"runId":"k","sessionId":"k","rootSessionId":"r","parentSessionId":"r","agent":"explore","title":"t (@explore subagent)","phase":"running","cwd":"/"}`,
			opencode.Node{SessionID: "k", ParentSessionID: "r", Agent: "explore", Title: "t (@explore subagent)", Phase: "running", Cwd: "/"},
			&acpdialect.Child{Session: "k", Parent: "r", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k", SubagentType: "explore", Status: "running", Cwd: "/"}}}},
		// cwd: the child session's directory, the first of the key; one
		// of another type is absent.
		{`{"sessionId":"k","parentSessionId":"r","phase":"running","cwd":"/home/dev/app","cwd":"/other"}`,
			opencode.Node{SessionID: "k", ParentSessionID: "r", Phase: "running", Cwd: "/home/dev/app"},
			&acpdialect.Child{Session: "k", Parent: "r", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k", Status: "running", Cwd: "/home/dev/app"}}}},
		{`{"sessionId":"k","parentSessionId":"r","phase":"running","cwd":["/w"]}`,
			opencode.Node{SessionID: "k", ParentSessionID: "r", Phase: "running"},
			&acpdialect.Child{Session: "k", Parent: "r", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k", Status: "running"}}}},
		{`{"sessionId":"r","rootSessionId":"r","phase":"completed"}`, opencode.Node{SessionID: "r", Phase: "completed"}, nil},
		{`{"sessionId":"k","parentSessionId":"r","phase":"hibernating"}`, opencode.Node{SessionID: "k", ParentSessionID: "r", Phase: "hibernating"},
			&acpdialect.Child{Session: "k", Parent: "r", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k", Status: "hibernating"}}}},
		{`{"sessionId":1,"parentSessionId":"r"}`, opencode.Node{ParentSessionID: "r"}, nil},
		{`{"sessionId":"a","sessionId":"b","parentSessionId":"r","phase":"queued"}`, opencode.Node{SessionID: "a", ParentSessionID: "r", Phase: "queued"},
			&acpdialect.Child{Session: "a", Parent: "r", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusPending,
				SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "a", Status: "queued"}}}},
		{`[]`, opencode.Node{}, nil},
	}
	for _, tt := range tests {
		n := opencode.ReadNode(gjson.Parse(tt.in))
		if d := cmp.Diff(tt.node, n); d != "" {
			t.Errorf("ReadNode(%s): %s", tt.in, d)
		}
		c, ok := n.Child()
		if ok != (tt.child != nil) {
			t.Errorf("Child(%s) ok = %v", tt.in, ok)
			continue
		}
		if ok {
			if d := cmp.Diff(*tt.child, c); d != "" {
				t.Errorf("Child(%s): %s", tt.in, d)
			}
		}
	}
}

func TestCardStatus(t *testing.T) {
	for phase, want := range map[string]string{
		"queued": "pending", "running": "in_progress", "completed": "completed", "failed": "failed",
		"cancelled": "cancelled", "unknown": "", "removed": "", "": "", "Running": "",
	} {
		if got := opencode.CardStatus(phase); got != want {
			t.Errorf("CardStatus(%q) = %q, want %q", phase, got, want)
		}
	}
}

func TestSubagentsUpdateAndSnapshot(t *testing.T) {
	act := opencode.HandleSubagentsUpdate(gjson.Parse(`{"generation":"g","revision":3,
		"upsert":[{"sessionId":"r","rootSessionId":"r","phase":"running"},{"sessionId":"k","parentSessionId":"r","phase":"completed"}],
		"removedSessionIds":["x",7,""]}`))
	want := []acpdialect.Child{
		{Session: "k", Parent: "r", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusCompleted,
			SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k", Status: "completed"}}},
		{Session: "x", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
			SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "x", Status: opencode.PhaseRemoved}}},
	}
	if d := cmp.Diff(want, act.Children); d != "" {
		t.Error(d)
	}
	if act.Late != (acpdialect.Late{}) || act.Event != nil || act.Result != nil {
		t.Errorf("the notification does more than its children: %+v", act)
	}
	for _, bad := range []string{`null`, `[]`, `{"upsert":{},"removedSessionIds":"x"}`, `{"upsert":[1,"a",null]}`} {
		if kids := opencode.HandleSubagentsUpdate(gjson.Parse(bad)).Children; len(kids) != 0 {
			t.Errorf("%s: %v", bad, kids)
		}
	}
	kids := opencode.SnapshotChildren(gjson.Parse(`{"generation":"g","revision":0,"nodes":[{"sessionId":"k","parentSessionId":"r","phase":"queued"}]}`))
	if len(kids) != 1 || kids[0].Session != "k" || kids[0].Payload.Status != acpdialect.StatusPending {
		t.Errorf("snapshot: %+v", kids)
	}
	if kids := opencode.SnapshotChildren(gjson.Parse(`{"nodes":"x"}`)); kids != nil {
		t.Errorf("snapshot of a string: %+v", kids)
	}
}

// withCwd returns p with a copy of its subagent object whose Cwd is cwd.
func withCwd(p acpdialect.Payload, cwd string) acpdialect.Payload {
	st := *p.SubagentTask
	st.Cwd = cwd
	p.SubagentTask = &st
	return p
}

func TestMergeLate(t *testing.T) {
	node := func(status, phase, agent string) acpdialect.Payload {
		return acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: status,
			SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k", SubagentType: agent, Status: phase}}
	}
	card := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
		SubagentTask: &acpdialect.SubagentTask{Description: "d", SubagentType: "general"}}
	tests := []struct {
		name       string
		cur, late  acpdialect.Payload
		wantStatus string
		wantST     *acpdialect.SubagentTask
		ok         bool
	}{
		{"running keeps in_progress", card, node("in_progress", "running", "explore"), "in_progress",
			&acpdialect.SubagentTask{Description: "d", SubagentType: "general", Status: "running", ChildSessionID: "k"}, true},
		{"queued never moves back", card, node("pending", "queued", ""), "in_progress",
			&acpdialect.SubagentTask{Description: "d", SubagentType: "general", Status: "queued", ChildSessionID: "k"}, true},
		{"a paused card does not go back to pending either",
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusPaused, SubagentTask: &acpdialect.SubagentTask{}},
			node("pending", "queued", ""), "paused", &acpdialect.SubagentTask{Status: "queued", ChildSessionID: "k"}, true},
		{"failed ends it", card, node("failed", "failed", ""), "failed",
			&acpdialect.SubagentTask{Description: "d", SubagentType: "general", Status: "failed", ChildSessionID: "k"}, true},
		{"a finished card stays", acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "completed", SubagentTask: &acpdialect.SubagentTask{}},
			node("in_progress", "running", "explore"), "completed",
			&acpdialect.SubagentTask{SubagentType: "explore", Status: "running", ChildSessionID: "k"}, true},
		{"removed leaves the status", card, node("", "removed", ""), "in_progress",
			&acpdialect.SubagentTask{Description: "d", SubagentType: "general", Status: "removed", ChildSessionID: "k"}, true},
		{"a node's cwd fills the card's", card, withCwd(node("in_progress", "running", ""), "/w/app"), "in_progress",
			&acpdialect.SubagentTask{Description: "d", SubagentType: "general", Status: "running", ChildSessionID: "k", Cwd: "/w/app"}, true},
		{"a later cwd replaces it", withCwd(card, "/w/app"), withCwd(node("in_progress", "running", ""), "/w/tree"), "in_progress",
			&acpdialect.SubagentTask{Description: "d", SubagentType: "general", Status: "running", ChildSessionID: "k", Cwd: "/w/tree"}, true},
		{"a node without one leaves it", withCwd(card, "/w/app"), node("", "removed", ""), "in_progress",
			&acpdialect.SubagentTask{Description: "d", SubagentType: "general", Status: "removed", ChildSessionID: "k", Cwd: "/w/app"}, true},
		{"not a task's card", acpdialect.Payload{Kind: acpdialect.KindGeneric, Status: "pending"}, node("failed", "failed", ""), "pending", nil, false},
		{"not a node", card, acpdialect.Payload{Kind: acpdialect.KindShell, Shell: &acpdialect.Shell{}}, "in_progress", card.SubagentTask, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.cur.Clone()
			got, ok := opencode.MergeLate(tt.cur, tt.late)
			if ok != tt.ok || got.Status != tt.wantStatus {
				t.Fatalf("ok %v status %q", ok, got.Status)
			}
			if d := cmp.Diff(tt.wantST, got.SubagentTask); d != "" {
				t.Error(d)
			}
			if !tt.cur.Equal(before) {
				t.Errorf("cur changed")
			}
		})
	}
}

func TestUsage(t *testing.T) {
	i := func(n int64) *int64 { return &n }
	f := func(x float64) *float64 { return &x }
	tests := []struct {
		in   string
		want *acpdialect.Usage
	}{
		{`{"sessionUpdate":"usage_update","used":10,"size":100,"cost":{"amount":0.5,"currency":"USD"}}`,
			&acpdialect.Usage{Used: i(10), Size: i(100), Cost: f(0.5), Currency: "USD"}},
		{`{"used":10,"cost":{"currency":"USD"}}`, &acpdialect.Usage{Used: i(10)}},
		{`{"cost":{"amount":-1,"currency":"USD"},"size":1.5}`, nil},
		{`{"used":-1,"size":"1"}`, nil},
		{`{"used":1,"used":2}`, &acpdialect.Usage{Used: i(1)}},
		{`{"cost":{"amount":0.25,"currency":"EUR"}}`, &acpdialect.Usage{Cost: f(0.25), Currency: "EUR"}},
		{`[]`, nil},
	}
	for _, tt := range tests {
		ev := opencode.UsageEvent(gjson.Parse(tt.in))
		var got *acpdialect.Usage
		if ev != nil {
			got = ev.Usage()
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("UsageEvent(%s): %s", tt.in, d)
		}
	}
	turns := []struct {
		in   string
		want *acpdialect.Usage
	}{
		{`{"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":2,"totalTokens":3}}`,
			&acpdialect.Usage{Turn: true, Estimated: true, InputTokens: i(1), OutputTokens: i(2), TotalTokens: i(3)}},
		{`{"usage":{"thoughtTokens":4,"cachedReadTokens":5,"cachedWriteTokens":6,"inputTokens":"7"}}`,
			&acpdialect.Usage{Turn: true, Estimated: true, ThoughtTokens: i(4), CachedReadTokens: i(5), CachedWriteTokens: i(6)}},
		{`{"usage":{}}`, nil}, // nothing read: no empty summary
		{`{"usage":{"inputTokens":"4"}}`, nil},
		{`{"usage":{"inputTokens":0}}`, &acpdialect.Usage{Turn: true, Estimated: true, InputTokens: i(0)}},
		{`{"stopReason":"cancelled"}`, nil},
		{`{"usage":[1]}`, nil},
	}
	for _, tt := range turns {
		ev := opencode.TurnUsage(gjson.Parse(tt.in))
		var got *acpdialect.Usage
		if ev != nil {
			got = ev.Usage()
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("TurnUsage(%s): %s", tt.in, d)
		}
	}
}

// TestMaxNodes pins the bound on the nodes and removed sessions read from
// one snapshot or update: the entries past MaxNodes are not read.
func TestMaxNodes(t *testing.T) {
	var nodes, ids []string
	for i := range opencode.MaxNodes + 1 {
		nodes = append(nodes, fmt.Sprintf(`{"sessionId":"k%d","parentSessionId":"r"}`, i))
		ids = append(ids, fmt.Sprintf(`"x%d"`, i))
	}
	list := "[" + strings.Join(nodes, ",") + "]"
	if n := len(opencode.SnapshotChildren(gjson.Parse(`{"nodes":` + list + `}`))); n != opencode.MaxNodes {
		t.Errorf("snapshot: %d children, want %d", n, opencode.MaxNodes)
	}
	if n := len(opencode.HandleSubagentsUpdate(gjson.Parse(`{"upsert":` + list + `}`)).Children); n != opencode.MaxNodes {
		t.Errorf("upsert: %d children, want %d", n, opencode.MaxNodes)
	}
	removed := `{"removedSessionIds":[` + strings.Join(ids, ",") + `]}`
	if n := len(opencode.HandleSubagentsUpdate(gjson.Parse(removed)).Children); n != opencode.MaxNodes {
		t.Errorf("removed: %d children, want %d", n, opencode.MaxNodes)
	}
}
