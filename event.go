package acpdialect

import "encoding/json"

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

	// The object of a session-level event, named after its type.
	Question *Question `json:"question,omitempty"`
	Plan     *Plan     `json:"plan,omitempty"`
	Todos    *Todos    `json:"todos,omitempty"`
	Image    *Image    `json:"image,omitempty"`
	Models   *Models   `json:"models,omitempty"`
	Commands *Commands `json:"commands,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// ErrMethodNotFound is the answer to a vendor request no dialect allows.
var ErrMethodNotFound = RPCError{Code: -32601, Message: "Method not found"}
