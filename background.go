package acpdialect

import (
	"cmp"
	"slices"
	"strings"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/frame"
)

// Background work: a card whose work goes on after its tool call completes
// (a monitor, a background task) goes by another name too, its alias, which
// later updates use instead of the tool call id. The Conn keeps the aliases
// per session (bounded like the cards) and asks the dialect to end those
// cards when the session's turn ends or the session is loaded again, and
// those of the subagents' sessions under it, whose turns are its own.

// toolKind reports whether an update kind is a tool call's.
func toolKind(kind string) bool {
	return kind == "tool_call" || kind == "tool_call_update"
}

// alias returns the alias a payload gives its card: a monitor's task id.
func (p Payload) alias() string {
	if p.Monitor != nil {
		return p.Monitor.TaskID
	}
	return ""
}

// ended reports whether the background work a payload describes has
// ended: a monitor ends once (Dialect.EndBackground).
func (p Payload) ended() bool {
	return p.Monitor != nil && p.Monitor.Ended
}

// noteAlias records that alias names the card k in k's session.
func (c *Conn) noteAlias(k correlate.Key, alias string) {
	if alias == "" {
		return
	}
	ak := correlate.Key{Session: k.Session, ID: alias}
	if id := c.aliases.Get(ak); id != nil && *id == k.ID {
		return
	}
	ak.ID = strings.Clone(alias) // a store key: see vendorUpdate
	c.aliases.Put(ak, k.ID)
}

// byAlias returns the tool call id the alias names in session s, or the
// alias itself when it names no card (the card is then keyed by it).
func (c *Conn) byAlias(s *session, alias string) string {
	if id := c.aliases.Get(correlate.Key{Session: s.id, ID: alias}); id != nil {
		return *id
	}
	return alias
}

// foldEarly merges into card p (of session) the card its alias made before
// the alias named p's card: a monitor's events that came before its
// registration are then counted on the monitor's card. That early card
// stays as it was, and ends with the other (endBackground).
func (c *Conn) foldEarly(session, alias string, p Payload) Payload {
	if c.d == nil || c.d.MergeLate == nil {
		return p
	}
	early := c.tools.Get(correlate.Key{Session: session, ID: alias})
	if early == nil {
		return p
	}
	if m, ok := c.d.MergeLate(p, early.payload); ok {
		return m
	}
	return p
}

// handOver reports whether half l hands a card over: it names a tool
// call and an alias that still names a card of its own, which an earlier
// half with the alias alone made (an AIR async task spawned before its
// tool call id was known). It returns that card's key and payload: the
// tool call's card takes what it said (foldTask) and it ends (retire),
// so that the task goes on in one card, not in two.
func (c *Conn) handOver(sid string, l Late) (correlate.Key, Payload, bool) {
	if l.ToolCallID == "" || l.Alias == "" || l.Alias == l.ToolCallID {
		return correlate.Key{}, Payload{}, false
	}
	ek := correlate.Key{Session: sid, ID: l.Alias}
	if id := c.aliases.Get(ek); id != nil && *id != l.Alias {
		return correlate.Key{}, Payload{}, false // it names a tool call's card already
	}
	e := c.tools.Get(ek)
	if e == nil || !e.native {
		return correlate.Key{}, Payload{}, false // none, or a tool call's own
	}
	ek.ID = e.id
	return ek, e.payload, true
}

// foldTask returns half p with what the card early said before it, as
// if early's half had been merged first: early's kind and objects, unless
// early is generic (a half that names no kind keeps the card's) or p names
// another kind; p's values win, its status too when it has one. Kind
// objects are never changed: merge makes new ones.
func foldTask(early, p Payload, merge func(cur, late Payload) (Payload, bool)) Payload {
	if early.Kind == KindGeneric || (p.Kind != "" && p.Kind != early.Kind) || merge == nil {
		frame.Fill(&p.Title, early.Title)
		p.Status = cmp.Or(p.Status, early.Status)
		return p
	}
	m := Payload{Kind: early.Kind, Status: early.Status, Title: early.Title, Shell: early.Shell,
		Monitor: early.Monitor, SubagentTask: early.SubagentTask, MCPTool: early.MCPTool, Wakeup: early.Wakeup}
	if next, ok := merge(m, p); ok {
		m = next
	}
	m.Status = cmp.Or(p.Status, early.Status)
	return m
}

// retire ends card ek, which a hand-over gave to a tool call's card: with
// the terminal status of the update that named the tool call, else
// completed unless it had ended. The card stays (a client has shown it)
// but no longer runs: the task's later updates reach the tool call's card
// by the alias.
func (c *Conn) retire(ek correlate.Key, status string) []Event {
	e := c.tools.Get(ek)
	if e == nil {
		return nil // evicted when the tool call's card grew
	}
	if !StatusEnded(status) {
		if StatusEnded(e.payload.Status) {
			return nil
		}
		status = StatusCompleted
	}
	return c.mergeNative(ek, e, Payload{Status: status}, nil, true)
}

// endBackground asks the dialect to end the background cards of session s
// and of the subagents' sessions under it (runsUnder): those take s's
// turns and restarts as their own. It reports the cards that changed, s's
// first, then its subagents' sessions' in the order they were made.
func (c *Conn) endBackground(s *session, reason string) []Event {
	if s == nil || c.d == nil || c.d.EndBackground == nil {
		return nil
	}
	out := c.endCards(s.id, reason)
	for _, cs := range c.subagentsOf(s) {
		out = append(out, c.endCards(cs.id, reason)...)
	}
	return out
}

// subagentsOf returns the sessions with background cards that run under
// s, oldest first. They are found by a walk of the sessions, done only
// when a session other than s has such a card.
func (c *Conn) subagentsOf(s *session) []*session {
	if c.aliases.Len() == c.aliases.SessionLen(s.id) {
		return nil
	}
	var subs []*session
	for _, cs := range c.sessions {
		if cs != s && c.aliases.SessionLen(cs.id) > 0 && c.runsUnder(cs, s) {
			subs = append(subs, cs)
		}
	}
	// The map's order is random: the events' must not be.
	slices.SortFunc(subs, func(a, b *session) int { return cmp.Compare(a.created, b.created) })
	return subs
}

// runsUnder reports whether session cs is a subagent's under s (a child
// of s, or a child of one, at most maxParents levels up) that has no
// turns of its own: the client never prompted it (see turnEpoch).
func (c *Conn) runsUnder(cs, s *session) bool {
	for range maxParents {
		if cs.lastTurn != 0 {
			return false
		}
		p := c.sessions[c.parentOf(cs)]
		if p == nil || p == cs {
			return false
		}
		if p == s {
			return true
		}
		cs = p
	}
	return false
}

// endCards asks the dialect to end the background cards of the session
// with id sid and reports those that changed.
func (c *Conn) endCards(sid, reason string) []Event {
	if c.aliases.SessionLen(sid) == 0 {
		return nil
	}
	// The cards are changed after the walk, which must not change the
	// store: measuring a card again may evict aliases for the budget.
	var ids []string
	c.aliases.Each(sid, func(ak correlate.Key, id *string) bool {
		ids = append(ids, *id)
		if ak.ID != *id {
			ids = append(ids, ak.ID) // a card the alias made early, if any (foldEarly)
		}
		return true
	})
	var out []Event
	for _, id := range ids {
		k := correlate.Key{Session: sid, ID: id}
		st := c.tools.Get(k)
		if st == nil {
			continue
		}
		old := st.payload
		st.set(c.d.EndBackground(old, reason))
		c.tools.Changed(k)
		if next := st.payload; st.surfaced && !next.Equal(old) {
			out = append(out, c.toolEvent(EventToolCallUpdate, k, next)...)
		}
	}
	return out
}

// bound keeps the output texts of p within Options.MaxOutput: past it, the
// tail (from a rune boundary). The kind objects are copied before the cut.
func (c *Conn) bound(p Payload) Payload {
	max := c.opts.MaxOutput
	if sh := p.Shell; sh != nil && len(sh.Output) > max {
		n := *sh
		n.Output, n.OutputTruncated = tail(sh.Output, max), true
		p.Shell = &n
	}
	if m := p.MCPTool; m != nil && len(m.Output) > max {
		n := *m
		n.Output, n.OutputTruncated = tail(m.Output, max), true
		p.MCPTool = &n
	}
	return p
}

// tail returns the last max bytes of s or fewer, starting at a rune, as a
// string of its own (never a view that pins the whole output).
func tail(s string, max int) string { return strings.Clone(frame.TailView(s, max)) }
