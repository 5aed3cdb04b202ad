package copilot_test

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/copilot"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// TestTaskCard pins how the task tool's updates make a subagent card, in
// the shapes Copilot CLI 1.0.102 sends (testdata/live-1.0.102-stub*.jsonl).
func TestTaskCard(t *testing.T) {
	const input = `"kind":"other","rawInput":{"name":"counter","prompt":"Count files.","agent_type":"general-purpose","description":"Count","mode":"%s"}`
	call := func(mode string) string {
		return `{"toolCallId":"c","title":"Count",` + strings.Replace(input, "%s", mode, 1) + `}`
	}
	text := func(status, s string) string {
		return `{"toolCallId":"c","status":"` + status + `","content":[{"type":"content","content":{"type":"text","text":"` + s + `"}}],"rawOutput":{"content":"` + s + `","detailedContent":"` + s + `"}}`
	}
	const started = "Agent started in background with agent_id: 0f07d34f-89ab. You'll be notified when it completes."
	tests := []struct {
		name    string
		updates []string
		status  string
		want    *acpdialect.SubagentTask
	}{
		{"sync, completed: the answer", []string{call("sync"), text("completed", "There are 0 files.")}, acpdialect.StatusCompleted,
			&acpdialect.SubagentTask{Name: "counter", Prompt: "Count files.", SubagentType: "general-purpose", Description: "Count",
				Status: acpdialect.StatusCompleted, ResultText: "There are 0 files."}},
		{"sync, failed: the error", []string{call("sync"), text("failed", "model unavailable")}, acpdialect.StatusFailed,
			&acpdialect.SubagentTask{Name: "counter", Prompt: "Count files.", SubagentType: "general-purpose", Description: "Count",
				Status: acpdialect.StatusFailed, Error: "model unavailable"}},
		{"a task Copilot cannot start: its message is the error", []string{call("sync"),
			`{"toolCallId":"c","status":"failed","rawOutput":{"message":"Unknown agent_type: no-such-agent. Valid types are: explore, task","code":"failure"}}`}, acpdialect.StatusFailed,
			&acpdialect.SubagentTask{Name: "counter", Prompt: "Count files.", SubagentType: "general-purpose", Description: "Count",
				Status: acpdialect.StatusFailed, Error: "Unknown agent_type: no-such-agent. Valid types are: explore, task"}},
		{"a failed background task fails too", []string{call("background"), `{"toolCallId":"c","status":"failed","rawOutput":{"message":"m"}}`}, acpdialect.StatusFailed,
			&acpdialect.SubagentTask{Name: "counter", Prompt: "Count files.", SubagentType: "general-purpose", Description: "Count",
				IsAsync: true, Status: acpdialect.StatusFailed, Error: "m"}},
		{"background: async, the start names the agent and is no result", []string{call("background"), text("completed", started)}, acpdialect.StatusCompleted,
			&acpdialect.SubagentTask{Name: "counter", Prompt: "Count files.", SubagentType: "general-purpose", Description: "Count",
				IsAsync: true, AgentID: "0f07d34f-89ab"}},
		{"a start's text alone makes it async", []string{call(""), text("completed", started)}, acpdialect.StatusCompleted,
			&acpdialect.SubagentTask{Name: "counter", Prompt: "Count files.", SubagentType: "general-purpose", Description: "Count",
				IsAsync: true, AgentID: "0f07d34f-89ab"}},
		{"a background task's later text is no result", []string{call("background"), text("completed", "done")}, acpdialect.StatusCompleted,
			&acpdialect.SubagentTask{Name: "counter", Prompt: "Count files.", SubagentType: "general-purpose", Description: "Count", IsAsync: true}},
		{"running: no result yet", []string{call("sync"), text("in_progress", "partial")}, acpdialect.StatusInProgress,
			&acpdialect.SubagentTask{Name: "counter", Prompt: "Count files.", SubagentType: "general-purpose", Description: "Count"}},
		{"the kind from the card", []string{`{"toolCallId":"c","kind":"other"}`, `{"toolCallId":"c","rawInput":{"prompt":"P","agent_type":"explore"}}`}, "",
			&acpdialect.SubagentTask{Prompt: "P", SubagentType: "explore"}},
		{"no agent_type: not a task", []string{`{"toolCallId":"c","kind":"other","rawInput":{"prompt":"P","description":"D"}}`}, "", nil},
		{"a prompt of another type: not a task", []string{`{"toolCallId":"c","kind":"other","rawInput":{"prompt":5,"agent_type":"x"}}`}, "", nil},
		{"another kind: not a task", []string{`{"toolCallId":"c","kind":"read","rawInput":{"prompt":"P","agent_type":"x"}}`}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := acpdialect.Payload{Kind: acpdialect.KindGeneric}
			for _, raw := range tt.updates {
				u := frame.ReadToolUpdate(gjson.Parse(raw))
				// The Conn's standard merge.
				if u.Status.Str != "" {
					p.Status = u.Status.Str
				}
				if u.ACPKind.Str != "" && p.Kind == acpdialect.KindGeneric {
					p.Generic = &acpdialect.Generic{ACPKind: u.ACPKind.Str}
				}
				given := p.SubagentTask
				var was acpdialect.SubagentTask
				if given != nil {
					was = *given
				}
				p = copilot.ToolCall(u, p)
				if given != nil && cmp.Diff(was, *given) != "" {
					t.Fatal("ToolCall changed the card's subagent_task in place")
				}
			}
			if tt.want == nil {
				if p.Kind != acpdialect.KindGeneric {
					t.Fatalf("got a %s card, want it generic", p.Kind)
				}
				return
			}
			if p.Kind != acpdialect.KindSubagentTask || p.SubagentTask == nil || p.Status != tt.status {
				t.Fatalf("got %s %q %+v, want a subagent_task card %q", p.Kind, p.Status, p.SubagentTask, tt.status)
			}
			if d := cmp.Diff(*tt.want, *p.SubagentTask); d != "" {
				t.Error(d)
			}
		})
	}
	// A long prompt is cut at a rune boundary within MaxTaskText.
	long := strings.Repeat("é", copilot.MaxTaskText)
	p := copilot.ToolCall(frame.ReadToolUpdate(gjson.Parse(`{"toolCallId":"c","kind":"other","rawInput":{"agent_type":"x","prompt":"`+long+`"}}`)), acpdialect.Payload{Kind: acpdialect.KindGeneric})
	if got := p.SubagentTask.Prompt; len(got) > copilot.MaxTaskText || !utf8.ValidString(got) || !strings.HasPrefix(long, got) {
		t.Errorf("a long prompt kept %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}

func TestBackgroundID(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Agent started in background with agent_id: 0f07d34f-89ab-45b3-87e2-97c5159943cd. You'll be notified when it completes.", "0f07d34f-89ab-45b3-87e2-97c5159943cd"},
		{"Agent started in background with agent_id: a1", "a1"},
		{"Agent started in background with agent_id: a1.\nMore.", "a1"},
		{"Agent started in background with agent_id: . x", ""},
		{"Agent started in background with agent_id:  a1", ""},
		{"agent started in background with agent_id: a1", ""},
		{"Started. Agent started in background with agent_id: a1", ""},
		{"Agent started in background with agent_id: " + strings.Repeat("x", 257), ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := copilot.BackgroundID(tt.text); got != tt.want {
			t.Errorf("BackgroundID(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// The live background task (testdata/live-1.0.102-stub-background.jsonl):
// an async subagent card with the agent's id; its read_agent call stays
// generic.
func TestLiveStubBackground(t *testing.T) {
	final, _, err := replay.File(replay.Builtins(), filepath.Join("testdata", "live-1.0.102-stub-background.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"tool_call_id":"call_7","payload":{"kind":"subagent_task","status":"completed","title":"Count files bg","subagent_task":{"description":"Count files bg","prompt":"Count the files in the workspace and report.","subagent_type":"general-purpose","agent_id":"0f07d34f-89ab-45b3-87e2-97c5159943cd","name":"bgcounter","is_async":true}}}`,
		`"title":"read_agent","generic":{"acp_kind":"read"}}}`,
	} {
		if !strings.Contains(string(final), want) {
			t.Errorf("final lacks %s:\n%s", want, final)
		}
	}
}

// The live failed task (testdata/live-1.0.102-stub-task-failed.jsonl): an
// unknown agent_type fails the call with rawOutput {message, code} and no
// text; the message is the card's error.
func TestLiveStubTaskFailed(t *testing.T) {
	final, _, err := replay.File(replay.Builtins(), filepath.Join("testdata", "live-1.0.102-stub-task-failed.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := `"tool_call_id":"call_0","payload":{"kind":"subagent_task","status":"failed","title":"Bad agent","subagent_task":{"description":"Bad agent","prompt":"Do nothing.","subagent_type":"no-such-agent","status":"failed","name":"bad","error":"Unknown agent_type: no-such-agent. Valid types are:`
	if !strings.Contains(string(final), want) {
		t.Errorf("final lacks %s:\n%s", want, final)
	}
}
