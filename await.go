package acpdialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/internal/scan"
)

// DefaultAnswerTimeout is how long a blocking request (a question, a plan)
// waits for the client's answer before the Conn answers its default: long
// enough for a person to read and decide, short enough that an agent whose
// client lost the question does not stall its turn for good.
const DefaultAnswerTimeout = 10 * time.Minute

// Errors of Answer (and of Outbound for a second response).
var (
	// ErrNotPending: no request with that id awaits an answer. It was
	// answered already (each request gets exactly one reply), its deadline
	// passed and the default was sent, or it never awaited one.
	ErrNotPending = errors.New("acpdialect: no request with this id awaits an answer (answered already, expired, or unknown)")
	// ErrInvalidResult: the answer is not one JSON value, or not valid
	// UTF-8 (which the agent's decoder replaces or rejects); the request
	// still awaits a valid one.
	ErrInvalidResult = errors.New("acpdialect: answer is not valid JSON in UTF-8")
	// ErrNoClientAnswers is the ErrNotPending (errors.Is says so) of a
	// Conn made without Options.ClientAnswers: no request ever waits for
	// the client there, each got the dialect's default at once. It names
	// the option a client that means to answer has forgotten.
	ErrNoClientAnswers = fmt.Errorf("%w: the Conn was made without Options.ClientAnswers, so it answered the request with the dialect's default at once", ErrNotPending)
)

// awaited is a blocking agent request waiting for the client's answer, or
// answered (done) and kept a while to refuse a second answer: within twice
// MaxRequests and the budget, and no longer than its session. A waiting
// one holds its bytes in the budget (it must get its reply, so only its
// own table answers it early); an answered one is charged, and the budget
// may evict it.
type awaited struct {
	key      string // its key in the table
	id       string // the id as the agent sent it: the reply echoes it
	method   string
	session  string // the session the request was attributed to
	deadline time.Time
	def      []byte // the dialect's default result
	done     bool
	gone     bool  // no longer in the table: its place in the order goes at the next prune
	size     int64 // what it costs in the budget
	charge   correlate.Charge
	c        *Conn
	// ended says its session ended (or the Conn closed) while it waited:
	// once answered it is forgotten at once (settle), as nothing of a
	// session outlives it.
	ended bool
}

// awaitedOverhead is what a blocking request costs beyond its id, key and
// default: the struct, its map slot and its place in the order.
const awaitedOverhead = 448

// awaitedSize is what a blocking request costs in the budget; its key is
// counted apart from its id, although usually they are one string.
func awaitedSize(id string, def []byte) int64 {
	return awaitedOverhead + 2*int64(len(id)) + int64(len(def))
}

// Evict forgets an answered request to make room in the budget: a second
// answer to it is no longer refused.
func (a *awaited) Evict() {
	a.c.forget(a)
	a.c.stats.AnswersEvicted++
}

// awaitKey is the key of a request id, in the table of agent requests
// awaiting the client's answer and in that of client requests awaiting
// the agent's response: see scan.IDKey.
func awaitKey(id string) string { return scan.IDKey(id) }

// awaitRequest registers a blocking request that the client will answer.
// Beyond MaxRequests waiting at once, or the waiting requests' share of the
// budget, the oldest is answered its default now: an agent cannot grow the
// table without bound, and no request is left without a reply. It returns
// those replies, if any.
func (c *Conn) awaitRequest(id, method, session string, def []byte) Result {
	var out Result
	size := awaitedSize(id, def) + int64(len(session)) // the session's id may outlive the session
	for c.waiting > 0 && (c.waiting >= c.opts.MaxRequests || c.waitBytes+size > c.budget.Share()) {
		out.add(c.answerOldest())
	}
	key := awaitKey(id)
	a := c.awaiting[key]
	if a != nil && !a.done {
		// The agent reused the id of a request still waiting: the first
		// gets its default, so that each one gets exactly one reply.
		out.add(c.settle(a, a.def, nil))
	}
	if a != nil {
		// A reused id is a new request: it goes to the end of the order,
		// so that the oldest is still the one that arrived first (at the
		// bound, and in Expire's order), not the newest in an old place.
		c.forget(a)
		if i := slices.Index(c.awaitOrder, a); i >= 0 {
			c.awaitOrder = slices.Delete(c.awaitOrder, i, i+1)
		}
	}
	a = &awaited{c: c}
	c.awaitOrder = append(c.awaitOrder, a)
	id = strings.Clone(id)
	if key == id {
		key = id // the copy: key views the frame
	} else {
		key = strings.Clone(key) // an escaped id's key is its own string
	}
	*a = awaited{
		key:      key,
		id:       id,
		method:   method,
		session:  session,
		deadline: c.Now().Add(c.opts.AnswerTimeout),
		def:      bytes.Clone(def),
		size:     size,
		c:        c,
	}
	c.awaiting[key] = a
	if s := c.sessions[session]; s != nil {
		s.asked = true
	}
	c.waiting++
	c.waitBytes += size
	c.budget.Hold(size)
	c.pruneAnswered()
	out.Awaiting = true
	return out
}

// add appends another result's replies and events.
func (r *Result) add(o Result) {
	r.Reply = append(r.Reply, o.Reply...)
	r.Events = append(r.Events, o.Events...)
}

// before returns o preceded by r's replies and events: the default of a
// request whose id o's request reuses goes first, as the agent must read
// it. Its slices are capped, as a Result's are.
func (r Result) before(o Result) Result {
	if r.Reply == nil {
		return o
	}
	o.Reply = slices.Clip(slices.Concat(r.Reply, o.Reply))
	o.Events = slices.Clip(slices.Concat(r.Events, o.Events))
	return o
}

// Now reads the Conn's clock, Options.Now (else time.Now): answer
// deadlines are times on it, so compare Deadline with it and pass it to
// Expire. Unlike the Conn's other methods it may be called concurrently,
// if Options.Now may: it reads nothing else.
func (c *Conn) Now() time.Time {
	if c.opts.Now != nil {
		return c.opts.Now()
	}
	return time.Now()
}

// answerOldest answers the oldest waiting request its default.
func (c *Conn) answerOldest() Result {
	for _, a := range c.awaitOrder {
		if !a.gone && !a.done {
			c.stats.AnswersEvicted++
			return c.settle(a, a.def, nil)
		}
	}
	return Result{}
}

// pruneAnswered forgets the oldest answered ids once the table holds twice
// the bound: they are kept a while so that a second answer is refused.
func (c *Conn) pruneAnswered() {
	if len(c.awaitOrder) <= 2*c.opts.MaxRequests {
		return
	}
	kept := c.awaitOrder[:0]
	drop := len(c.awaitOrder) - c.opts.MaxRequests
	for _, a := range c.awaitOrder {
		if a.gone {
			continue // forgotten already
		}
		if a.done && drop > 0 {
			c.forget(a)
			c.stats.AnswersEvicted++
			drop--
			continue
		}
		kept = append(kept, a)
	}
	clear(c.awaitOrder[len(kept):])
	c.awaitOrder = kept
}

// forget drops an answered request from the table and the budget; its
// place in the order keeps nothing of it until the next prune.
func (c *Conn) forget(a *awaited) {
	if c.awaiting[a.key] == a {
		delete(c.awaiting, a.key)
	}
	c.budget.Release(&a.charge)
	*a = awaited{gone: true, done: true}
}

// settle marks a request answered and builds its reply: result, or e if
// set. It now costs the budget what an answered request costs, and may be
// evicted; one whose session has ended is forgotten at once.
func (c *Conn) settle(a *awaited, result []byte, e *RPCError) Result {
	a.done = true
	c.waiting--
	c.waitBytes -= a.size
	c.budget.Unhold(a.size)
	if a.ended {
		defer c.forget(a) // once its reply is built from it
	} else {
		c.budget.Add(&a.charge, a.size, a)
	}
	c.stats.Replies++
	ev := Event{Type: EventReply, Agent: c.Agent(), Method: a.method, ID: json.RawMessage(a.id)}
	var frame []byte
	if e != nil {
		ev.Error = e
		frame = appendError(nil, a.id, *e)
	} else {
		ev.Result = json.RawMessage(result)
		frame = appendReply(nil, a.id, result)
	}
	return Result{Reply: frame, Events: []Event{ev}}
}

// Answer gives the client's answer to a blocking request that an event
// (question, plan, ...) named by its ID, as the response builder of the
// event's dialect made it: cursor.Answered, cursor.Accepted, ... for
// Cursor's, grok.Answered for Grok's (the event's Method says whose; each
// agent reads only its own shape). It returns the reply frame to send
// and its reply event. Each request is answered once: a second answer,
// or one after the deadline sent the default, gets ErrNotPending and no
// frame; on a Conn made without Options.ClientAnswers every answer gets
// ErrNoClientAnswers, an ErrNotPending that says so.
func (c *Conn) Answer(id json.RawMessage, result json.RawMessage) (Result, error) {
	a := c.awaiting[awaitKey(string(id))]
	if a == nil || a.done {
		return Result{}, c.notPending()
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, result); err != nil || !utf8.Valid(result) {
		return Result{}, ErrInvalidResult
	}
	r := c.settle(a, compact.Bytes(), nil)
	c.tidyOrder()
	return r, nil
}

// notPending is the error of an answer to no waiting request: with
// ClientAnswers off, the one that names the option.
func (c *Conn) notPending() error {
	if !c.opts.ClientAnswers {
		return ErrNoClientAnswers
	}
	return ErrNotPending
}

// ClientAnswers reports whether the Conn was made with
// Options.ClientAnswers: whether blocking requests wait for the client.
func (c *Conn) ClientAnswers() bool { return c.opts.ClientAnswers }

// AnswerDeadline returns when the request with this id stops waiting for
// the client's answer; ok is false unless it waits.
func (c *Conn) AnswerDeadline(id json.RawMessage) (deadline time.Time, ok bool) {
	if a := c.awaiting[awaitKey(string(id))]; a != nil && !a.done {
		return a.deadline, true
	}
	return time.Time{}, false
}

// endAwaited ends the blocking requests of session sid, which ends: one
// still waiting is due at once (the agent no longer waits for an answer:
// the next Expire gives it its default, and an answer before that is still
// the one the agent gets) and forgotten once answered; one answered is
// forgotten now, as nothing of a session outlives it (else it stays until
// twice MaxRequests later ones push it out, after Close too). A second
// answer to either then gets ErrNotPending, as an unknown id does, and no
// frame. asked says a request named the session while the Conn tracked
// it: else only one that still waits may name it.
func (c *Conn) endAwaited(sid string, asked bool) {
	if c.waiting == 0 && !asked {
		return
	}
	c.endAwaitedIf(func(a *awaited) bool { return a.session == sid })
}

// endAwaitedIf ends, as endAwaited does, the blocking requests that of
// picks, and drops the forgotten ones' places in the order.
func (c *Conn) endAwaitedIf(of func(*awaited) bool) {
	now := c.Now()
	kept := c.awaitOrder[:0]
	for _, a := range c.awaitOrder {
		switch {
		case a.gone:
			continue
		case !of(a):
		case a.done:
			c.forget(a)
			continue
		default:
			a.ended = true
			if a.deadline.After(now) {
				a.deadline = now
			}
		}
		kept = append(kept, a)
	}
	clear(c.awaitOrder[len(kept):])
	c.awaitOrder = kept
}

// tidyOrder empties the order once the table is: the requests forgotten
// as they were answered after their session's end keep their places in it
// until then (or until a prune).
func (c *Conn) tidyOrder() {
	if len(c.awaiting) == 0 && len(c.awaitOrder) > 0 {
		clear(c.awaitOrder)
		c.awaitOrder = c.awaitOrder[:0]
	}
}

// dueNow makes the requests of a session that still wait due at once:
// the client cancelled the turn, or the turn or the session ended, so the
// agent no longer waits for an answer. Like ACP's permission requests at
// session/cancel, they get the default (cancelled) at the next Expire.
func (c *Conn) dueNow(sid string) {
	if c.waiting == 0 {
		return
	}
	now := c.Now()
	for _, a := range c.awaitOrder {
		if !a.done && a.session == sid && a.deadline.After(now) {
			a.deadline = now
		}
	}
}

// endAllAwaited ends every blocking request as endAwaited ends a
// session's: the connection is gone (Close). Not by session: a request may
// belong to no session the Conn tracked (it came with no session known, or
// named one the Conn does not track), and it must get its default all the
// same, and be forgotten once answered.
func (c *Conn) endAllAwaited() {
	if len(c.awaitOrder) > 0 {
		c.endAwaitedIf(func(*awaited) bool { return true })
	}
}

// Deadline returns the earliest deadline of the requests awaiting the
// client's answer; ok is false when none waits. A client with its own
// JSON-RPC loop sets a timer for it and then calls Expire.
func (c *Conn) Deadline() (deadline time.Time, ok bool) {
	if c.waiting == 0 {
		return deadline, false
	}
	for _, a := range c.awaitOrder {
		if !a.done && (!ok || a.deadline.Before(deadline)) {
			deadline, ok = a.deadline, true
		}
	}
	return deadline, ok
}

// Expire answers every request whose deadline is not after now with the
// dialect's default (cancelled, for Cursor's questions and plans): one
// Result per request, in the order they arrived, each with its reply frame
// and reply event. It returns nil when nothing was due.
func (c *Conn) Expire(now time.Time) []Result {
	var out []Result
	for _, a := range c.awaitOrder {
		if a.done || a.deadline.After(now) {
			continue
		}
		out = append(out, c.settle(a, a.def, nil))
	}
	c.tidyOrder()
	return out
}

// reusedID answers its default to the blocking request still waiting
// under id, which an agent request that is not itself waiting for the
// client reuses: the agent has given the id to the new request, so the
// old one's reply goes now, before the new one's, and each gets exactly
// one (as awaitRequest does for a blocking request).
func (c *Conn) reusedID(id string) Result {
	if c.waiting == 0 {
		return Result{}
	}
	a := c.awaiting[awaitKey(id)]
	if a == nil || a.done {
		return Result{}
	}
	return c.settle(a, a.def, nil)
}

// clientsID hands id over to a request the client serves itself: a
// blocking request still waiting under it gets its default now
// (reusedID), and once answered it is forgotten, so that the client's
// response to the new request passes through, neither taken for the old
// one's answer nor refused as a second one. It returns the default's
// reply, if any.
func (c *Conn) clientsID(id string) Result {
	r := c.reusedID(id)
	if a := c.awaiting[awaitKey(id)]; a != nil && a.done {
		c.forget(a)
	}
	return r
}

// clientResponse handles the client's response to an agent request: for
// one awaiting an answer, it is the answer (the client wrote it itself).
// A second response to such a request returns ErrNotPending while it is
// remembered (not once its session has ended: see endAwaited). An id the
// agent reused for a request the client serves is no longer in the table
// (clientsID), so the response to that request is not ours.
func (c *Conn) clientResponse(v frameView) ([]Event, error) {
	v.readID()
	if !v.hasID {
		return nil, nil
	}
	a := c.awaiting[awaitKey(v.id.Raw)]
	if a == nil {
		return nil, nil // a response to a standard request: not ours
	}
	if a.done {
		return nil, ErrNotPending
	}
	var e *RPCError
	if er := scan.Result(scan.Member(v.s, "error")); er.IsObject() {
		e = &RPCError{Code: int(er.Get("code").Int()), Message: strings.Clone(er.Get("message").String())}
	}
	res := scan.Result(v.resultMember())
	var body []byte
	if res.Exists() {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(res.Raw)) == nil {
			body = compact.Bytes()
		}
	}
	if body == nil && e == nil {
		body = []byte(emptyObject)
	}
	r := c.settle(a, body, e)
	c.tidyOrder()
	return r.Events, nil
}

// awaits reports whether a request is answered by the client. One whose id
// is so long that it would cost more than the budget's MaxValue to keep is
// answered its default at once.
func (c *Conn) awaits(act Action, v frameView) bool {
	if !v.hasID || !act.Await || !c.opts.ClientAnswers {
		return false
	}
	if awaitedSize(v.id.Raw, act.Result) > c.budget.MaxValue() {
		c.budget.CountRefused()
		return false
	}
	return true
}
