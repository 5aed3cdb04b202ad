package acpdialect

import (
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// The ACP v2 draft reports what a session is doing with state_update: its
// foreground work's state (running, idle, requires_action, unknown), why
// the work stopped, and the work that runs on in the background as a
// complete snapshot (its prompt lifecycle's "Background work").
// claude-agent-acp sends it to a v2 client, with background lists from
// 0.100.0 (its background-work.js). The Conn reads it on every
// connection, whatever the dialect, and a dialect's own entries for it
// add their events after the state. The SDKs before v2 do not know the
// kind (acp-go-sdk v0.13.0 reads any unknown kind as a
// session_info_update), so it is quarantined (Result.Quarantine) on every
// connection.

// UpdateState is the ACP v2 draft's state_update.
const UpdateState = "state_update"

// EventState is a session's work state (ACP v2's state_update): see State.
const EventState = "state"

// Work states: the ACP v2 draft's values of State.State. An agent's own
// state (the draft reserves names starting with "_") is kept as sent.
const (
	StateRunning        = "running"
	StateIdle           = "idle"
	StateRequiresAction = "requires_action"
	StateUnknown        = "unknown"
)

// State is a session's work state, as the agent reported it last.
type State struct {
	// State is running, idle, requires_action (the foreground work waits
	// on the user), unknown (the agent cannot tell), or the agent's own.
	State string `json:"state"`
	// StopReason says why the foreground work stopped (idle only): ACP's
	// stop reasons, end_turn, cancelled, ... A repeated idle may carry the
	// last one again: it is no new end.
	StopReason string `json:"stop_reason,omitempty"`
	// Background is the work running independently of the foreground, a
	// complete snapshot that replaces the last one. Nil (absent in the
	// JSON) when the agent does not report it, which says nothing of what
	// runs; empty ([]) when nothing runs. A malformed list, or any list
	// beside a state of the agent's own, is not reported, as the draft
	// and its SDK read it.
	Background []BackgroundWork `json:"background,omitzero"`
}

// BackgroundWork is one piece of work in a State's background list.
type BackgroundWork struct {
	// Type is terminal (a process still running after its tool call
	// returned), tool_call (work a tool call started that goes on: a
	// monitor, a workflow, a wakeup), subagent (a detached child session
	// with anything running), or the agent's own (claude-agent-acp's
	// _claude/task: a background task no tool call shows).
	Type string `json:"type"`
	// ID names what the item refers to: the terminal's id, the tool
	// call's (its card's ToolCallID), the child session's, or an own
	// item's taskId.
	ID string `json:"id,omitempty"`
	// Description is an own item's description, if it has one.
	Description string `json:"description,omitempty"`
}

func (*State) objectName() string { return EventState }

// State returns the event's work state, or nil.
func (e Event) State() *State { o, _ := e.Object.(*State); return o }

// StateEvent reads a state_update into a state event, or nil when it
// carries no state string. Pure: the event views nothing of update.
func StateEvent(update gjson.Result) *Event {
	var st State
	var list gjson.Result
	var seen uint16
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch {
		case k == "state" && first(&seen, 1):
			st.State = r.String()
		case k == "stopReason" && first(&seen, 2):
			st.StopReason = r.String()
		case k == "background" && first(&seen, 4):
			list = r.Value()
		}
	})
	if st.State == "" {
		return nil
	}
	if st.State != StateIdle {
		st.StopReason = "" // the draft defines it for idle only
	}
	if knownState(st.State) {
		st.Background = readBackground(list)
	}
	frame.Own(&st.State, &st.StopReason)
	return &Event{Type: EventState, Object: &st}
}

// knownState reports whether s is one of the draft's work states.
func knownState(s string) bool {
	switch s {
	case StateRunning, StateIdle, StateRequiresAction, StateUnknown:
		return true
	}
	return false
}

// readBackground reads a background list: nil when it is absent, null or
// malformed (not an array; an item that is not an object with a string
// type; a terminal, tool call or subagent item without its string id), as
// the draft says a malformed list is not reported. The result owns its
// strings.
func readBackground(list gjson.Result) []BackgroundWork {
	if !list.IsArray() {
		return nil
	}
	out := []BackgroundWork{}
	ok := true
	r := frame.NewReader(list)
	r.Array(func() {
		w, good := readWork(r)
		ok = ok && good
		if ok {
			out = append(out, w)
		}
	})
	if !ok {
		return nil
	}
	return out
}

// readWork reads one background item at r, and reports whether it is
// well formed: an object with a non-empty string type.
func readWork(r *frame.Reader) (BackgroundWork, bool) {
	var w BackgroundWork
	var terminal, tool, session, task, id string
	var typed bool
	var seen uint16
	obj := r.Object(func(k string) {
		switch {
		case k == "type" && first(&seen, 1):
			typed = r.Peek() == '"'
			w.Type = r.String()
		case k == "terminalId" && first(&seen, 2):
			terminal = r.String()
		case k == "toolCallId" && first(&seen, 4):
			tool = r.String()
		case k == "sessionId" && first(&seen, 8):
			session = r.String()
		case k == "taskId" && first(&seen, 16):
			task = r.String()
		case k == "description" && first(&seen, 32):
			w.Description = r.String()
		}
	})
	if !obj || !typed || w.Type == "" {
		return BackgroundWork{}, false
	}
	switch w.Type {
	case "terminal":
		id = terminal
	case "tool_call":
		id = tool
	case "subagent":
		id = session
	default:
		w.ID = task
		frame.Own(&w.Type, &w.ID, &w.Description)
		return w, true
	}
	if id == "" {
		return BackgroundWork{}, false
	}
	w.ID, w.Description = id, ""
	frame.Own(&w.Type, &w.ID)
	return w, true
}

// stateUpdate handles a state_update on any connection: the cards an
// idle state ends with the turns it ends (stateChange), its state event,
// then the events of the dialect's own entries for the kind (h, or nil),
// such as Claude's turn summary from an idle state's usage.
func (c *Conn) stateUpdate(sid string, h *Update, u gjson.Result) []Event {
	s := c.updateSession(sid)
	if s == nil {
		c.stats.Malformed++
		return nil
	}
	var out []Event
	if ev := StateEvent(u); ev != nil {
		ev.Agent, ev.SessionID = c.Agent(), s.id
		st := ev.State()
		s.lists = s.lists || st.Background != nil
		out = append(c.stateChange(s, st.State), *ev)
	}
	if h != nil {
		out = append(out, c.vendorUpdate(sid, h, u)...)
	}
	return out
}
