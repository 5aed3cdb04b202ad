package wiretap

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// maxWaits bounds the blocking requests a tap remembers until the SDK
// hands them to HandleExtension: beyond it the oldest one nobody waits on
// yet is forgotten, and gets the default if it is claimed later.
const maxWaits = 1024

// A blocking request (a question, a plan) that the client answers with
// Tap.Answer while the SDK's goroutine for it waits in HandleExtension.
//
// One rule keeps the wire and the events in agreement: the Conn decides.
// A client's answer reaches the Conn before any later frame is fed to it
// (settleAnswered), so a cancel or deadline that follows does not replace
// it; a default the Conn gives first (a deadline, a stopped turn, the
// bound) is final, and the request's HandleExtension returns it.
type wait struct {
	id       string // the raw JSON-RPC id
	method   string // the vendor method, without the alias's "_"
	params   []byte
	deadline time.Time
	answer   chan json.RawMessage // wakes the waiting HandleExtension; nil: the default
	claimed  bool                 // a HandleExtension call waits on it
	done     bool                 // the client answered, or the Conn decided
	result   json.RawMessage      // the client's answer, until the Conn has it
	final    json.RawMessage      // what the Conn decided; the reply the SDK sends
}

// waits is the tap's table of blocking requests, by arrival.
type waits struct {
	mu        sync.Mutex
	list      []*wait
	unsettled atomic.Int32 // client answers the Conn does not know yet
}

// addWait records a blocking request the Conn says the client answers:
// renamed, or sent by the agent as the alias already. Called from Read
// with the tap's lock held.
func (t *Tap) addWait(frame []byte) {
	s := unsafeString(frame) // views the reader's buffer: copy what is kept
	id := strings.Clone(gjson.Get(s, "id").Raw)
	deadline, ok := t.conn.AnswerDeadline(json.RawMessage(id))
	if !ok {
		return
	}
	w := &wait{
		id:       id,
		method:   strings.TrimPrefix(strings.Clone(gjson.Get(s, "method").Str), "_"),
		params:   []byte(gjson.Get(s, "params").Raw),
		deadline: deadline,
		answer:   make(chan json.RawMessage, 1),
	}
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	if len(t.waits.list) >= maxWaits {
		t.dropOldest()
	}
	t.waits.list = append(t.waits.list, w)
}

// dropOldest forgets the oldest wait nobody waits on, else the oldest one,
// whose HandleExtension then returns the default. Called with waits.mu.
func (t *Tap) dropOldest() {
	i := slices.IndexFunc(t.waits.list, func(w *wait) bool { return !w.claimed })
	if i < 0 {
		i = 0
	}
	if w := t.waits.list[i]; !w.done {
		w.done = true
		w.answer <- nil
	}
	t.waits.list = slices.Delete(t.waits.list, i, i+1)
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

// await blocks until the client answers w, the Conn decides it, its
// deadline passes or ctx ends (the agent cancelled the request, or the
// connection closed); the last two give def, the dialect's default. It
// returns what the Conn recorded as the request's reply.
func (t *Tap) await(ctx context.Context, w *wait, def json.RawMessage) json.RawMessage {
	timer := time.NewTimer(time.Until(w.deadline))
	defer timer.Stop()
	var ans json.RawMessage
	select {
	case ans = <-w.answer:
	case <-timer.C:
	case <-ctx.Done():
	}
	if ans == nil {
		ans = def
	}
	return t.finalize(w, ans)
}

// finalize ends a wait: the Conn records ans as the reply (its reply event
// goes to OnEvent now), unless it decided first, and then that is the
// reply.
func (t *Tap) finalize(w *wait, ans json.RawMessage) json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.waits.mu.Lock()
	t.waits.list = slices.DeleteFunc(t.waits.list, func(o *wait) bool { return o == w })
	final := w.final
	if w.result != nil {
		ans = w.result // the client answered as the wait ended: it counts
		w.result = nil
		t.waits.unsettled.Add(-1)
	}
	w.done = true
	t.waits.mu.Unlock()
	if final != nil {
		return final
	}
	if r, err := t.conn.Answer(json.RawMessage(w.id), ans); err == nil {
		t.emit(r.Events)
	}
	return ans
}

// Answer gives the client's answer to a blocking request that an event
// (question, plan, image) named by its ID, as a dialect's response builder
// made it (cursor.Answered, cursor.Accepted, ...). The SDK sends it to the
// agent as the reply to that request, with the original id; its reply
// event reaches OnEvent. Each request is answered once: a second answer, or
// one after the deadline, the end of its turn or the agent's cancellation
// sent the default, returns acpdialect.ErrNotPending. It may be called
// from OnEvent.
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
			w.result = compact.Bytes()
			t.waits.unsettled.Add(1)
			w.answer <- w.result
			return nil
		}
	}
	return acpdialect.ErrNotPending
}

// settleAnswered gives the Conn the client's answers it does not know yet,
// before the next frame can make it decide otherwise. Called with t.mu
// held, before each frame; nearly free when there are none.
func (t *Tap) settleAnswered() {
	if t.waits.unsettled.Load() == 0 {
		return
	}
	var events []acpdialect.Event
	t.waits.mu.Lock()
	for _, w := range t.waits.list {
		if w.result == nil {
			continue
		}
		if r, err := t.conn.Answer(json.RawMessage(w.id), w.result); err == nil {
			events = append(events, r.Events...)
			w.final = w.result
		}
		w.result = nil
		t.waits.unsettled.Add(-1)
	}
	t.waits.mu.Unlock()
	t.emit(events) // outside waits.mu: OnEvent may call Answer
}

// afterFrame runs after each frame the Conn handled, with t.mu held: the
// defaults the Conn gave in it (a reused id, the bound) or now gives (a
// deadline passed, the turn stopped) are final; their reply events go to
// OnEvent and their waits return them.
func (t *Tap) afterFrame(res acpdialect.Result) {
	if d, ok := t.conn.Deadline(); ok && !d.After(time.Now()) {
		for _, r := range t.conn.Expire(time.Now()) {
			t.emit(r.Events)
			res.Events = append(res.Events[:len(res.Events):len(res.Events)], r.Events...)
		}
	}
	t.release(res.Events)
}

// release makes the Conn's answers in events final for their waits.
func (t *Tap) release(events []acpdialect.Event) {
	if len(events) == 0 {
		return
	}
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	for _, ev := range events {
		if ev.Type != acpdialect.EventReply || ev.Result == nil {
			continue
		}
		for _, w := range t.waits.list {
			if w.id != string(ev.ID) || w.method != ev.Method || w.final != nil {
				continue
			}
			w.final = bytes.Clone(ev.Result)
			if !w.done {
				w.done = true
				w.answer <- w.final
			}
		}
	}
}
