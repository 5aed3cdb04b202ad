package opencode

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Task is what one tool call frame says of OpenCode's task tool. Its
// strings are the caller's own (copied from the frame).
type Task struct {
	// IsTask: the frame is the task tool's (see IsTask).
	IsTask bool
	// Description, Prompt and SubagentType are rawInput's.
	Description, Prompt, SubagentType string
	// ChildSessionID is rawOutput.metadata.sessionId, else the task id
	// the output names.
	ChildSessionID string
	// State is the task's state as the output's <task> tag names it
	// ("completed", or "running" for a task that went on in the
	// background); "" for an output without the tag.
	State string
	// Model is rawOutput.metadata.model: "providerID/modelID", or
	// whichever of the two is present.
	Model string
	// ResultText is the subagent's final text: what rawOutput.output
	// holds between <task_result> tags, unless the tag says the task is
	// not done (then the text is OpenCode's notice to the model).
	ResultText string
	// Error is rawOutput.error: a failed task's error text, which
	// OpenCode sends as the failed tool call's rawOutput {error,
	// metadata} ("Subagent failed (task_id: <child>): ..." for a child
	// that failed).
	Error string
}

// IsTask reports whether a tool call frame is OpenCode's task tool: its
// title is "task" (any case, spaces trimmed), which is how OpenCode names
// the tool call until the task sets its own title; or, for a card first
// seen after that, its ACP kind is "think" and rawInput names a
// subagent_type (OpenCode gives no other tool kind "think").
func IsTask(u frame.ToolUpdate) bool {
	if u.Title.Type == gjson.String && strings.EqualFold(strings.TrimSpace(u.Title.Str), "task") {
		return true
	}
	return u.ACPKind.Type == gjson.String && u.ACPKind.Str == "think" &&
		u.RawInput.Get("subagent_type").Type == gjson.String && u.RawInput.Get("subagent_type").Str != ""
}

// ReadTask reads a tool call frame as the task tool's. A field of the
// wrong type is absent; of a key that appears twice the first counts.
func ReadTask(u frame.ToolUpdate) Task {
	t := Task{IsTask: IsTask(u)}
	var seen uint8
	frame.Members(u.RawInput, func(k string, v gjson.Result) bool {
		switch {
		case k == "description" && once(&seen, 1):
			t.Description = frame.View(v)
		case k == "prompt" && once(&seen, 2):
			t.Prompt = frame.View(v)
		case k == "subagent_type" && once(&seen, 4):
			t.SubagentType = frame.View(v)
		}
		return true
	})
	var output string
	seen = 0
	frame.Members(u.RawOutput, func(k string, v gjson.Result) bool {
		switch {
		case k == "metadata" && once(&seen, 1):
			t.ChildSessionID, t.Model = readMetadata(v)
		case k == "output" && once(&seen, 2):
			output = frame.View(v)
		case k == "error" && once(&seen, 4):
			if e := frame.View(v); strings.TrimSpace(e) != "" {
				t.Error = e // a blank text is no error
			}
		}
		return true
	})
	id, result := ParseOutput(output)
	if t.ChildSessionID == "" {
		t.ChildSessionID = id
	}
	t.ResultText = result
	_, t.State = ParseTaskTag(output)
	frame.Own(&t.Description, &t.Prompt, &t.SubagentType, &t.ChildSessionID, &t.Model, &t.State, &t.ResultText, &t.Error)
	return t
}

// readMetadata reads the task's metadata: {sessionId, model: {providerID,
// modelID}}. The strings view the frame.
func readMetadata(md gjson.Result) (child, model string) {
	var provider, id string
	var seen uint8
	frame.Members(md, func(k string, v gjson.Result) bool {
		switch {
		case k == "sessionId" && once(&seen, 1):
			child = frame.View(v)
		case k == "model" && once(&seen, 2):
			var seen uint8
			frame.Members(v, func(k string, v gjson.Result) bool {
				switch {
				case k == "providerID" && once(&seen, 1):
					provider = frame.View(v)
				case k == "modelID" && once(&seen, 2):
					id = frame.View(v)
				}
				return true
			})
		}
		return true
	})
	switch {
	case provider != "" && id != "":
		model = provider + "/" + id
	case id != "":
		model = id
	default:
		model = provider
	}
	return child, model
}

// ParseOutput reads the task tool's output. OpenCode 1.14 wrote it as
//
//	task_id: <child session id> (for resuming to continue this task if needed)
//
//	<task_result>
//	<the subagent's final text>
//	</task_result>
//
// and 1.18 writes it as
//
//	<task id="<child session id>" state="completed">
//	<task_result>
//	<the subagent's final text>
//	</task_result>
//	</task>
//
// with state "running" (and a <summary> line) for a task that goes on in
// the background, whose <task_result> holds OpenCode's notice to the
// model, not the subagent's text.
//
// It returns the task id (the first line's word after "task_id: ", ended
// by any white space, a carriage return included; or the <task> tag's id,
// see ParseTaskTag) and the text between the first <task_result> and the
// last </task_result>, trimmed of the line break (\n or \r\n) on each
// side, unless the <task> tag names a state other than "completed". Either
// is "" when its part is missing; nothing is guessed from other text. The
// results view output.
func ParseOutput(output string) (taskID, result string) {
	if rest, ok := strings.CutPrefix(output, "task_id: "); ok {
		end := strings.IndexAny(rest, " \t\r\n\v\f")
		if end < 0 {
			end = len(rest)
		}
		taskID = rest[:end]
	}
	id, state := ParseTaskTag(output)
	if id != "" {
		taskID = id
	}
	if state != "" && state != "completed" {
		return taskID, "" // the task goes on: the text is not its result
	}
	const open, end = "<task_result>", "</task_result>"
	i := strings.Index(output, open)
	if i < 0 {
		return taskID, ""
	}
	body := output[i+len(open):]
	j := strings.LastIndex(body, end)
	if j < 0 {
		return taskID, ""
	}
	return taskID, trimLineBreaks(body[:j])
}

// ParseTaskTag reads the <task id="..." state="..."> tag that opens the
// task tool's output since OpenCode 1.18: exactly that form, at the start
// of the output, the id and the state each a non-empty word without white
// space or quotes. Both are "" when the output does not open so. The
// results view output.
func ParseTaskTag(output string) (id, state string) {
	rest, ok := strings.CutPrefix(output, `<task id="`)
	if !ok {
		return "", ""
	}
	id, rest, ok = cutWord(rest)
	if !ok {
		return "", ""
	}
	if rest, ok = strings.CutPrefix(rest, ` state="`); !ok {
		return "", ""
	}
	state, rest, ok = cutWord(rest)
	if !ok || !strings.HasPrefix(rest, ">") {
		return "", ""
	}
	return id, state
}

// cutWord cuts a non-empty word ended by a double quote off s: the word,
// what follows the quote, and whether there was such a word.
func cutWord(s string) (word, rest string, ok bool) {
	end := strings.IndexAny(s, "\" \t\r\n\v\f")
	if end <= 0 || s[end] != '"' {
		return "", "", false
	}
	return s[:end], s[end+1:], true
}

// trimLineBreaks removes one line break, \n or \r\n, from each end of s.
func trimLineBreaks(s string) string {
	if t, ok := strings.CutPrefix(s, "\r\n"); ok {
		s = t
	} else {
		s = strings.TrimPrefix(s, "\n")
	}
	if t, ok := strings.CutSuffix(s, "\r\n"); ok {
		return t
	}
	return strings.TrimSuffix(s, "\n")
}

// ToolCall claims the task tool's cards and merges what each frame says:
// rawInput's description, prompt and subagent type; the completion's
// child session, model and result text, and the state its <task> tag
// names as the subagent's status (so a task sent to the background shows
// "running" on a completed card), and a failed card's error. A value once
// set is replaced only by another non-empty one. It makes the shell
// tool's cards shell cards (IsShell, ReadShell), before it looks for a
// task: OpenCode titles a command by its text, so a command named "task"
// is a shell's. Other tool calls are left as they are. It copies the kind
// object before changing it.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	var st acpdialect.SubagentTask
	switch {
	case prev.Kind == acpdialect.KindShell || IsShell(u, prev):
		return shellCall(u, prev)
	case prev.Kind == acpdialect.KindSubagentTask && prev.SubagentTask != nil:
		st = *prev.SubagentTask
	case IsTask(u):
		prev.Kind = acpdialect.KindSubagentTask
	default:
		return prev
	}
	t := ReadTask(u)
	fillIf(&st.Description, t.Description)
	fillIf(&st.Prompt, t.Prompt)
	fillIf(&st.SubagentType, t.SubagentType)
	fillIf(&st.ChildSessionID, t.ChildSessionID)
	fillIf(&st.Model, t.Model)
	fillIf(&st.ResultText, t.ResultText)
	fillIf(&st.Status, t.State)
	if prev.Status == acpdialect.StatusFailed {
		fillIf(&st.Error, t.Error)
	}
	if prev.SubagentTask == nil || !st.Equal(*prev.SubagentTask) {
		prev.SubagentTask = frame.Keep(st)
	}
	return prev
}

// fillIf sets *dst to v when v is set and differs: an equal value keeps
// the string already held, so that an unchanged card shares it.
func fillIf(dst *string, v string) {
	if v != "" && v != *dst {
		*dst = v
	}
}

// MergeLate merges a subagent node (see Node) into a card: the node's
// subagent status, its agent as the subagent type where the task named
// none, the child session, its directory (a later node's replaces), and
// the card status its phase maps to, which
// never moves a card back (a finished card stays finished, a running one
// does not go back to pending). It merges two waiting nodes the same way,
// the later one's values winning. ok is false unless both are subagent
// payloads.
func MergeLate(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
	if late.SubagentTask == nil || late.Kind != acpdialect.KindSubagentTask || cur.Kind != acpdialect.KindSubagentTask {
		return cur, false // a node speaks only of a task's card
	}
	var st acpdialect.SubagentTask
	if cur.SubagentTask != nil {
		st = *cur.SubagentTask
	}
	in := late.SubagentTask
	fillIf(&st.Status, in.Status)
	fillIf(&st.ChildSessionID, in.ChildSessionID)
	fillIf(&st.Cwd, in.Cwd)
	if st.SubagentType == "" {
		st.SubagentType = in.SubagentType
	}
	if st.Description == "" {
		st.Description = in.Description
	}
	cur.Status = forward(cur.Status, late.Status)
	if cur.SubagentTask == nil || !st.Equal(*cur.SubagentTask) {
		*in = st // the late half's object is the merge's to take over
		cur.SubagentTask = in
	}
	return cur, true
}

// forward returns the card status after next, which never moves a card
// back: a finished card keeps its status, and a running or paused one
// does not go back to pending.
func forward(cur, next string) string {
	if next == "" {
		return cur
	}
	switch cur {
	case acpdialect.StatusCompleted, acpdialect.StatusFailed, acpdialect.StatusCancelled:
		return cur
	case acpdialect.StatusInProgress, acpdialect.StatusPaused:
		if next == acpdialect.StatusPending {
			return cur
		}
	}
	return next
}

// once reports whether bit is not yet in *seen, and sets it: the first of
// two equal keys counts.
func once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}
