package acpdialect

import "github.com/acpdialect/acpdialect/correlate"

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

// Sizes of a Payload and its kind objects on 64-bit platforms, for Size:
// constants, so that the counts are the same everywhere.
const (
	payloadSize      = 80
	subagentTaskSize = 192
	genericSize      = 16
)

// Size returns the bytes the payload keeps, as a Conn's byte budget
// (Options.MaxBytes) counts them: itself, its strings, its kind object and
// the counters that object points to. Strings and objects shared with other
// payloads are counted in each.
func (p Payload) Size() int {
	n := payloadSize + len(p.Kind) + len(p.Status) + len(p.Title) + len(p.ParentToolCallID)
	if t := p.SubagentTask; t != nil {
		n += subagentTaskSize + len(t.Description) + len(t.Prompt) + len(t.SubagentType) +
			len(t.Status) + len(t.AgentID) + len(t.Model) + len(t.ChildSessionID) + len(t.Name) +
			len(t.ResultText) + len(t.OutputFile)
		for _, c := range [...]*int64{t.DurationMs, t.TotalTokens, t.ToolUseCount} {
			if c != nil {
				n += 8
			}
		}
	}
	if g := p.Generic; g != nil {
		n += genericSize + len(g.ACPKind)
	}
	return n
}

// Cut shortens the payload's longest strings (correlate.CutStrings) so that
// Size is at most max, and reports whether it cut anything. Kind and Status
// are never cut. The kind object is copied first: events already handed
// out share it.
func (p *Payload) Cut(max int) bool {
	size := p.Size()
	if size <= max {
		return false
	}
	fields := p.cutFields(make([]*string, 0, 16))
	return correlate.CutStrings(max-(size-strLen(fields)), fields...)
}

// cutFields copies the kind objects (copy-on-write) and appends pointers to
// the strings Cut may shorten.
func (p *Payload) cutFields(fields []*string) []*string {
	fields = append(fields, &p.Title, &p.ParentToolCallID)
	if p.SubagentTask != nil {
		t := *p.SubagentTask
		p.SubagentTask = &t
		fields = append(fields, &t.Description, &t.Prompt, &t.SubagentType, &t.Status, &t.AgentID,
			&t.Model, &t.ChildSessionID, &t.Name, &t.ResultText, &t.OutputFile)
	}
	if p.Generic != nil {
		g := *p.Generic
		p.Generic = &g
		fields = append(fields, &g.ACPKind)
	}
	return fields
}

// strLen adds up the lengths of the strings.
func strLen(fields []*string) int {
	n := 0
	for _, f := range fields {
		n += len(*f)
	}
	return n
}
