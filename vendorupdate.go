package acpdialect

import (
	"strings"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/tidwall/gjson"
)

// vendorUpdate handles a session/update kind of the dialect's own (Cursor's
// native subagents): what it says about a tool call is merged into that
// card, found by the tool call id it names, else by the child session it
// names; with no card it becomes one. Such a card takes its status from the
// updates; a card of a real tool call keeps the tool call's own.
func (c *Conn) vendorUpdate(sid string, h *Update, u gjson.Result) []Event {
	s := c.touchSession(sid)
	if s == nil || h == nil || h.Handle == nil {
		c.stats.Malformed++
		return nil
	}
	l := h.Handle(u)
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
	if id == "" {
		c.stats.LateDropped++
		return nil
	}
	k := correlate.Key{Session: s.id, ID: id}
	st := c.tools.Get(k)
	if st == nil {
		// A store key is copied even though the Late's strings are owned:
		// a key that changed under the map (a dialect that broke the
		// contract) would corrupt the store, and a copy keeps only the id
		// alive, not the whole buffer the handler's strings share.
		k.ID = strings.Clone(id)
		st = c.tools.Put(k, toolState{id: k.ID, epoch: s.epoch, native: true, payload: Payload{Kind: l.Payload.Kind}})
	}
	k.ID = st.id
	if child != "" && child != s.id && (linked == nil || *linked != st.id) {
		c.link(k, child)
	}
	return c.mergeNative(k, st, l.Payload)
}

// link records that child is the session of the native subagent on card
// k: later updates naming only the child find the card, and the child
// session's tool calls nest under it, whenever its first frame comes.
func (c *Conn) link(k correlate.Key, child string) {
	child = strings.Clone(child) // a store key: see vendorUpdate
	c.children.Put(correlate.Key{Session: k.Session, ID: child}, k.ID)
	c.childOf.Put(correlate.Key{ID: child}, k)
	if cs := c.sessions[child]; cs != nil && cs.parent.Session == "" {
		cs.parent = k
	}
}

// mergeNative merges a native update's payload into a card, claiming a
// card no dialect recognized yet for the subagent kind.
func (c *Conn) mergeNative(k correlate.Key, st *toolState, p Payload) []Event {
	old := st.payload
	cur := old
	if p.Kind != "" && cur.Kind != p.Kind {
		cur = Payload{Kind: p.Kind, Status: cur.Status, Title: cur.Title, ParentToolCallID: cur.ParentToolCallID}
	}
	if cur.Kind == KindSubagentTask && cur.SubagentTask == nil {
		cur.SubagentTask = &SubagentTask{}
	}
	next := cur
	if c.d.MergeLate != nil {
		if m, ok := c.d.MergeLate(cur, p); ok {
			next = m
			c.stats.LateMerged++
		}
	}
	if st.native && p.Status != "" {
		next.Status = p.Status
	}
	st.payload = next
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
