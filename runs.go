package acpdialect

import (
	"encoding/base64"
	"strings"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/frame"
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
// A run the frame only reports on (Touch true) gets the frame read by
// Dialect.ToolCall into the card of its child, when there is one, and no
// card is made for it; the frame's own card stays as ACP says.
type Run struct {
	Child string
	// Parent is the thread that started the run (Codex's senderThreadId):
	// the card whose child it is becomes the run card's parent
	// (ParentToolCallID), when exactly one card of the session has that
	// child.
	Parent string
	Touch  bool
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
func (c *Conn) runFrame(s *session, u frame.ToolUpdate) []Event {
	var runs []Run
	if c.d.Runs != nil {
		runs = c.d.Runs(u)
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
		if r.Touch {
			out = append(out, c.touchRun(s, u, r.Child)...)
			continue
		}
		own = false
		out = append(out, c.runCard(s, u, r)...)
	}
	if own {
		out = append(out, c.cardFrame(s, u, u.ID.Str, cardOpts{})...)
	}
	if c.d.ToolEvent != nil {
		if ev := c.d.ToolEvent(u); ev != nil {
			ev.Agent, ev.SessionID, ev.ToolCallID = c.Agent(), s.id, strings.Clone(u.ID.Str)
			out = append(out, *ev)
		}
	}
	return out
}

// runCard merges a frame into the card of the run it describes.
func (c *Conn) runCard(s *session, u frame.ToolUpdate, r Run) []Event {
	id := u.ID.Str
	if st := c.tools.Get(correlate.Key{Session: s.id, ID: id}); st != nil && st.child != "" && st.child != r.Child {
		id = RunID(id, r.Child)
	}
	o := cardOpts{run: true, child: r.Child}
	if r.Parent != "" && r.Parent != r.Child {
		if l := c.runs.get(s.id, r.Parent); l != nil && l.cards == 1 {
			o.parent = l.card
		}
	}
	out := c.cardFrame(s, u, id, o)
	if st := c.tools.Get(correlate.Key{Session: s.id, ID: id}); st != nil {
		c.runs.put(s.id, st.child, st.id, terminal(st.payload.Status), c.opts.MaxRunLinks)
	}
	return out
}

// touchRun reads a frame that reports on a run into the run's card, if
// there is one (the latest, when a child has several).
func (c *Conn) touchRun(s *session, u frame.ToolUpdate, child string) []Event {
	l := c.runs.get(s.id, child)
	if l == nil || l.card == u.ID.Str || c.d.ToolCall == nil {
		return nil // no card, or the frame's own card: read as its frame
	}
	k := correlate.Key{Session: s.id, ID: l.card}
	st := c.tools.Get(k)
	if st == nil {
		return nil
	}
	old := st.payload
	next := c.d.ToolCall(u, old)
	next.Status = forwardStatus(old.Status, next.Status)
	st.payload = next
	l.done = terminal(next.Status)
	if !st.surfaced || next.Equal(old) {
		return nil
	}
	return c.toolEvent(EventToolCallUpdate, k, next)
}

// statusRank orders tool call statuses: a run's card never goes back.
func statusRank(s string) int {
	switch s {
	case "":
		return 0
	case StatusPending:
		return 1
	case StatusInProgress:
		return 2
	}
	return 3
}

// forwardStatus is next, unless it would move the status backwards.
func forwardStatus(old, next string) string {
	if statusRank(next) < statusRank(old) {
		return old
	}
	return next
}

func terminal(status string) bool { return statusRank(status) == 3 }

// runLink is the card of a run's child. cards counts the distinct cards
// the child had (up to 2: a parent link needs exactly one).
type runLink struct {
	card  string
	cards uint8
	done  bool // the card's status is final: evicted first
}

// runLinks maps (session, child) to the child's card, bounded; the few
// links a connection holds are scanned in order to evict, oldest finished
// run first.
type runLinks struct {
	m     map[correlate.Key]*runLink
	order []correlate.Key
	st    correlate.Stats
}

func (r *runLinks) get(session, child string) *runLink {
	return r.m[correlate.Key{Session: session, ID: child}]
}

// put links child to card. A link to another card counts the child's
// second card and moves to the latest.
func (r *runLinks) put(session, child, card string, done bool, max int) {
	if child == "" {
		return
	}
	if l := r.get(session, child); l != nil {
		if l.card != card {
			l.card, l.cards = card, 2
		}
		l.done = done
		return
	}
	if r.m == nil {
		r.m = map[correlate.Key]*runLink{}
	}
	for len(r.order) >= max && len(r.order) > 0 {
		r.evict()
	}
	k := correlate.Key{Session: session, ID: child} // both owned by the card
	r.m[k] = &runLink{card: card, cards: 1, done: done}
	r.order = append(r.order, k)
	r.st.Stored++
}

// evict drops the oldest link of a finished run, else the oldest.
func (r *runLinks) evict() {
	i := 0
	for j, k := range r.order {
		if r.m[k].done {
			i = j
			break
		}
	}
	delete(r.m, r.order[i])
	r.order = append(r.order[:i], r.order[i+1:]...)
	r.st.Evicted++
}

// sweep drops a session's links.
func (r *runLinks) sweep(session string) {
	kept := r.order[:0]
	for _, k := range r.order {
		if k.Session == session {
			delete(r.m, k)
			r.st.Swept++
			continue
		}
		kept = append(kept, k)
	}
	clear(r.order[len(kept):])
	r.order = kept
}

func (r *runLinks) stats() correlate.Stats {
	st := r.st
	st.Live = len(r.m)
	return st
}
