package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
)

// viewLine renders one event alone, as the view prints it.
func viewLine(ev acpdialect.Event) string {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	v := newView(w, false)
	v.write(v.eventRow(replay.Record{Line: 7, Event: ev}))
	w.Flush()
	return squash(strings.TrimSuffix(b.String(), "\n"))
}

// TestViewSessionEvents: each session-level event type is one line with
// what a user reads of it; an event type the view does not know keeps the
// four columns it always had.
func TestViewSessionEvents(t *testing.T) {
	id := json.RawMessage(`20`)
	tests := []struct {
		name string
		ev   acpdialect.Event
		want string
	}{
		{"question", acpdialect.Event{Type: acpdialect.EventQuestion, SessionID: "s1", ToolCallID: "tool-q1", ID: id,
			Object: &acpdialect.Question{Title: "Before I start", Questions: []acpdialect.QuestionItem{
				{ID: "scope", Prompt: "Which modules?", AllowMultiple: true, Options: []acpdialect.QuestionOption{
					{ID: "cart", Label: "Cart"}, {ID: "pay", Label: "Payment and refunds"}, {ID: "ship"}}},
				{ID: "tests", Prompt: "Add tests?", Options: []acpdialect.QuestionOption{{ID: "y", Label: "Yes"}, {ID: "n", Label: "No|never"}}},
				{ID: "bare", Options: []acpdialect.QuestionOption{}},
			}}},
			`7  question  s1  tool-q1  id=20 title="Before I start" scope="Which modules?" [Cart|"Payment and refunds"|ship] multiple tests="Add tests?" [Yes|"No|never"] bare="" []`},
		{"question keyed by its text", acpdialect.Event{Type: acpdialect.EventQuestion, SessionID: "s1", ID: id,
			Object: &acpdialect.Question{Questions: []acpdialect.QuestionItem{
				{ID: "Which database?", Prompt: "Which database?", Options: []acpdialect.QuestionOption{{ID: "pg", Label: "Postgres"}}}}}},
			`7  question  s1  id=20 "Which database?" [Postgres]`},
		{"question notification", acpdialect.Event{Type: acpdialect.EventQuestion, SessionID: "s1",
			Object: &acpdialect.Question{Questions: []acpdialect.QuestionItem{}}},
			`7  question  s1`},
		{"plan", acpdialect.Event{Type: acpdialect.EventPlan, SessionID: "s1", ToolCallID: "tool-p1", ID: json.RawMessage(`"p-1"`),
			Object: &acpdialect.Plan{Name: "Checkout refactor", Overview: "not shown", Markdown: "# not shown",
				Todos: []acpdialect.Todo{{ID: "a"}, {ID: "b"}, {ID: "c"}}}},
			`7  plan  s1  tool-p1  id="p-1" name="Checkout refactor" todos=3`},
		{"plan without name or todos", acpdialect.Event{Type: acpdialect.EventPlan, SessionID: "s1", ID: id,
			Object: &acpdialect.Plan{Todos: []acpdialect.Todo{}}},
			`7  plan  s1  id=20 todos=0`},
		{"todos", acpdialect.Event{Type: acpdialect.EventTodos, SessionID: "s2", ToolCallID: "todo-9",
			Object: &acpdialect.Todos{Items: []acpdialect.Todo{
				{ID: "x", Content: "Find the broken entry", Status: "completed"},
				{ID: "y", Content: "Escape titles", Status: "in_progress"},
				{ID: "no-content", Status: "pending"},
				{ID: "z", Content: "No status"},
			}}},
			`7  todos  s2  todo-9  todos=4 [completed] "Find the broken entry" [in_progress] "Escape titles" [pending] no-content [-] "No status"`},
		{"todos emptied", acpdialect.Event{Type: acpdialect.EventTodos, SessionID: "s2", ID: json.RawMessage(`61`),
			Object: &acpdialect.Todos{Items: []acpdialect.Todo{}}},
			`7  todos  s2  id=61 todos=0`},
		{"image", acpdialect.Event{Type: acpdialect.EventImage, SessionID: "s1", ToolCallID: "img-1", ID: json.RawMessage(`50`),
			Object: &acpdialect.Image{Description: "A hero banner", FilePath: "/srv/my shop/hero.png", ReferenceImagePaths: []string{"/a.png"}}},
			`7  image  s1  img-1  id=50 description="A hero banner" file="/srv/my shop/hero.png"`},
		{"models", acpdialect.Event{Type: acpdialect.EventModels, Method: "cursor/list_available_models", ID: json.RawMessage(`40`),
			Object: &acpdialect.Models{Items: []acpdialect.Model{{ID: "default[]", Name: "Auto"},
				{ID: "grok-4.5[effort=high,fast=true]"}, {ID: "odd id"}}}},
			`7  models  -  id=40 models=3 default[] grok-4.5[effort=high,fast=true] "odd id"`},
		{"commands", acpdialect.Event{Type: acpdialect.EventCommands, SessionID: "s1",
			Object: &acpdialect.Commands{Items: []acpdialect.Command{{Name: "review", Description: "not shown"}, {Name: "compact"}}}},
			`7  commands  s1  commands=2 /review /compact`},
		{"unknown type", acpdialect.Event{Type: "mystery", SessionID: "s1"}, `7  mystery  s1`},
		{"typed nil object", acpdialect.Event{Type: acpdialect.EventPlan, SessionID: "s1", Object: (*acpdialect.Plan)(nil)}, `7  plan  s1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := viewLine(tt.ev); got != squash(tt.want) {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestViewReplyOutcomes: a reply of the outcome form shows the outcome and
// what was chosen; any other reply is shown as before.
func TestViewReplyOutcomes(t *testing.T) {
	tests := []struct {
		name, method, result string
		err                  *acpdialect.RPCError
		want                 string
	}{
		{"answered", "cursor/ask_question",
			`{"outcome":{"outcome":"answered","answers":[{"questionId":"scope","selectedOptionIds":["cart","payment"]},{"questionId":"tests","selectedOptionIds":["yes"]},{"questionId":"none","selectedOptionIds":[]}]}}`,
			nil, `answered scope=cart,payment tests=yes none=`},
		{"answered with odd ids", "cursor/ask_question",
			`{"outcome":{"outcome":"answered","answers":[{"questionId":"a b","selectedOptionIds":["x,y"]}]}}`,
			nil, `answered "a b"="x,y"`},
		{"skipped", "cursor/ask_question", `{"outcome":{"outcome":"skipped","reason":"not now"}}`, nil, `skipped reason="not now"`},
		{"skipped without reason", "cursor/ask_question", `{"outcome":{"outcome":"skipped"}}`, nil, `skipped`},
		{"cancelled", "cursor/create_plan", `{"outcome":{"outcome":"cancelled"}}`, nil, `cancelled`},
		{"accepted", "cursor/create_plan", `{"outcome":{"outcome":"accepted","planUri":"file:///p.md"}}`, nil, `accepted plan_uri=file:///p.md`},
		{"rejected", "cursor/generate_image", `{"outcome":{"outcome":"rejected","reason":"no images"}}`, nil, `rejected reason="no images"`},
		{"empty result", "cursor/task", `{}`, nil, `{}`},
		{"outcome not an object", "x/y", `{"outcome":"completed"}`, nil, `{"outcome":"completed"}`},
		{"outcome without a kind", "x/y", `{"outcome":{"reason":"r"}}`, nil, `{"outcome":{"reason":"r"}}`},
		{"error", "x/y", "", &acpdialect.ErrMethodNotFound, `error -32601 Method not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := acpdialect.Event{Type: acpdialect.EventReply, Method: tt.method, ID: json.RawMessage(`20`), Error: tt.err}
			if tt.result != "" {
				ev.Result = json.RawMessage(tt.result)
			}
			want := "7  reply  -  id=20  " + tt.method + " -> " + tt.want
			if got := viewLine(ev); got != squash(want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestViewCursorTranscripts replays Cursor's golden transcripts and checks
// the lines a reader looks for: each request, its answer on its own line,
// and the default answered after the last line for one left unanswered.
func TestViewCursorTranscripts(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"question-answered", []string{
			`question  s1  tool-q1  id=20 title="Before I refactor checkout" scope="Which modules should I touch?" [Cart|Payment|Shipping] multiple tests="Add tests for the changed code?" [Yes|No]`,
			"reply     -   id=20    cursor/ask_question -> answered scope=cart,payment tests=yes"}},
		{"question-unanswered", []string{"reply     -   id=20    cursor/ask_question -> cancelled"}},
		{"plan-rejected", []string{`plan   s1  tool-p1  id=30 name="Checkout refactor" todos=3`,
			`cursor/create_plan -> rejected reason="Split the payment work into its own plan"`}},
		{"todos-merged-and-replaced", []string{
			`todos      s1  todo-2  id=61 todos=4 [pending] "Extract the cart service" [in_progress] "Move payment calls behind an interface" [pending] "Add tests" [pending] "Update the checkout docs"`,
			`todos      s2  todo-9  todos=2 [completed] "Find the broken feed entry" [pending] "Escape titles in the RSS template"`}},
		{"mixed-legacy-and-native", []string{
			"commands s1 commands=3 /review /compact /plan",
			"models - id=40 models=3 default[] composer-2.5 claude-opus-4-8",
			`image             s1     img-1   id=50 description="A wide hero banner`,
			`cursor/generate_image -> rejected reason="image generation is not supported by this client"`,
			"child_session_id=sub-7 name=explore"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join("..", "..", "cursor", "testdata", tt.name+".jsonl")
			code, out, errs := cli(t, "", "replay", "--strict", path)
			if code != 0 || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(squash(out), squash(w)) {
					t.Errorf("view lacks %q:\n%s", w, out)
				}
			}
			for i, l := range strings.Split(out, "\n") {
				if strings.HasSuffix(l, " ") {
					t.Errorf("line %d has trailing spaces: %q", i+1, l)
				}
			}
		})
	}
}

// squash collapses runs of spaces: the view's columns widen as it goes.
func squash(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' }), " ")
}

// TestViewSubagentError: a failed subagent's card shows why it failed,
// after its result.
func TestViewSubagentError(t *testing.T) {
	ev := acpdialect.Event{Type: acpdialect.EventToolCallUpdate, SessionID: "s1", ToolCallID: "agent_2",
		Payload: &acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusFailed, Title: "Explore",
			SubagentTask: &acpdialect.SubagentTask{Description: "Explore", Status: acpdialect.SubagentFailed, ChildSessionID: "agent_2",
				ResultText: "half done", Error: "API Error: 529 overloaded\nretry later"}}}
	want := `7 tool_call_update s1 agent_2 subagent_task failed "Explore" description="Explore" subagent_status=failed child_session_id=agent_2 result="half done" error="API Error: 529 overloaded\nretry later"`
	if got := viewLine(ev); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestViewSubagentCwd: a subagent card that reports where its child works
// shows it, after the child's name, as the image's file is shown: a path
// quoted only when it holds a space or needs escaping. A card without one
// shows none.
func TestViewSubagentCwd(t *testing.T) {
	card := func(cwd string) acpdialect.Event {
		return acpdialect.Event{Type: acpdialect.EventToolCallUpdate, SessionID: "s1", ToolCallID: "agent_1",
			Payload: &acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress, Title: "Fix",
				SubagentTask: &acpdialect.SubagentTask{Description: "Fix", Status: acpdialect.SubagentRunning, ChildSessionID: "agent_1",
					Name: "fixer", Cwd: cwd}}}
	}
	const head = `7 tool_call_update s1 agent_1 subagent_task in_progress "Fix" description="Fix" subagent_status=running child_session_id=agent_1 name=fixer`
	for _, tt := range []struct{ cwd, want string }{
		{"/home/dev/app/.claude/worktrees/agent_1", head + ` cwd=/home/dev/app/.claude/worktrees/agent_1`},
		{`C:\src\my app`, head + ` cwd="C:\\src\\my app"`},
		{"", head},
	} {
		if got := viewLine(card(tt.cwd)); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

// TestViewSubagentCancellable: a card whose child the agent lets the
// client stop says so, after its async flag, apart from the tool call's
// own grant; one without either shows nothing.
func TestViewSubagentCancellable(t *testing.T) {
	card := func(cancellable, call bool) acpdialect.Event {
		return acpdialect.Event{Type: acpdialect.EventToolCallUpdate, SessionID: "s1", ToolCallID: "c1",
			Payload: &acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress, Title: "Fix", Cancellable: call,
				SubagentTask: &acpdialect.SubagentTask{Description: "Fix", Status: acpdialect.SubagentRunning, ChildSessionID: "c1",
					IsAsync: true, Cancellable: cancellable, OutputFile: "/o"}}}
	}
	const (
		head = `7 tool_call_update s1 c1 subagent_task in_progress "Fix"`
		tail = ` description="Fix" subagent_status=running child_session_id=c1 is_async=true`
	)
	for _, tt := range []struct {
		cancellable, call bool
		want              string
	}{
		{true, false, head + tail + ` subagent_cancellable=true output_file=/o`},
		{true, true, head + ` cancellable=true` + tail + ` subagent_cancellable=true output_file=/o`},
		{false, true, head + ` cancellable=true` + tail + ` output_file=/o`},
		{false, false, head + tail + ` output_file=/o`},
	} {
		if got := viewLine(card(tt.cancellable, tt.call)); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

// TestViewKindDetails: a shell, MCP tool, monitor or wakeup card shows
// what its object says; an output past the view's width shows its tail,
// which is what a terminal shows; an empty value shows nothing.
func TestViewKindDetails(t *testing.T) {
	code, delay, when := int64(2), int64(300), int64(1764892800000)
	long := strings.Repeat("compiling a.o\n", 10) + "make: *** [all] Error 2"
	card := func(p acpdialect.Payload) acpdialect.Event {
		return acpdialect.Event{Type: acpdialect.EventToolCallUpdate, SessionID: "s1", ToolCallID: "c1", Payload: &p}
	}
	for _, tt := range []struct {
		name string
		ev   acpdialect.Event
		want string
	}{
		{"shell", card(acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusFailed, Title: "make",
			Shell: &acpdialect.Shell{Command: "make all", Cwd: "/src/my app", TerminalID: "c1", Output: long, OutputTruncated: true,
				ExitCode: &code, Signal: "SIGTERM", Background: true, Cancellable: true}}),
			`7 tool_call_update s1 c1 shell failed "make" command="make all" cwd="/src/my app" terminal_id=c1 ` +
				`output="…ing a.o\ncompiling a.o\ncompiling a.o\nmake: *** [all] Error 2" output_truncated=true exit_code=2 signal=SIGTERM background=true terminal_cancellable=true`},
		{"shell with both grants", card(acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusInProgress, Cancellable: true,
			Shell: &acpdialect.Shell{Command: "sleep 60", TerminalID: "t1", Cancellable: true}}),
			`7 tool_call_update s1 c1 shell in_progress cancellable=true command="sleep 60" terminal_id=t1 terminal_cancellable=true`},
		{"shell, nothing known yet", card(acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusPending, Shell: &acpdialect.Shell{}}),
			`7 tool_call_update s1 c1 shell pending`},
		{"mcp tool", card(acpdialect.Payload{Kind: acpdialect.KindMCPTool, Status: acpdialect.StatusFailed,
			MCPTool: &acpdialect.MCPTool{Server: "docs", Tool: "search", Output: "partial", Error: "index offline"}}),
			`7 tool_call_update s1 c1 mcp_tool failed server=docs tool=search output="partial" error="index offline"`},
		{"monitor", card(acpdialect.Payload{Kind: acpdialect.KindMonitor, Status: acpdialect.StatusCompleted,
			Monitor: &acpdialect.Monitor{TaskID: "bmon1", Command: "tail -f log", EventCount: 3, RecentEvents: []string{"a", "ERROR b"}, Ended: true, EndReason: "exited"}}),
			`7 tool_call_update s1 c1 monitor completed task_id=bmon1 command="tail -f log" events=3 last_event="ERROR b" ended=true end_reason=exited`},
		{"wakeup", card(acpdialect.Payload{Kind: acpdialect.KindWakeup, Status: acpdialect.StatusCompleted,
			Wakeup: &acpdialect.Wakeup{Prompt: "not shown", DelaySeconds: &delay, ScheduledFor: &when, Reason: "check CI"}}),
			`7 tool_call_update s1 c1 wakeup completed delay_seconds=300 scheduled_for=1764892800000 reason="check CI"`},
		{"wakeup with an invalid time", card(acpdialect.Payload{Kind: acpdialect.KindWakeup, Status: acpdialect.StatusCompleted,
			Wakeup: &acpdialect.Wakeup{Invalid: true}}),
			`7 tool_call_update s1 c1 wakeup completed invalid=true`},
	} {
		if got := viewLine(tt.ev); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// TestShortID: a long id shows its tail, so that a subagent's session
// and its parent's read apart when their ids are time-ordered (version 7
// UUIDs made in the same minute, alike at the head) or the child's is
// named after its parent's.
func TestShortID(t *testing.T) {
	tests := []struct{ in, want string }{
		{"01a24945-4f9d-7fc1-b559-6b8b1b67e837", "…1b67e837"},
		{"01a24945-5113-7361-a161-7793ec98d7d1", "…ec98d7d1"},
		{"01a249e1-074d-7960-a916-ee25e7bbb3ac:subagent:01a249e1-08a8-7330-8aea-fd0beed985d6", "…eed985d6"},
		{"ses_db6aa50b3ffekDg87C1tJjwauo", "…1tJjwauo"},
		{"short-id", "short-id"},
		{"twelve-chars", "twelve-chars"},
		{"thirteen-char", "…een-char"},
		{"é-session-é-long", "…n-é-long"},
	}
	for _, tt := range tests {
		if got := shortID(tt.in); got != tt.want {
			t.Errorf("shortID(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
