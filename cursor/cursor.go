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
// A client that opts in to native subagents (ClientFeatures.Subagents)
// also gets subagent_spawned and subagent_state_update, two non-spec
// session/update kinds (Dialect.Updates) that name the child session; they
// fold into the same card, a state that comes before its spawn waiting for
// it (Update.Waits) rather than making a second one.
//
// Cursor's other vendor methods produce session-level events: the blocking
// requests cursor/ask_question and cursor/create_plan (a question and a
// plan the client may answer itself; by default they are answered
// "cancelled" so the turn goes on), cursor/update_todos (the session's todo
// list) and cursor/generate_image (answered "rejected" by default). None of
// them has a "_" prefix.
//
// The wire facts each rule relies on, with their public sources, are in
// the module's docs/cursor.md.
package cursor

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
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
		// Every method is allowed in both forms: builds differ, and a
		// notification form of a blocking method still yields its event.
		Methods: []acpdialect.Method{
			{Name: MethodTask, Kind: acpdialect.RequestOrNotification, Handle: HandleTask},
			{Name: MethodAskQuestion, Kind: acpdialect.RequestOrNotification, Handle: HandleQuestion},
			{Name: MethodCreatePlan, Kind: acpdialect.RequestOrNotification, Handle: HandlePlan},
			{Name: MethodUpdateTodos, Kind: acpdialect.RequestOrNotification, Handle: HandleTodos},
			{Name: MethodGenerateImage, Kind: acpdialect.RequestOrNotification, Handle: HandleImage},
		},
		Updates: []acpdialect.Update{
			{Kind: UpdateSubagentSpawned, Handle: HandleSpawned},
			{Kind: UpdateSubagentState, Handle: HandleSubagentState, Waits: true},
		},
		Calls: []acpdialect.Call{
			{Name: MethodListAvailableModels, Result: modelsEvent},
		},
		ToolCall:           ToolCall,
		MergeLate:          MergeLate,
		CommandDescription: CommandDescription,
		// Cursor reuses tool call ids across turns: metadata that found no
		// tool call in its turn must not enrich a later one.
		SweepAtTurnEnd: true,
		// For audits: subagent_spawned's _meta.cursor names the Task tool
		// call and the model (native.go). The client's own capability
		// flags (ClientMeta) are Cursor's, known, and not read back.
		Reads:   []string{"_meta.cursor.toolCallId", "_meta.cursor.model"},
		Ignores: []string{"_meta." + MetaModelPicker, "_meta." + MetaSubagents, "_meta.terminal_output"},
	}
}

// names are what Cursor's agent (`agent acp`) calls itself in its
// initialize response: agentInfo name "cursor-agent", title "Cursor
// Agent"; "Cursor" alone is taken too, as a title or an Options.Agent.
var names = [...]string{"cursor-agent", "Cursor Agent", "Cursor"}

// Match identifies Cursor by its initialize agentInfo name or title: one
// of its known names ("cursor-agent", "Cursor Agent", "Cursor"), in any
// case, alone or followed by a version ("cursor-agent 1.2",
// "cursor-agent/2025.11", "Cursor Agent v2"); see acpdialect.MatchName.
// A name that merely contains "cursor" ("precursor", "claude-code
// (cursor-compatible)", "cursor-agent-shim") is another agent: Cursor's
// rules never run for it. Name the dialect explicitly (Options.Agent
// "cursor", `--agent cursor`) for a build that calls itself otherwise.
func Match(name, title string) bool {
	return acpdialect.MatchName(name, names[:]...) || acpdialect.MatchName(title, names[:]...)
}

// HandleTask reads cursor/task params. The reply is always an empty success
// result: cursor/task is fire-and-forget, and malformed metadata must never
// fail the agent's request. The metadata becomes a late half for the tool
// call it names.
func HandleTask(params gjson.Result) acpdialect.Action {
	meta, ok := ParseTask(params)
	if !ok && !params.IsObject() {
		return acpdialect.Action{}
	}
	// Without a tool call id (ToolCallID "") the Conn drops the metadata
	// and counts it in Stats.LateDropped, as it does a half it cannot place.
	return acpdialect.Action{Late: acpdialect.Late{
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

// ParseTask reads cursor/task params in one pass: a field of the wrong type
// is treated as absent and never blocks the others; of a key that appears
// twice the first value counts. ok is false when the params name no tool
// call, so nothing can be correlated.
func ParseTask(params gjson.Result) (Task, bool) {
	if !params.IsObject() {
		return Task{}, false
	}
	var t Task
	var seen uint8
	r := frame.NewReader(params)
	r.Object(func(k string) {
		switch {
		case k == "toolCallId" && once(&seen, 1):
			t.ToolCallID = r.String()
		case k == "description" && once(&seen, 2):
			t.Description = r.String()
		case k == "prompt" && once(&seen, 4):
			t.Prompt = r.String()
		case k == "model" && once(&seen, 8):
			t.Model = r.String()
		case k == "agentId" && once(&seen, 16):
			t.AgentID = r.String()
		}
	})
	frame.Own(&t.ToolCallID, &t.Description, &t.Prompt, &t.Model, &t.AgentID)
	return t, t.ToolCallID != ""
}

// IsTask reports whether a tool call update is Cursor's subagent tool:
// rawInput._toolName is "task", in any case.
func IsTask(u frame.ToolUpdate) bool {
	return readInput(u.RawInput).isTask
}

// ToolCall claims Cursor's subagent tool calls and merges what the tool
// call itself says: rawInput's description and prompt, and the
// completion's rawOutput run time and background flag. Other tool calls are
// left as they are. It copies the subagent object before changing it.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	in := readInput(u.RawInput)
	var st acpdialect.SubagentTask
	switch {
	case prev.Kind == acpdialect.KindSubagentTask && prev.SubagentTask != nil:
		st = *prev.SubagentTask
	case in.isTask:
		prev.Kind = acpdialect.KindSubagentTask
	default:
		return prev
	}
	// rawInput only fills: cursor/task's metadata is the authority, and
	// must not be replaced by what a later update's rawInput repeats.
	desc, prompt := in.description, in.prompt
	if st.Description != "" {
		desc = ""
	}
	if st.Prompt != "" {
		prompt = ""
	}
	frame.Own(&desc, &prompt)
	frame.Fill(&st.Description, desc)
	frame.Fill(&st.Prompt, prompt)
	ms, bg := readOutput(u.RawOutput)
	if ms >= 0 {
		st.DurationMs = &ms
	}
	if bg != unknown {
		st.IsAsync = bg == yes
	}
	if prev.SubagentTask == nil || !st.Equal(*prev.SubagentTask) {
		prev.SubagentTask = clone(st)
	}
	return prev
}

// input is what ToolCall reads of rawInput, in one pass (first values win,
// as with gjson's Get); the strings view the frame.
type input struct {
	isTask              bool
	description, prompt string
}

// A flag read from the wire: absent (or not a bool), true or false.
type flag uint8

const (
	unknown flag = iota
	yes
	no
)

// readOutput reads the completion's rawOutput in one pass (it may hold a
// large output): the run time (-1 if absent or not a whole, non-negative
// number) and whether the subagent ran in the background.
func readOutput(raw gjson.Result) (durationMs int64, background flag) {
	durationMs = -1
	var seen uint8
	r := frame.NewReader(raw)
	r.Object(func(k string) {
		switch {
		case k == "durationMs" && once(&seen, 1):
			if ms, ok := frame.Int64(r.Value()); ok && ms >= 0 {
				durationMs = ms
			}
		case k == "isBackground" && once(&seen, 2):
			switch r.Value().Type {
			case gjson.True:
				background = yes
			case gjson.False:
				background = no
			}
		}
	})
	return durationMs, background
}

func readInput(raw gjson.Result) input {
	var in input
	var seen uint8
	r := frame.NewReader(raw)
	r.Object(func(k string) {
		switch {
		case k == "_toolName" && once(&seen, 1):
			in.isTask = strings.EqualFold(r.String(), "task")
		case k == "description" && once(&seen, 2):
			in.description = r.String()
		case k == "prompt" && once(&seen, 4):
			in.prompt = r.String()
		}
	})
	return in
}

// MergeLate folds late metadata into a subagent payload: cursor/task's
// (description, prompt, model, agent id) and the native subagent updates'
// (child session, name, subagent status, model, and the spawn's task as
// description). A non-empty value replaces, an empty one never blanks.
// The one exception: a native half (one that names a child session) gives
// its description only when there is none yet, so that cursor/task's
// description wins over the spawn's task whichever arrives first. It
// applies only to subagent payloads; for anything else the metadata keeps
// waiting. The card's own status (Payload.Status) is the Conn's to set.
// cur's SubagentTask is never changed; when the merge changes the subagent,
// late's object (the merge's, see acpdialect.Dialect.MergeLate) becomes the
// new one, and when it does not, cur's comes back as it was.
func MergeLate(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
	if cur.Kind != acpdialect.KindSubagentTask || cur.SubagentTask == nil || late.SubagentTask == nil {
		return cur, false
	}
	st := *cur.SubagentTask
	m := late.SubagentTask
	if m.ChildSessionID == "" || st.Description == "" {
		frame.Fill(&st.Description, m.Description)
	}
	frame.Fill(&st.Prompt, m.Prompt)
	frame.Fill(&st.Model, m.Model)
	frame.Fill(&st.AgentID, m.AgentID)
	frame.Fill(&st.ChildSessionID, m.ChildSessionID)
	frame.Fill(&st.Name, m.Name)
	frame.Fill(&st.Status, m.Status)
	if !st.Equal(*cur.SubagentTask) {
		*m = st
		cur.SubagentTask = m
	}
	return cur, true
}

// clone returns a new copy of st: the merges work on a copy on the stack
// and allocate only when something changed.
func clone(st acpdialect.SubagentTask) *acpdialect.SubagentTask {
	n := new(acpdialect.SubagentTask)
	*n = st
	return n
}
