package acpdialect

import (
	"bytes"
	"encoding/json"
)

// Event types. Add types; never change the meaning of an existing field.
const (
	// EventToolCall is the first sight of a tool call.
	EventToolCall = "tool_call"
	// EventToolCallUpdate is a change of a tool call's merged state.
	EventToolCallUpdate = "tool_call_update"
	// EventReply is what the client answers to an agent request that a
	// dialect handles or declines.
	EventReply = "reply"
)

// Event is one normalized change: the library's output contract. Its JSON
// encoding is the CLI's --json output, one object per line.
//
// An event stays valid after the call (or the wiretap OnEvent) that
// produced it returns, ID included: keep it as long as you like. It is
// read-only: Payload's kind objects and Object are shared with the Conn's
// state and with later events.
type Event struct {
	Type       string `json:"type"`
	Agent      string `json:"agent,omitempty"`
	SessionID  string `json:"session_id,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Payload is the merged state of the tool call after this frame, not a
	// delta (tool_call and tool_call_update).
	Payload *Payload `json:"payload,omitempty"`

	// Method and ID name the request a reply answers; ID is exactly the
	// bytes received (a number, a string, ...).
	Method string          `json:"method,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`

	// Object is the object of a session-level event (question, plan,
	// todos, ...), written in the JSON under its name: "question":{...}.
	// Read it with the accessor of its type (Event.Question, ...). One
	// field for all of them keeps Event small however many session-level
	// types dialects add: every tool call update allocates one.
	Object Object `json:"-"`
}

// Object is the object of a session-level event: *Question, *Plan, *Todos,
// *Image, *Models or *Commands. The set is the package's, like the event
// types (its JSON name comes from eventJSON).
type Object interface {
	sessionObject()
}

func (*Question) sessionObject() {}
func (*Plan) sessionObject()     {}
func (*Todos) sessionObject()    {}
func (*Image) sessionObject()    {}
func (*Models) sessionObject()   {}
func (*Commands) sessionObject() {}

// Question returns the event's question, or nil.
func (e Event) Question() *Question { o, _ := e.Object.(*Question); return o }

// Plan returns the event's plan, or nil.
func (e Event) Plan() *Plan { o, _ := e.Object.(*Plan); return o }

// Todos returns the event's todo list, or nil.
func (e Event) Todos() *Todos { o, _ := e.Object.(*Todos); return o }

// Image returns the event's image request, or nil.
func (e Event) Image() *Image { o, _ := e.Object.(*Image); return o }

// Models returns the event's models, or nil.
func (e Event) Models() *Models { o, _ := e.Object.(*Models); return o }

// Commands returns the event's slash commands, or nil.
func (e Event) Commands() *Commands { o, _ := e.Object.(*Commands); return o }

// eventFields is Event without its methods, for the JSON encoding.
type eventFields Event

// eventJSON is the wire form of an Event: its fields, then its object
// under the object's name.
type eventJSON struct {
	eventFields
	Question *Question `json:"question,omitempty"`
	Plan     *Plan     `json:"plan,omitempty"`
	Todos    *Todos    `json:"todos,omitempty"`
	Image    *Image    `json:"image,omitempty"`
	Models   *Models   `json:"models,omitempty"`
	Commands *Commands `json:"commands,omitempty"`
}

// MarshalJSON writes the event's fields, then its object under its name.
// HTML characters are left to the caller's encoder to escape or not.
func (e Event) MarshalJSON() ([]byte, error) {
	w := eventJSON{eventFields: eventFields(e), Question: e.Question(), Plan: e.Plan(), Todos: e.Todos(),
		Image: e.Image(), Models: e.Models(), Commands: e.Commands()}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads what MarshalJSON writes (the object's ToolCallID is
// the event's). Unknown members are ignored, so a client reads the output
// of a newer version.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w eventJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = Event(w.eventFields)
	// An object's tool call id is written once, as the event's.
	switch {
	case w.Question != nil:
		w.Question.ToolCallID, e.Object = e.ToolCallID, w.Question
	case w.Plan != nil:
		w.Plan.ToolCallID, e.Object = e.ToolCallID, w.Plan
	case w.Todos != nil:
		w.Todos.ToolCallID, e.Object = e.ToolCallID, w.Todos
	case w.Image != nil:
		w.Image.ToolCallID, e.Object = e.ToolCallID, w.Image
	case w.Models != nil:
		e.Object = w.Models
	case w.Commands != nil:
		e.Object = w.Commands
	}
	return nil
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// ErrMethodNotFound is the answer to a vendor request no dialect allows.
var ErrMethodNotFound = RPCError{Code: -32601, Message: "Method not found"}
