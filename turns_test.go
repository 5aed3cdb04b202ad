package acpdialect_test

import (
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/grok"
)

// Turn and epoch edge cases found in review: cursor/task metadata must land
// on the card of its own busy spell, whatever the order of prompts,
// responses and sessions.

const (
	turnTask = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-1","title":"Task","status":"in_progress","rawInput":{"_toolName":"task"}}}}`
	turnMeta = `{"jsonrpc":"2.0","id":90,"method":"cursor/task","params":{"toolCallId":"tool-1","description":"D"}}`
)

type turnConn struct {
	t *testing.T
	c *acpdialect.Conn
}

func newTurnConn(t *testing.T, d *acpdialect.Dialect) *turnConn {
	return &turnConn{t, acpdialect.NewRegistry(d).NewConn(acpdialect.Options{Agent: "cursor"})}
}

func (h *turnConn) out(s string) {
	if _, err := outbound(h.c, []byte(s)); err != nil {
		h.t.Fatal(err)
	}
}

func (h *turnConn) in(s string) acpdialect.Result {
	r, err := h.c.Inbound([]byte(s))
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

func prompt(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"s1"}}`
}

// merged reports whether a cursor/task result enriched a card (an update
// event before the reply) with description D.
func merged(r acpdialect.Result) bool {
	return len(r.Events) == 2 && r.Events[0].Payload != nil && r.Events[0].Payload.SubagentTask != nil &&
		r.Events[0].Payload.SubagentTask.Description == "D"
}

// Metadata arriving after its turn ended must not enrich the next turn's
// card for a reused id.
func TestTurnMetadataBetweenTurnsDoesNotLeak(t *testing.T) {
	h := newTurnConn(t, cursor.Dialect())
	h.out(prompt("2"))
	h.in(turnTask)
	h.in(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
	if r := h.in(turnMeta); merged(r) {
		t.Error("metadata after the turn ended merged into its finished card")
	}
	h.out(prompt("3"))
	r := h.in(turnTask)
	if st := r.Events[0].Payload.SubagentTask; st == nil || st.Description != "" {
		t.Errorf("turn 2's new card: %+v; want an empty subagent", st)
	}
}

// A prompt queued behind a running one does not start a new epoch.
func TestTurnQueuedPromptKeepsTheCard(t *testing.T) {
	h := newTurnConn(t, cursor.Dialect())
	h.out(prompt("2"))
	h.in(turnTask)
	h.out(prompt("3"))
	if r := h.in(turnMeta); !merged(r) {
		t.Errorf("cursor/task with a prompt queued: %d events; want the card update and the reply", len(r.Events))
	}
}

// A client that feeds only the agent's frames (no turns seen) still gets
// its cards enriched.
func TestTurnNoOutboundFrames(t *testing.T) {
	h := newTurnConn(t, cursor.Dialect())
	h.in(turnTask)
	if r := h.in(turnMeta); !merged(r) {
		t.Errorf("got %d events; want the card update and the reply", len(r.Events))
	}
}

// A session/prompt without an id, or with an id already awaiting its
// response, can never be answered: it starts no turn that would stay open.
func TestTurnPromptWithoutResponseIsNoTurn(t *testing.T) {
	for _, second := range []string{
		`{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s1"}}`,
		prompt("2"),
	} {
		h := newTurnConn(t, cursor.Dialect())
		h.out(prompt("2"))
		h.out(second)
		h.in(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`)
		h.in(turnTask)
		if r := h.in(turnMeta); !merged(r) {
			t.Errorf("after %s: the session still looks busy in a stale epoch (%d events)", second, len(r.Events))
		}
	}
}

// With a single-session agent, the response to a prompt of a session that
// was loaded again since must not end the new session's turn.
func TestTurnStaleResponseAfterReload(t *testing.T) {
	d := cursor.Dialect()
	d.SingleSession = true
	h := newTurnConn(t, d)
	h.out(prompt("2"))
	h.out(`{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"s1"}}`)
	h.in(`{"jsonrpc":"2.0","id":3,"result":{}}`)
	h.out(prompt("4"))
	h.in(`{"jsonrpc":"2.0","id":2,"error":{"code":-32800,"message":"cancelled"}}`)
	h.in(turnTask)
	if r := h.in(turnMeta); !merged(r) {
		t.Errorf("turn 4 ended by the old session's response: %d events", len(r.Events))
	}
}

// An agent that sends the alias a client on the SDK knows (_cursor/task)
// gets the method's answer, as wiretap.HandleExtension gives it.
func TestAliasSentAsIs(t *testing.T) {
	h := newTurnConn(t, cursor.Dialect())
	h.out(prompt("2"))
	h.in(turnTask)
	r := h.in(`{"jsonrpc":"2.0","id":90,"method":"_cursor/task","params":{"toolCallId":"tool-1","description":"D"}}`)
	if !merged(r) || string(r.Reply) != `{"jsonrpc":"2.0","id":90,"result":{}}`+"\n" {
		t.Errorf("_cursor/task: reply %q, %d events", r.Reply, len(r.Events))
	}
}

// The slices a Result hands out are capped: appending to one never writes
// into another.
func TestResultSlicesAreCapped(t *testing.T) {
	h := newTurnConn(t, cursor.Dialect())
	h.out(prompt("2"))
	h.in(turnTask)
	r := h.in(turnMeta)
	reply := r.Events[1]
	for name, n := range map[string][2]int{
		"events": {len(r.Events), cap(r.Events)}, "reply": {len(r.Reply), cap(r.Reply)},
		"id": {len(reply.ID), cap(reply.ID)}, "result": {len(reply.Result), cap(reply.Result)},
	} {
		if n[0] != n[1] {
			t.Errorf("%s: len %d, cap %d", name, n[0], n[1])
		}
	}
	_ = append(r.Reply, "garbage"...)
	_ = append(reply.ID, "zz"...)
	if string(reply.ID) != "90" || string(reply.Result) != "{}" {
		t.Errorf("appending changed the event: id %s, result %s", reply.ID, reply.Result)
	}
}

// A prompt forgotten to keep within MaxRequests (its response can end
// nothing now) leaves its turn: the session's next turn still ends, so
// that a question asked in it is due at once, as at any turn's end.
func TestTurnForgottenPromptLeavesNoTurnOpen(t *testing.T) {
	now := time.Unix(1000, 0)
	c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: "cursor",
		MaxRequests: 2, ClientAnswers: true, Now: func() time.Time { return now }})
	h := &turnConn{t, c}
	h.out(prompt("2"))
	h.out(`{"jsonrpc":"2.0","id":3,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"ask"}}`)
	h.out(`{"jsonrpc":"2.0","id":4,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"agent"}}`)
	if st := c.Stats(); st.RequestsEvicted != 1 {
		t.Fatalf("RequestsEvicted = %d; want 1 (the prompt)", st.RequestsEvicted)
	}
	h.out(prompt("5"))
	h.in(`{"jsonrpc":"2.0","id":20,"method":"cursor/ask_question","params":{"toolCallId":"q-1","questions":[]}}`)
	h.in(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn"}}`)
	if d, ok := c.Deadline(); !ok || d.After(now) {
		t.Errorf("after the turn ended the question is due at %v (ok %v); want now, %v", d, ok, now)
	}
}

// A prompt too large to track until its response (its id and session
// over the budget's MaxValue) starts no turn: its response could end
// none, and the session would stay busy for good. The next turn still
// ends, so that a question asked in it is due at once.
func TestTurnUntrackedPromptLeavesNoTurnOpen(t *testing.T) {
	now := time.Unix(1000, 0)
	c := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: "cursor",
		MaxBytes: 1 << 20, ClientAnswers: true, Now: func() time.Time { return now }})
	h := &turnConn{t, c}
	long := `"` + strings.Repeat("x", 70<<10) + `"`
	h.out(prompt(long))
	if st := c.Stats(); st.Budget.Refused != 1 {
		t.Fatalf("Budget.Refused = %d; want 1 (the prompt)", st.Budget.Refused)
	}
	h.in(`{"jsonrpc":"2.0","id":` + long + `,"result":{"stopReason":"end_turn"}}`)
	h.out(prompt("5"))
	h.in(`{"jsonrpc":"2.0","id":20,"method":"cursor/ask_question","params":{"toolCallId":"q-1","questions":[]}}`)
	h.in(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn"}}`)
	if d, ok := c.Deadline(); !ok || d.After(now) {
		t.Errorf("after the turn ended the question is due at %v (ok %v); want now, %v", d, ok, now)
	}
}

// A session/load too large to track until its response replays no
// history for good: the session's later updates are live, so that Grok's
// echo of the next prompt is flagged.
func TestTurnUntrackedLoadEndsItsReplay(t *testing.T) {
	c := acpdialect.NewRegistry(grok.Dialect()).NewConn(acpdialect.Options{Agent: grok.ID, MaxBytes: 1 << 20})
	h := &turnConn{t, c}
	long := `"` + strings.Repeat("x", 70<<10) + `"`
	h.out(`{"jsonrpc":"2.0","id":` + long + `,"method":"session/load","params":{"sessionId":"s1"}}`)
	h.in(`{"jsonrpc":"2.0","id":` + long + `,"result":{}}`)
	h.out(prompt("5"))
	r := h.in(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"go"}}}}`)
	if r.Wire == nil || !r.Wire.Echo {
		t.Errorf("the prompt's echo after an untracked load: Wire %+v; want the echo flagged", r.Wire)
	}
}
