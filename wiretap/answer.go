package wiretap

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// maxWaits bounds the blocking requests a tap remembers until the SDK
// hands them to HandleExtension: one the client never routes there is
// forgotten, oldest first, and gets the default if it is claimed later.
const maxWaits = 1024

// wait is a blocking request (a question, a plan) that the client answers
// with Tap.Answer while the SDK's goroutine for it waits in
// HandleExtension.
type wait struct {
	id       string // the raw JSON-RPC id
	method   string
	params   []byte
	deadline time.Time
	answer   chan json.RawMessage // holds the one answer
	claimed  bool                 // a HandleExtension call waits on it
	done     bool                 // answered, expired or cancelled
}

// waits is the tap's table of blocking requests, by arrival.
type waits struct {
	mu   sync.Mutex
	list []*wait
}

// add records a blocking request the Conn says the client answers.
// Called from Read with the tap's lock held.
func (t *Tap) addWait(frame []byte) {
	s := unsafeString(frame) // views the reader's buffer: copy what is kept
	id := strings.Clone(gjson.Get(s, "id").Raw)
	deadline, ok := t.conn.AnswerDeadline(json.RawMessage(id))
	if !ok {
		return
	}
	w := &wait{
		id:       id,
		method:   strings.Clone(gjson.Get(s, "method").Str),
		params:   []byte(gjson.Get(s, "params").Raw),
		deadline: deadline,
		answer:   make(chan json.RawMessage, 1),
	}
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	if len(t.waits.list) >= maxWaits {
		t.waits.list = slices.DeleteFunc(t.waits.list, func(o *wait) bool { return !o.claimed })
		if len(t.waits.list) >= maxWaits {
			t.waits.list = t.waits.list[1:]
		}
	}
	t.waits.list = append(t.waits.list, w)
}

// claim finds the first unclaimed request for method with exactly these
// params: the SDK passes a request's params byte for byte, and the tap
// renames a request only when the SDK reads them as the Conn did.
func (t *Tap) claim(method string, params []byte) *wait {
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	for _, w := range t.waits.list {
		if !w.claimed && w.method == method && bytes.Equal(w.params, params) {
			w.claimed = true
			return w
		}
	}
	return nil
}

// await blocks until the client answers w, its deadline passes or ctx ends
// (the agent cancelled the request, or the connection closed); the last
// two give def, the dialect's default.
func (t *Tap) await(ctx context.Context, w *wait, def json.RawMessage) json.RawMessage {
	timer := time.NewTimer(time.Until(w.deadline))
	defer timer.Stop()
	select {
	case ans := <-w.answer:
		t.forget(w)
		return ans
	case <-timer.C:
	case <-ctx.Done():
	}
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	t.waits.list = slices.DeleteFunc(t.waits.list, func(o *wait) bool { return o == w })
	if w.done {
		return <-w.answer // an answer came in at the same moment: it wins
	}
	w.done = true
	return def
}

func (t *Tap) forget(w *wait) {
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	t.waits.list = slices.DeleteFunc(t.waits.list, func(o *wait) bool { return o == w })
}

// Answer gives the client's answer to a blocking request that an event
// (question, plan, image) named by its ID, as a dialect's response builder
// made it (cursor.Answered, cursor.Accepted, ...). The SDK sends it to the
// agent as the reply to that request, with the original id; its reply
// event reaches OnEvent when the SDK writes it. Each request is answered
// once: a second answer, or one after the deadline or the agent's
// cancellation sent the default, returns acpdialect.ErrNotPending.
//
// It needs Options.ClientAnswers on the Conn, and the client's
// HandleExtensionMethod calling Tap.HandleExtension for the request.
func (t *Tap) Answer(id json.RawMessage, result json.RawMessage) error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, result); err != nil {
		return acpdialect.ErrInvalidResult
	}
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	for _, w := range t.waits.list {
		if w.id == string(id) && !w.done {
			w.done = true
			w.answer <- compact.Bytes()
			return nil
		}
	}
	return acpdialect.ErrNotPending
}

// expireDue answers the defaults of blocking requests that are due: the
// client cancelled the turn, or the turn or session ended (the agent no
// longer waits), or a deadline passed. Their reply events go to OnEvent
// now; the waiting HandleExtension calls return the defaults, which the
// SDK sends. Called with t.mu held, after each frame.
func (t *Tap) expireDue() {
	d, ok := t.conn.Deadline() // cheap when nothing waits: the usual case
	now := time.Time{}
	if ok {
		now = time.Now()
	}
	if !ok || d.After(now) {
		return
	}
	r := t.conn.Expire(now)
	t.emit(r.Events)
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	for _, ev := range r.Events {
		for _, w := range t.waits.list {
			if w.id == string(ev.ID) && !w.done {
				w.done = true
				w.answer <- ev.Result
			}
		}
	}
}
