package acpdialect

import (
	"slices"
	"strings"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/tidwall/gjson"
)

// vendorUpdate handles a session/update kind of the dialect's own (Cursor's
// native subagents): what it says about a tool call is merged into that
// card, found by the tool call id it names, else by the child session it
// names; with no card it becomes one. Such a card takes its status from the
// updates until its background work ends; a card of a real tool call keeps
// the tool call's own.
func (c *Conn) vendorUpdate(sid string, h *Update, u gjson.Result) []Event {
	s := c.updateSession(sid)
	if s == nil || h == nil {
		c.stats.Malformed++
		return nil
	}
	out := c.updateEvent(s, h, u, nil)
	if slices.Contains(c.repeated, h.Kind) {
		// Later entries of the kind add their events (see Update).
		for i := range c.d.Updates {
			if e := &c.d.Updates[i]; e != h && e.Kind == h.Kind {
				out = c.updateEvent(s, e, u, out)
			}
		}
	}
	if h.Mark != nil || h.Marked != nil {
		out = c.marked(s, h, u, out)
	}
	if h.Handle != nil {
		// A standard update that says nothing of a card (the usual chunk)
		// is not a Late dropped.
		if l := h.Handle(u); !h.Standard || l != (Late{}) {
			out = append(out, c.updateCard(s, l, c.d.MergeLate, h.Waits)...)
		}
	}
	if h.HandleAll != nil {
		for _, l := range h.HandleAll(u) {
			out = append(out, c.updateCard(s, l, c.d.MergeLate, h.Waits)...)
		}
	}
	return out
}

// updateEvent appends the event h.Event reads from the update, if any.
func (c *Conn) updateEvent(s *session, h *Update, u gjson.Result, out []Event) []Event {
	if h.Event == nil || !c.readsMessages(s, h.Kind) {
		return out
	}
	ev := h.Event(u)
	if ev == nil {
		return out
	}
	ev.Agent, ev.SessionID = c.Agent(), s.id
	if m := ev.Message(); m != nil && s.parent.ID != "" {
		// A native subagent's session: its text nests under the
		// card it is linked to, as its tool calls do.
		m.ParentToolCallID = s.parent.ID
	}
	switch {
	case c.hold(s, *ev):
	case out == nil:
		out = one(ev)
	default:
		out = append(out[:len(out):len(out)], *ev)
	}
	return out
}

// updateCard merges what an update said about a tool call into its card,
// with merge (the dialect's MergeLate, or the standard's for a draft kind
// every connection reads; nil merges nothing but the kind and status). With
// waits (Update.Waits) a half for a child no card knows yet is held instead
// of making one; the next half that names the child takes it.
func (c *Conn) updateCard(s *session, l Late, merge func(cur, late Payload) (Payload, bool), waits bool) []Event {
	child := ""
	if l.Payload.SubagentTask != nil {
		child = l.Payload.SubagentTask.ChildSessionID
	}
	id := l.ToolCallID
	var linked *string // the card the child is linked to, if known
	if child != "" {
		linked = c.children.Get(correlate.Key{Session: s.id, ID: child})
	}
	if id == "" && child != "" {
		id = child
		if linked != nil {
			id = *linked
		}
	}
	if id == "" && l.Alias != "" {
		id = c.byAlias(s, l.Alias)
	}
	if id == "" {
		c.stats.LateDropped++
		return nil
	}
	k := correlate.Key{Session: s.id, ID: id}
	st := c.tools.Get(k)
	// Only a half that names a child waits: one named by alias alone has
	// no spawn to wait for, and nothing would ever take it.
	if st == nil && waits && merge != nil && l.ToolCallID == "" && child != "" && linked == nil && child != s.id {
		c.wait(k, l.Payload, merge)
		return nil
	}
	p := l.Payload
	if child != "" && merge != nil {
		p = c.takeWaiting(correlate.Key{Session: s.id, ID: child}, p, merge)
	}
	ek, early, handOver := c.handOver(s.id, l)
	if handOver {
		p = foldTask(early, p, merge)
	}
	if st == nil {
		// A store key is copied even though the Late's strings are owned:
		// a key that changed under the map (a dialect that broke the
		// contract) would corrupt the store, and a copy keeps only the id
		// alive, not the whole buffer the handler's strings share.
		k.ID = strings.Clone(id)
		kind := l.Payload.Kind
		if kind == "" {
			kind = KindGeneric // a card always has a kind of the contract's
		}
		// In a subagent's session it nests under the subagent's card, as
		// the session's tool calls do, whichever of it and its tool call
		// comes first.
		st = c.tools.Put(k, toolState{id: k.ID, epoch: c.turnEpoch(s), native: true,
			payload: Payload{Kind: kind, ParentToolCallID: s.parent.ID}})
	}
	k.ID = st.id
	// A card that may not claim its child (see link) still shows, without
	// the child: a client resolving the child's parent must find the cards
	// of one session only.
	claims := child == "" || (linked != nil && *linked == st.id) || c.link(k, child)
	c.noteAlias(k, l.Alias)
	out := c.mergeNative(k, st, p, merge, claims)
	if a := st.payload.alias(); a != "" {
		c.noteAlias(k, a)
	}
	if handOver {
		out = append(out, c.retire(ek, l.Payload.Status)...)
	}
	return out
}

// wait holds a half of an update that came before the one that makes its
// child's card (Update.Waits), with the pending late halves: swept with
// them. A later half for the same child merges into it.
func (c *Conn) wait(k correlate.Key, p Payload, merge func(cur, late Payload) (Payload, bool)) {
	if prev := c.pending.Get(k); prev != nil && waitingFor(prev, k.ID) {
		if m, ok := merge(*prev, p); ok {
			if p.Status != "" {
				m.Status = p.Status
			}
			*prev = m
			c.pending.Changed(k)
			return
		}
	}
	k.ID = strings.Clone(k.ID) // a store key: see updateCard
	c.pending.Put(k, p)
}

// takeWaiting merges into p, the half that found or made the child's card,
// the half held for the child (k), if any: it is applied after p, as it
// would have been in order, its card status included.
func (c *Conn) takeWaiting(k correlate.Key, p Payload, merge func(cur, late Payload) (Payload, bool)) Payload {
	held := c.pending.Get(k)
	if held == nil || !waitingFor(held, k.ID) {
		return p
	}
	m, ok := merge(p, *held)
	if !ok {
		return p
	}
	if held.Status != "" {
		m.Status = held.Status
	}
	c.pending.Take(k)
	c.stats.LateMerged++
	return m
}

// waitingFor reports whether a pending half is one held for the child
// session: a late half for a tool call that happens to share the id names
// no child.
func waitingFor(p *Payload, child string) bool {
	return p.SubagentTask != nil && p.SubagentTask.ChildSessionID == child
}

// link records that child is the session of the native subagent on card
// k: later updates naming only the child find the card, and the child
// session's tool calls nest under it, whenever its first frame comes. It
// reports whether the card may claim the child (name it as its
// child_session_id); when not, nothing is recorded.
//
// A child that is k's own session or one of its ancestors is refused: the
// link would make a cycle (a session nested under its own descendant), in
// which a client walking the tree would never stop. So is a child that
// already nests under a card of another session: a session keeps the
// parent it took first, and a client that found two parent sessions
// claiming it could nest it under the wrong one, its own descendant
// included. A second card of the same parent session (a task resumed in
// its child session) may claim it.
func (c *Conn) link(k correlate.Key, child string) bool {
	if !c.mayLink(k, child) {
		return false
	}
	child = strings.Clone(child) // a store key: see vendorUpdate
	c.children.Put(correlate.Key{Session: k.Session, ID: child}, k.ID)
	c.childOf.Put(correlate.Key{ID: child}, k)
	if cs := c.sessions[child]; cs != nil && cs.parent.Session == "" {
		cs.parent = k
	}
	return true
}

// mayLink reports whether link(k, child) would link: child is not k's
// session nor one it nests under, and nests under no card of another
// session.
func (c *Conn) mayLink(k correlate.Key, child string) bool {
	if child == k.Session || c.ancestorOrSelf(k.Session, child) {
		return false
	}
	p := c.parentSession(child)
	return p == "" || p == k.Session
}

// parentSession returns the session of the card child nests under: the
// one it took first when the session is tracked, else the one it is
// linked to; "" for a child of no card.
func (c *Conn) parentSession(child string) string {
	if cs := c.sessions[child]; cs != nil && cs.parent.Session != "" {
		return cs.parent.Session
	}
	if p := c.childOf.Get(correlate.Key{ID: child}); p != nil {
		return p.Session
	}
	return ""
}

// keepChild returns next, the merge of a half into a card whose payload
// was cur, with cur's child session (none, or one it claimed before): the
// half named a child the card may not claim (see link). Kind objects are
// never changed: a changed subagent object is a new one.
func keepChild(cur, next Payload) Payload {
	want := childOfPayload(cur)
	if next.SubagentTask == nil || next.SubagentTask.ChildSessionID == want {
		return next
	}
	st := *next.SubagentTask
	st.ChildSessionID = want
	next.SubagentTask = &st
	return next
}

// ancestorOrSelf reports whether session a is s or a session s nests
// under, through the parent cards of child sessions: the card each is
// linked to last, or the one a tracked session took first (a session
// keeps its first parent when a second card names it: both chains are
// walked, at most maxDepth levels each, a deeper chain taken as a cycle).
func (c *Conn) ancestorOrSelf(s, a string) bool {
	linked := func(s string) string {
		if p := c.childOf.Get(correlate.Key{ID: s}); p != nil {
			return p.Session
		}
		return ""
	}
	return chainHas(s, a, linked) || chainHas(s, a, c.parentSession)
}

// chainHas reports whether a is s or one of its parents by parent (at
// most maxDepth levels: a deeper chain is taken as a cycle).
func chainHas(s, a string, parent func(string) string) bool {
	const maxDepth = 64
	for range maxDepth {
		if s == a {
			return true
		}
		if s = parent(s); s == "" {
			return false
		}
	}
	return true
}

// mergeNative merges a native update's payload into a card with merge,
// claiming a card no dialect recognized yet for the subagent kind. A card
// whose background work ended (endBackground) keeps its status: a late
// half that reports more of that work (a monitor's event after its turn
// ended) must not set it running again under its end reason. A card that
// may not claim the child the half names (claims false) keeps its own.
func (c *Conn) mergeNative(k correlate.Key, st *toolState, p Payload, merge func(cur, late Payload) (Payload, bool), claims bool) []Event {
	old := st.payload
	cur := old
	if p.Kind != "" && cur.Kind != p.Kind {
		cur = Payload{Kind: p.Kind, Status: cur.Status, Cancellable: cur.Cancellable, Title: cur.Title,
			ParentToolCallID: cur.ParentToolCallID, Tool: cur.Tool}
	}
	if cur.Kind == KindSubagentTask && cur.SubagentTask == nil {
		cur.SubagentTask = &SubagentTask{}
	}
	next := cur
	if merge != nil {
		if m, ok := merge(cur, p); ok {
			next = m
			c.stats.LateMerged++
		}
	}
	if !claims {
		next = keepChild(cur, next)
	}
	if st.native && p.Status != "" && !old.ended() {
		next.Status = p.Status
	}
	st.set(next)
	c.tools.Changed(k)
	next = st.payload // as kept: cut if it grew too large
	typ := EventToolCallUpdate
	switch {
	case !st.surfaced:
		typ = EventToolCall
		st.surfaced = true
	case next.Equal(old):
		return nil
	}
	return c.toolEvent(typ, k, next)
}

// marked applies an update's Mark to its session, then, while the session
// is marked, reads the event the update means in that state.
func (c *Conn) marked(s *session, h *Update, u gjson.Result, out []Event) []Event {
	if h.Mark != nil {
		if m, ok := h.Mark(u); ok {
			s.marked = m
		}
	}
	if !s.marked || h.Marked == nil {
		return out
	}
	ev := h.Marked(u)
	if ev == nil {
		return out
	}
	s.marked = false
	ev.Agent, ev.SessionID = c.Agent(), s.id
	return append(out, *ev)
}
