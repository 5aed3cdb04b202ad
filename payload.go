package acpdialect

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/acpdialect/acpdialect/correlate"
)

// Payload kinds: every card is of one of these, and carries the kind
// object its Kind names. A dialect cannot add a kind (a Payload has no
// place for another object): a tool of the vendor's own is a generic card
// whose Tool names it (Tool.Kind holds the vendor's kind), or an mcp_tool
// card for a tool a server provides.
const (
	KindGeneric      = "generic"
	KindSubagentTask = "subagent_task"
	KindShell        = "shell"
	KindMCPTool      = "mcp_tool"
	KindMonitor      = "monitor"
	KindWakeup       = "wakeup"
)

// Tool call statuses: ACP's four, and cancelled and paused, which the ACP
// v2 draft adds. A paused tool call has started, is not running now, and
// waits for something to resume it; it may go back to in_progress any
// number of times (claude-agent-acp pauses a background workflow so).
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusPaused     = "paused"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
	StatusCancelled  = "cancelled"
)

// StatusEnded reports whether a card status is an end: completed, failed
// or cancelled.
func StatusEnded(status string) bool {
	return status == StatusCompleted || status == StatusFailed || status == StatusCancelled
}

// Payload is the merged state of one tool call: what a client renders as a
// card. Exactly one of the kind objects is set, the one named by Kind.
// Empty values are omitted from the JSON, never written as "".
type Payload struct {
	Kind   string `json:"kind"`
	Status string `json:"status,omitempty"`
	// Cancellable: the agent lets the client stop this tool call now with
	// ACP v2's tool_call/cancel (its capabilities.cancel, as last
	// reported). A card that has ended is never cancellable: the draft
	// has the agent withdraw the grant at a final status, and a grant
	// that comes with or after one is not kept.
	Cancellable      bool   `json:"cancellable,omitempty"`
	Title            string `json:"title,omitempty"`
	ParentToolCallID string `json:"parent_tool_call_id,omitempty"`
	// WireToolCallID is the tool call id the agent sent, on a card whose
	// own id was derived from it: one of several subagent runs the agent
	// reported under one tool call id (see RunID).
	WireToolCallID string `json:"wire_tool_call_id,omitempty"`
	// Tool is the tool's identity where the agent names it beside the ACP
	// kind. Its Name is ACP's standard name (ToolCall.name) when a frame
	// gives one, else the vendor's (Claude's _meta.claudeCode.toolName,
	// Grok's _meta["x.ai/tool"], Devin's inferenceToolName); a frame
	// without one keeps it.
	Tool *Tool `json:"tool,omitempty"`
	// Chain is the group of tool calls this one belongs to, where the
	// agent groups the calls of one step (Goose's tool chains), so that a
	// client can fold them under the group's summary.
	Chain *Chain `json:"chain,omitempty"`

	SubagentTask *SubagentTask `json:"subagent_task,omitempty"`
	Shell        *Shell        `json:"shell,omitempty"`
	MCPTool      *MCPTool      `json:"mcp_tool,omitempty"`
	Monitor      *Monitor      `json:"monitor,omitempty"`
	Wakeup       *Wakeup       `json:"wakeup,omitempty"`
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
	// Cwd is the directory the subagent works in, where the agent reports
	// one (the subagents RFD's subagent_update cwd, an OpenCode node's
	// cwd), which may be its parent's or elsewhere, such as the child's
	// own git worktree. Empty means none was reported (under the RFD, the
	// child is then in its parent's directory).
	Cwd string `json:"cwd,omitempty"`
	// DurationMs is the subagent's run time. A pointer so that a reported
	// zero is written and an unknown value is omitted.
	DurationMs   *int64 `json:"duration_ms,omitempty"`
	TotalTokens  *int64 `json:"total_tokens,omitempty"`
	ToolUseCount *int64 `json:"tool_use_count,omitempty"`
	ResultText   string `json:"result_text,omitempty"`
	// Error is why the subagent failed, as the agent words it, where the
	// wire carries a failed child's text (the subagents RFD's error
	// message, a failed call's output). It is the last failure's: it stays
	// when the child runs again in its session or a later end is not a
	// failure, as the result text does, so a client that shows it on a
	// card that is not failed shows it as history.
	Error   string `json:"error,omitempty"`
	IsAsync bool   `json:"is_async,omitempty"`
	// Cancellable: the agent lets the client stop the subagent's current
	// work with session/cancel on its child session (the subagents RFD's
	// capabilities.cancel, as last reported). It is the agent's grant, not
	// the card's state: a client offers a stop while the card runs.
	Cancellable bool   `json:"cancellable,omitempty"`
	OutputFile  string `json:"output_file,omitempty"`
}

// Shell is a tool call that runs a command in a terminal.
type Shell struct {
	Command    string `json:"command,omitempty"`
	Cwd        string `json:"cwd,omitempty"`
	TerminalID string `json:"terminal_id,omitempty"`
	// Output is the command's output, its tail when it is longer than the
	// Conn keeps (OutputTruncated then says so).
	Output          string `json:"output,omitempty"`
	OutputTruncated bool   `json:"output_truncated,omitempty"`
	ExitCode        *int64 `json:"exit_code,omitempty"`
	Signal          string `json:"signal,omitempty"`
	// Background: the command goes on after the tool call completes.
	Background bool `json:"background,omitempty"`
	// Cancellable: the agent lets the client stop the command now (ACP
	// v2's terminal/cancel, granted by the terminal's
	// capabilities.cancel, which the agent withdraws once it exits).
	Cancellable bool `json:"cancellable,omitempty"`
}

// MaxMCPArguments bounds, in bytes, the arguments the built-in dialects
// keep on an mcp_tool card (MCPTool.Arguments): larger arguments are left
// out rather than cut (a cut JSON value is not JSON), so that one huge
// call cannot fill the Conn's per-value cap with arguments no one reads.
const MaxMCPArguments = 64 << 10

// MCPTool is a call of a tool of an MCP server.
type MCPTool struct {
	Server string `json:"server,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// Arguments are the call's arguments as the agent sent them, none
	// when larger than MaxMCPArguments.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Output is the call's result, or while it runs its progress output:
	// its tail when longer than the dialect keeps (OutputTruncated then
	// says so).
	Output          string `json:"output,omitempty"`
	OutputTruncated bool   `json:"output_truncated,omitempty"`
	Error           string `json:"error,omitempty"`
}

// Monitor is a background watch that reports events into the session
// (Claude's Monitor tool) until it ends.
type Monitor struct {
	TaskID     string `json:"task_id,omitempty"`
	Command    string `json:"command,omitempty"`
	EventCount int64  `json:"event_count"`
	// RecentEvents are the last events' bodies, oldest first.
	RecentEvents []string `json:"recent_events,omitempty"`
	Ended        bool     `json:"ended,omitempty"`
	EndReason    string   `json:"end_reason,omitempty"`
}

// Wakeup is a request to prompt the agent again later. The library
// describes it; scheduling is the client's.
type Wakeup struct {
	Prompt       string `json:"prompt,omitempty"`
	DelaySeconds *int64 `json:"delay_seconds,omitempty"`
	Reason       string `json:"reason,omitempty"`
	// ScheduledFor is when, in unix milliseconds; Invalid says the agent
	// reported a time that is zero or unreadable (never guessed).
	ScheduledFor *int64 `json:"scheduled_for,omitempty"`
	Invalid      bool   `json:"invalid,omitempty"`
}

// Tool is a tool call's identity: its programmatic name (ACP's
// ToolCall.name) and the vendor's extras.
type Tool struct {
	Name      string `json:"name,omitempty"`
	Kind      string `json:"kind,omitempty"`      // the vendor's own kind (Grok: read, edit, exit_plan, ...)
	Namespace string `json:"namespace,omitempty"` // the tool's provider (Grok: grok_build, an MCP server)
	Label     string `json:"label,omitempty"`     // what the vendor's own UI calls it
	// ReadOnly says the vendor marks the tool as one that changes nothing
	// (Grok's read_only: true); false when it says otherwise or nothing.
	ReadOnly bool `json:"read_only,omitempty"`
}

// Chain is a group of tool calls the agent made as one step: its id,
// shared by every call of the group, the summary the agent gives it, and
// how many calls it holds when the agent says (Goose's
// _meta.goose.toolChainSummary {summary, count}, on the chain's first
// call; older Goose's _meta["_goose/tool-chain-id"] and
// "_goose/tool-chain-summary").
type Chain struct {
	ID      string `json:"id,omitempty"`
	Summary string `json:"summary,omitempty"`
	Count   int64  `json:"count,omitempty"`
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
	if p.Shell != nil {
		sh := *p.Shell
		sh.ExitCode = cloneInt(sh.ExitCode)
		p.Shell = &sh
	}
	if p.MCPTool != nil {
		m := *p.MCPTool
		m.Arguments = bytes.Clone(m.Arguments)
		p.MCPTool = &m
	}
	if p.Monitor != nil {
		m := *p.Monitor
		m.RecentEvents = slices.Clone(m.RecentEvents)
		p.Monitor = &m
	}
	if p.Wakeup != nil {
		w := *p.Wakeup
		w.DelaySeconds, w.ScheduledFor = cloneInt(w.DelaySeconds), cloneInt(w.ScheduledFor)
		p.Wakeup = &w
	}
	if p.Generic != nil {
		g := *p.Generic
		p.Generic = &g
	}
	if p.Tool != nil {
		t := *p.Tool
		p.Tool = &t
	}
	if p.Chain != nil {
		ch := *p.Chain
		p.Chain = &ch
	}
	return p
}

// Equal reports whether two payloads render the same.
func (p Payload) Equal(q Payload) bool {
	if p.Kind != q.Kind || p.Status != q.Status || p.Cancellable != q.Cancellable || p.Title != q.Title ||
		p.ParentToolCallID != q.ParentToolCallID || p.WireToolCallID != q.WireToolCallID || !p.Tool.equal(q.Tool) || !p.Chain.equal(q.Chain) {
		return false
	}
	return p.SubagentTask.equal(q.SubagentTask) && p.Generic.equal(q.Generic) &&
		p.Shell.equal(q.Shell) && p.MCPTool.equal(q.MCPTool) && p.Monitor.equal(q.Monitor) &&
		p.Wakeup.equal(q.Wakeup)
}

func (a *Shell) equal(b *Shell) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	x, y := *a, *b
	x.ExitCode, y.ExitCode = nil, nil
	return x == y && intEqual(a.ExitCode, b.ExitCode)
}

func (a *MCPTool) equal(b *MCPTool) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	return a.Server == b.Server && a.Tool == b.Tool && a.Output == b.Output && a.Error == b.Error &&
		a.OutputTruncated == b.OutputTruncated && bytes.Equal(a.Arguments, b.Arguments)
}

func (a *Monitor) equal(b *Monitor) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	return a.TaskID == b.TaskID && a.Command == b.Command && a.EventCount == b.EventCount &&
		a.Ended == b.Ended && a.EndReason == b.EndReason && slices.Equal(a.RecentEvents, b.RecentEvents)
}

func (a *Wakeup) equal(b *Wakeup) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	return a.Prompt == b.Prompt && a.Reason == b.Reason && a.Invalid == b.Invalid &&
		intEqual(a.DelaySeconds, b.DelaySeconds) && intEqual(a.ScheduledFor, b.ScheduledFor)
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
		a.Model == b.Model && a.Name == b.Name && a.Cwd == b.Cwd && a.ResultText == b.ResultText && a.Error == b.Error &&
		a.IsAsync == b.IsAsync && a.Cancellable == b.Cancellable && a.OutputFile == b.OutputFile &&
		intEqual(a.DurationMs, b.DurationMs) && intEqual(a.TotalTokens, b.TotalTokens) &&
		intEqual(a.ToolUseCount, b.ToolUseCount)
}

func (a *Tool) equal(b *Tool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func (a *Chain) equal(b *Chain) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
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
// constants, so that the counts are the same everywhere. Each is the
// allocator's size class of the struct (TestKindSizes holds them to it).
const (
	payloadSize      = 160
	subagentTaskSize = 224
	genericSize      = 16
	shellSize        = 112
	mcpToolSize      = 96
	monitorSize      = 96
	wakeupSize       = 64
	toolSize         = 80
	chainSize        = 48
)

// Size returns the bytes the payload keeps, as a Conn's byte budget
// (Options.MaxBytes) counts them: itself, its strings, its kind object and
// the counters, arguments and lists that object points to (a shell's or
// MCP tool's output too). Strings and objects shared with other payloads
// are counted in each.
func (p Payload) Size() int {
	n := payloadSize + len(p.Kind) + len(p.Status) + len(p.Title) + len(p.ParentToolCallID) + len(p.WireToolCallID)
	if t := p.Tool; t != nil {
		n += toolSize + len(t.Name) + len(t.Kind) + len(t.Namespace) + len(t.Label)
	}
	if c := p.Chain; c != nil {
		n += chainSize + len(c.ID) + len(c.Summary)
	}
	if t := p.SubagentTask; t != nil {
		n += subagentTaskSize + len(t.Description) + len(t.Prompt) + len(t.SubagentType) +
			len(t.Status) + len(t.AgentID) + len(t.Model) + len(t.ChildSessionID) + len(t.Name) +
			len(t.Cwd) + len(t.ResultText) + len(t.Error) + len(t.OutputFile) + counters(t.DurationMs, t.TotalTokens, t.ToolUseCount)
	}
	if sh := p.Shell; sh != nil {
		n += shellSize + len(sh.Command) + len(sh.Cwd) + len(sh.TerminalID) + len(sh.Output) + len(sh.Signal) +
			counters(sh.ExitCode)
	}
	if m := p.MCPTool; m != nil {
		n += mcpToolSize + len(m.Server) + len(m.Tool) + len(m.Arguments) + len(m.Output) + len(m.Error)
	}
	if m := p.Monitor; m != nil {
		n += monitorSize + len(m.TaskID) + len(m.Command) + len(m.EndReason) + 16*cap(m.RecentEvents)
		for _, e := range m.RecentEvents {
			n += len(e)
		}
	}
	if w := p.Wakeup; w != nil {
		n += wakeupSize + len(w.Prompt) + len(w.Reason) + counters(w.DelaySeconds, w.ScheduledFor)
	}
	if g := p.Generic; g != nil {
		n += genericSize + len(g.ACPKind)
	}
	return n
}

// counters is what the counters a kind object points to cost.
func counters(cs ...*int64) int {
	n := 0
	for _, c := range cs {
		if c != nil {
			n += 8
		}
	}
	return n
}

// Cut shortens the payload's longest strings (correlate.CutStrings) so that
// Size is at most max, and reports whether it cut anything. Kind and Status
// are never cut, nor the ids it is found by (WireToolCallID, a monitor's TaskID). An MCP
// tool's arguments, JSON that cannot be cut, are dropped whole when the
// rest of the payload cannot make room for them. The kind object is copied
// first: events already handed out share it.
func (p *Payload) Cut(max int) bool {
	size := p.Size()
	if size <= max {
		return false
	}
	fields := p.cutFields(make([]*string, 0, 24))
	dropped := p.dropArguments(size-strLen(fields) > max)
	if dropped {
		size = p.Size()
	}
	return correlate.CutStrings(max-(size-strLen(fields)), fields...) || dropped
}

// dropArguments leaves out an MCP tool's arguments when over says the
// payload is over its bound without its strings, and reports whether it
// did. The MCP object must be a copy already (cutFields).
func (p *Payload) dropArguments(over bool) bool {
	if m := p.MCPTool; over && m != nil && len(m.Arguments) > 0 {
		m.Arguments = nil
		return true
	}
	return false
}

// cutFields copies the kind objects (copy-on-write) and appends pointers to
// the strings Cut may shorten.
func (p *Payload) cutFields(fields []*string) []*string {
	fields = append(fields, &p.Title, &p.ParentToolCallID)
	if p.Tool != nil {
		t := *p.Tool
		p.Tool = &t
		fields = append(fields, &t.Name, &t.Kind, &t.Namespace, &t.Label)
	}
	if p.Chain != nil {
		c := *p.Chain
		p.Chain = &c
		fields = append(fields, &c.ID, &c.Summary)
	}
	if p.SubagentTask != nil {
		t := *p.SubagentTask
		p.SubagentTask = &t
		fields = append(fields, &t.Description, &t.Prompt, &t.SubagentType, &t.Status, &t.AgentID,
			&t.Model, &t.ChildSessionID, &t.Name, &t.Cwd, &t.ResultText, &t.Error, &t.OutputFile)
	}
	if p.Shell != nil {
		sh := *p.Shell
		p.Shell = &sh
		fields = append(fields, &sh.Command, &sh.Cwd, &sh.TerminalID, &sh.Output, &sh.Signal)
	}
	if p.MCPTool != nil {
		m := *p.MCPTool
		p.MCPTool = &m
		fields = append(fields, &m.Server, &m.Tool, &m.Output, &m.Error)
	}
	if p.Monitor != nil {
		m := *p.Monitor
		m.RecentEvents = slices.Clone(m.RecentEvents)
		p.Monitor = &m
		fields = append(fields, &m.Command, &m.EndReason) // the task id is its alias: never cut
		for i := range m.RecentEvents {
			fields = append(fields, &m.RecentEvents[i])
		}
	}
	if p.Wakeup != nil {
		w := *p.Wakeup
		p.Wakeup = &w
		fields = append(fields, &w.Prompt, &w.Reason)
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
