package copilot

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MaxTaskText bounds a task's prompt, result text and error, in bytes:
// past it the text is cut at a rune boundary.
const MaxTaskText = 64 << 10

// Task modes (rawInput.mode).
const (
	ModeSync       = "sync"
	ModeBackground = "background"
)

// isTask reports whether a tool call is Copilot CLI's task tool, which runs
// a subagent: ACP kind other (this update's, else the card's) and a
// rawInput with a string prompt and agent_type. Copilot sends no tool name;
// its title is the task's description.
func isTask(u frame.ToolUpdate, prev acpdialect.Payload) bool {
	kind := frame.View(u.ACPKind)
	if kind == "" && prev.Generic != nil {
		kind = prev.Generic.ACPKind
	}
	if kind != "other" || (prev.Kind != acpdialect.KindGeneric && prev.Kind != "") {
		return false
	}
	return frame.Get(u.RawInput, "prompt").Type == gjson.String &&
		frame.Get(u.RawInput, "agent_type").Type == gjson.String
}

// taskCard makes the task tool call a subagent_task card (docs/copilot.md
// section 2): rawInput {name, prompt, agent_type, description, mode} gives
// its name, prompt, type and description, and mode background makes it
// async. A synchronous task's text (rawOutput.content, else the text
// content) is its result when the call completes; a failed task's text,
// else its rawOutput.message (a task Copilot could not start), is its
// error, and the subagent status is failed. A background task's text
// ("Agent started in background with agent_id: <id>. ...") is no result,
// but gives the subagent's id. The kind object is copied before a change.
func taskCard(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	var st acpdialect.SubagentTask
	if prev.SubagentTask != nil {
		st = *prev.SubagentTask
	}
	prev.Kind = acpdialect.KindSubagentTask
	in := u.RawInput
	fillText(&st.Name, frame.Get(in, "name").Str)
	fillText(&st.Prompt, frame.Get(in, "prompt").Str)
	fillText(&st.SubagentType, frame.Get(in, "agent_type").Str)
	fillText(&st.Description, frame.Get(in, "description").Str)
	if frame.View(frame.Get(in, "mode")) == ModeBackground {
		st.IsAsync = true
	}
	text, hasText := taskText(u)
	switch {
	case hasText && BackgroundID(text) != "":
		st.IsAsync = true
		fillText(&st.AgentID, BackgroundID(text))
	case u.Status.Str == acpdialect.StatusFailed:
		// Copilot fails a task it cannot start (an unknown agent_type)
		// with rawOutput {message, code} and no text.
		st.Status = acpdialect.StatusFailed
		if m := frame.Get(u.RawOutput, "message"); !hasText && m.Type == gjson.String {
			text = m.Str
		}
		fillText(&st.Error, text)
	case hasText && !st.IsAsync && u.Status.Str == acpdialect.StatusCompleted:
		st.Status = acpdialect.StatusCompleted
		fillText(&st.ResultText, text)
	}
	if prev.SubagentTask == nil || !prev.SubagentTask.Equal(st) {
		prev.SubagentTask = &st
	}
	return prev
}

// taskText is a task update's text: a string rawOutput.content, else the
// text of its content blocks. ok is false when it has neither.
func taskText(u frame.ToolUpdate) (string, bool) {
	if c := frame.Get(u.RawOutput, "content"); c.Type == gjson.String {
		return c.Str, true
	}
	return shellOutput(u)
}

// backgroundStart is how Copilot CLI's text for a task started in the
// background begins (1.0.102).
const backgroundStart = "Agent started in background with agent_id: "

// BackgroundID reads the subagent's id from the text with which Copilot
// ends the tool call of a task it started in the background: "Agent
// started in background with agent_id: <id>. You'll be notified ...". Any
// other text, or an id that is empty or over 256 bytes, gives "".
func BackgroundID(text string) string {
	rest, ok := strings.CutPrefix(text, backgroundStart)
	if !ok {
		return ""
	}
	end := strings.IndexAny(rest, " \t\r\n")
	if end < 0 {
		end = len(rest)
	}
	id := strings.TrimSuffix(rest[:end], ".")
	if id == "" || len(id) > 256 {
		return ""
	}
	return id
}

// fillText sets *dst to a non-empty v, cut to MaxTaskText at a rune
// boundary, and copied (v views the frame).
func fillText(dst *string, v string) {
	if s := frame.HeadView(v, MaxTaskText); s != "" && s != *dst {
		*dst = strings.Clone(s)
	}
}
