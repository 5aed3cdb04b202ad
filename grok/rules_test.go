package grok_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// TestNotification pins what a model_changed notification does to a
// session's catalog: the session it names, and the selection it reports.
func TestNotification(t *testing.T) {
	const models = `{"models":{"currentModelId":"grok-4.5","availableModels":[` +
		`{"modelId":"grok-4.5","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","high"],"reasoningEffort":"high","totalContextTokens":500000}},` +
		`{"modelId":"grok-code-fast","_meta":{"totalContextTokens":256000}}]}}`
	ours := grok.SessionResult("session/new", gjson.Parse(`{"sessionId":"s1",`+models[1:]), nil).State.(*grok.Catalog)
	agents := grok.SessionResult("session/new", gjson.Parse(`{"sessionId":"s1","configOptions":[{"id":"model"}],`+models[1:]), nil).State.(*grok.Catalog)
	tests := []struct {
		name, params string
		state        *grok.Catalog
		model        string // the new selection's model, "" for no change
		effort       string
	}{
		{"another model", `{"sessionId":"s1","update":{"sessionUpdate":"model_changed","model_id":"grok-code-fast"}}`,
			ours, "grok-code-fast", ""},
		{"the update beside the session id, without an update object",
			`{"sessionId":"s1","sessionUpdate":"model_changed","model_id":"grok-code-fast"}`, ours, "grok-code-fast", ""},
		{"the same model with another effort",
			`{"sessionId":"s1","update":{"sessionUpdate":"model_changed","model_id":"grok-4.5","reasoning_effort":"low"}}`,
			ours, "grok-4.5", "low"},
		{"the same model and effort: no change",
			`{"sessionId":"s1","update":{"sessionUpdate":"model_changed","model_id":"grok-4.5","reasoning_effort":"high"}}`,
			ours, "", ""},
		{"the agent's own config options are left alone",
			`{"sessionId":"s1","update":{"sessionUpdate":"model_changed","model_id":"grok-code-fast"}}`, agents, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sid, step := grok.Notification(grok.MethodSessionNotification, gjson.Parse(tt.params), func(string) any { return tt.state })
			if tt.model == "" {
				if sid != "" || step.State != nil || step.Events != nil {
					t.Fatalf("got %q %+v, want no change", sid, step)
				}
				return
			}
			c, _ := step.State.(*grok.Catalog)
			if sid != "s1" || c == nil || c.Current != tt.model || c.Effort != tt.effort || len(step.Events) != 1 {
				t.Fatalf("got %q %+v, want s1 with %s/%s and a config event", sid, step, tt.model, tt.effort)
			}
		})
	}
}

// TestShellCard pins how run_terminal_command's card takes its command and
// exit code over several updates.
func TestShellCard(t *testing.T) {
	const tool = `"_meta":{"x.ai/tool":{"name":"run_terminal_command"}}`
	tests := []struct {
		name    string
		updates []string
		want    string // the shell object's JSON
	}{
		{"an empty command is skipped for the next key",
			[]string{`{"toolCallId":"c","rawInput":{"command":"","cmd":"ls"},` + tool + `}`},
			`{"command":"ls"}`},
		{"an exit code after the same output",
			[]string{`{"toolCallId":"c","rawInput":{"command":"ls"},` + tool + `}`,
				`{"toolCallId":"c","rawOutput":{"output":"a"}}`,
				`{"toolCallId":"c","rawOutput":{"output":"a","exit_code":1}}`},
			`{"command":"ls","output":"a","exit_code":1}`},
		// Grok 1.0.41: the output as byte values, the directory beside
		// it, and exit_code 0 on every update while the command runs.
		{"byte values, and no exit code while it runs",
			[]string{`{"toolCallId":"c","rawInput":{"variant":"Bash","command":"ls x"},` + tool + `}`,
				`{"toolCallId":"c","status":"in_progress","rawOutput":{"type":"Bash","output":[],"output_for_prompt":"","exit_code":0,"current_dir":"/w"}}`,
				`{"toolCallId":"c","status":"in_progress","rawOutput":{"type":"Bash","output":[110,111,10],"output_for_prompt":"no\n","exit_code":0}}`},
			`{"command":"ls x","cwd":"/w","output":"no\n"}`},
		{"the exit code with the end",
			[]string{`{"toolCallId":"c","rawInput":{"command":"ls x"},` + tool + `}`,
				`{"toolCallId":"c","status":"in_progress","rawOutput":{"output":[110,111,10],"exit_code":0}}`,
				`{"toolCallId":"c","status":"completed","rawOutput":{"output":[110,111,10],"output_for_prompt":"exit: 2\nno\n","exit_code":2}}`},
			`{"command":"ls x","output":"no\n","exit_code":2}`},
		{"a list that is not bytes is not output",
			[]string{`{"toolCallId":"c","rawInput":{"command":"ls"},` + tool + `}`,
				`{"toolCallId":"c","rawOutput":{"output":[104,256],"stdout":"kept"}}`,
				`{"toolCallId":"c","rawOutput":{"output":[104,"i"]}}`,
				`{"toolCallId":"c","rawOutput":{"output":[104,1.5]}}`},
			`{"command":"ls","output":"kept"}`},
		{"the command's own cwd wins over the directory it ran in",
			[]string{`{"toolCallId":"c","rawInput":{"command":"ls","cwd":"/a"},` + tool + `}`,
				`{"toolCallId":"c","rawOutput":{"output":[],"current_dir":"/b"}}`},
			`{"command":"ls","cwd":"/a"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := acpdialect.Payload{Kind: acpdialect.KindGeneric}
			for _, u := range tt.updates {
				p = grok.ToolCall(frame.ReadToolUpdate(gjson.Parse(u)), p)
			}
			got, _ := json.Marshal(p.Shell)
			if p.Kind != acpdialect.KindShell || string(got) != tt.want {
				t.Errorf("got %s %s, want shell %s", p.Kind, got, tt.want)
			}
		})
	}
}

// TestSubagentCard pins how spawn_subagent's updates make its card, in
// the shapes Grok CLI 1.0.41 sends (testdata/cli-1.0.41-subagents.jsonl).
func TestSubagentCard(t *testing.T) {
	const tool = `"_meta":{"x.ai/tool":{"name":"spawn_subagent","kind":"task"}`
	n := func(v int64) *int64 { return &v }
	tests := []struct {
		name    string
		updates []string
		status  string
		want    acpdialect.SubagentTask
	}{
		{"in the foreground, completed",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":"Count files.","description":"Count","background":false},` + tool + `,"subagentBackground":false}}`,
				`{"toolCallId":"c","rawInput":{"variant":"Task","prompt":"Count files.","description":"Count","run_in_background":false,"task_id":null},` + tool + `}}`,
				`{"toolCallId":"c","status":"completed","rawOutput":{"type":"SubagentCompleted","output":"0 files.","subagent_id":"s9","subagent_type":"general-purpose","tool_calls":2,"turns":1,"duration_ms":244,"worktree_path":null}}`},
			acpdialect.StatusCompleted,
			acpdialect.SubagentTask{Description: "Count", Prompt: "Count files.", Status: acpdialect.StatusCompleted, AgentID: "s9",
				ChildSessionID: "s9", SubagentType: "general-purpose", ResultText: "0 files.", ToolUseCount: n(2), DurationMs: n(244)}},
		{"in the background: async, the spawn's text names the subagent and is no result",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":"P","description":"D","background":true},` + tool + `}}`,
				`{"toolCallId":"c","status":"completed","rawOutput":{"type":"Text","text":"Subagent started in background.\nsubagent_id: s9\ndescription: D"}}`},
			acpdialect.StatusCompleted, acpdialect.SubagentTask{Description: "D", Prompt: "P", IsAsync: true, AgentID: "s9", ChildSessionID: "s9"}},
		{"a failed background spawn keeps its error, whatever its type",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":"P","background":true},` + tool + `}}`,
				`{"toolCallId":"c","status":"failed","rawOutput":{"type":"Text","text":"Subagent started in background.\nsubagent_id: s9","error":"tool_execution_failed","message":"no room"}}`},
			acpdialect.StatusFailed, acpdialect.SubagentTask{Prompt: "P", IsAsync: true, Status: acpdialect.StatusFailed, Error: "no room"}},
		{"an id too long to name a session is not read",
			[]string{`{"toolCallId":"c","status":"completed",` + tool + `},"rawOutput":{"type":"SubagentCompleted","subagent_id":"` + strings.Repeat("x", 257) + `","output":"o"}}`},
			acpdialect.StatusCompleted, acpdialect.SubagentTask{Status: acpdialect.StatusCompleted, ResultText: "o"}},
		{"a text that is not the background spawn's names no subagent",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":"P","background":true},` + tool + `}}`,
				`{"toolCallId":"c","status":"completed","rawOutput":{"type":"Text","text":"subagent_id: s9"}}`},
			acpdialect.StatusCompleted, acpdialect.SubagentTask{Prompt: "P", IsAsync: true}},
		{"the spawn's text on a foreground call names no subagent",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":"P"},` + tool + `}}`,
				`{"toolCallId":"c","status":"completed","rawOutput":{"type":"Text","text":"Subagent started in background.\nsubagent_id: s9"}}`},
			acpdialect.StatusCompleted, acpdialect.SubagentTask{Prompt: "P"}},
		{"background from the update's input or the _meta flag",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":"P","run_in_background":true},` + tool + `}}`},
			"", acpdialect.SubagentTask{Prompt: "P", IsAsync: true}},
		{"the _meta flag",
			[]string{`{"toolCallId":"c",` + tool + `,"subagentBackground":true}}`},
			"", acpdialect.SubagentTask{IsAsync: true}},
		{"the model's subagent type, and a spawn Grok refuses (live: cli-1.0.41-subagent-failed.jsonl)",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":"Do nothing.","description":"Bad agent","background":false,"subagent_type":"no-such-agent"},` + tool + `,"subagentBackground":false}}`,
				`{"toolCallId":"c","status":"failed","content":[{"type":"content","content":{"type":"text","text":"Tool ` + "`spawn_subagent`" + ` failed: Unknown subagent type: no-such-agent."}}],"rawOutput":{"error":"tool_execution_failed","message":"Unknown subagent type: no-such-agent."}}`},
			acpdialect.StatusFailed, acpdialect.SubagentTask{Description: "Bad agent", Prompt: "Do nothing.", SubagentType: "no-such-agent",
				Status: acpdialect.StatusFailed, Error: "Unknown subagent type: no-such-agent."}},
		{"failed: the message is the error",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":"P"},` + tool + `}}`,
				`{"toolCallId":"c","status":"failed","rawOutput":{"error":"tool_execution_failed","message":"model unavailable"}}`},
			acpdialect.StatusFailed, acpdialect.SubagentTask{Prompt: "P", Status: acpdialect.StatusFailed, Error: "model unavailable"}},
		{"values of other types are not read",
			[]string{`{"toolCallId":"c","rawInput":{"prompt":7,"description":{"a":1},"background":"yes"},` + tool + `}}`,
				`{"toolCallId":"c","status":"completed","rawOutput":{"type":"SubagentCompleted","output":null,"subagent_id":5,"tool_calls":-1,"duration_ms":1.5}}`},
			acpdialect.StatusCompleted, acpdialect.SubagentTask{Status: acpdialect.StatusCompleted}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := acpdialect.Payload{Kind: acpdialect.KindGeneric}
			for _, u := range tt.updates {
				up := frame.ReadToolUpdate(gjson.Parse(u))
				if up.Status.Str != "" {
					p.Status = up.Status.Str // the Conn's standard merge
				}
				given := p.SubagentTask
				var was acpdialect.SubagentTask
				if given != nil {
					was = *given
				}
				p = grok.ToolCall(up, p)
				if given != nil && cmp.Diff(was, *given) != "" {
					t.Fatal("ToolCall changed the card's subagent_task in place")
				}
			}
			if p.Kind != acpdialect.KindSubagentTask || p.SubagentTask == nil || p.Status != tt.status {
				t.Fatalf("got %s %q %+v, want a subagent_task card %q", p.Kind, p.Status, p.SubagentTask, tt.status)
			}
			if d := cmp.Diff(tt.want, *p.SubagentTask); d != "" {
				t.Error(d)
			}
		})
	}
	// A long prompt is cut at a rune boundary within MaxSubagentText.
	long := strings.Repeat("é", grok.MaxSubagentText)
	p := grok.ToolCall(frame.ReadToolUpdate(gjson.Parse(`{"toolCallId":"c","rawInput":{"prompt":"`+long+`"},`+tool+`}}`)), acpdialect.Payload{Kind: acpdialect.KindGeneric})
	if got := p.SubagentTask.Prompt; len(got) > grok.MaxSubagentText || !utf8.ValidString(got) || !strings.HasPrefix(long, got) {
		t.Errorf("a long prompt kept %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}

func TestBackgroundID(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Subagent started in background.\nsubagent_id: 01a2-52ee\ndescription: Count files\n\nWhen you need", "01a2-52ee"},
		{"Subagent started in background.\nsubagent_id: s9", "s9"},
		{"Subagent started in background.\nsubagent_id: \n", ""},
		{"Subagent started in background.\nsubagent_id: a b\n", ""},
		{"Subagent started in background.\nsubagent_id: a\r\n", ""},
		{"Subagent started in background.\nid: s9", ""},
		{"Subagent started in background.\n\nsubagent_id: s9", ""},
		{"subagent_id: s9", ""},
		{"", ""},
		{"Subagent started in background.\nsubagent_id: " + strings.Repeat("x", 257), ""},
	}
	for _, tt := range tests {
		if got := grok.BackgroundID(tt.text); got != tt.want {
			t.Errorf("BackgroundID(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestSubagentChild pins what subagent_spawned and subagent_finished say
// of a subagent's card, in the shapes Grok CLI 1.0.41 sends
// (testdata/cli-1.0.41-subagents.jsonl).
func TestSubagentChild(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	tests := []struct {
		name   string
		update string
		want   *acpdialect.Child
	}{
		{"spawned", `{"sessionUpdate":"subagent_spawned","subagent_id":"k","attempt_id":"at1","parent_session_id":"p","parent_prompt_id":"q","child_session_id":"k","subagent_type":"general-purpose","description":"Count files","effective_context_source":"new","model":"fake"}`,
			&acpdialect.Child{Session: "k", Parent: "p", Claim: true, Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{
				AgentID: "k", ChildSessionID: "k", Status: grok.StatusRunning, SubagentType: "general-purpose", Description: "Count files", Model: "fake"}}}},
		{"spawned without a parent: the notification's session", `{"sessionUpdate":"subagent_spawned","subagent_id":"k","child_session_id":"k"}`,
			&acpdialect.Child{Session: "k", Parent: "s", Claim: true, Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{
				AgentID: "k", ChildSessionID: "k", Status: grok.StatusRunning}}}},
		{"finished", `{"sessionUpdate":"subagent_finished","subagent_id":"k","attempt_id":"at1","child_session_id":"k","status":"completed","tool_calls":0,"turns":1,"duration_ms":236,"tokens_used":1242,"output":"There are 0 files.","will_wake":false}`,
			&acpdialect.Child{Session: "k", Parent: "s", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{
				AgentID: "k", ChildSessionID: "k", Status: "completed", ToolUseCount: n(0), DurationMs: n(236), TotalTokens: n(1242), ResultText: "There are 0 files."}}}},
		{"values of other types are not read", `{"sessionUpdate":"subagent_finished","subagent_id":5,"child_session_id":"k","status":1,"tool_calls":-1,"duration_ms":"9","output":null}`,
			&acpdialect.Child{Session: "k", Parent: "s", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k"}}}},
		{"no child session", `{"sessionUpdate":"subagent_spawned","subagent_id":"k","parent_session_id":"p"}`, nil},
		{"a child session too long", `{"sessionUpdate":"subagent_spawned","child_session_id":"` + strings.Repeat("k", 257) + `"}`, nil},
		{"a child session with a space", `{"sessionUpdate":"subagent_spawned","child_session_id":"k 1"}`, nil},
		{"a subagent id too long: the child alone", `{"sessionUpdate":"subagent_finished","child_session_id":"k","subagent_id":"` + strings.Repeat("k", 257) + `"}`,
			&acpdialect.Child{Session: "k", Parent: "s", Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k"}}}},
		{"an empty child session", `{"sessionUpdate":"subagent_finished","child_session_id":""}`, nil},
		{"another update", `{"sessionUpdate":"turn_completed","child_session_id":"k"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := grok.SubagentChild("s", gjson.Parse(tt.update))
			if !ok {
				if tt.want != nil {
					t.Fatalf("not read, want %+v", *tt.want)
				}
				return
			}
			if tt.want == nil {
				t.Fatalf("read %+v, want nothing", got)
			}
			if d := cmp.Diff(*tt.want, got); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestMergeLate pins how a subagent's notifications merge into its card
// and into each other: values the card has stay, the subagent's status
// moves forward only, and the card's own status is the tool call's.
func TestMergeLate(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	task := func(st acpdialect.SubagentTask) acpdialect.Payload {
		return acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &st}
	}
	spawned := acpdialect.SubagentTask{AgentID: "k", ChildSessionID: "k", Status: grok.StatusRunning, SubagentType: "general-purpose", Description: "Count files", Model: "fake"}
	finished := acpdialect.SubagentTask{AgentID: "k", ChildSessionID: "k", Status: "completed", ResultText: "0 files.", ToolUseCount: n(0), DurationMs: n(236), TotalTokens: n(1242)}
	tests := []struct {
		name     string
		cur      acpdialect.Payload
		late     acpdialect.Payload
		want     *acpdialect.SubagentTask
		wantCard string
	}{
		{"spawned into a background card: running",
			withStatus(task(acpdialect.SubagentTask{Description: "D", Prompt: "P", IsAsync: true, AgentID: "k", ChildSessionID: "k"}), acpdialect.StatusCompleted), task(spawned),
			&acpdialect.SubagentTask{Description: "D", Prompt: "P", IsAsync: true, AgentID: "k", ChildSessionID: "k", Status: grok.StatusRunning, SubagentType: "general-purpose", Model: "fake"},
			acpdialect.StatusCompleted},
		{"finished after spawned",
			task(spawned), task(finished),
			&acpdialect.SubagentTask{AgentID: "k", ChildSessionID: "k", Status: "completed", SubagentType: "general-purpose", Description: "Count files", Model: "fake",
				ResultText: "0 files.", ToolUseCount: n(0), DurationMs: n(236), TotalTokens: n(1242)}, ""},
		{"spawned after finished: the status stays",
			task(finished), task(spawned),
			&acpdialect.SubagentTask{AgentID: "k", ChildSessionID: "k", Status: "completed", SubagentType: "general-purpose", Description: "Count files", Model: "fake",
				ResultText: "0 files.", ToolUseCount: n(0), DurationMs: n(236), TotalTokens: n(1242)}, ""},
		{"the card's own values stay",
			task(acpdialect.SubagentTask{Status: acpdialect.StatusCompleted, ResultText: "card", DurationMs: n(5)}), task(finished),
			&acpdialect.SubagentTask{AgentID: "k", ChildSessionID: "k", Status: acpdialect.StatusCompleted, ResultText: "card", ToolUseCount: n(0), DurationMs: n(5), TotalTokens: n(1242)}, ""},
		{"not a subagent card", acpdialect.Payload{Kind: acpdialect.KindGeneric}, task(finished), nil, ""},
		{"not a subagent half", task(spawned), acpdialect.Payload{Kind: acpdialect.KindGeneric}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var was acpdialect.SubagentTask
			if tt.cur.SubagentTask != nil {
				was = *tt.cur.SubagentTask
			}
			lateWas := tt.late
			if tt.late.SubagentTask != nil {
				c := *tt.late.SubagentTask
				lateWas.SubagentTask = &c
			}
			got, ok := grok.MergeLate(tt.cur, tt.late)
			if tt.cur.SubagentTask != nil && cmp.Diff(was, *tt.cur.SubagentTask) != "" {
				t.Fatal("MergeLate changed the card's subagent_task in place")
			}
			if !ok {
				if tt.want != nil {
					t.Fatal("not merged")
				}
				if d := cmp.Diff(lateWas, tt.late); d != "" {
					t.Errorf("a half not merged changed: %s", d)
				}
				return
			}
			if tt.want == nil {
				t.Fatalf("merged into %+v", got)
			}
			if d := cmp.Diff(*tt.want, *got.SubagentTask); d != "" {
				t.Error(d)
			}
			if got.Status != tt.wantCard {
				t.Errorf("card status %q, want %q", got.Status, tt.wantCard)
			}
		})
	}
}

func withStatus(p acpdialect.Payload, status string) acpdialect.Payload {
	p.Status = status
	return p
}

// TestQuestionBounds pins MaxQuestions and MaxOptions: what is past them
// is dropped.
func TestQuestionBounds(t *testing.T) {
	var opts, qs []string
	for i := range grok.MaxOptions + 1 {
		opts = append(opts, fmt.Sprintf("%q", fmt.Sprint("o", i)))
	}
	for i := range grok.MaxQuestions + 1 {
		qs = append(qs, fmt.Sprintf(`{"question":"q%d","options":[%s]}`, i, strings.Join(opts, ",")))
	}
	q := grok.ParseQuestion(gjson.Parse(`{"questions":[` + strings.Join(qs, ",") + `]}`))
	if len(q.Questions) != grok.MaxQuestions || len(q.Questions[0].Options) != grok.MaxOptions {
		t.Errorf("got %d questions, %d options; want %d, %d", len(q.Questions), len(q.Questions[0].Options), grok.MaxQuestions, grok.MaxOptions)
	}
}

// An answer without its question's text names no question: skipped.
func TestAnsweredWithoutQuestion(t *testing.T) {
	if got := string(grok.Answered(grok.Answer{Labels: []string{"A"}})); got != `{"outcome":"cancelled"}` {
		t.Errorf("got %s, want declined", got)
	}
}

// A result's id names the card's child session unless a start named it
// first (Child.Claim) for the same subagent: a start that claimed the
// card for another subagent (a claim gone wrong) gives way to the
// result, the subagent's own word.
func TestResultAndClaimedChild(t *testing.T) {
	u := frame.ReadToolUpdate(gjson.Parse(`{"toolCallId":"c","status":"completed","rawOutput":{"type":"SubagentCompleted","subagent_id":"k1","output":"o"}}`))
	tests := []struct {
		name      string
		agent     string
		child     string
		wantChild string
	}{
		{"the same subagent: the start's session stays", "k1", "sess", "sess"},
		{"another subagent's start: the result names the session", "k9", "k9", "k1"},
		{"no start", "", "", "k1"},
	}
	for _, tt := range tests {
		prev := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{ChildSessionID: tt.child, AgentID: tt.agent}}
		got := grok.ToolCall(u, prev).SubagentTask
		if got.ChildSessionID != tt.wantChild || got.AgentID != "k1" || prev.SubagentTask.AgentID != tt.agent {
			t.Errorf("%s: got %+v (card given %+v)", tt.name, *got, *prev.SubagentTask)
		}
	}
}
