package acpdialect

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Run is a subagent run a tool call frame speaks of (Dialect.Runs): the
// run's child (its thread or session id), by which its card is found.
//
// A run the frame describes (Touch false) gets the frame merged into its
// card, as a tool call's frames are: under the frame's tool call id while
// that card is free or already the same child's, else under RunID(tool
// call id, child), so that each child of a tool call id keeps its own
// card. Such a card's status only moves forward (pending, in progress,
// then a final one), and a tool_call for it merges instead of starting a
// new card.
//
// A frame that describes the end of a run (Done: an activity or a report
// that says the child ended) whose child has a card under another tool
// call id, while the frame's own id has no card, reports on the child's
// latest card instead (as below), and makes no card of its own: a run's
// end goes on its card (Codex sends a child's completion as an item of
// its own). A card whose id another tool call has taken since is no
// longer the child's: no frame reports on it.
//
// A run the frame only reports on (Touch true) gets the frame read by
// Dialect.ToolCall into the card of its child, when there is one, and no
// card is made for it; the frame's own card stays as ACP says. When the
// frame's own card is the child's card (Codex reuses a tool call id), the
// frame merges into it as a described run's frame does, a tool_call too.
type Run struct {
	Child string
	// Parent is the thread that started the run (Codex's senderThreadId):
	// the card whose child it is becomes the run card's parent
	// (ParentToolCallID), when exactly one card of the session has that
	// child, that card is still the child's (its id not reused since), and
	// it does not nest under the run card (no parent loop), nor may: its
	// chain of parents must end at a card the Conn holds.
	Parent string
	// Touch says the frame only reports on the run (see above): it is read
	// into the child's card, if there is one, and makes none. False: the
	// frame describes the run.
	Touch bool
	// Done says the frame reports the run's child as ended (a final status
	// of the child's own). A run's links are kept longer while it is not:
	// the oldest link of an ended run is evicted first. The card's ACP
	// status does not say it: Codex completes a spawn's tool call once the
	// child is started. A frame that names the run without Done marks it
	// live again (a resumed child).
	Done bool
}

// MaxRunsPerFrame bounds the runs one frame may name; more are ignored.
const MaxRunsPerFrame = 16

// runSep joins a tool call id and a child in a derived card id. Base64url
// has no '~', so the last separator splits them.
const runSep = "~run~"

// RunID returns the id of the card of the run child under the tool call
// id wire when that id already holds another child's run:
// wire + "~run~" + the child in unpadded base64url. SplitRunID reverses it.
func RunID(wire, child string) string {
	return wire + runSep + base64.RawURLEncoding.EncodeToString([]byte(child))
}

// SplitRunID returns the tool call id and child a RunID was made of; ok is
// false for any other id.
func SplitRunID(id string) (wire, child string, ok bool) {
	i := strings.LastIndex(id, runSep)
	if i < 0 {
		return "", "", false
	}
	b, err := base64.RawURLEncoding.DecodeString(id[i+len(runSep):])
	if err != nil || RunID(id[:i], string(b)) != id {
		return "", "", false
	}
	return id[:i], string(b), true
}

// runFrame handles a tool call frame of a dialect that reports runs or
// reads events from tool calls: the runs' cards, the frame's own card
// unless a run took it, then the frame's event.
func (c *Conn) runFrame(s *session, u *frame.ToolUpdate) []Event {
	var runs []Run
	if c.d.Runs != nil {
		runs = c.d.Runs(*u)
	}
	if len(runs) > MaxRunsPerFrame {
		runs = runs[:MaxRunsPerFrame]
	}
	var out []Event
	own := true
	for _, r := range runs {
		if r.Child == "" {
			continue
		}
		if r.Touch && !c.ownRun(s, u.ID.Str, r.Child) {
			out = appendEvents(out, c.touchRun(s, u, r))
			continue
		}
		if r.Done && c.runElsewhere(s, u.ID.Str, r.Child) {
			// A new item that ends a run that has its card (Codex's
			// completion activity, "subagent-completed-<id>"): it reports
			// on that card, and makes none of its own.
			own = false
			out = appendEvents(out, c.touchRun(s, u, r))
			continue
		}
		// A frame reporting on the run whose card is its own tool call's
		// merges into that card: read as a new tool call, a tool_call
		// would replace the run's card with a generic one.
		own = false
		out = appendEvents(out, c.runCard(s, u, r))
	}
	if own {
		out = appendEvents(out, c.cardFrame(s, u, u.ID.Str, cardOpts{}))
	}
	if c.d.ToolEvent != nil {
		if ev := c.d.ToolEvent(*u); ev != nil {
			ev.SessionID, ev.ToolCallID = s.id, strings.Clone(u.ID.Str)
			c.finishEvent(ev, Action{}) // a todos list becomes the session's
			out = append(out, *ev)
		}
	}
	return out
}

// appendEvents is append(out, evs...) that returns evs itself when out is
// empty: a plain tool call's one event is not copied into a new slice.
func appendEvents(out, evs []Event) []Event {
	if len(out) == 0 {
		return evs
	}
	return append(out, evs...)
}

// runCard merges a frame into the card of the run it describes.
func (c *Conn) runCard(s *session, u *frame.ToolUpdate, r Run) []Event {
	id := u.ID.Str
	if st := c.tools.Get(correlate.Key{Session: s.id, ID: id}); st != nil && st.child != "" && st.child != r.Child {
		id = RunID(id, r.Child)
	}
	o := cardOpts{run: true, child: r.Child}
	if r.Parent != "" && r.Parent != r.Child {
		o.parent = c.runParent(s.id, r.Parent, id)
	}
	out := c.cardFrame(s, u, id, o)
	if st := c.tools.Get(correlate.Key{Session: s.id, ID: id}); st != nil {
		c.runs.put(s.id, st.child, st.id, r.Done, c.opts.MaxRunLinks)
	}
	return out
}

// runParent returns the card of thread's run, to be the parent of card
// id: "" unless exactly one card had that child and still has it (a link
// outlives its card: the id may since be another child's run, or a plain
// tool call that reused it) and it may not nest under id.
func (c *Conn) runParent(sid, thread, id string) string {
	l := c.runs.get(sid, thread)
	if l == nil || l.cards != 1 {
		return ""
	}
	if st := c.tools.Get(correlate.Key{Session: sid, ID: l.card}); st == nil || st.child != thread || c.mayNestUnder(sid, l.card, id) {
		return ""
	}
	return l.card
}

// mayNestUnder reports whether card, of session sid, is id or may nest
// under it, through ParentToolCallID in the session. Two threads that each
// claim to have started the other (A spawns B, B spawns A) must not make
// their run cards each other's parent: a client walking up the cards would
// never stop.
//
// The chain must end, within maxRunDepth levels (a deeper one is taken as
// a loop), at a card the Conn holds with no parent. A card the Conn
// evicted is still on the client's screen with the parent it had, perhaps
// id itself (a wire id that came back after eviction is a new card to the
// Conn, the same one to the client): past it the chain is unknown, so it
// may loop.
func (c *Conn) mayNestUnder(sid, card, id string) bool {
	const maxRunDepth = 64
	for range maxRunDepth {
		if card == id {
			return true
		}
		st := c.tools.Get(correlate.Key{Session: sid, ID: card})
		switch {
		case st == nil:
			return true // not held (evicted): its parent on the client's screen is unknown
		case st.payload.ParentToolCallID == "":
			return false
		}
		card = st.payload.ParentToolCallID
	}
	return true
}

// ownRun reports whether the card of the tool call id is child's run card.
func (c *Conn) ownRun(s *session, id, child string) bool {
	st := c.tools.Get(correlate.Key{Session: s.id, ID: id})
	return st != nil && st.child == child
}

// runElsewhere reports whether a frame of tool call id that describes the
// end of the run of child (Run.Done) should report on the card the child
// already has under another id (its latest, still the child's) instead of
// making one: the frame's own id has no card yet. A frame whose id has a
// card (another child's run, an id reused across runs; or one the client
// was shown before) describes its child there, as before; a frame that
// starts a child again under a new id is a new run, with a card of its
// own.
func (c *Conn) runElsewhere(s *session, id, child string) bool {
	if c.tools.Get(correlate.Key{Session: s.id, ID: id}) != nil {
		return false
	}
	return c.runCardOf(s, child) != ""
}

// runCardOf returns the id of child's latest card when it is still the
// child's (its id not reused since by another tool call), else "".
func (c *Conn) runCardOf(s *session, child string) string {
	l := c.runs.get(s.id, child)
	if l == nil {
		return ""
	}
	if st := c.tools.Get(correlate.Key{Session: s.id, ID: l.card}); st == nil || st.child != child {
		return ""
	}
	return l.card
}

// touchRun reads a frame that reports on a run into the run's card, if
// there is one (the latest, when a child has several).
func (c *Conn) touchRun(s *session, u *frame.ToolUpdate, r Run) []Event {
	l := c.runs.get(s.id, r.Child)
	if l == nil || l.card == u.ID.Str || c.d.ToolCall == nil {
		return nil // no card, or the frame's own card: read as its frame
	}
	l.done = r.Done
	k := correlate.Key{Session: s.id, ID: l.card}
	st := c.tools.Get(k)
	if st == nil || st.child != r.Child {
		return nil // the card's id was reused by another tool call since
	}
	old := st.payload
	// The frame is another tool call's: its standard name is not the
	// run's, but the run's own is kept.
	next := c.acyclicParent(k, old, st.withName(old, c.bound(c.d.ToolCall(*u, old)), gjson.Result{}))
	next.Status = forwardStatus(old.Status, next.Status)
	st.set(next)
	c.tools.Changed(k)
	next = st.payload // as kept: cut if it grew too large
	if !st.surfaced || next.Equal(old) {
		return nil
	}
	return c.toolEvent(EventToolCallUpdate, k, next)
}

// statusRank orders tool call statuses: a run's card never goes back.
// Paused ranks after in_progress (a paused call has started: where these
// merges apply, an update that came before its tool_call, in_progress
// after paused is the older news) and before the ends, which it never
// follows. No agent that has runs (Codex) pauses a tool call; a run's
// card that resumed would need a rule of its own.
func statusRank(s string) int {
	switch s {
	case "":
		return 0
	case StatusPending:
		return 1
	case StatusInProgress:
		return 2
	case StatusPaused:
		return 3
	}
	return 4
}

// forwardStatus is next, unless it would move the status backwards.
func forwardStatus(old, next string) string {
	if statusRank(next) < statusRank(old) {
		return old
	}
	return next
}

// runLink is the card of a run's child. cards counts the distinct cards
// the child had (up to 2: a parent link needs exactly one). It is charged
// to the Conn's budget (its Holder): the budget may evict it, oldest
// first, like a card.
type runLink struct {
	key    correlate.Key
	card   string
	cards  uint8
	done   bool // the run ended (Run.Done): evicted first
	charge correlate.Charge
	r      *runLinks
}

// runLinkOverhead is what a link costs beyond its child's and card's ids:
// the struct with its charge, its map slot and its place in the order
// (64-bit). The session's id is the session's own and counted there.
const runLinkOverhead = 176

// size is what the link costs in the budget: its child and card ids are
// the card's strings, but they are kept alive by the link after the card
// is evicted, so they are counted here too.
func (l *runLink) size() int64 {
	return runLinkOverhead + int64(len(l.key.ID)+len(l.card))
}

// Evict drops the link to make room in the budget.
func (l *runLink) Evict() {
	l.r.remove(l)
	l.r.st.Evicted++
	l.r.st.OverBudget++
}

// runLinks maps (session, child) to the child's card, bounded in entries
// (Options.MaxRunLinks) and in bytes by the Conn's budget; the few links
// a connection holds are scanned in order to evict, oldest finished run
// first.
type runLinks struct {
	m      map[correlate.Key]*runLink
	order  []*runLink
	st     correlate.Stats
	budget *correlate.Budget
}

func (r *runLinks) get(session, child string) *runLink {
	return r.m[correlate.Key{Session: session, ID: child}]
}

// put links child to card. A link to another card counts the child's
// second card and moves to the latest. A link larger than the budget's
// MaxValue (a child or card id that large) is not kept.
func (r *runLinks) put(session, child, card string, done bool, max int) {
	if child == "" {
		return
	}
	if l := r.get(session, child); l != nil {
		if l.card != card {
			l.card, l.cards = card, 2
			r.charge(l)
		}
		l.done = done
		return
	}
	k := correlate.Key{Session: session, ID: child} // both owned by the session and the card
	l := &runLink{key: k, card: card, cards: 1, done: done, r: r}
	if l.size() > r.budget.MaxValue() {
		r.st.Refused++
		r.budget.CountRefused()
		return
	}
	if r.m == nil {
		r.m = map[correlate.Key]*runLink{}
	}
	for len(r.order) >= max && len(r.order) > 0 {
		r.evict()
	}
	r.m[k] = l
	r.order = append(r.order, l)
	r.st.Stored++
	r.charge(l)
}

// charge charges a link at its size, as the budget's newest value; the
// budget may evict the oldest values of every store, other links too. A
// link that grew past MaxValue is dropped.
func (r *runLinks) charge(l *runLink) {
	size := l.size()
	if size > r.budget.MaxValue() {
		r.st.Refused++
		r.budget.CountRefused()
		r.remove(l)
		return
	}
	r.st.Bytes += size - l.charge.Size()
	r.budget.Add(&l.charge, size, l)
}

// evict drops the oldest link of a finished run, else the oldest.
func (r *runLinks) evict() {
	i := 0
	for j, l := range r.order {
		if l.done {
			i = j
			break
		}
	}
	r.remove(r.order[i])
	r.st.Evicted++
}

// remove drops a link from the map, the order and the budget.
func (r *runLinks) remove(l *runLink) {
	if r.m[l.key] != l {
		return
	}
	delete(r.m, l.key)
	if i := slices.Index(r.order, l); i >= 0 {
		r.order = slices.Delete(r.order, i, i+1)
	}
	r.st.Bytes -= l.charge.Size()
	r.budget.Release(&l.charge)
}

// sweep drops a session's links.
func (r *runLinks) sweep(session string) {
	kept := r.order[:0]
	for _, l := range r.order {
		if l.key.Session == session {
			delete(r.m, l.key)
			r.st.Bytes -= l.charge.Size()
			r.budget.Release(&l.charge)
			r.st.Swept++
			continue
		}
		kept = append(kept, l)
	}
	clear(r.order[len(kept):])
	r.order = kept
}

func (r *runLinks) stats() correlate.Stats {
	st := r.st
	st.Live = len(r.m)
	return st
}
