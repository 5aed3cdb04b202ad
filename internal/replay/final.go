package replay

import (
	"io"

	"github.com/acpdialect/acpdialect"
)

// Limits are the windows of a Final: how many cards, vendor requests and
// sessions it keeps until the end. 0 keeps every one.
type Limits struct {
	// Cards bounds the cards of one session, CardsTotal those of all.
	Cards, CardsTotal, Requests, Sessions int
}

// StreamLimits are the windows `replay --final` keeps: the last 512
// cards of a session and 2,048 in all, as many requests as a Conn tracks,
// and four times its sessions. A card almost always reaches its final
// state long before 512 newer ones: one that changes after it left
// the window starts again, and its line is written again at the end (the
// later line is the final state).
var StreamLimits = Limits{
	Cards:      512,
	CardsTotal: 2048,
	Requests:   acpdialect.DefaultMaxRequests,
	Sessions:   4 * acpdialect.DefaultMaxSessions,
}

// Final collects the final state of a replay: the last payload of every
// card, every vendor request with its answer, and every session with its
// todo list, each in first-seen order. Within its Limits it keeps them
// until WriteTo; past them the oldest leaves the window and its line is
// written at once to the overflow writer, so that the output is still
// every final line, in first-seen order within each kind, and memory
// stays bounded however long the transcript.
type Final struct {
	limits   Limits
	overflow io.Writer
	err      error         // the overflow writer's first error
	agent    func() string // the connection's agent, for session lines
	flushed  int
	keep     bool // keep payloads for Cards (Run)

	cards     fifo[*card]             // every card in the windows, first-seen order, spilled ones too
	live      int                     // cards not spilled
	bySession map[string]*fifo[*card] // the same, per session
	current   map[cardKey]*card       // the current card of a tool call

	requests fifo[*Request]
	open     map[string]*Request // unanswered, by raw id

	wires fifo[Wire] // what went on the wire instead of a line

	sessions fifo[string]
	seen     map[string]bool
	todos    map[string][]acpdialect.Todo
}

type cardKey struct{ session, id string }

// card is a Card as a Final keeps it: its payload so far, marshaled (a
// third of the memory of the payload it was made from), and the payload
// itself only for Run, which hands Cards out. A Final keeps thousands.
type card struct {
	agent, session, toolID string
	json                   []byte
	full                   *Card // Run's
	spilled                bool
}

// write writes the card's line: {"type":"tool_call",...,"payload":...}.
func (c *card) write(w io.Writer) error {
	if c.full != nil {
		return writeCard(w, *c.full)
	}
	head, err := marshal(toolLine{"tool_call", c.agent, c.session, c.toolID, nil})
	if err != nil {
		return err
	}
	// head ends in "payload":null}: the payload goes in its place.
	head = append(head[:len(head)-len("null}")], c.json...)
	return writeLine(w, append(head, '}'))
}

// NewFinal returns a Final with these windows; lines that leave them go
// to overflow (nil: dropped, still counted).
func NewFinal(limits Limits, overflow io.Writer) *Final {
	return &Final{
		limits:    limits,
		overflow:  overflow,
		agent:     func() string { return "" },
		current:   map[cardKey]*card{},
		bySession: map[string]*fifo[*card]{},
		keep:      limits == Limits{},
		open:      map[string]*Request{},
		seen:      map[string]bool{},
		todos:     map[string][]acpdialect.Todo{},
	}
}

// session notes a session id in first-seen order.
func (f *Final) session(sid string) {
	if sid == "" || f.seen[sid] {
		return
	}
	f.seen[sid] = true
	f.sessions.push(sid)
	for over(f.sessions.len(), f.limits.Sessions) {
		old := f.sessions.pop()
		f.spill(func(w io.Writer) error { return writeSession(w, f.agent(), old, f.todos[old]) })
		delete(f.seen, old)
		delete(f.todos, old)
		delete(f.bySession, old) // its cards stay in the window of all
	}
}

func over(n, limit int) bool { return limit > 0 && n > limit }

// event folds one event into the final state.
func (f *Final) event(rec Record) {
	ev := rec.Event
	f.session(ev.SessionID)
	f.request(rec)
	if t := ev.Todos(); ev.Type == acpdialect.EventTodos && t != nil && ev.SessionID != "" && f.seen[ev.SessionID] {
		f.todos[ev.SessionID] = t.Items
	}
	if ev.Payload == nil || (ev.Type != acpdialect.EventToolCall && ev.Type != acpdialect.EventToolCallUpdate) {
		return
	}
	k := cardKey{ev.SessionID, ev.ToolCallID}
	c := f.current[k]
	if c == nil || ev.Type == acpdialect.EventToolCall {
		c = &card{session: ev.SessionID, toolID: ev.ToolCallID}
		if f.keep {
			c.full = &Card{Line: rec.Line, SessionID: ev.SessionID, ToolCallID: ev.ToolCallID}
		}
		f.current[k] = c
		f.addCard(c)
	}
	if c.full != nil {
		c.full.Agent, c.full.Payload = ev.Agent, *ev.Payload
		return
	}
	c.agent = ev.Agent
	b, _ := marshal(ev.Payload)
	c.json = append(c.json[:0:0], b...) // exactly its size
}

// addCard puts a new card in the windows, spilling the oldest of its
// session, or of all, past their bounds.
func (f *Final) addCard(c *card) {
	f.cards.push(c)
	f.live++
	ss := f.bySession[c.session]
	if ss == nil {
		ss = &fifo[*card]{}
		f.bySession[c.session] = ss
	}
	ss.push(c)
	for over(ss.len(), f.limits.Cards) {
		f.spillCard(ss.pop())
	}
	for over(f.live, f.limits.CardsTotal) {
		f.spillCard(f.cards.pop())
	}
	for f.cards.len() > 0 && f.cards.all()[0].spilled {
		f.cards.pop() // spilled from its session's window earlier
	}
}

func (f *Final) spillCard(c *card) {
	if c.spilled {
		return
	}
	c.spilled = true
	f.live--
	f.spill(func(w io.Writer) error { return c.write(w) })
	if k := (cardKey{c.session, c.toolID}); f.current[k] == c {
		delete(f.current, k)
	}
}

func writeLine(w io.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return err
	}
	_, err := w.Write([]byte{'\n'})
	return err
}

// request records the event of a vendor request, and pairs a reply event
// with the request it answers.
func (f *Final) request(rec Record) {
	ev := rec.Event
	switch ev.Type {
	case acpdialect.EventQuestion, acpdialect.EventPlan, acpdialect.EventImage:
		q := &Request{Line: rec.Line, Event: ev}
		f.requests.push(q)
		if ev.ID != nil {
			f.open[string(ev.ID)] = q
		}
		for over(f.requests.len(), f.limits.Requests) {
			old := f.requests.pop()
			f.spill(func(w io.Writer) error { return writeRequest(w, *old) })
			if old.Event.ID != nil && f.open[string(old.Event.ID)] == old {
				delete(f.open, string(old.Event.ID))
			}
		}
	case acpdialect.EventReply:
		if q, ok := f.open[string(ev.ID)]; ok {
			r := ev
			q.Reply = &r
			delete(f.open, string(ev.ID))
		}
	}
}

// spill writes a line that leaves a window.
func (f *Final) spill(write func(io.Writer) error) {
	f.flushed++
	if f.overflow != nil && f.err == nil {
		f.err = write(f.overflow)
	}
}

// wire keeps a frame a dialect put on the wire; past the requests' window
// the oldest is written early.
func (f *Final) wire(w Wire) {
	f.wires.push(w)
	for over(f.wires.len(), f.limits.Requests) {
		old := f.wires.pop()
		f.spill(func(out io.Writer) error { return writeWire(out, old) })
	}
}

// fill puts what the windows still hold, and the summary, into r.
func (f *Final) fill(r *Replay, sum Summary) {
	r.Agent, r.Stats, r.BadLines, r.Flushed = sum.Agent, sum.Stats, sum.BadLines, f.flushed
	for _, c := range f.cards.all() {
		if !c.spilled && c.full != nil {
			r.Cards = append(r.Cards, *c.full)
		}
	}
	for _, q := range f.requests.all() {
		r.Requests = append(r.Requests, *q)
	}
	r.Wire = append(r.Wire, f.wires.all()...)
	r.Sessions = append(r.Sessions, f.sessions.all()...)
	if len(f.todos) > 0 {
		r.Todos = f.todos
	}
}

// WriteTo writes the final lines still in the windows, then the stats
// line: after the lines that left the windows early, the whole --final
// output. It writes from the windows as they are, copying nothing.
func (f *Final) WriteTo(w io.Writer, sum Summary) error {
	if f.err != nil {
		return f.err
	}
	for _, c := range f.cards.all() {
		if c.spilled {
			continue
		}
		if err := c.write(w); err != nil {
			return err
		}
	}
	for _, q := range f.requests.all() {
		if err := writeRequest(w, *q); err != nil {
			return err
		}
	}
	for _, x := range f.wires.all() {
		if err := writeWire(w, x); err != nil {
			return err
		}
	}
	for _, sid := range f.sessions.all() {
		if err := writeSession(w, sum.Agent, sid, f.todos[sid]); err != nil {
			return err
		}
	}
	return writeJSON(w, statsLine{"stats", sum.Agent, sum.Stats, sum.BadLines, f.flushed})
}

// fifo is a queue that reuses its array.
type fifo[T any] struct {
	items []T
	head  int
}

func (q *fifo[T]) push(v T) { q.items = append(q.items, v) }
func (q *fifo[T]) len() int { return len(q.items) - q.head }
func (q *fifo[T]) all() []T { return q.items[q.head:] }

func (q *fifo[T]) pop() T {
	var zero T
	v := q.items[q.head]
	q.items[q.head] = zero
	q.head++
	if q.head > 1024 && q.head*2 > len(q.items) {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	return v
}
