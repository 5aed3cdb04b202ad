package copilot_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/copilot"
	"github.com/acpdialect/acpdialect/internal/replay"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"Copilot", "", true},
		{"copilot", "", true},
		{"", "GitHub Copilot", true},
		{" @github/copilot ", "", true},
		{"GitHub Copilot CLI", "", true},
		{"copilot-companion-broker", "", false},
		{"copilot_muse_adapter", "", false},
		{"Copilot Muse", "", false},
		{"@github/copilot-sdk", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := copilot.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

// The session is identified as Copilot's and gets standard behaviour
// (no vendor replies, nothing declined), its shell tool call a shell card.
func TestGoldenSemantics(t *testing.T) {
	final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := string(final) + string(events)
	for _, w := range []string{
		`{"type":"tool_call","agent":"copilot","session_id":"c0p1-5e55","tool_call_id":"toolu_01","payload":{"kind":"shell","status":"completed","title":"Run go test ./...","shell":{"command":"go test ./...","output":"ok  app 0.2s"}}}`,
		`"replies":0,"declined":0,"ignored_notifications":0`,
	} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %s", w)
		}
	}
	for _, w := range []string{`"type":"reply"`, `"usage"`, `"permission"`, `"subagent_task"`} {
		if strings.Contains(out, w) {
			t.Errorf("unexpected %s", w)
		}
	}
}

// A live 1.0.102 without credentials: identified by its own initialize
// (agentInfo.name Copilot); the failed session/new and prompt are no
// turn, no card and no vendor reply.
func TestLiveNoAuth(t *testing.T) {
	final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", "live-1.0.102-noauth.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 0 {
		t.Errorf("events = %s, want none", events)
	}
	tests := []struct {
		text string
		want bool
	}{
		{`{"type":"session","agent":"copilot"`, true},
		{`"replies":0,"declined":0,"ignored_notifications":0`, true},
		{`"type":"reply"`, false},
		{`"usage"`, false},
		{`"tool_call"`, false},
	}
	for _, tt := range tests {
		if got := strings.Contains(string(final), tt.text); got != tt.want {
			t.Errorf("final has %s = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// A live 1.0.102 with a model (bring-your-own-model against a local stub
// of OpenAI's API): its shell calls are shell cards, the one whose command
// exits with 2 failed although Copilot reports it completed; the task
// tool (a subagent) is a subagent card with the subagent's answer, and the
// subagent's own frames read as the parent session's (docs/copilot.md,
// section 2).
func TestLiveStub(t *testing.T) {
	final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", "live-1.0.102-stub.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const sid = `"session_id":"87d3d0d9-93b1-4c0e-873b-f3c2ee86b749"`
	tests := []struct {
		text string
		want bool
	}{
		{`{"type":"tool_call","agent":"copilot",` + sid + `,"tool_call_id":"call_0","payload":{"kind":"shell","status":"completed","title":"Print hi","shell":{"command":"echo hi","cwd":"/tmp/copilotlive/cwd","output":"hi\n","exit_code":0}}}`, true},
		{`{"type":"tool_call","agent":"copilot",` + sid + `,"tool_call_id":"call_2","payload":{"kind":"shell","status":"failed","title":"List a missing dir","shell":{"command":"ls /nonexistent-dir","cwd":"/tmp/copilotlive/cwd","output":"ls: cannot access '/nonexistent-dir': No such file or directory\n","exit_code":2}}}`, true},
		{`{"type":"tool_call","agent":"copilot",` + sid + `,"tool_call_id":"call_4","payload":{"kind":"subagent_task","status":"completed","title":"Count files","subagent_task":{"description":"Count files","prompt":"Count the files in the workspace and report.","subagent_type":"general-purpose","status":"completed","name":"counter","result_text":"There are 0 files."}}}`, true},
		{`"replies":0,"declined":0,"ignored_notifications":0`, true},
		{`shellId`, false},
		{`"type":"reply"`, false},
	}
	for _, tt := range tests {
		if got := strings.Contains(string(final), tt.text); got != tt.want {
			t.Errorf("final has %s = %v, want %v", tt.text, got, tt.want)
		}
	}
	if !strings.Contains(string(events), `"tool_call_id":"call_2","payload":{"kind":"shell","status":"pending","title":"List a missing dir","shell":{"command":"ls /nonexistent-dir","output":"ls: "}}`) {
		t.Error("events lack the streamed output")
	}
}
