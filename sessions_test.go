package acpdialect_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
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

// sessionEnd is one way session s1 ends; end is also fed, alone, to a
// reference Conn.
type sessionEnd struct {
	name string
	opts acpdialect.Options
	end  func(h *harness)
}

// sessionEnds are the ways a session ends: the client closes it, the Conn
// is closed, or the session is evicted for another.
func sessionEnds() []sessionEnd {
	closeReq := testwire.Request(9, "session/close", map[string]any{"sessionId": "s1"})
	return []sessionEnd{
		{"session/close", acpdialect.Options{}, func(h *harness) {
			h.out(closeReq)
			h.quiet(testwire.Response(9, map[string]any{}))
		}},
		{"Conn.Close", acpdialect.Options{}, func(h *harness) { h.c.Close() }},
		{"evicted at MaxSessions", acpdialect.Options{MaxSessions: 1}, func(h *harness) { h.session(8, "s2") }},
	}
}

// A session's end forgets the client requests made in it that still
// await their response (a prompt in mid-turn, a mode change): their
// responses could only end its turn or change its state, and nothing of a
// session outlives it. They were kept until MaxRequests later requests
// pushed them out. What the Conn holds after the end is what a Conn that
// never saw the session holds.
func TestSessionEndForgetsItsRequests(t *testing.T) {
	for _, tt := range sessionEnds() {
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

// A blocking request of a session that ends leaves nothing behind once
// answered: an answered one was kept (to refuse a second answer) until
// twice MaxRequests later ones pushed it out, whatever became of its
// session, and after Conn.Close too. One still waiting at the end keeps
// its behaviour: it is due at once, the next Expire answers its default,
// and an answer that comes before is the one the agent gets. Either way
// a second answer gets ErrNotPending and no frame, and the client's own
// second response makes no event.
func TestSessionEndForgetsItsAnswers(t *testing.T) {
	ends := sessionEnds()
	answers := []struct {
		name   string
		before bool                    // answered before the end, else after it
		answer func(h *harness) []byte // returns the reply frame the agent gets
	}{
		{"Answer", true, answerOK},
		{"the client's response", true, func(h *harness) []byte {
			if ev, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":7,"result":{"ok":1}}`)); err != nil || len(ev) != 1 {
				h.t.Fatalf("the client's response: %v, %d events", err, len(ev))
			}
			return nil // the client sent it itself
		}},
		{"expired", true, expireOne},
		{"Answer after the end", false, answerOK},
		{"Expire after the end", false, expireOne},
	}
	for _, end := range ends {
		for _, ans := range answers {
			t.Run(end.name+"/"+ans.name, func(t *testing.T) {
				clk := &clock{t: time.Unix(1000, 0)}
				opts := end.opts
				opts.ClientAnswers, opts.AnswerTimeout, opts.Now = true, time.Minute, clk.now
				ref := newHarness(t, acpdialect.NewRegistry(asker()), opts)
				ref.initialize("asker")
				end.end(ref)

				h := newHarness(t, acpdialect.NewRegistry(asker()), opts)
				h.initialize("asker")
				h.session(2, "s1")
				h.out(testwire.Prompt(3, "s1", "go"))
				if r := h.in(ask("7")); !r.Awaiting {
					t.Fatalf("not awaiting: %q", r.Reply)
				}
				if ans.before {
					clk.t = clk.t.Add(2 * time.Minute) // past the deadline, for "expired"
					ans.answer(h)
					end.end(h)
				} else {
					end.end(h)
					if reply := ans.answer(h); reply == nil {
						t.Fatal("the request waiting at the end got no reply")
					}
				}
				if got, want := h.c.Stats().Budget.Used, ref.c.Stats().Budget.Used; got != want {
					t.Errorf("after s1's end the budget holds %d bytes; a Conn that never saw s1 holds %d", got, want)
				}
				if r, err := h.c.Answer(json.RawMessage("7"), json.RawMessage(`{}`)); !errors.Is(err, acpdialect.ErrNotPending) || r.Reply != nil {
					t.Errorf("second Answer: %q, %v; want ErrNotPending, no frame", r.Reply, err)
				}
				if ev, _ := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)); len(ev) != 0 {
					t.Errorf("the client's second response made events %s", eventLines(t, ev))
				}
				if rs := h.c.Expire(clk.t.Add(time.Hour)); len(rs) != 0 {
					t.Errorf("Expire after the answer: %q", rs[0].Reply)
				}
			})
		}
	}
}

// answerOK answers request 7 with {"ok":1}.
func answerOK(h *harness) []byte {
	h.t.Helper()
	r, err := h.c.Answer(json.RawMessage("7"), json.RawMessage(`{"ok":1}`))
	if err != nil || string(r.Reply) != `{"jsonrpc":"2.0","id":7,"result":{"ok":1}}`+"\n" {
		h.t.Fatalf("Answer: %q, %v", r.Reply, err)
	}
	return r.Reply
}

// expireOne runs Expire, which must answer request 7 its default.
func expireOne(h *harness) []byte {
	h.t.Helper()
	rs := h.c.Expire(h.c.Now())
	if len(rs) != 1 || string(rs[0].Reply) != `{"jsonrpc":"2.0","id":7,"result":{"d":1}}`+"\n" {
		h.t.Fatalf("Expire: %d results, want request 7's default", len(rs))
	}
	return rs[0].Reply
}

// statter is a test dialect with one vendor method the client calls,
// vendor/stat, whose result the Conn reads into a usage event of the
// request's session.
func statter() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "statter",
		Match: func(name, _ string) bool { return name == "statter" },
		Calls: []acpdialect.Call{{Name: "vendor/stat", Result: func(r gjson.Result) *acpdialect.Event {
			n := r.Get("used").Int()
			return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &acpdialect.Usage{Used: &n}}
		}}},
	}
}

// A call's event names the session the request was made in, while it
// lives: not another session that took its id since. A request that named
// a session before the Conn tracked it was kept past that session's end
// (only the requests made in a session go with it), and its response
// named whichever session had the id then: a session that began after
// the request, and perhaps ended and began again.
func TestCallResultOfAnEndedSession(t *testing.T) {
	stat := testwire.Request(5, "vendor/stat", map[string]any{"sessionId": "s1"})
	closeS1 := func(h *harness, id int) {
		h.out(testwire.Request(id, "session/close", map[string]any{"sessionId": "s1"}))
		h.quiet(testwire.Response(id, map[string]any{}))
	}
	for _, tc := range []struct {
		name    string
		feed    func(h *harness) // before the response to request 5
		session string           // the response's event's session
	}{
		{"made in s1, which lives", func(h *harness) {
			h.session(2, "s1")
			h.out(stat)
		}, "s1"},
		// Made in no session the Conn knew: as for a turn's end, or a
		// SessionHooks.Result, it is no session's.
		{"made before s1, which lives", func(h *harness) {
			h.out(stat)
			h.session(2, "s1")
		}, ""},
		{"made before s1, which ended and came back", func(h *harness) {
			h.out(stat)
			h.session(2, "s1")
			closeS1(h, 3)
			h.session(4, "s1")
		}, ""},
		{"made in s1, which ended and came back", func(h *harness) {
			h.session(2, "s1")
			h.out(stat)
			closeS1(h, 3)
			h.session(4, "s1")
		}, "none"}, // forgotten with s1: no event
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, acpdialect.NewRegistry(statter()), acpdialect.Options{})
			h.initialize("statter")
			tc.feed(h)
			r := h.in(testwire.Response(5, map[string]any{"used": 7}))
			switch {
			case tc.session == "none":
				if len(r.Events) != 0 {
					t.Errorf("events %s; want none", eventLines(t, r.Events))
				}
			case len(r.Events) != 1 || r.Events[0].Type != acpdialect.EventUsage:
				t.Errorf("events %s; want one usage event", eventLines(t, r.Events))
			case r.Events[0].SessionID != tc.session:
				t.Errorf("the event names session %q; want %q", r.Events[0].SessionID, tc.session)
			}
		})
	}
}
