package acpdialect_test

import (
	"errors"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestInboundInvalidJSON: each invalid line gets no reply and no event,
// is counted malformed, and returns ErrInvalidJSON; the connection goes on
// as before.
func TestInboundInvalidJSON(t *testing.T) {
	for _, tc := range testwire.InvalidFrames {
		t.Run(tc.Name, func(t *testing.T) {
			h := cursorConn(t, acpdialect.Options{ClientAnswers: true})
			before := h.c.Stats()
			r, err := h.c.Inbound([]byte(tc.Frame))
			if !errors.Is(err, acpdialect.ErrInvalidJSON) {
				t.Errorf("err = %v; want ErrInvalidJSON", err)
			}
			if r.Reply != nil || len(r.Events) != 0 || r.Awaiting || r.Quarantine {
				t.Errorf("reply %q, events %s, awaiting %v, quarantine %v; want nothing",
					r.Reply, eventLines(t, r.Events), r.Awaiting, r.Quarantine)
			}
			after := h.c.Stats()
			if after.Malformed != before.Malformed+1 || after.Replies != before.Replies || after.Declined != before.Declined {
				t.Errorf("stats before %+v\nafter %+v; want one more malformed, nothing else", before, after)
			}
			if _, ok := h.c.Deadline(); ok {
				t.Error("a request awaits an answer")
			}
			// The line changed nothing: the same frame made valid is
			// handled as a first sight (a card, not an update of one).
			r = h.in([]byte(toolCallFrame("s1", "tool-9", `{"_toolName":"task"}`)))
			if len(r.Events) != 1 || r.Events[0].Type != acpdialect.EventToolCall {
				t.Errorf("tool call after it: %s", eventLines(t, r.Events))
			}
		})
	}
}

// Valid frames the Conn answers, with what may surround a line (spaces, a
// CR), still get their reply: validation rejects only what is not JSON.
func TestInboundValidFramesAnswered(t *testing.T) {
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"cursor/task","params":{"toolCallId":"x"}}`,
		`  {"jsonrpc":"2.0","id":7,"method":"cursor/task","params":{"toolCallId":"x"}}` + " \r",
		`{"jsonrpc":"2.0","id":7,"method":"cursor/unknown","params":{"a":[1,2.5e3,true,null,"\u00e9"]}}`,
	} {
		h := cursorConn(t, acpdialect.Options{})
		if r := h.in([]byte(frame)); r.Reply == nil {
			t.Errorf("no reply to %q", frame)
		}
	}
}

// A client -> agent frame that is not JSON is not the client's answer, nor
// a turn: the agent rejects it. A truncated answer leaves the question
// waiting for a real one.
func TestOutboundInvalidJSON(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{ClientAnswers: true})
	h.in(testwire.Request(20, cursor.MethodAskQuestion, map[string]any{"toolCallId": "q"}))
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":20,"result":{"outcome":{"outcome":"answered"`,
		`{"jsonrpc":"2.0","id":20,"result":{}}x`,
		`{"jsonrpc":"2.0","id":21,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}`,
	} {
		before := h.c.Stats().Malformed
		r, err := h.c.Outbound([]byte(frame))
		if !errors.Is(err, acpdialect.ErrInvalidJSON) || len(r.Events) != 0 {
			t.Errorf("Outbound(%q) = events %s, err %v; want ErrInvalidJSON", frame, eventLines(t, r.Events), err)
		}
		if h.c.Stats().Malformed != before+1 {
			t.Errorf("Outbound(%q) not counted malformed", frame)
		}
	}
	if _, err := h.c.Answer([]byte(`20`), cursor.Cancelled()); err != nil {
		t.Errorf("the question no longer waits: %v", err)
	}
}

// A truncated response to the prompt does not end the turn (the SDK never
// sees it): a question of the turn keeps its deadline.
func TestInvalidResponseEndsNoTurn(t *testing.T) {
	now := time.Unix(1000, 0)
	h := cursorConn(t, acpdialect.Options{ClientAnswers: true, Now: func() time.Time { return now }})
	h.in(testwire.Request(20, cursor.MethodAskQuestion, map[string]any{"toolCallId": "q"}))
	want, _ := h.c.Deadline()
	now = now.Add(time.Second)
	if _, err := h.c.Inbound([]byte(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}`)); !errors.Is(err, acpdialect.ErrInvalidJSON) {
		t.Errorf("err = %v; want ErrInvalidJSON", err)
	}
	if got, _ := h.c.Deadline(); !got.Equal(want) {
		t.Errorf("deadline %v after a truncated prompt response; want %v (the turn goes on)", got, want)
	}
}

// TestCheckedTrustsTheCaller: with Options.Checked the Conn does not check
// frames itself, as documented: an invalid frame gets no ErrInvalidJSON
// (the replay command drops such a line before the Conn sees it).
func TestCheckedTrustsTheCaller(t *testing.T) {
	for _, tc := range testwire.InvalidFrames {
		t.Run(tc.Name, func(t *testing.T) {
			h := cursorConn(t, acpdialect.Options{ClientAnswers: true, Checked: true})
			if _, err := h.c.Inbound([]byte(tc.Frame)); errors.Is(err, acpdialect.ErrInvalidJSON) {
				t.Errorf("err = %v from a Conn that does not check", err)
			}
		})
	}
}
