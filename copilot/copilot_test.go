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

// The session is identified as Copilot's and gets standard behaviour:
// generic cards, no vendor replies, nothing declined.
func TestGoldenSemantics(t *testing.T) {
	final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := string(final) + string(events)
	for _, w := range []string{
		`{"type":"tool_call","agent":"copilot","session_id":"c0p1-5e55","tool_call_id":"toolu_01","payload":{"kind":"generic","status":"completed","title":"Run go test ./...","generic":{"acp_kind":"execute"}}}`,
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
