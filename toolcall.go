package acpdialect

import (
	"encoding/json"
	"strings"
	"unsafe"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/tidwall/gjson"
)

// sessionUpdate handles a session/update notification. Only tool calls need
// work; every other kind returns at once with nothing allocated.
func (c *Conn) sessionUpdate(params gjson.Result) []Event {
	update := params.Get("update")
	kind := update.Get("sessionUpdate")
	if kind.Type != gjson.String || !c.wantsUpdate(kind.Str) {
		return nil
	}
	sid := params.Get("sessionId").Str
	if c.touchSession(sid) == nil {
		c.stats.Malformed++
		return nil
	}
	return c.toolFrame(sid, update, kind.Str == "tool_call")
}

// toolFrame merges one tool_call (first=true) or tool_call_update into the
// tool call's state and reports the change.
func (c *Conn) toolFrame(sid string, u gjson.Result, first bool) []Event {
	id := u.Get("toolCallId")
	if id.Type != gjson.String || id.Str == "" {
		c.stats.Malformed++
		return nil
	}
	k := correlate.Key{Session: sid, ID: id.Str}
	st := c.tools.Get(k)
	if st == nil || first {
		// A tool_call for a known id is a new tool call: vendors reuse ids.
		k = correlate.Key{Session: strings.Clone(sid), ID: strings.Clone(id.Str)}
		c.tools.Delete(k)
		c.tools.Put(k, toolState{payload: Payload{Kind: KindGeneric, Generic: &Generic{}}})
		st = c.tools.Get(k)
	}
	old := st.payload
	next := mergeStandard(old.Clone(), u)
	if c.d != nil && c.d.ToolCall != nil {
		next = c.d.ToolCall(u, next)
	}
	if next.Kind != KindGeneric {
		next.Generic = nil
	}
	next = c.takeLate(k, next)
	st.payload = next

	typ := EventToolCallUpdate
	switch {
	case first || (!st.surfaced && next.Kind != KindGeneric):
		// A tool call first seen through an update surfaces once a
		// dialect recognizes something in it.
		typ = EventToolCall
		st.surfaced = true
	case !st.surfaced || next.Equal(old):
		return nil
	}
	return []Event{c.toolEvent(typ, k, next)}
}

func (c *Conn) toolEvent(typ string, k correlate.Key, p Payload) Event {
	snap := p.Clone()
	return Event{Type: typ, Agent: c.Agent(), SessionID: strings.Clone(k.Session),
		ToolCallID: strings.Clone(k.ID), Payload: &snap}
}

// mergeStandard applies the ACP fields every agent sends: status, title and
// kind. Values of the wrong type or unknown statuses are ignored.
func mergeStandard(p Payload, u gjson.Result) Payload {
	s := u.Get("status").Str
	for _, known := range [...]string{StatusPending, StatusInProgress, StatusCompleted, StatusFailed, StatusCancelled} {
		if s == known {
			p.Status = known // not s: s aliases the caller's frame, which is only borrowed
		}
	}
	if t := Str(u.Get("title")); t != "" {
		p.Title = t
	}
	if p.Generic != nil {
		Fill(&p.Generic.ACPKind, Str(u.Get("kind")))
	}
	return p
}

// takeLate merges a late half waiting for this tool call, if the dialect
// says it applies to the payload as it is now.
func (c *Conn) takeLate(k correlate.Key, p Payload) Payload {
	if c.d == nil || c.d.MergeLate == nil {
		return p
	}
	late := c.pending.Get(k)
	if late == nil {
		return p
	}
	merged, ok := c.d.MergeLate(p, *late)
	if !ok {
		return p
	}
	c.pending.Take(k)
	c.stats.LateMerged++
	return merged
}

// vendor handles a method that is neither session/update nor a standard
// client method: the dialect's allowlist decides.
func (c *Conn) vendor(v frameView, method string) Result {
	if v.hasID && !json.Valid(unsafe.Slice(unsafe.StringData(v.id.Raw), len(v.id.Raw))) {
		// gjson reads a broken token (tru, 1e, an unterminated string) as
		// an id; echoing it would send the agent a line that is not JSON.
		c.stats.Malformed++
		return Result{}
	}
	m := c.d.method(method, v.hasID)
	if m == nil {
		if !v.hasID {
			c.stats.IgnoredNotifications++
			return Result{}
		}
		c.stats.Declined++
		return c.reply(v, method, nil, &ErrMethodNotFound)
	}
	var act Action
	if m.Handle != nil {
		act = m.Handle(gjson.Get(v.s, "params"))
	}
	var events []Event
	if act.Late != nil {
		events = c.late(*act.Late)
	}
	if !v.hasID {
		return Result{Events: events}
	}
	r := c.reply(v, method, act.Result, act.Error)
	r.Events = append(events, r.Events...)
	return r
}

// reply builds the response frame and its reply event.
func (c *Conn) reply(v frameView, method string, result []byte, e *RPCError) Result {
	c.stats.Replies++
	ev := Event{Type: EventReply, Agent: c.Agent(), Method: strings.Clone(method), ID: []byte(v.id.Raw)}
	var frame []byte
	if e != nil {
		err := *e
		ev.Error = &err
		frame = errorFrame(v.id.Raw, err)
	} else {
		if result == nil {
			result = emptyObject
		}
		ev.Result = append([]byte(nil), result...)
		frame = replyFrame(v.id.Raw, result)
	}
	return Result{Reply: frame, Events: []Event{ev}}
}

// late correlates a vendor's metadata half with its tool call, whichever
// came first. Vendor params carry no session id: the half belongs to the
// session that has a tool call with that id, else to the session with the
// latest turn in flight.
func (c *Conn) late(l Late) []Event {
	if l.ToolCallID == "" || c.d.MergeLate == nil {
		c.stats.LateDropped++
		return nil
	}
	sid := c.sessionFor(l)
	if sid == "" {
		c.stats.LateDropped++
		return nil
	}
	k := correlate.Key{Session: sid, ID: strings.Clone(l.ToolCallID)}
	if st := c.tools.Get(k); st != nil {
		if merged, ok := c.d.MergeLate(st.payload.Clone(), l.Payload); ok {
			c.stats.LateMerged++
			old := st.payload
			st.payload = merged
			if !st.surfaced || merged.Equal(old) {
				return nil
			}
			return []Event{c.toolEvent(EventToolCallUpdate, k, merged)}
		}
	}
	if prev := c.pending.Get(k); prev != nil {
		if merged, ok := c.d.MergeLate(*prev, l.Payload); ok {
			*prev = merged
			return nil
		}
	}
	c.pending.Put(k, l.Payload)
	return nil
}

// sessionFor attributes a late half to a session: one that has a tool call
// with its id, preferring a tool call the half applies to, then a turn in
// flight, then the newest; else the session whose turn started last and is
// still in flight; else "".
func (c *Conn) sessionFor(l Late) string {
	var best, busiest string
	var bestScore, busyTurn uint64
	for sid, s := range c.sessions {
		inFlight := s.turns > 0
		if inFlight && s.lastTurn > busyTurn {
			busiest, busyTurn = sid, s.lastTurn
		}
		st := c.tools.Get(correlate.Key{Session: sid, ID: l.ToolCallID})
		if st == nil {
			continue
		}
		score := s.created
		if inFlight {
			score = 1<<61 + s.lastTurn
		}
		if _, ok := c.d.MergeLate(st.payload.Clone(), l.Payload); ok {
			score += 1 << 62
		}
		if best == "" || score > bestScore {
			best, bestScore = sid, score
		}
	}
	if best != "" {
		return best
	}
	return busiest
}
