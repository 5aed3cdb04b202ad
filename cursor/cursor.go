// Package cursor is the dialect of Cursor's agent (`agent acp`).
//
// Cursor runs a subagent as a standard tool call (rawInput._toolName "task",
// title "Task: ...") and describes it in a vendor method, cursor/task, that
// has no "_" prefix: a request with an id in most builds, a notification in
// some. Its params name the tool call by toolCallId and carry the subagent's
// description, prompt, model and agent id; they arrive before or after the
// tool call. The completion's rawOutput carries the run time and whether
// the subagent ran in the background.
//
// Wire facts and sources: shared/research/vendors.md section 3 and
// kandev.md sections 2.4 and 5.
package cursor

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// ID is the dialect's identifier.
const ID = "cursor"

// MethodTask is Cursor's subagent metadata method.
const MethodTask = "cursor/task"

// Dialect returns the Cursor dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    ID,
		Match: Match,
		Methods: []acpdialect.Method{
			{Name: MethodTask, Kind: acpdialect.RequestOrNotification, Handle: HandleTask},
		},
		ToolCall:  ToolCall,
		MergeLate: MergeLate,
		// Cursor reuses tool call ids across turns: metadata that found no
		// tool call in its turn must not enrich a later one.
		SweepAtTurnEnd: true,
	}
}

// Match identifies Cursor by its initialize agentInfo name or title.
func Match(name, title string) bool {
	return containsFold(name, "cursor") || containsFold(title, "cursor")
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), sub)
}

// HandleTask reads cursor/task params. The reply is always an empty success
// result: cursor/task is fire-and-forget, and malformed metadata must never
// fail the agent's request. The metadata becomes a late half for the tool
// call it names.
func HandleTask(params gjson.Result) acpdialect.Action {
	meta, ok := ParseTask(params)
	if !ok {
		return acpdialect.Action{}
	}
	return acpdialect.Action{Late: &acpdialect.Late{
		ToolCallID: meta.ToolCallID,
		Payload: acpdialect.Payload{
			Kind: acpdialect.KindSubagentTask,
			SubagentTask: &acpdialect.SubagentTask{
				Description: meta.Description,
				Prompt:      meta.Prompt,
				Model:       meta.Model,
				AgentID:     meta.AgentID,
			},
		},
	}}
}

// Task is the part of cursor/task params a client renders. durationMs (the
// launch time, not the run time) and subagentType (an opaque object such as
// {"custom":{"unspecified":{}}}) are deliberately not read.
type Task struct {
	ToolCallID  string
	Description string
	Prompt      string
	Model       string
	AgentID     string
}

// ParseTask reads cursor/task params field by field: a field of the wrong
// type is treated as absent and never blocks the others. ok is false when
// the params name no tool call, so nothing can be correlated.
func ParseTask(params gjson.Result) (Task, bool) {
	if !params.IsObject() {
		return Task{}, false
	}
	t := Task{
		ToolCallID:  acpdialect.Str(params.Get("toolCallId")),
		Description: acpdialect.Str(params.Get("description")),
		Prompt:      acpdialect.Str(params.Get("prompt")),
		Model:       acpdialect.Str(params.Get("model")),
		AgentID:     acpdialect.Str(params.Get("agentId")),
	}
	return t, t.ToolCallID != ""
}

// IsTask reports whether a tool call update is Cursor's subagent tool:
// rawInput._toolName is "task", in any case.
func IsTask(update gjson.Result) bool {
	n := update.Get("rawInput._toolName")
	return n.Type == gjson.String && strings.EqualFold(n.Str, "task")
}

// ToolCall claims Cursor's subagent tool calls and merges what the tool
// call itself says: rawInput's description and prompt, and the
// completion's rawOutput run time and background flag. Other tool calls are
// left as they are.
func ToolCall(update gjson.Result, prev acpdialect.Payload) acpdialect.Payload {
	if prev.Kind != acpdialect.KindSubagentTask {
		if !IsTask(update) {
			return prev
		}
		prev.Kind = acpdialect.KindSubagentTask
		prev.SubagentTask = &acpdialect.SubagentTask{}
	}
	st := prev.SubagentTask
	in := update.Get("rawInput")
	acpdialect.Fill(&st.Description, acpdialect.Str(in.Get("description")))
	acpdialect.Fill(&st.Prompt, acpdialect.Str(in.Get("prompt")))
	out := update.Get("rawOutput")
	if ms, ok := acpdialect.Int64(out.Get("durationMs")); ok && ms >= 0 {
		st.DurationMs = acpdialect.Int(ms)
	}
	if bg := out.Get("isBackground"); bg.Type == gjson.True {
		st.IsAsync = true
	}
	return prev
}

// MergeLate folds cursor/task metadata into a subagent payload in place: a
// non-empty value replaces, an empty one never blanks. It applies only to
// subagent payloads; for anything else the metadata keeps waiting.
func MergeLate(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
	if cur.Kind != acpdialect.KindSubagentTask || cur.SubagentTask == nil || late.SubagentTask == nil {
		return cur, false
	}
	st := *cur.SubagentTask
	m := late.SubagentTask
	acpdialect.Fill(&st.Description, m.Description)
	acpdialect.Fill(&st.Prompt, m.Prompt)
	acpdialect.Fill(&st.Model, m.Model)
	acpdialect.Fill(&st.AgentID, m.AgentID)
	cur.SubagentTask = &st
	return cur, true
}
