package acpdialect

import (
	"bytes"
	"encoding/json"
	"reflect"
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

	// Method and ID name the request an event belongs to: the agent
	// request a reply answers (or a question asks), or the client request
	// whose result an event reads (capabilities from initialize, a turn's
	// usage from session/prompt, models). ID is exactly the bytes received
	// (a number, a string, ...). Result or Error is the reply's answer.
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

// Object is the object of a session-level event: *Question, *Plan,
// *Todos, *Image, *Models, *Commands, *Usage, *ContextWindow,
// *Capabilities, *Message, *Compaction, *Permission, *ProviderError,
// *AuthStatus, *SessionInfo, *Config or *State. The set is the package's, like the
// event types; each is written in the JSON under its own name.
type Object interface {
	objectName() string // its JSON name: the event type that carries it
}

func (*Question) objectName() string { return "question" }
func (*Plan) objectName() string     { return "plan" }
func (*Todos) objectName() string    { return "todos" }
func (*Image) objectName() string    { return "image" }
func (*Models) objectName() string   { return "models" }
func (*Commands) objectName() string { return "commands" }

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

// objectKinds names each object type in the JSON and makes a fresh one to
// decode into. The JSON name is the event type that carries it.
var objectKinds = []struct {
	name string
	new  func() Object
}{
	{"question", func() Object { return new(Question) }},
	{"plan", func() Object { return new(Plan) }},
	{"todos", func() Object { return new(Todos) }},
	{"image", func() Object { return new(Image) }},
	{"models", func() Object { return new(Models) }},
	{"commands", func() Object { return new(Commands) }},
	{"usage", func() Object { return new(Usage) }},
	{"context_window", func() Object { return new(ContextWindow) }},
	{"capabilities", func() Object { return new(Capabilities) }},
	{"message", func() Object { return new(Message) }},
	{"compaction", func() Object { return new(Compaction) }},
	{"permission", func() Object { return new(Permission) }},
	{"provider_error", func() Object { return new(ProviderError) }},
	{"auth_status", func() Object { return new(AuthStatus) }},
	{"session_info", func() Object { return new(SessionInfo) }},
	{"config", func() Object { return new(Config) }},
	{"state", func() Object { return new(State) }},
}

// eventFields is Event without its methods, for the JSON encoding.
type eventFields Event

// MarshalJSON writes the event's fields, then its object under its name.
// HTML characters are left to the caller's encoder to escape or not.
func (e Event) MarshalJSON() ([]byte, error) {
	b, err := encode(eventFields(e))
	if err != nil || e.Object == nil || reflect.ValueOf(e.Object).IsNil() {
		return b, err
	}
	name := e.Object.objectName()
	obj, err := encode(e.Object)
	if err != nil {
		return nil, err
	}
	out := append(b[:len(b)-1:len(b)-1], `,"`...)
	out = append(append(out, name...), `":`...)
	return append(append(out, obj...), '}'), nil
}

// encode is json.Marshal without HTML escaping and the trailing newline.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads what MarshalJSON writes (an object's tool call id is
// the event's). Unknown members are ignored, so a client reads the output
// of a newer version.
func (e *Event) UnmarshalJSON(b []byte) error {
	var f eventFields
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*e = Event(f)
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	for _, k := range objectKinds {
		raw, ok := members[k.name]
		if !ok || string(raw) == "null" {
			continue
		}
		o := k.new()
		if err := json.Unmarshal(raw, o); err != nil {
			return err
		}
		if t, ok := o.(interface{ setToolCallID(string) }); ok {
			t.setToolCallID(e.ToolCallID) // written once, as the event's
		}
		e.Object = o
		return nil
	}
	return nil
}

func (q *Question) setToolCallID(id string) { q.ToolCallID = id }
func (p *Plan) setToolCallID(id string)     { p.ToolCallID = id }
func (t *Todos) setToolCallID(id string)    { t.ToolCallID = id }
func (i *Image) setToolCallID(id string)    { i.ToolCallID = id }

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	// Data is the error's data as one JSON value's text, "" for none. In a
	// frame the Conn writes, data that spans lines is compacted and data
	// that is not one JSON value in valid UTF-8 is left out; a Message's
	// bytes that are not UTF-8 are written \ufffd, as encoding/json does.
	Data RawJSON `json:"data,omitempty"`
}

// RawJSON is one JSON value's text, written as it is. A string rather
// than a json.RawMessage, so that RPCError stays comparable.
type RawJSON string

// MarshalJSON writes the value as it is (null when empty).
func (r RawJSON) MarshalJSON() ([]byte, error) {
	if r == "" {
		return []byte("null"), nil
	}
	return []byte(r), nil
}

// UnmarshalJSON keeps the value's text.
func (r *RawJSON) UnmarshalJSON(b []byte) error {
	*r = RawJSON(b)
	return nil
}

// ErrMethodNotFound is the answer to a vendor request no dialect allows.
var ErrMethodNotFound = RPCError{Code: -32601, Message: "Method not found"}
