package acpdialect

import (
	"strings"

	"github.com/acpdialect/acpdialect/correlate"
)

// Child sessions: an agent that runs each subagent as an ACP session of
// its own (OpenCode) sends the subagent's updates under the child's
// session id, and names the child on its parent's card only when the
// subagent is done. Dialect.ChildSessions turns on the rules below; every
// other dialect is unaffected.
//
//   - A card whose merged payload names a child session
//     (SubagentTask.ChildSessionID, read by the dialect's ToolCall) links
//     that session to the card, as a native subagent update does: the
//     child's later cards and messages carry the card's id as their
//     parent_tool_call_id. A card that may not claim the child (see link)
//     keeps the child it named before, if any.
//   - The child's cards seen before the link (kept in the Conn's card
//     store, bounded by Options.Tools) are nested when it comes: each gets
//     the parent and is reported again as a tool_call_update.
//   - A session the client never opened, first seen in an agent update
//     or request (a permission request) while another session's turn is
//     in flight, may be that turn's subagent: its message events are held
//     (Options.MaxHeld events and Options.MaxHeldBytes of text, the oldest
//     evicted; across sessions the Conn's byte budget, Options.MaxBytes)
//     until it is linked, then reported with the parent. They are dropped
//     when it or the session whose turn it was first seen in ends.
//     Stats.Early counts all of this.
//   - Message events (an Update.Event of a message or thought chunk
//     kind) are read only in child sessions, linked or held: the parent's
//     own chunks are the stream's bulk and the standard chunk already says
//     all a client needs of them.
//   - What a frame says of a child by its session id alone (Child: a
//     vendor's subagent tree) merges into the card the child is linked to,
//     or waits for the link keyed by the child session alone (see Child).

// Default bounds of the message events held for a session that may be a
// child (see Dialect.ChildSessions).
const (
	DefaultMaxHeld      = 256
	DefaultMaxHeldBytes = 64 << 10
)

// Child is what a frame says about a subagent known by its child session
// alone (OpenCode's subagent tree): a half merged with Dialect.MergeLate
// into the card the child session is linked to, or, until the link,
// waiting in the store of late halves (Options.Pending) keyed by the child
// session alone, whatever its parent: a child session id names one
// subagent, so no other card can take it, and its parent may be a session
// the Conn has not seen yet (a subagent's own subagent, listed before the
// subagent spoke). The waiting halves share one session bucket of that
// store, so they are bounded by its per-session entries and the byte
// budget, the oldest evicted first (Stats.Pending.Evicted); they are not
// swept with a session (its parent's included: it may come back), only
// at Conn.Close. A half for a child that already waits merges into
// the waiting one. Like a Late its values must not view the frame.
type Child struct {
	// Session is the child session's id.
	Session string
	// Parent is the session that started it. A half with no Parent (a
	// removal, which names the child alone) only merges: into the card
	// the child is linked to or the half that waits for it; with neither
	// it is dropped (Stats.LateDropped), as nothing of the child was kept.
	Parent  string
	Payload Payload
	// Claim lets a half whose child no card names yet link the child to
	// the one card of its Parent session that can only be the child's: an
	// open (not ended) subagent_task card naming no child session, with
	// the half's description when the half has one, the only such card of
	// that session, and one the child may nest under (no cycle, no other
	// parent). The half merges into it as into a linked card, and the
	// child's cards and held messages nest under it at once. With no such
	// card, or several (subagents spawned side by side), the half waits as
	// any other. Grok's subagent_spawned names no
	// tool call but comes while the spawn's card is open, whose result
	// names the child only when the subagent ends.
	Claim bool
}

// childKey is the key a Child half waits under in the store of late
// halves: the child session alone, in one bucket (Session "", which no
// session has).
func childKey(child string) correlate.Key { return correlate.Key{ID: child} }

// EarlyStats counts the work of Dialect.ChildSessions.
type EarlyStats struct {
	// Nested are cards of a child session that got their parent when
	// the child was linked after them.
	Nested uint64 `json:"nested"`
	// Released are held message events reported at a link.
	Released uint64 `json:"released"`
	// Evicted are held message events pushed out by the bounds: a
	// session's (Options.MaxHeld, MaxHeldBytes, the budget's MaxValue), or
	// the Conn's byte budget, which evicts all that a session holds at
	// once, the session that held last the longest ago first.
	Evicted uint64 `json:"evicted"`
	// Dropped are held message events dropped with their session, or
	// with the session whose turn they were first seen in.
	Dropped uint64 `json:"dropped"`
}

// early is what a session that may be a child holds until it is linked.
// Its events are charged to the Conn's budget together, as one value (its
// Holder): the budget may evict them all at once, oldest session first,
// counted in Stats.Early.Evicted; the session holds newer ones after.
type early struct {
	turnOf string  // the session whose turn was in flight when it was first seen
	events []Event // message events, oldest first
	bytes  int     // their text
	size   int64   // what the events cost in the budget
	charge correlate.Charge
	c      *Conn
}

// heldOverhead is what a held message event costs beyond its strings: the
// Event in the held slice (with the slice's spare room), and its Message
// (64-bit). Its type, agent and session id are constants or the session's.
const heldOverhead = 448

// heldSize is what a held message event costs in the budget.
func heldSize(m *Message) int64 {
	return heldOverhead + int64(len(m.Text)+len(m.Phase)+len(m.ParentToolCallID)+16*len(m.Hidden))
}

// Evict drops every held event of the session to make room in the budget.
func (e *early) Evict() {
	e.c.stats.Early.Evicted += uint64(len(e.events))
	clear(e.events)
	e.events, e.bytes, e.size = nil, 0, 0
}

// release gives back what e holds in the budget.
func (e *early) release() { e.c.budget.Release(&e.charge) }

// isChunk reports whether an update kind is one of ACP's text chunks.
func isChunk(kind string) bool {
	switch kind {
	case "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
		return true
	}
	return false
}

// childSessions reports whether the dialect runs subagents in sessions of
// their own.
func (c *Conn) childSessions() bool { return c.d != nil && c.d.ChildSessions }

// updateSession is touchSession for an agent update or an agent request
// to the client: a session first seen there while another session's turn
// is in flight may be that turn's subagent, and holds its messages until
// it is linked.
func (c *Conn) updateSession(sid string) *session {
	if !c.childSessions() {
		return c.touchSession(sid)
	}
	_, known := c.sessions[sid]
	s := c.touchSession(sid)
	if known || s == nil || s.parent.ID != "" {
		return s
	}
	var busy *session
	for _, o := range c.sessions {
		if o != s && o.turns > 0 && (busy == nil || o.lastTurn > busy.lastTurn) {
			busy = o
		}
	}
	if busy != nil {
		s.early = &early{turnOf: busy.id, c: c}
	}
	return s
}

// readsMessages reports whether an update of kind in s may give a message
// event: with child sessions, only a child's chunks do.
func (c *Conn) readsMessages(s *session, kind string) bool {
	return !c.childSessions() || !isChunk(kind) || s.parent.ID != "" || s.early != nil
}

// hold keeps a message event of a session that may be a child until it is
// linked; it reports false when the event goes out now.
func (c *Conn) hold(s *session, ev Event) bool {
	m := ev.Message()
	if !c.childSessions() || s.parent.ID != "" || s.early == nil || m == nil {
		return false
	}
	e := s.early
	maxN, maxB := c.opts.MaxHeld, c.opts.MaxHeldBytes
	if maxN <= 0 {
		maxN = DefaultMaxHeld
	}
	if maxB <= 0 {
		maxB = DefaultMaxHeldBytes
	}
	size, maxV := heldSize(m), c.budget.MaxValue()
	if len(m.Text) > maxB || size > maxV {
		c.stats.Early.Evicted++ // it alone is over the bounds
		if size > maxV {
			c.budget.CountRefused()
		}
		return true
	}
	// The session's held events together are one value of the budget:
	// at most MaxValue, as any other.
	for len(e.events) > 0 && (len(e.events) >= maxN || e.bytes+len(m.Text) > maxB || e.size+size > maxV) {
		old := e.events[0].Message()
		e.bytes -= len(old.Text)
		e.size -= heldSize(old)
		e.events[0] = Event{}
		e.events = e.events[1:]
		c.stats.Early.Evicted++
	}
	e.events = append(e.events, ev)
	e.bytes += len(m.Text)
	e.size += size
	c.budget.Add(&e.charge, e.size, e) // the newest value: the oldest sessions' go first
	return true
}

// dropEarly drops what sessions first seen during sid's turn, and sid
// itself, still hold: they can no longer be linked to that turn. Such a
// session's background cards go too when it has no turns of its own: they
// took sid's turns as theirs (runsUnder), and with sid gone no turn would
// end them, so they would show running for good. sid's own are dropped
// with it alike.
func (c *Conn) dropEarly(sid string) {
	if !c.childSessions() {
		return
	}
	for _, s := range c.sessions {
		if e := s.early; e != nil && (s.id == sid || e.turnOf == sid) {
			c.stats.Early.Dropped += uint64(len(e.events))
			e.release()
			s.early = nil
			if s.id != sid && s.lastTurn == 0 {
				c.dropBackground(s.id)
			}
		}
	}
}

// dropBackground drops the background cards of session sid (those an
// alias names, and the cards their aliases made early), counted as swept,
// and their aliases.
func (c *Conn) dropBackground(sid string) {
	if c.aliases.SessionLen(sid) == 0 {
		return
	}
	var ids []string // swept after the walk, which must not change the store
	c.aliases.Each(sid, func(ak correlate.Key, id *string) bool {
		ids = append(ids, *id, ak.ID)
		return true
	})
	for _, id := range ids {
		c.tools.Sweep(correlate.Key{Session: sid, ID: id})
	}
	c.aliases.SweepSession(sid)
}

// linkCard links the child session a card's payload names, when it names
// a new one, and merges what waited for the child (Child halves) into
// next. It returns the card's next payload: without the new child when
// the card may not claim it (see link).
func (c *Conn) linkCard(k correlate.Key, old, next Payload) Payload {
	child := childOfPayload(next)
	if child == "" || child == childOfPayload(old) {
		return next
	}
	if !c.link(k, child) {
		return keepChild(old, next) // the card shows without it
	}
	if c.d.MergeLate == nil {
		return next
	}
	pk := childKey(child)
	if half := c.pending.Get(pk); half != nil {
		if m, ok := c.d.MergeLate(next, *half); ok {
			c.pending.Take(pk)
			c.stats.LateMerged++
			next = m
		}
	}
	return next
}

// nestEarly reports the cards and held messages of child session child,
// which card k was just linked to: every card of the child without a
// parent gets k's id, and the held messages go out with it.
func (c *Conn) nestEarly(k correlate.Key, child string) []Event {
	cs := c.sessions[child]
	if cs == nil || cs.parent != k {
		return nil // not tracked, or nested under another card first
	}
	var out []Event
	var nested []correlate.Key
	c.tools.Each(child, func(ck correlate.Key, st *toolState) bool {
		if st.payload.ParentToolCallID != "" {
			return true
		}
		st.payload.ParentToolCallID = k.ID // a string field: events handed out keep their copy
		c.stats.Early.Nested++
		nested = append(nested, correlate.Key{Session: cs.id, ID: st.id})
		return true
	})
	// Measured again after the walk, which must not change the store: a
	// card's growth may evict others.
	for _, ck := range nested {
		c.tools.Changed(ck)
		if st := c.tools.Get(ck); st != nil && st.surfaced {
			out = append(out, c.toolEvent(EventToolCallUpdate, ck, st.payload)...)
		}
	}
	if e := cs.early; e != nil {
		for _, ev := range e.events {
			ev.Message().ParentToolCallID = k.ID // held, never handed out: ours to change
			out = append(out, ev)
		}
		c.stats.Early.Released += uint64(len(e.events))
		e.release()
		cs.early = nil
	}
	return out
}

// childOfPayload returns the child session a payload names, or "".
func childOfPayload(p Payload) string {
	if p.SubagentTask == nil {
		return ""
	}
	return p.SubagentTask.ChildSessionID
}

// childHalves merges what a frame said about subagents by their child
// sessions into their cards, and reports the cards that changed.
func (c *Conn) childHalves(kids []Child) []Event {
	if len(kids) == 0 {
		return nil
	}
	var out []Event
	for _, kid := range kids {
		if kid.Session == "" || c.d.MergeLate == nil {
			c.stats.LateDropped++
			continue
		}
		if k := c.childOf.Get(correlate.Key{ID: kid.Session}); k != nil {
			if st := c.tools.Get(*k); st != nil {
				out = append(out, c.mergeChild(*k, st, kid.Payload)...)
				continue
			}
		}
		if kid.Claim && kid.Parent != "" {
			if k, ok := c.claimable(kid.Parent, describe(kid.Payload)); ok && c.mayLink(k, kid.Session) {
				out = append(out, c.claimChild(k, kid)...)
				continue
			}
		}
		pk := childKey(kid.Session)
		if prev := c.pending.Get(pk); prev != nil {
			if m, ok := c.d.MergeLate(*prev, kid.Payload); ok {
				*prev = m
				c.pending.Changed(pk) // measured again: it may have grown
				continue
			}
		}
		if kid.Parent == "" {
			c.stats.LateDropped++ // a removal of a child nothing was kept of
			continue
		}
		pk.ID = strings.Clone(kid.Session) // a store key: see vendorUpdate
		c.pending.Put(pk, kid.Payload)
	}
	return out
}

// claimable returns the card of session sid a claiming Child half that
// describes its subagent as desc may link its child to (see Child.Claim):
// the only open subagent_task card of the session that names no child
// session and, when desc is not empty, has that description.
func (c *Conn) claimable(sid, desc string) (k correlate.Key, ok bool) {
	n := 0
	c.tools.Each(sid, func(ck correlate.Key, st *toolState) bool {
		p := st.payload
		if p.Kind == KindSubagentTask && !StatusEnded(p.Status) && childOfPayload(p) == "" && !st.native &&
			(desc == "" || describe(p) == desc) {
			k, n = ck, n+1
		}
		return n < 2
	})
	return k, n == 1
}

// describe returns the description of a subagent payload, or "".
func describe(p Payload) string {
	if p.SubagentTask == nil {
		return ""
	}
	return p.SubagentTask.Description
}

// claimChild merges a claiming Child half into card k, links the child to
// it, and nests what the child sent before.
func (c *Conn) claimChild(k correlate.Key, kid Child) []Event {
	st := c.tools.Get(k)
	if st == nil {
		return nil
	}
	old := st.payload
	next, ok := c.d.MergeLate(old, kid.Payload)
	if !ok {
		c.stats.LateDropped++
		return nil
	}
	c.stats.LateMerged++
	next = c.linkCard(k, old, next)
	st.set(next)
	c.tools.Changed(k)
	next = st.payload // as kept: cut if it grew too large
	var out []Event
	if st.surfaced && !next.Equal(old) {
		out = c.toolEvent(EventToolCallUpdate, k, next)
	}
	if child := childOfPayload(next); child != childOfPayload(old) {
		out = append(out, c.nestEarly(k, child)...)
	}
	return out
}

// mergeChild merges a Child half into the card its child is linked to.
func (c *Conn) mergeChild(k correlate.Key, st *toolState, p Payload) []Event {
	next, ok := c.d.MergeLate(st.payload, p)
	if !ok {
		c.stats.LateDropped++
		return nil
	}
	c.stats.LateMerged++
	old := st.payload
	st.set(next)
	ck := correlate.Key{Session: k.Session, ID: st.id}
	c.tools.Changed(ck)
	next = st.payload // as kept: cut if it grew too large
	if !st.surfaced || next.Equal(old) {
		return nil
	}
	return c.toolEvent(EventToolCallUpdate, ck, next)
}

// turnEpoch is the epoch the cards of s are made in and judged by (the
// early tool_call merge, a sweeping dialect's late halves): s's own once
// the client prompted it, else, for a subagent's session (linked, or held
// as a possible one), the epoch of the session it runs under. Such a
// session has no turns of its own: its parent's are its turns, so that a
// child reused in a later turn (an OpenCode task resumed in the same
// child session) starts afresh as its parent does. A card keeps the
// epoch's low half (toolState.epoch).
func (c *Conn) turnEpoch(s *session) uint32 {
	for range maxParents {
		if s.lastTurn != 0 {
			return uint32(s.epoch)
		}
		p := c.sessions[c.parentOf(s)]
		if p == nil || p == s {
			return uint32(s.epoch)
		}
		s = p
	}
	return uint32(s.epoch)
}

// parentOf returns the id of the session s runs under: its parent card's
// session once linked, else, held as a possible subagent, the session
// whose turn it was first seen in; "" for a session of the client's.
func (c *Conn) parentOf(s *session) string {
	if s.parent.Session == "" && s.early != nil {
		return s.early.turnOf
	}
	return s.parent.Session
}
