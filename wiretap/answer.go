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
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// maxWaits bounds the blocking requests a tap remembers until the SDK
// hands them to HandleExtension: beyond it the oldest one nobody waits on
// yet is forgotten, and gets the default if it is claimed later.
const maxWaits = 1024

// A blocking request (a question, a plan) that the client answers with
// Tap.Answer while the SDK's goroutine for it waits in HandleExtension.
//
// One rule keeps the wire and the events in agreement: the Conn decides,
// and an answer Tap.Answer accepted is the Conn's first. Answer cannot
// give it to the Conn itself (it may run inside OnEvent, under the tap's
// lock), so it records it, and the Conn decides only with waits.mu held
// and after it has the answers recorded so far (begin, afterFrame): a
// frame's defaults (a reused id, the bound) and the expiry after it
// (a deadline, a stopped turn). An Answer that comes while the Conn
// decides waits for waits.mu, and then finds the request open or
// answered. A default the Conn gives is final, and the request's
// HandleExtension returns it.
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
// with the tap's lock and waits.mu held.
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
	// The deadline is on the Conn's clock, which a test may move by hand:
	// the timer runs for what is left on it.
	timer := time.NewTimer(w.deadline.Sub(t.conn.Now()))
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
// (question, plan, image) named by its ID, as the response builder of the
// event's dialect made it: cursor.Answered, cursor.Accepted, ... for
// Cursor's, grok.Answered for Grok's (the event's Method says whose; each
// agent reads only its own shape). The SDK sends it to the
// agent as the reply to that request, with the original id; its reply
// event reaches OnEvent. Each request is answered once: a second answer, or
// one after the deadline, the end of its turn or the agent's cancellation
// sent the default, returns acpdialect.ErrNotPending. An answer that is
// not one JSON value in valid UTF-8 returns acpdialect.ErrInvalidResult,
// and the request still awaits a valid one. The id matches as Conn.Answer
// matches it: 20.0 is 20. An answer it accepts
// (nil error) is the one the agent gets: the default goes only to a
// request nobody answered. It may be called from OnEvent, and from any
// goroutine.
//
// It needs Options.ClientAnswers on the Conn (without it every answer
// returns acpdialect.ErrNoClientAnswers, an ErrNotPending that says so),
// and the client's HandleExtensionMethod calling Tap.HandleExtension for
// the request.
func (t *Tap) Answer(id json.RawMessage, result json.RawMessage) error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, result); err != nil || !utf8.Valid(result) {
		// Refused as Conn.Answer refuses it: an answer accepted here must
		// be one the Conn records, and the agent's decoder would replace
		// or reject invalid UTF-8.
		return acpdialect.ErrInvalidResult
	}
	t.waits.mu.Lock()
	defer t.waits.mu.Unlock()
	for _, w := range t.waits.list {
		if sameID(w.id, string(id)) && !w.done {
			w.done = true
			w.result = compact.Bytes()
			t.waits.unsettled.Add(1)
			w.answer <- w.result
			return nil
		}
	}
	if !t.clientAnswers {
		return acpdialect.ErrNoClientAnswers
	}
	return acpdialect.ErrNotPending
}

// begin locks the waits while the Conn handles a frame (until end), so
// that no answer is accepted while the Conn may give a default, and gives
// the Conn the client's answers it does not know yet. It returns their
// reply events, for end. Called with t.mu held.
func (t *Tap) begin() []acpdialect.Event {
	t.waits.mu.Lock()
	return t.settle()
}

// end finishes a frame begin started: the waits are unlocked, the events
// go to OnEvent (which may answer, now that the frame's waits exist),
// and then afterFrame runs. Called with t.mu held.
func (t *Tap) end(settled, events []acpdialect.Event) {
	t.waits.mu.Unlock()
	t.emit(settled)
	t.emit(events)
	t.afterFrame()
}

// settle gives the Conn the client's answers it does not know yet, before
// it can decide otherwise, and returns their reply events. Called with
// t.mu and waits.mu held; nearly free when there are none.
func (t *Tap) settle() []acpdialect.Event {
	if t.waits.unsettled.Load() == 0 {
		return nil
	}
	var events []acpdialect.Event
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
	return events
}

// afterFrame runs after each frame's events went to OnEvent, with t.mu
// held. The answers the client gave meanwhile (from OnEvent or another
// goroutine) reach the Conn first; then the requests nobody answered whose
// deadline passed, or whose turn stopped, get their default, which is
// final: its reply event goes to OnEvent and its wait returns it.
func (t *Tap) afterFrame() {
	if t.waits.unsettled.Load() == 0 && !t.due() {
		return // an answer accepted from here on is settled before any expiry
	}
	t.waits.mu.Lock()
	events := t.settle()
	for _, r := range t.conn.Expire(t.conn.Now()) {
		events = append(events, r.Events...)
	}
	t.release(events)
	t.waits.mu.Unlock()
	t.emit(events) // outside waits.mu: OnEvent may call Answer
}

// due reports whether a request's deadline has passed on the Conn's clock.
func (t *Tap) due() bool {
	d, ok := t.conn.Deadline()
	return ok && !d.After(t.conn.Now())
}

// release makes the Conn's answers in events final for their waits: each
// reply event is one request's, the oldest open wait with its id and
// method (a reused id's earlier request). Called with waits.mu held.
func (t *Tap) release(events []acpdialect.Event) {
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
			break
		}
	}
}

// sameID reports whether two JSON-RPC ids are one id, as Conn.Answer
// compares them (scan.IDKey): strings with their escapes read ("q\u0031"
// is "q1"), numbers by value (20.0 is 20).
func sameID(a, b string) bool {
	return a == b || scan.IDKey(a) == scan.IDKey(b)
}
