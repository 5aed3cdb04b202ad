package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestSurfaceUpdates: a tool call first seen through a tool_call_update
// that no dialect rule recognizes surfaces as a card only for a dialect
// whose agent announces calls so (Gemini CLI's calls that asked for
// permission), or on ACP v2.
func TestSurfaceUpdates(t *testing.T) {
	update := testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "w1",
		"status": "completed", "title": "Writing to a.txt", "kind": "edit"})
	for _, surface := range []bool{false, true} {
		d := &acpdialect.Dialect{ID: "announcer", Match: func(name, _ string) bool { return name == "announcer" }, SurfaceUpdates: surface}
		h := newHarness(t, acpdialect.NewRegistry(d), acpdialect.Options{})
		h.initialize("announcer")
		h.session(2, "s1")
		h.out(testwire.Prompt(3, "s1", "go"))
		var want []string
		if surface {
			want = []string{`{"type":"tool_call","agent":"announcer","session_id":"s1","tool_call_id":"w1","payload":{"kind":"generic","status":"completed","title":"Writing to a.txt","generic":{"acp_kind":"edit"}}}`}
		}
		wantEvents(t, h.in(update).Events, want...)
	}
}
