package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
)

// At MaxSessions the session ended for a new one is an idle one, not the
// one whose turn is in flight (with its cards and its subagents' child
// sessions) just because it was made first.
func TestMaxSessionsEndsAnIdleSessionFirst(t *testing.T) {
	sub := func(child string) []byte {
		return testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "subagent_update",
			"subagentSessionId": child, "name": child, "task": "look", "state": "running"})
	}
	read := func(sid, id string) []byte {
		return testwire.SessionUpdate(sid, map[string]any{"sessionUpdate": "tool_call", "toolCallId": id,
			"title": "Read", "kind": "read", "status": "pending"})
	}
	tests := []struct {
		name   string
		frames func(h *harness)
		want   []string
	}{
		{"an idle session before a busy one", func(h *harness) {
			h.session(4, "s2")
			h.session(5, "s3")
		}, []string{"s1", "s3"}},
		{"a subagent's session before its busy parent", func(h *harness) {
			h.in(sub("sub-1"))
			h.in(read("sub-1", "c1"))
			h.in(sub("sub-2"))
			if ev := h.in(read("sub-2", "c2")).Events; len(ev) != 1 || ev[0].Payload.ParentToolCallID != "sub-2" {
				t.Errorf("the second subagent's tool call: %s; want it nested under sub-2", eventLines(t, ev))
			}
		}, []string{"s1", "sub-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, registry(), acpdialect.Options{MaxSessions: 2})
			h.initialize("some-agent")
			h.session(2, "s1")
			h.out(testwire.Prompt(3, "s1", "go"))
			tt.frames(h)
			if d := cmp.Diff(tt.want, h.c.Sessions()); d != "" {
				t.Errorf("sessions (-want +got):\n%s", d)
			}
			if st := h.c.Stats(); st.SessionsEvicted != 1 {
				t.Errorf("SessionsEvicted = %d; want 1", st.SessionsEvicted)
			}
		})
	}
}

// A session's end forgets the client requests made in it that still
// await their response (a prompt in mid-turn, a mode change): their
// responses could only end its turn or change its state, and nothing of a
// session outlives it. They were kept until MaxRequests later requests
// pushed them out. What the Conn holds after the end is what a Conn that
// never saw the session holds.
func TestSessionEndForgetsItsRequests(t *testing.T) {
	closeReq := testwire.Request(9, "session/close", map[string]any{"sessionId": "s1"})
	tests := []struct {
		name string
		opts acpdialect.Options
		end  func(h *harness) // ends s1; also fed, alone, to the reference Conn
	}{
		{"session/close", acpdialect.Options{}, func(h *harness) {
			h.out(closeReq)
			h.quiet(testwire.Response(9, map[string]any{}))
		}},
		{"Conn.Close", acpdialect.Options{}, func(h *harness) { h.c.Close() }},
		{"evicted at MaxSessions", acpdialect.Options{MaxSessions: 1}, func(h *harness) { h.session(8, "s2") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := newHarness(t, registry(), tt.opts)
			ref.initialize("cursor-agent")
			tt.end(ref)

			h := cursorConn(t, tt.opts) // prompt 3 of s1 in flight
			h.out(testwire.Request(4, "session/set_mode", map[string]any{"sessionId": "s1", "modeId": "ask"}))
			tt.end(h)
			if got, want := h.c.Stats().Budget.Used, ref.c.Stats().Budget.Used; got != want {
				t.Errorf("after s1's end the budget holds %d bytes; a Conn that never saw s1 holds %d", got, want)
			}
			// Their responses, if they come, end nothing.
			h.quiet(testwire.PromptResponse(3, "cancelled"))
			h.quiet(testwire.Response(4, map[string]any{}))
		})
	}
}
