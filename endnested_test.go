package acpdialect_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// nesting is a dialect whose tool calls name their parent in
// _meta.parent and whose _meta.ends {parent, status} ends the cards
// nested under that parent (Dialect.EndNested), as Devin's subagent
// completion does.
func nesting() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "nesting",
		Match: func(name, _ string) bool { return name == "nesting-agent" },
		ToolCall: func(u frame.ToolUpdate, p acpdialect.Payload) acpdialect.Payload {
			if parent := u.Meta.Get("parent").Str; parent != "" {
				p.ParentToolCallID = parent
			}
			return p
		},
		EndNested: func(u frame.ToolUpdate) (string, string, bool) {
			e := u.Meta.Get("ends")
			return e.Get("parent").Str, e.Get("status").Str, e.Exists()
		},
	}
}

// TestEndNested pins what a frame that ends a card's nested work does to
// the session's cards: each open card nested under the parent takes the
// status, and the client hears of each it was shown, after the frame's
// own event.
func TestEndNested(t *testing.T) {
	card := func(id, meta string) []byte {
		return testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": id, "_meta": json.RawMessage(meta)})
	}
	end := func(parent, status string) []byte {
		return testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "p", "status": "completed",
			"_meta": json.RawMessage(fmt.Sprintf(`{"ends":{"parent":%q,"status":%q}}`, parent, status))})
	}
	update := func(id, status string) string {
		return fmt.Sprintf(`{"type":"tool_call_update","agent":"nesting","session_id":"s1","tool_call_id":%q,"payload":{"kind":"generic","status":%q,"title":%q,"parent_tool_call_id":"p","generic":{}}}`, id, status, id)
	}
	parentDone := `{"type":"tool_call_update","agent":"nesting","session_id":"s1","tool_call_id":"p","payload":{"kind":"generic","status":"completed","title":"p","generic":{}}}`
	tests := []struct {
		name   string
		frames [][]byte
		end    []byte
		want   []string
	}{
		{"open children end with the parent's status, in card order",
			[][]byte{card("p", `{}`), card("c1", `{"parent":"p"}`), card("c2", `{"parent":"p"}`)},
			end("p", "completed"), []string{parentDone, update("c1", "completed"), update("c2", "completed")}},
		{"a failed run fails them",
			[][]byte{card("p", `{}`), card("c1", `{"parent":"p"}`)},
			end("p", "failed"), []string{parentDone, update("c1", "failed")}},
		{"a child that ended keeps its status",
			[][]byte{card("p", `{}`), card("c1", `{"parent":"p"}`),
				testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "failed"}),
				card("c2", `{"parent":"p"}`)},
			end("p", "completed"), []string{parentDone, update("c2", "completed")}},
		{"another parent's children and cards without a parent stay open",
			[][]byte{card("p", `{}`), card("q", `{}`), card("c1", `{"parent":"q"}`), card("c2", `{}`)},
			end("p", "completed"), []string{parentDone}},
		{"a status that does not end ends nothing",
			[][]byte{card("p", `{}`), card("c1", `{"parent":"p"}`)},
			end("p", "in_progress"), []string{parentDone}},
		{"no parent named ends nothing",
			[][]byte{card("p", `{}`), card("c1", `{"parent":"p"}`)},
			end("", "completed"), []string{parentDone}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, acpdialect.NewRegistry(nesting()), acpdialect.Options{})
			h.initialize("nesting-agent")
			h.session(2, "s1")
			h.out(testwire.Prompt(3, "s1", "go"))
			for _, f := range tt.frames {
				h.in(f)
			}
			wantEvents(t, h.in(tt.end).Events, tt.want...)
		})
	}

	// A card in another session under the same parent id stays open, and
	// ending again changes nothing.
	h := newHarness(t, acpdialect.NewRegistry(nesting()), acpdialect.Options{})
	h.initialize("nesting-agent")
	h.session(2, "s1")
	h.session(4, "s2")
	h.out(testwire.Prompt(3, "s1", "go"))
	h.in(card("p", `{}`))
	h.in(card("c1", `{"parent":"p"}`))
	h.in(testwire.SessionUpdate("s2", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c9", "title": "c9", "_meta": json.RawMessage(`{"parent":"p"}`)}))
	wantEvents(t, h.in(end("p", "completed")).Events, parentDone, update("c1", "completed"))
	if ev := h.in(end("p", "failed")).Events; len(ev) != 0 {
		t.Errorf("a second end changed cards: %s", strings.Join(eventLines(t, ev), "\n"))
	}
}
