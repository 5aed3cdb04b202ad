package devin

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MaxText bounds a subagent's prompt, result text and error, in bytes:
// the head is kept, cut between runes.
const MaxText = 64 << 10

// Meta is what a Devin tool call's _meta says. Its strings view the
// frame.
type Meta struct {
	// ToolName is _meta["cognition.ai/inferenceToolName"].
	ToolName string
	// Parent is subagent_context.parentAgentId: the agent whose work the
	// tool call is ("root" for the session's own agent).
	Parent string
	// Started is subagent_started, Completed subagent_completed.
	Started   *Started
	Completed *Completed
}

// Started is _meta["cognition.ai/subagent_started"].
type Started struct {
	AgentID, Title, Task, Profile, Model string
	Background                           bool
}

// Completed is _meta["cognition.ai/subagent_completed"]. Failed is true
// only when Devin said success false. Summary is the subagent's closing
// text (why it failed, when it did); Error is an error field a completion
// may carry instead.
type Completed struct {
	AgentID, Summary, Error string
	Failed                  bool
}

// ParseMeta reads a tool call's _meta. Wrong types are absent; a started
// or completed marker without an agentId is ignored. Strings are trimmed
// (Devin may send a blank model).
func ParseMeta(meta gjson.Result) Meta {
	var m Meta
	if !meta.IsObject() {
		return m
	}
	frame.Members(meta, func(k string, v gjson.Result) bool {
		switch k {
		case MetaToolName:
			m.ToolName = str(v)
		case MetaSubagentContext:
			m.Parent = str(v.Get("parentAgentId"))
		case MetaSubagentStarted:
			s := Started{AgentID: str(v.Get("agentId"))}
			if v.IsObject() && s.AgentID != "" {
				s.Title, s.Task = str(v.Get("title")), str(v.Get("task"))
				s.Profile, s.Model = str(v.Get("profile")), str(v.Get("model"))
				s.Background = v.Get("isBackground").Type == gjson.True
				m.Started = &s
			}
		case MetaSubagentComplete:
			c := Completed{AgentID: str(v.Get("agentId"))}
			if v.IsObject() && c.AgentID != "" {
				c.Summary, c.Error = str(v.Get("summary")), str(v.Get("error"))
				c.Failed = v.Get("success").Type == gjson.False
				m.Completed = &c
			}
		}
		return true
	})
	return m
}

// str returns a string value trimmed, viewing the frame; "" for any other
// type.
func str(v gjson.Result) string {
	if v.Type != gjson.String {
		return ""
	}
	return strings.TrimSpace(frame.View(v))
}

// ToolCall applies a Devin tool call's _meta to its card: the tool's name
// (Payload.Tool.Name), the parent agent's card (ParentToolCallID, unless
// the parent is the root agent), and the subagent markers (a
// subagent_task card: description (and the card's title, when it has
// none) from the marker's title, prompt from the task,
// type from the profile, model, agent id, async when in the background;
// on completion its status and its summary (else its error) as the
// result text, or as the error when the subagent failed, and the card's
// status when the frame gives none; a started marker after the completion
// leaves the card's status the subagent's). Kind objects are copied before a change; a frame
// that says nothing new returns prev as it is, so that Devin's resent
// whole-file writes leave the card unchanged.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	m := ParseMeta(u.Meta)
	if m.ToolName != "" && (prev.Tool == nil || prev.Tool.Name != m.ToolName) {
		t := acpdialect.Tool{}
		if prev.Tool != nil {
			t = *prev.Tool
		}
		t.Name = strings.Clone(m.ToolName)
		prev.Tool = &t
	}
	// A card is never its own parent (Devin tags a subagent's own traffic
	// with its id).
	if m.Parent != "" && m.Parent != RootAgent && m.Parent != prev.ParentToolCallID && m.Parent != u.ID.Str {
		prev.ParentToolCallID = strings.Clone(m.Parent)
	}
	if m.Started == nil && m.Completed == nil {
		return prev
	}
	var st acpdialect.SubagentTask
	if prev.SubagentTask != nil {
		st = *prev.SubagentTask
	}
	if s := m.Started; s != nil {
		fill(&st.AgentID, s.AgentID)
		fill(&st.Description, s.Title)
		fill(&st.Prompt, head(s.Task))
		fill(&st.SubagentType, s.Profile)
		fill(&st.Model, s.Model)
		st.IsAsync = st.IsAsync || s.Background
		if prev.Title == "" {
			prev.Title = strings.Clone(s.Title) // the marker's update has no title of its own
		}
	}
	if c := m.Completed; c != nil {
		fill(&st.AgentID, c.AgentID)
		text := c.Summary
		if text == "" {
			text = c.Error
		}
		// A failed subagent's summary says why it failed: the card's
		// error, not a result.
		if c.Failed {
			st.Status = acpdialect.StatusFailed
			fill(&st.Error, head(text))
		} else {
			st.Status = acpdialect.StatusCompleted
			fill(&st.ResultText, head(text))
		}
		if u.Status.Type != gjson.String {
			prev.Status = st.Status
		}
	} else if st.Status != "" && !acpdialect.StatusEnded(prev.Status) {
		// A started marker after the completion (resent, or out of order)
		// does not reopen a finished subagent: its in_progress is stale.
		prev.Status = st.Status
	}
	prev.Kind = acpdialect.KindSubagentTask
	prev.Generic = nil
	if prev.SubagentTask == nil || !prev.SubagentTask.Equal(st) {
		prev.SubagentTask = frame.Keep(st)
	}
	return prev
}

// fill sets *dst to a copy of v when v is not empty and differs.
func fill(dst *string, v string) {
	if v != "" && v != *dst {
		*dst = strings.Clone(v)
	}
}

// head returns s within MaxText bytes, cut between runes. It views s.
func head(s string) string { return frame.HeadView(s, MaxText) }

// EndNested reads a subagent's completion marker as the end of the tool
// calls it ran: Devin sends each of them as a tool_call and never ends
// it, so the cards nested under the subagent's (parent_tool_call_id, the
// agent id) that are still open end with the subagent: completed, or
// failed when success is false. A card that ended on its own keeps its
// status.
func EndNested(u frame.ToolUpdate) (parent, status string, ok bool) {
	c := ParseMeta(u.Meta).Completed
	if c == nil || c.AgentID == RootAgent {
		return "", "", false
	}
	id := strings.Clone(c.AgentID) // AgentID views the frame
	if c.Failed {
		return id, acpdialect.StatusFailed, true
	}
	return id, acpdialect.StatusCompleted, true
}
