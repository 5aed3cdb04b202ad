package acpdialect

import (
	"strings"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// sessionUpdate handles a session/update notification in any layout (the
// SDK layout takes the fast path). The update is read from its start in
// params without first skipping over it, so that a frame whose session id
// comes first (sorted keys) is walked once.
func (c *Conn) sessionUpdate(f string) (Result, error) {
	params := scan.MemberTail(f, "params")
	return c.updateAt(f, params, scan.MemberTail(params, "update"), nil)
}

// updateAt handles the session/update frame f, given its params and the
// frame from its update's value on (raw), and its session id when
// sortedUpdate read it (then f starts with the fixed prefix).
func (c *Conn) updateAt(f, params, raw string, sid *string) (Result, error) {
	var u frame.ToolUpdate
	checked := c.readUpdate(&u, raw)
	stateful := c.hooks() != nil
	h := c.d.update(u.Kind) // looked up once for the frame
	want := wants(u.Kind, h)
	if !want && !stateful {
		return Result{}, nil
	}
	if checked {
		// The update was checked in its walk: only the rest of the frame
		// is left to check.
		start := len(f) - len(raw)
		end := start + len(u.Raw.Raw)
		if (sid == nil || !closesUpdate(f, *sid, end)) && c.invalidAround(f, start, end) {
			return Result{}, ErrInvalidJSON
		}
	} else if c.invalid(f) {
		return Result{}, ErrInvalidJSON
	}
	if sid == nil {
		r := scan.Result(scan.Member(params, "sessionId"))
		if r.Type != gjson.String {
			r.Str = ""
		}
		sid = &r.Str
	}
	var res Result
	if want {
		res = Result{Events: c.handle(*sid, &u, h), Quarantine: quarantines(u.Kind, h)}
	}
	if stateful {
		c.updateExtras(&res, *sid, u.Kind, params)
	}
	return res, nil
}

// readUpdate reads a session/update's update object. On a connection
// whose dialect reads message chunks (or every update: SessionHooks), and
// so checks nearly every update, the walk that reads it checks it too
// (checked). Elsewhere most updates are chunks that need nothing: they
// are only read.
func (c *Conn) readUpdate(u *frame.ToolUpdate, raw string) (checked bool) {
	if !c.opts.Checked && (c.hooks() != nil || c.d.update("agent_message_chunk") != nil) {
		if frame.ReadToolUpdateChecked(u, scan.Result(raw)) {
			return true
		}
	}
	*u = frame.ReadToolUpdate(scan.Result(raw))
	return false
}

// update dispatches a session/update of a kind wantsUpdate accepted.
func (c *Conn) update(sid string, u *frame.ToolUpdate) []Event {
	return c.handle(sid, u, c.d.update(u.Kind))
}

// handle is update for a kind whose handler h (or nil) was looked up.
func (c *Conn) handle(sid string, u *frame.ToolUpdate, h *Update) []Event {
	if u.Kind == "available_commands_update" {
		return c.commands(sid, u.Raw)
	}
	if u.Kind == UpdateState {
		return c.stateUpdate(sid, h, u.Raw)
	}
	if terminalKind(u.Kind) {
		return c.terminalUpdate(sid, h, u.Raw, u.Kind)
	}
	if h != nil && !toolKind(u.Kind) {
		return c.vendorUpdate(sid, h, u.Raw)
	}
	if h == nil && draftKind(u.Kind) {
		return c.draftUpdate(sid, u.Raw, u.Kind)
	}
	out := c.toolFrame(sid, u)
	if h != nil && h.Event != nil {
		out = c.toolKindEvent(sid, h, u, out)
	}
	return out
}

// toolKindEvent adds the session-level event a dialect reads from a tool
// call update (a compaction tool call's), after the card's event.
func (c *Conn) toolKindEvent(sid string, h *Update, u *frame.ToolUpdate, out []Event) []Event {
	s := c.sessions[sid]
	if s == nil {
		return out
	}
	ev := h.Event(u.Raw)
	if ev == nil {
		return out
	}
	ev.Agent, ev.SessionID = c.Agent(), s.id
	return append(out[:len(out):len(out)], *ev)
}

// toolFrame merges one tool_call or tool_call_update into the tool call's
// state and reports the change.
func (c *Conn) toolFrame(sid string, u *frame.ToolUpdate) []Event {
	s := c.updateSession(sid)
	if s == nil || u.ID.Type != gjson.String || u.ID.Str == "" {
		c.stats.Malformed++
		return nil
	}
	var out []Event
	if c.d != nil && (c.d.Runs != nil || c.d.ToolEvent != nil) {
		out = c.runFrame(s, u)
	} else {
		out = c.cardFrame(s, u, u.ID.Str, cardOpts{})
	}
	if c.d != nil && c.d.EndNested != nil {
		out = c.endNested(s, u, out)
	}
	return out
}

// endNested ends the cards nested under the card a frame ends
// (Dialect.EndNested) and appends their updates to out.
func (c *Conn) endNested(s *session, u *frame.ToolUpdate, out []Event) []Event {
	parent, status, ok := c.d.EndNested(*u)
	if !ok || parent == "" || !StatusEnded(status) {
		return out
	}
	// The cards change after the walk, which must not change the store.
	var ids []string
	c.tools.Each(s.id, func(k correlate.Key, st *toolState) bool {
		if k.ID != parent && st.payload.ParentToolCallID == parent && !StatusEnded(st.payload.Status) {
			ids = append(ids, k.ID)
		}
		return true
	})
	for _, id := range ids {
		k := correlate.Key{Session: s.id, ID: id}
		st := c.tools.Get(k)
		if st == nil {
			continue
		}
		next := st.payload
		next.Status = strings.Clone(status)
		st.set(next)
		c.tools.Changed(k)
		if st.surfaced {
			out = append(out, c.toolEvent(EventToolCallUpdate, k, st.payload)...)
		}
	}
	return out
}

// cardOpts says how a frame applies to a card other than as ACP says.
type cardOpts struct {
	run    bool   // the card is a subagent run's (Dialect.Runs)
	child  string // the run's child
	parent string // the card the run's parent thread is the child of
}

// cardFrame merges a tool call frame into the card id (the frame's own
// tool call id, or a run's derived one) and reports the change.
func (c *Conn) cardFrame(s *session, u *frame.ToolUpdate, id string, o cardOpts) []Event {
	first := u.Kind == "tool_call"
	k := correlate.Key{Session: s.id, ID: id}
	st := c.tools.Get(k)
	existed, early := st != nil, false
	epoch := c.turnEpoch(s)
	switch {
	case st == nil:
		// A new card; its title is the merge's below. Its id is its own
		// copy, as every kept string is: a string sharing an allocation
		// with another would pin it after that one is replaced.
		k.ID = strings.Clone(k.ID)
		st = c.tools.Put(k, toolState{id: k.ID, epoch: epoch, payload: Payload{Kind: KindGeneric,
			ParentToolCallID: s.parent.ID}})
		if id != u.ID.Str {
			st.payload.WireToolCallID = strings.Clone(u.ID.Str)
		}
	case first && st.native:
		// The tool call a native subagent update named arrives after it:
		// the card becomes the tool call's, keeping what the update said,
		// its status too (a child already done stays done).
		st.native, early = false, true
	case first && o.run:
		// A run's frames all describe the same run: a tool_call for its
		// card merges.
	case first && !st.announced && st.epoch == epoch:
		// Updates came before their tool_call, out of ACP's order, in
		// the same turn: the tool_call merges into what they said, its
		// status never moving back, so that none of it is lost.
		early = true
	case first:
		// A tool_call for a known id is a new tool call (vendors reuse ids
		// across turns): a fresh card in the old one's place.
		*st = toolState{id: st.id, epoch: epoch, payload: Payload{Kind: KindGeneric, ParentToolCallID: s.parent.ID}}
	}
	k.ID = st.id
	st.announced = st.announced || first
	if o.run && st.child == "" {
		st.child = strings.Clone(o.child)
	}
	old := st.payload
	next := mergeStandard(old, u)
	if c.d != nil && c.d.ToolCall != nil {
		next = c.bound(c.d.ToolCall(*u, next))
	}
	next = c.takeLate(k, next)
	next = st.withName(old, next, u.Name)
	next = st.withGeneric(next, u)
	if early || o.run {
		next.Status = forwardStatus(old.Status, next.Status)
	}
	if o.run && next.ParentToolCallID == "" {
		// Never the card itself: runParent refuses a card that is id or
		// nests under it.
		next.ParentToolCallID = o.parent
	}
	next = c.acyclicParent(k, old, next)
	var nested []Event
	if c.childSessions() {
		next = c.linkCard(k, old, next)
	}
	if a := next.alias(); a != "" && a != old.alias() && a != k.ID {
		next = c.foldEarly(k.Session, a, next)
	}
	st.set(next)
	c.tools.Changed(k)
	next = st.payload // as kept: cut if it grew too large
	if a := next.alias(); a != old.alias() {
		c.noteAlias(k, a)
	}
	if child := childOfPayload(next); child != childOfPayload(old) && c.childSessions() {
		nested = c.nestEarly(k, child) // after the card's own event
	}

	typ := EventToolCallUpdate
	switch {
	case (first && !(o.run && existed)) || (!st.surfaced && (next.Kind != KindGeneric || c.v2 || c.d != nil && c.d.SurfaceUpdates)):
		// A tool call first seen through an update surfaces once a
		// dialect recognizes something in it. ACP v2 has no tool_call:
		// there the first tool_call_update creates the tool call, as it
		// does for an agent that announces some calls so (SurfaceUpdates).
		typ = EventToolCall
		st.surfaced = true
	case !st.surfaced || next.Equal(old):
		return nested
	}
	if len(nested) > 0 {
		return append(c.toolEvent(typ, k, next), nested...)
	}
	return c.toolEvent(typ, k, next)
}

// nestsUnder reports whether card, of session sid, is id or nests under
// it, through ParentToolCallID in the session (at most maxNestDepth
// levels: a deeper chain is taken as a loop). Two tool calls that each
// name the other as their parent must not both take it: a client walking
// up the cards would never stop. The chain ends at the id of a card the
// session itself nests under (sessionParents): that card is in another
// session, and a chain that leaves the session never comes back to it, as
// child sessions are linked without cycles (link). It ends too at a card
// the Conn does not hold: unlike a run's parent (mayNestUnder), the one an
// agent names is taken before its card is seen (a subagent's tool call
// may come before the Task's own), so a cycle through a card the Conn
// evicted, still on the client's screen with its parent, is not seen.
func (c *Conn) nestsUnder(sid, card, id string) bool {
	const maxNestDepth = 64
	up, latest := c.sessionParents(sid)
	for range maxNestDepth {
		if card != "" && (card == up || card == latest) {
			return false
		}
		if card == id {
			return true
		}
		st := c.tools.Get(correlate.Key{Session: sid, ID: card})
		if st == nil || st.payload.ParentToolCallID == "" {
			return false
		}
		card = st.payload.ParentToolCallID
	}
	return true
}

// sessionParents returns the ids of the cards session sid nests under, in
// other sessions: the one it took first and the one it was linked to
// last ("" for none).
func (c *Conn) sessionParents(sid string) (first, latest string) {
	if s := c.sessions[sid]; s != nil && s.parent.Session != sid {
		first = s.parent.ID
	}
	if k := c.childOf.Get(correlate.Key{ID: sid}); k != nil && k.Session != sid {
		latest = k.ID
	}
	return first, latest
}

// acyclicParent returns next, the payload card k takes, with its old
// parent back when the parent next names is k or nests under it
// (nestsUnder): whatever the dialect read it from (Claude's
// parentToolUseId, Devin's parentAgentId), a card never takes a parent
// that makes a cycle through the cards the Conn holds.
func (c *Conn) acyclicParent(k correlate.Key, old, next Payload) Payload {
	p := next.ParentToolCallID
	if p != "" && p != old.ParentToolCallID && c.nestsUnder(k.Session, p, k.ID) {
		next.ParentToolCallID = old.ParentToolCallID
	}
	return next
}

// toolEvent reports a payload. The event shares the payload's kind objects
// with the state: they are never modified once made (copy-on-write). One
// allocation holds the event slice and its payload.
func (c *Conn) toolEvent(typ string, k correlate.Key, p Payload) []Event {
	o := &struct {
		ev [1]Event
		p  Payload
	}{p: p}
	o.ev[0] = Event{Type: typ, Agent: c.Agent(), SessionID: k.Session, ToolCallID: k.ID, Payload: &o.p}
	return o.ev[:]
}

// mergeStandard applies what every agent's tool call says: status, title
// and ACP v2's cancel grant. Wrong types and unknown statuses are
// ignored; capabilities that grant nothing (null, no cancel, a malformed
// value) withdraw the grant, as the draft reads them.
func mergeStandard(p Payload, u *frame.ToolUpdate) Payload {
	if u.Capabilities.Exists() {
		p.Cancellable = readGrant(frame.NewReader(u.Capabilities)) > 0
	}
	s := u.Status.Str
	for _, known := range [...]string{StatusPending, StatusInProgress, StatusCompleted, StatusFailed, StatusCancelled, StatusPaused} {
		if s == known && u.Status.Type == gjson.String {
			p.Status = known // not s: s views the caller's frame, which is only borrowed
		}
	}
	frame.Set(&p.Title, u.Title)
	return p
}

// set keeps p as the card's payload. An ended card is never cancellable:
// whatever ends it (a frame, a vendor's late half, a turn's end), the
// agent's grant to cancel the tool call ends with it, as ACP v2 has the
// agent withdraw it at a final status.
func (st *toolState) set(p Payload) {
	if StatusEnded(p.Status) {
		p.Cancellable = false
	}
	st.payload = p
}

// toolStateExtra is what a toolState is beyond its payload (64-bit).
const toolStateExtra = 48

// Size is what a card keeps beyond its id (the store counts its key): its
// payload, its ACP kind and its run's child. The child is an id the card
// is found by: never cut, so a card whose child alone is over MaxValue is
// not kept.
func (st *toolState) Size() int {
	return toolStateExtra + len(st.acpKind) + len(st.child) + st.payload.Size()
}

// Cut shortens the card's longest strings so that Size is at most max
// (Payload.Cut), its ACP kind with them; the generic object keeps showing
// the card's kind.
func (st *toolState) Cut(max int) bool {
	size := st.Size()
	if size <= max {
		return false
	}
	fields := append(st.payload.cutFields(make([]*string, 0, 24)), &st.acpKind)
	// Arguments too large for the card are left out, as Payload.Cut does:
	// a card refused for them would lose its call's later updates.
	dropped := st.payload.dropArguments(size-strLen(fields) > max)
	if dropped {
		size = st.Size()
	}
	cut := correlate.CutStrings(max-(size-strLen(fields)), fields...) || dropped
	if g := st.payload.Generic; g != nil && g.ACPKind != "" {
		g.ACPKind = st.acpKind // a copy already (cutFields)
	}
	return cut
}

// withName gives the card ACP's standard tool name (the update's string
// name, the tool-call-name RFD), over any name the dialect read from the
// vendor's keys: the frame's, else the one an earlier frame gave, which a
// later frame without one keeps. It is applied after the dialect's
// ToolCall, which sees the vendor's view (and whose own name the standard
// one then replaces). The name is copied: the card outlives the frame.
func (st *toolState) withName(old, p Payload, name gjson.Result) Payload {
	switch {
	case name.Type == gjson.String && name.Str != "":
		st.stdName = true
	case !st.stdName || old.Tool == nil:
		return p
	default:
		name.Str = old.Tool.Name
	}
	if p.Tool != nil && p.Tool.Name == name.Str {
		return p
	}
	var t Tool
	if p.Tool != nil {
		t = *p.Tool
	}
	if old.Tool != nil && old.Tool.Name == name.Str {
		t.Name = old.Tool.Name // the card's own copy
	} else {
		t.Name = strings.Clone(name.Str)
	}
	p.Tool = &t
	return p
}

// withGeneric gives an unclaimed payload its generic object with the ACP
// kind seen so far, and drops it from a claimed one.
func (st *toolState) withGeneric(p Payload, u *frame.ToolUpdate) Payload {
	if p.Kind != KindGeneric {
		p.Generic = nil
		return p
	}
	if k := u.ACPKind; k.Type == gjson.String && k.Str != "" && k.Str != st.acpKind {
		st.acpKind = acpKind(k.Str)
	}
	if p.Generic == nil || p.Generic.ACPKind != st.acpKind {
		p.Generic = generic(st.acpKind)
	}
	return p
}

// generics are the generic objects of the ACP kinds acpKind knows, and of
// none. Payloads share kind objects and never change one in place
// (copy-on-write, Payload.Cut), so a card of a known kind needs no
// allocation of its own for it.
var generics = func() map[string]*Generic {
	m := map[string]*Generic{"": {}}
	for _, k := range acpKinds {
		m[k] = &Generic{ACPKind: k}
	}
	return m
}()

func generic(kind string) *Generic {
	if g := generics[kind]; g != nil {
		return g
	}
	return &Generic{ACPKind: kind}
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
// client method: the dialect's allowlist decides. An allowed notification
// also goes to the dialect's SessionHooks.Notification.
func (c *Conn) vendor(v frameView, method string) Result {
	res := c.vendorFrame(v, method)
	if v.hasID || c.hooks() == nil || c.hooks().Notification == nil {
		return res
	}
	name := method
	if c.d.method(name, false) == nil && len(name) > 1 && name[0] == '_' {
		name = name[1:]
	}
	if c.d.method(name, false) == nil {
		return res
	}
	if evs := c.vendorNotification(name, scan.Result(v.params)); len(evs) > 0 {
		res.Events = append(res.Events[:len(res.Events):len(res.Events)], evs...)
	}
	return res
}

// vendorFrame handles a vendor method as the dialect's Methods say. The
// frame is valid JSON (Inbound checked), so its id is a JSON value that
// the reply may echo.
func (c *Conn) vendorFrame(v frameView, method string) Result {
	m := c.d.method(method, v.hasID)
	if m == nil && len(method) > 1 && method[0] == '_' {
		// The alias a client on the SDK knows the method by, sent as is:
		// answered as the method, as wiretap.HandleExtension answers it.
		m = c.d.method(method[1:], v.hasID)
	}
	if m == nil {
		if !v.hasID {
			c.stats.IgnoredNotifications++
			return Result{}
		}
		c.stats.Declined++
		return c.reply(v, strings.Clone(method), nil, &ErrMethodNotFound, cardChange{})
	}
	var act Action
	if m.Handle != nil {
		act = m.Handle(scan.Result(v.params))
		if v.hasID {
			act = fitReply(act, c.d.ID, m.Name)
		}
	}
	if len(act.Children) == 0 {
		return c.vendorAction(v, m, act)
	}
	// A subagent tree: its cards' events first, then the frame's own.
	kids := c.childHalves(act.Children)
	res := c.vendorAction(v, m, act)
	if len(kids) > 0 {
		res.Events = append(kids[:len(kids):len(kids)], res.Events...)
	}
	return res
}

// vendorAction does what an allowlisted vendor frame's Action says.
func (c *Conn) vendorAction(v frameView, m *Method, act Action) Result {
	var card cardChange
	if act.Late != (Late{}) {
		card = c.late(act.Late)
	}
	if act.Event != nil {
		return c.vendorEvent(v, m.Name, act, card)
	}
	if !v.hasID {
		if card.changed {
			return Result{Events: c.toolEvent(EventToolCallUpdate, card.key, card.payload)}
		}
		return Result{}
	}
	return c.reply(v, m.Name, act.Result, act.Error, card)
}

// cardChange is a card a vendor frame changed: reported before its reply.
type cardChange struct {
	changed bool
	key     correlate.Key
	payload Payload
}

// reply builds the response frame and its reply event, after the event of
// the card the frame changed, if any. One allocation holds the events, the
// card's payload, the error and (for the usual short reply) the frame.
func (c *Conn) reply(v frameView, method string, result []byte, e *RPCError, card cardChange) Result {
	c.stats.Replies++
	if !card.changed {
		o := &struct {
			ev [1]Event
			rb replyBuf
		}{}
		frame := c.fillReply(&o.ev[0], &o.rb, v, method, result, e)
		return Result{Reply: frame, Events: o.ev[:]}
	}
	o := &struct {
		ev [2]Event
		p  Payload
		rb replyBuf
	}{p: card.payload}
	o.ev[0] = Event{Type: EventToolCallUpdate, Agent: c.Agent(), SessionID: card.key.Session,
		ToolCallID: card.key.ID, Payload: &o.p}
	frame := c.fillReply(&o.ev[1], &o.rb, v, method, result, e)
	return Result{Reply: frame, Events: o.ev[:]}
}

// replyBuf is the storage a reply event points into.
type replyBuf struct {
	err RPCError
	buf [96]byte
}

// fillReply writes the reply frame (into rb.buf when it fits) and the
// reply event, whose ID and Result are views of the frame (read-only).
func (c *Conn) fillReply(ev *Event, rb *replyBuf, v frameView, method string, result []byte, e *RPCError) []byte {
	*ev = Event{Type: EventReply, Agent: c.Agent(), Method: method}
	var frame []byte
	if e != nil {
		rb.err = *e
		ev.Error = &rb.err
		frame = appendError(rb.buf[:0], v.id.Raw, rb.err)
	} else {
		if len(result) == 0 {
			result = emptyObject
		}
		frame = appendReply(rb.buf[:0], v.id.Raw, result)
		start := len(frame) - len("}\n") - len(result)
		ev.Result = frame[start : start+len(result) : start+len(result)]
	}
	idStart := len(`{"jsonrpc":"2.0","id":`)
	ev.ID = frame[idStart : idStart+len(v.id.Raw) : idStart+len(v.id.Raw)]
	return frame[:len(frame):len(frame)]
}

// late correlates a vendor's metadata half with its tool call, whichever
// came first. Vendor params carry no session id. The half merges into the
// card it applies to (for a dialect that sweeps at turn end, only a card of
// its session's current epoch: ids are reused across turns and sessions),
// preferring a turn in flight, then the newest session. With no such card
// it waits in the session whose turn started last, else in the newest
// session that has a card with that id; with neither it is dropped.
func (c *Conn) late(l Late) cardChange {
	if l.ToolCallID == "" || c.d.MergeLate == nil {
		c.stats.LateDropped++
		return cardChange{}
	}
	var best, busiest, holder *session
	var card *toolState
	var merged Payload
	var bestScore uint64
	// The merge may take over the half's objects: with several candidate
	// cards each is weighed with its own copy.
	shared := c.lateCandidates(l.ToolCallID) > 1
	for _, s := range c.sessions {
		if s.turns > 0 && (busiest == nil || s.lastTurn > busiest.lastTurn) {
			busiest = s
		}
		st := c.lateCard(s, l.ToolCallID)
		if st == nil {
			continue
		}
		if holder == nil || s.created > holder.created {
			holder = s
		}
		if c.d.SweepAtTurnEnd && st.epoch != c.turnEpoch(s) {
			continue
		}
		half := l.Payload
		if shared {
			half = half.Clone()
		}
		m, ok := c.d.MergeLate(st.payload, half)
		score := s.created
		if s.turns > 0 {
			score = 1<<62 + s.lastTurn
		}
		if ok && (best == nil || score > bestScore) {
			best, card, merged, bestScore = s, st, m, score
		}
	}
	if best != nil {
		c.stats.LateMerged++
		old := card.payload
		card.set(merged)
		key := correlate.Key{Session: best.id, ID: card.id}
		c.tools.Changed(key)
		merged = card.payload // as kept: cut if it grew too large
		return cardChange{
			changed: card.surfaced && !merged.Equal(old),
			key:     key,
			payload: merged,
		}
	}
	if busiest == nil {
		busiest = holder
	}
	if busiest == nil {
		c.stats.LateDropped++
		return cardChange{}
	}
	k := correlate.Key{Session: busiest.id, ID: l.ToolCallID}
	if prev := c.pending.Get(k); prev != nil {
		if m, ok := c.d.MergeLate(*prev, l.Payload); ok {
			*prev = m
			c.pending.Changed(k)
			return cardChange{}
		}
	}
	c.pending.Put(k, l.Payload) // l is owned (see Action): no copy
	return cardChange{}
}

// lateCard returns session s's card for the tool call id, if any.
func (c *Conn) lateCard(s *session, id string) *toolState {
	return c.tools.Get(correlate.Key{Session: s.id, ID: id})
}

// lateCandidates counts the cards a late half for id could merge into.
func (c *Conn) lateCandidates(id string) int {
	if len(c.sessions) < 2 {
		return len(c.sessions) // at most one: no lookup needed
	}
	n := 0
	for _, s := range c.sessions {
		if st := c.lateCard(s, id); st != nil && (!c.d.SweepAtTurnEnd || st.epoch == c.turnEpoch(s)) {
			n++
		}
	}
	return n
}

// acpKind returns ACP's own tool kinds as constants, so that the common
// case keeps no copy of the frame; any other kind is copied.
// acpKinds are ACP's tool kinds.
var acpKinds = [...]string{"read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"}

func acpKind(k string) string {
	for _, known := range acpKinds {
		if k == known {
			return known
		}
	}
	return strings.Clone(k)
}
