package acpdialect

// Payload kinds. A dialect may add more; these are the ones the core and the
// built-in dialects produce.
const (
	KindGeneric      = "generic"
	KindSubagentTask = "subagent_task"
)

// Tool call statuses: ACP's four plus cancelled.
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
	StatusCancelled  = "cancelled"
)

// Payload is the merged state of one tool call: what a client renders as a
// card. Exactly one of the kind objects is set, the one named by Kind.
// Empty values are omitted from the JSON, never written as "".
type Payload struct {
	Kind             string `json:"kind"`
	Status           string `json:"status,omitempty"`
	Title            string `json:"title,omitempty"`
	ParentToolCallID string `json:"parent_tool_call_id,omitempty"`

	SubagentTask *SubagentTask `json:"subagent_task,omitempty"`
	Generic      *Generic      `json:"generic,omitempty"`
}

// SubagentTask is a tool call that runs another agent.
type SubagentTask struct {
	Description    string `json:"description,omitempty"`
	Prompt         string `json:"prompt,omitempty"`
	SubagentType   string `json:"subagent_type,omitempty"`
	Status         string `json:"status,omitempty"`
	AgentID        string `json:"agent_id,omitempty"`
	Model          string `json:"model,omitempty"`
	ChildSessionID string `json:"child_session_id,omitempty"`
	// Name is the subagent's own name, where the agent gives one.
	Name string `json:"name,omitempty"`
	// DurationMs is the subagent's run time. A pointer so that a reported
	// zero is written and an unknown value is omitted.
	DurationMs   *int64 `json:"duration_ms,omitempty"`
	TotalTokens  *int64 `json:"total_tokens,omitempty"`
	ToolUseCount *int64 `json:"tool_use_count,omitempty"`
	ResultText   string `json:"result_text,omitempty"`
	IsAsync      bool   `json:"is_async,omitempty"`
	OutputFile   string `json:"output_file,omitempty"`
}

// Generic is a tool call no dialect claims.
type Generic struct {
	// ACPKind is the tool call's ACP kind (read, edit, execute, other, ...).
	ACPKind string `json:"acp_kind,omitempty"`
}

// Clone returns a deep copy. Emitted payloads share their kind objects
// with the Conn's state (which never changes them in place); a client that
// wants to modify one clones it first.
func (p Payload) Clone() Payload {
	if p.SubagentTask != nil {
		st := *p.SubagentTask
		st.DurationMs = cloneInt(st.DurationMs)
		st.TotalTokens = cloneInt(st.TotalTokens)
		st.ToolUseCount = cloneInt(st.ToolUseCount)
		p.SubagentTask = &st
	}
	if p.Generic != nil {
		g := *p.Generic
		p.Generic = &g
	}
	return p
}

// Equal reports whether two payloads render the same.
func (p Payload) Equal(q Payload) bool {
	if p.Kind != q.Kind || p.Status != q.Status || p.Title != q.Title ||
		p.ParentToolCallID != q.ParentToolCallID {
		return false
	}
	return p.SubagentTask.equal(q.SubagentTask) && p.Generic.equal(q.Generic)
}

func (a *SubagentTask) equal(b *SubagentTask) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	return a.Equal(*b)
}

// Equal reports whether two subagent objects hold the same values. It
// compares field by field (the counters by value), without copying the
// objects: it runs on every merge.
func (a SubagentTask) Equal(b SubagentTask) bool {
	return a.Status == b.Status && a.ChildSessionID == b.ChildSessionID &&
		a.Description == b.Description && a.Prompt == b.Prompt &&
		a.SubagentType == b.SubagentType && a.AgentID == b.AgentID &&
		a.Model == b.Model && a.Name == b.Name && a.ResultText == b.ResultText &&
		a.IsAsync == b.IsAsync && a.OutputFile == b.OutputFile &&
		intEqual(a.DurationMs, b.DurationMs) && intEqual(a.TotalTokens, b.TotalTokens) &&
		intEqual(a.ToolUseCount, b.ToolUseCount)
}

func (a *Generic) equal(b *Generic) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func cloneInt(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func intEqual(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
