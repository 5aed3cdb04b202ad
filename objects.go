package acpdialect

import (
	"encoding/json"
	"strings"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// More session-level event types, shared by the dialects that report them.
// Their objects use ACP's names where ACP (or an RFD on its way in) has a
// shape for the same thing, and add the vendor's extras beside them.
const (
	// EventUsage is a usage sample: the context window's fill and cost
	// (ACP's usage_update), or with Turn set a turn's token summary (ACP's
	// PromptResponse.usage).
	EventUsage = "usage"
	// EventContextWindow is the context window's fill where an agent
	// reports it outside usage_update.
	EventContextWindow = "context_window"
	// EventCapabilities is what the agent's initialize response advertises
	// beyond ACP's own capabilities.
	EventCapabilities = "capabilities"
	// EventMessage is message or thought text that ACP's chunks cannot
	// place: a subagent's text nested under its card, or a phased message.
	EventMessage = "message"
	// EventCompaction is a change of a context compaction (ACP's
	// compaction_update RFD).
	EventCompaction = "compaction"
	// EventPermission is a permission request the agent made, described;
	// the client answers it as ACP says, never the library.
	EventPermission = "permission"
	// EventProviderError is an error of the agent's model provider, with
	// what the user can do about it (ACP's notice RFD).
	EventProviderError = "provider_error"
	// EventAuthStatus is the agent's account or key status.
	EventAuthStatus = "auth_status"
	// EventSessionInfo is the session's title and state (ACP's
	// session_info_update, with the vendor's extras).
	EventSessionInfo = "session_info"
	// EventConfig is the session's config options, ACP-shaped, where the
	// library built them or the agent changed them outside ACP.
	EventConfig = "config"
)

// Usage is one usage sample. A field the agent did not report is absent:
// counts are pointers so that a reported zero is written.
type Usage struct {
	// Used and Size are the context window's tokens in use and its size
	// (ACP's usage_update).
	Used *int64 `json:"used,omitempty"`
	Size *int64 `json:"size,omitempty"`
	// Cost is what the session cost so far, in Currency.
	Cost     *float64 `json:"cost,omitempty"`
	Currency string   `json:"currency,omitempty"`
	// Model is the model that answered; Effort its reasoning effort where
	// the agent names one.
	Model  string `json:"model,omitempty"`
	Effort string `json:"effort,omitempty"`
	// Origin says what the work was for ("human" for the user's turn; a
	// background task's kind otherwise), so that a client does not bill
	// background work to the user's turn.
	Origin    string     `json:"origin,omitempty"`
	RateLimit *RateLimit `json:"rate_limit,omitempty"`

	// Turn marks a turn summary: the token counts of one prompt turn
	// (ACP's PromptResponse.usage).
	Turn              bool   `json:"turn,omitempty"`
	InputTokens       *int64 `json:"input_tokens,omitempty"`
	OutputTokens      *int64 `json:"output_tokens,omitempty"`
	CachedReadTokens  *int64 `json:"cached_read_tokens,omitempty"`
	CachedWriteTokens *int64 `json:"cached_write_tokens,omitempty"`
	ThoughtTokens     *int64 `json:"thought_tokens,omitempty"`
	TotalTokens       *int64 `json:"total_tokens,omitempty"`
	// Estimated says the counts are not the turn's own (an agent that
	// reports its last model request only).
	Estimated bool `json:"estimated,omitempty"`
}

// RateLimit is the account's rate limit status as the agent reports it.
type RateLimit struct {
	Status string `json:"status,omitempty"` // allowed, allowed_warning, rejected, ...
	Type   string `json:"type,omitempty"`   // the window: five_hour, seven_day, ...
	// Utilization is the share of the window used, 0 to 1.
	Utilization *float64 `json:"utilization,omitempty"`
	// ResetsAt is when the window resets, in unix milliseconds.
	ResetsAt *int64 `json:"resets_at,omitempty"`
}

// ContextWindow is the context window's fill.
type ContextWindow struct {
	Used      int64 `json:"used"`
	Size      int64 `json:"size"`
	Remaining int64 `json:"remaining"`
}

// Capabilities are what an agent advertises beyond ACP's capabilities.
type Capabilities struct {
	// PromptQueueing: the client may send session/prompt while a turn
	// runs.
	PromptQueueing bool `json:"prompt_queueing"`
	// AuthStatus: the agent reports its account status (auth_status
	// events).
	AuthStatus bool `json:"auth_status,omitempty"`
}

// Message roles.
const (
	RoleAssistant = "assistant" // agent_message_chunk
	RoleThought   = "thought"   // agent_thought_chunk
	RoleUser      = "user"      // user_message_chunk
)

// Message is message or thought text. Its event's tool_call_id is empty;
// ParentToolCallID names the card it belongs under, if any.
type Message struct {
	Role string `json:"role"`
	Text string `json:"text,omitempty"`
	// Phase is the agent's phase of the message (Codex's commentary,
	// final_answer), for a client that folds commentary.
	Phase            string `json:"phase,omitempty"`
	ParentToolCallID string `json:"parent_tool_call_id,omitempty"`
	// Hidden are spans of Text that are not for the reader: the agent's
	// own notices it injected (Claude's <task-notification> envelopes),
	// each reported on the card it belongs to.
	Hidden []TextSpan `json:"hidden,omitempty"`
}

// TextSpan is the span [Start, End) of a message's Text, in bytes.
type TextSpan struct {
	Start int `json:"start"`
	End   int `json:"end"`
	// TaskID names the background task (a monitor) the span reports on.
	TaskID string `json:"task_id,omitempty"`
}

// Compaction statuses: ACP's compaction_update values.
const (
	CompactionInProgress = "in_progress"
	CompactionCompleted  = "completed"
	CompactionFailed     = "failed"
	CompactionCancelled  = "cancelled"
)

// CompactionStatus is the compaction status an agent's s means (ACP's
// four, and "pending" as in progress), or "" for any other value: a
// constant, never a view of the frame s was read from.
func CompactionStatus(s string) string {
	switch s {
	case "pending", CompactionInProgress:
		return CompactionInProgress
	case CompactionCompleted:
		return CompactionCompleted
	case CompactionFailed:
		return CompactionFailed
	case CompactionCancelled:
		return CompactionCancelled
	}
	return ""
}

// Compaction is a context compaction's state.
type Compaction struct {
	CompactionID string `json:"compaction_id,omitempty"`
	Status       string `json:"status,omitempty"`
	Summary      string `json:"summary,omitempty"`
	Error        string `json:"error,omitempty"`
	// Trigger is what started it: auto or manual.
	Trigger    string `json:"trigger,omitempty"`
	PreTokens  *int64 `json:"pre_tokens,omitempty"`
	PostTokens *int64 `json:"post_tokens,omitempty"`
	DurationMs *int64 `json:"duration_ms,omitempty"`
}

// Permission describes a session/request_permission the agent sent. Its
// event names the request (Method, ID) and the tool call.
type Permission struct {
	// ToolName is the tool's programmatic name (Bash, Read, mcp__srv__x).
	ToolName string `json:"tool_name,omitempty"`
	Title    string `json:"title,omitempty"`
	// ACPKind is the tool call's ACP kind (execute, edit, switch_mode, ...).
	ACPKind string `json:"acp_kind,omitempty"`
	// Server and Tool identify an MCP tool.
	Server  string             `json:"server,omitempty"`
	Tool    string             `json:"tool,omitempty"`
	Options []PermissionOption `json:"options"`
	// PlanReview marks a request to approve a plan, PlanItemID its item.
	PlanReview bool   `json:"plan_review,omitempty"`
	PlanItemID string `json:"plan_item_id,omitempty"`
}

// PermissionOption is one answer a permission request offers.
type PermissionOption struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	Kind string `json:"kind,omitempty"` // allow_once, allow_always, reject_once, reject_always
}

// Notice severities (ACP's notice RFD).
const (
	SeverityInfo    = "info"
	SeverityWarning = "warning"
	SeverityError   = "error"
)

// ProviderError is an error of the agent's model provider, classified.
type ProviderError struct {
	Severity string `json:"severity,omitempty"`
	// Code classifies it: model_at_capacity, model_switch_incompatible, ...
	Code    string `json:"code,omitempty"`
	Title   string `json:"title,omitempty"`
	Message string `json:"message,omitempty"`
	// Action is what the user can do: retry, new_session, ...
	Action string `json:"action,omitempty"`
	// ReplacesText is the agent text the error was read from (the chunk
	// whose frame gives this event; its last 1 KiB), which a client hides
	// in favour of this event. ReplacesMessageID is the message that
	// holds it, when the agent gives one: the message may have said more
	// before it, which is not the error's.
	ReplacesMessageID string `json:"replaces_message_id,omitempty"`
	ReplacesText      string `json:"replaces_text,omitempty"`
	// ID is the agent's id of the incident, when it gives one (AIR's typed
	// session failures): an event with an id the client already shows
	// replaces that one, as the agent updates the incident.
	ID string `json:"id,omitempty"`
	// Revision orders the events of one ID: higher is newer, and a client
	// ignores a revision at or under the one it shows (a late or repeated
	// frame).
	Revision int64 `json:"revision,omitempty"`
}

// AuthStatus is the agent's account or key status.
type AuthStatus struct {
	// Kind is how the agent is signed in: account, api_key, gateway,
	// external, none.
	Kind         string `json:"kind,omitempty"`
	Label        string `json:"label,omitempty"`
	Detail       string `json:"detail,omitempty"`
	Email        string `json:"email,omitempty"`
	Organization string `json:"organization,omitempty"`
	Plan         string `json:"plan,omitempty"`
}

// SessionInfo is a session's title and state.
type SessionInfo struct {
	Title string `json:"title,omitempty"`
	// TitleCleared says the agent cleared the session's title (ACP's
	// session_info_update with a null title).
	TitleCleared bool  `json:"title_cleared,omitempty"`
	Archived     *bool `json:"archived,omitempty"`
	Closed       *bool `json:"closed,omitempty"`
}

// Config is a session's config options, in ACP's configOptions shape.
type Config struct {
	Options json.RawMessage `json:"options"`
}

func (*Usage) objectName() string         { return "usage" }
func (*ContextWindow) objectName() string { return "context_window" }
func (*Capabilities) objectName() string  { return "capabilities" }
func (*Message) objectName() string       { return "message" }
func (*Compaction) objectName() string    { return "compaction" }
func (*Permission) objectName() string    { return "permission" }
func (*ProviderError) objectName() string { return "provider_error" }
func (*AuthStatus) objectName() string    { return "auth_status" }
func (*SessionInfo) objectName() string   { return "session_info" }
func (*Config) objectName() string        { return "config" }

// Usage returns the event's usage sample, or nil.
func (e Event) Usage() *Usage { o, _ := e.Object.(*Usage); return o }

// ContextWindow returns the event's context window, or nil.
func (e Event) ContextWindow() *ContextWindow { o, _ := e.Object.(*ContextWindow); return o }

// Capabilities returns the event's capabilities, or nil.
func (e Event) Capabilities() *Capabilities { o, _ := e.Object.(*Capabilities); return o }

// Message returns the event's message, or nil.
func (e Event) Message() *Message { o, _ := e.Object.(*Message); return o }

// Compaction returns the event's compaction, or nil.
func (e Event) Compaction() *Compaction { o, _ := e.Object.(*Compaction); return o }

// Permission returns the event's permission request, or nil.
func (e Event) Permission() *Permission { o, _ := e.Object.(*Permission); return o }

// ProviderError returns the event's provider error, or nil.
func (e Event) ProviderError() *ProviderError { o, _ := e.Object.(*ProviderError); return o }

// AuthStatus returns the event's auth status, or nil.
func (e Event) AuthStatus() *AuthStatus { o, _ := e.Object.(*AuthStatus); return o }

// SessionInfo returns the event's session info, or nil.
func (e Event) SessionInfo() *SessionInfo { o, _ := e.Object.(*SessionInfo); return o }

// Config returns the event's config options, or nil.
func (e Event) Config() *Config { o, _ := e.Object.(*Config); return o }

// HasCounts reports whether u has a token count of a turn (a zero sent
// counts): a reader that read none makes no turn summary.
func (u *Usage) HasCounts() bool {
	return u.InputTokens != nil || u.OutputTokens != nil || u.ThoughtTokens != nil ||
		u.CachedReadTokens != nil || u.CachedWriteTokens != nil || u.TotalTokens != nil
}

// ReadTokens reads ACP's turn token counts (PromptResponse.usage:
// inputTokens, outputTokens, thoughtTokens, cachedReadTokens,
// cachedWriteTokens, totalTokens) from obj into u, for a dialect's
// Calls reader. A count already set is kept; a value that is not a whole
// number of zero or more is absent. Other members are ignored.
func (u *Usage) ReadTokens(obj gjson.Result) {
	frame.Members(obj, func(k string, v gjson.Result) bool {
		switch k {
		case "inputTokens":
			u.InputTokens = frame.Count(u.InputTokens, v)
		case "outputTokens":
			u.OutputTokens = frame.Count(u.OutputTokens, v)
		case "thoughtTokens":
			u.ThoughtTokens = frame.Count(u.ThoughtTokens, v)
		case "cachedReadTokens":
			u.CachedReadTokens = frame.Count(u.CachedReadTokens, v)
		case "cachedWriteTokens":
			u.CachedWriteTokens = frame.Count(u.CachedWriteTokens, v)
		case "totalTokens":
			u.TotalTokens = frame.Count(u.TotalTokens, v)
		}
		return true
	})
}

// ReadUpdate reads the params of _auth/status_update, {authStatus: {kind,
// label, detail?, account?: {email, organization, plan}}}, the login state
// claude-agent-acp and codex-acp (2.x) push, into a, for a dialect's
// Methods handler. It reports whether params have an authStatus object.
// Of a key sent twice the first counts; a value that is not a string is
// absent; strings are copies.
func (a *AuthStatus) ReadUpdate(params gjson.Result) bool {
	found := false
	fill := func(dst *string, v string) {
		if *dst == "" && v != "" {
			*dst = strings.Clone(v)
		}
	}
	r := frame.NewReader(params)
	r.Object(func(k string) {
		if k != "authStatus" || found {
			return
		}
		found = r.Object(func(k string) {
			switch k {
			case "kind":
				fill(&a.Kind, r.String())
			case "label":
				fill(&a.Label, r.String())
			case "detail":
				fill(&a.Detail, r.String())
			case "account":
				r.Object(func(k string) {
					switch k {
					case "email":
						fill(&a.Email, r.String())
					case "organization":
						fill(&a.Organization, r.String())
					case "plan":
						fill(&a.Plan, r.String())
					}
				})
			}
		})
	})
	return found
}
