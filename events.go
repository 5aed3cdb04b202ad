package acpdialect

import (
	"encoding/json"
	"strings"
	"unsafe"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// one hands out an event a hook made as a slice of one, without copying
// it into a new allocation: the hook's own is the Conn's (Update.Event,
// Action). The slice's capacity is one, so appending to it copies.
func one(ev *Event) []Event { return unsafe.Slice(ev, 1) }

// vendorEvent finishes a vendor frame whose method produced a session-level
// event (a question, a plan, todos, an image): the event, then for a
// request either the default reply or, when the client answers it itself,
// nothing yet (Result.Awaiting).
func (c *Conn) vendorEvent(v frameView, method string, act Action, card cardChange) Result {
	if !v.hasID && !card.changed {
		// A notification that changed no card: its one event is the
		// Action's own (the Conn's, see Action), handed out as it is.
		c.finishEvent(act.Event, act)
		return Result{Events: one(act.Event)}
	}
	if !v.hasID {
		// A notification: the events alone, in one allocation.
		o := &struct {
			ev [2]Event
			p  Payload
		}{}
		n := c.eventsOf(o.ev[:0], &o.p, act, card)
		return Result{Events: o.ev[:n:n]}
	}
	// A request: its reply too, in the same allocation (the frame in rb
	// when it is short).
	o := &struct {
		ev [3]Event
		p  Payload
		rb replyBuf
	}{}
	n := c.eventsOf(o.ev[:0], &o.p, act, card)
	ev := &o.ev[n-1]
	ev.Method = method
	if c.awaits(act, v) {
		ev.ID = json.RawMessage(strings.Clone(v.id.Raw))
		out := c.awaitRequest(v.id.Raw, method, ev.SessionID, act.Result)
		out.Events = append(out.Events, o.ev[:n]...)
		return out
	}
	c.stats.Replies++
	frame := c.fillReply(&o.ev[n], &o.rb, v, method, act.Result, act.Error)
	ev.ID = o.ev[n].ID // the reply frame's bytes: the same id
	return Result{Reply: frame, Events: o.ev[: n+1 : n+1]}
}

// eventsOf writes into evs (which has room) the event of the card the
// frame changed, if any, then the frame's own event; p is the storage the
// card's payload snapshot points into. It returns how many events it
// wrote.
func (c *Conn) eventsOf(evs []Event, p *Payload, act Action, card cardChange) int {
	if card.changed {
		*p = card.payload
		evs = append(evs, Event{Type: EventToolCallUpdate, Agent: c.Agent(), SessionID: card.key.Session,
			ToolCallID: card.key.ID, Payload: p})
	}
	c.finishEvent(act.Event, act)
	evs = append(evs, *act.Event)
	return len(evs)
}

// finishEvent fills in a vendor frame's event, in place: its agent, its
// session (the one it names, else attributed), and for todos the session's whole list after the change.
func (c *Conn) finishEvent(ev *Event, act Action) {
	ev.Agent = c.Agent()
	s := c.sessions[ev.SessionID] // the session the frame named, if tracked
	if s == nil && ev.SessionID != "" {
		return // a session the Conn does not track: still the one named
	}
	if s == nil {
		s = c.attribute(ev.ToolCallID)
	}
	if s == nil {
		ev.SessionID = ""
		return
	}
	ev.SessionID = s.id
	if t := ev.Todos(); ev.Type == EventTodos && t != nil {
		t.Items = c.keepTodos(s, s.todos(t.Items, act.Merge))
	}
	if p := ev.Permission(); ev.Type == EventPermission && p != nil {
		c.cardIdentity(s, ev.ToolCallID, p)
	}
}

// cardIdentity fills in what a permission request leaves out from the
// card of its tool call: the tool's name (claude-agent-acp's requests for
// AIR clients carry none), and an MCP tool's server and tool (codex-acp
// asks to approve an MCP call by the call's id alone, since the card is
// already shown). The card's strings are its own, never changed in place.
func (c *Conn) cardIdentity(s *session, toolCallID string, p *Permission) {
	mcp := p.Server == "" && p.Tool == ""
	if toolCallID == "" || (p.ToolName != "" && !mcp) {
		return
	}
	st := c.tools.Get(correlate.Key{Session: s.id, ID: toolCallID})
	if st == nil {
		return
	}
	if t := st.payload.Tool; p.ToolName == "" && t != nil {
		p.ToolName = t.Name
	}
	if m := st.payload.MCPTool; mcp && m != nil {
		p.Server, p.Tool = m.Server, m.Tool
	}
}

// attribute picks the session a vendor frame without a session id belongs
// to: the one with a card for toolCallID (a busy one first), else the one
// whose turn started last, else the newest.
func (c *Conn) attribute(toolCallID string) *session {
	var card, busy, newest *session
	for _, s := range c.sessions {
		if toolCallID != "" && c.tools.Get(correlate.Key{Session: s.id, ID: toolCallID}) != nil &&
			(card == nil || later(s, card)) {
			card = s
		}
		if s.turns > 0 && (busy == nil || s.lastTurn > busy.lastTurn) {
			busy = s
		}
		if newest == nil || s.created > newest.created {
			newest = s
		}
	}
	switch {
	case card != nil:
		return card
	case busy != nil:
		return busy
	}
	return newest
}

// later ranks sessions for attribution: busy before idle, then by the
// latest turn or creation.
func later(a, b *session) bool {
	if (a.turns > 0) != (b.turns > 0) {
		return a.turns > 0
	}
	if a.turns > 0 {
		return a.lastTurn > b.lastTurn
	}
	return a.created > b.created
}

// MaxTodos bounds a session's todo list: items past it (new ids of a merge,
// or the tail of a replacing list) are dropped, so that an agent cannot
// grow the list, or the cost of merging into it, without bound.
const MaxTodos = 1024

// todos applies a todo update to the session's list and returns the whole
// new list (keepTodos keeps it): merged by id (a non-empty field replaces,
// new ids are appended in order) or replaced. The list is copy-on-write:
// the returned slice is shared by the session and the event, and a later
// update makes a new one. A replacing list is items itself (the Action's,
// so the Conn's).
func (s *session) todos(items []Todo, merge bool) []Todo {
	if !merge {
		n := min(len(items), MaxTodos)
		if n < len(items) || cap(items) > 2*n+16 {
			// Keep the bound, not the frame's whole array.
			items = append(make([]Todo, 0, n), items[:n]...)
		}
		if items == nil {
			items = []Todo{} // written [], like every list
		}
		return items[:n:n]
	}
	// Usually the ids are known: room for exactly the list (new ids grow
	// it). Never nil, so that an empty list is written [].
	list := make([]Todo, len(s.todo.items))
	copy(list, s.todo.items)
	return mergeTodos(list, items)
}

// todoList is a session's todo list, charged to the budget as one value:
// the budget may evict it, and then the next update starts a new list.
type todoList struct {
	items   []Todo
	charge  correlate.Charge
	evicted *uint64 // the Conn's Stats.TodosEvicted
}

// Evict drops the list to make room in the budget.
func (t *todoList) Evict() {
	t.items = nil
	*t.evicted++
}

// What a todo list costs beyond its strings (64-bit): the list, and each
// item in its array.
const (
	todoListOverhead = 64
	todoSize         = 56
)

// todosSize is what a todo list costs in the budget: its array (to its
// capacity) and its strings.
func todosSize(list []Todo) int64 {
	n := todoListOverhead + int64(cap(list))*todoSize
	for i := range list {
		n += int64(len(list[i].ID) + len(list[i].Content) + len(list[i].Status))
	}
	return n
}

// keepTodos makes list the session's todo list, charged to the budget as
// its newest value, and returns it: cut (a copy) when it is larger than
// the budget's MaxValue.
func (c *Conn) keepTodos(s *session, list []Todo) []Todo {
	size := todosSize(list)
	if limit := c.budget.MaxValue(); size > limit {
		list = cutTodos(list, limit)
		c.budget.CountCut()
		size = todosSize(list)
	}
	s.todo.items, s.todo.evicted = list, &c.stats.TodosEvicted
	c.budget.Add(&s.todo.charge, size, &s.todo)
	return list
}

// cutTodos returns a copy of list whose longest strings are cut so that it
// costs at most limit. The copy leaves alone the list that events share.
func cutTodos(list []Todo, limit int64) []Todo {
	out := make([]Todo, len(list))
	copy(out, list)
	fields := make([]*string, 0, 2*len(out))
	strs := 0
	for i := range out {
		fields = append(fields, &out[i].ID, &out[i].Content)
		strs += len(out[i].ID) + len(out[i].Content)
	}
	fixed := todosSize(out) - int64(strs)
	correlate.CutStrings(int(limit-fixed), fields...)
	return out
}

// mergeTodos merges items into list by id (and FromText: a made-up id
// never takes the place of an agent's own), within MaxTodos. A few items
// are looked up in place (at most 16 x MaxTodos compares); more, through an
// index, so that a merge costs O(len(list) + len(items)).
func mergeTodos(list, items []Todo) []Todo {
	var index map[todoKey]int
	if len(items) > 16 {
		index = make(map[todoKey]int, len(list)+len(items))
		for i, t := range list {
			if _, ok := index[keyOf(t)]; !ok {
				index[keyOf(t)] = i
			}
		}
	}
	for _, in := range items {
		i := findTodo(list, index, keyOf(in))
		switch {
		case i >= 0:
			frame.Fill(&list[i].Content, in.Content)
			frame.Fill(&list[i].Status, in.Status)
		case len(list) < MaxTodos:
			if index != nil {
				index[keyOf(in)] = len(list)
			}
			list = append(list, in)
		}
	}
	return list
}

// todoKey is what a merge matches todos by.
type todoKey struct {
	id       string
	fromText bool
}

func keyOf(t Todo) todoKey { return todoKey{t.ID, t.FromText} }

// findTodo returns the index of the todo with key k, or -1.
func findTodo(list []Todo, index map[todoKey]int, k todoKey) int {
	if index != nil {
		if i, ok := index[k]; ok {
			return i
		}
		return -1
	}
	for i := range list {
		if keyOf(list[i]) == k {
			return i
		}
	}
	return -1
}

// commands reads an available_commands_update: the session's commands,
// whole, with the dialect's description rule applied.
func (c *Conn) commands(sid string, u gjson.Result) []Event {
	if c.updateSession(sid) == nil {
		c.stats.Malformed++
		return nil
	}
	var desc func(string) string
	if c.d != nil {
		desc = c.d.CommandDescription
	}
	cmds := &Commands{Items: readCommands(u, desc)}
	ownCommands(cmds.Items)
	return []Event{{Type: EventCommands, Agent: c.Agent(), SessionID: c.sessions[sid].id, Object: cmds}}
}

// readCommands reads an available_commands_update's list, its strings
// viewing the frame, each description passed through desc when it is not
// nil. The list is the first availableCommands member, read as gjson's
// ForEach walks it: the elements of an array, the values of an object.
// The update and its list are read in one pass: frame.Members would skip
// the list before handing it over, walking it twice. A list of up to
// listBuf commands is gathered on the stack and costs one allocation, of
// its exact size, where appending from nothing would grow it five times.
func readCommands(u gjson.Result, desc func(string) string) []Command {
	var buf [listBuf]Command
	items := buf[:0]
	r := frame.NewReader(u)
	each := func() {
		if x, ok := readCommand(r); ok {
			if desc != nil {
				x.Description = desc(x.Description)
			}
			items = append(items, x)
		}
	}
	seen := false
	r.Object(func(k string) {
		if k != "availableCommands" || seen {
			return
		}
		seen = true
		switch r.Peek() {
		case '{':
			r.Object(func(string) { each() })
		case '[':
			r.Array(each)
		}
	})
	return append(make([]Command, 0, len(items)), items...)
}

// listBuf is how many items of a list its reader gathers on the stack.
const listBuf = 32

// readCommand reads one command at r in one pass; ok is false for one
// without a name. Its strings view the frame. It reads what gjson's Get reads: the first name and
// description, and input.hint from the first input object that has a hint.
func readCommand(r *frame.Reader) (Command, bool) {
	var c Command
	var seen uint8
	if !r.Object(func(k string) {
		switch k {
		case "name":
			if seen&1 == 0 {
				c.Name, seen = r.String(), seen|1
			}
		case "description":
			if seen&2 == 0 {
				c.Description, seen = r.String(), seen|2
			}
		case "input":
			if seen&4 == 0 {
				r.Object(func(k string) {
					if k == "hint" && seen&4 == 0 {
						c.InputHint, seen = r.String(), seen|4
					}
				})
			}
		}
	}) || c.Name == "" {
		return Command{}, false
	}
	return c, true
}

// ownCommands copies the strings of a command list, which view the frame,
// into one allocation: the list is one event's, kept or dropped whole,
// and a command list has tens of names and descriptions.
func ownCommands(items []Command) {
	var buf [3 * listBuf]*string
	fields := buf[:0]
	for i := range items {
		fields = append(fields, &items[i].Name, &items[i].Description, &items[i].InputHint)
	}
	frame.OwnTogether(fields...)
}
