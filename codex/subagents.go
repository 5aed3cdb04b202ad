package codex

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Collaboration tools and subagent activities.
const (
	ToolSpawnAgent  = "spawnAgent"
	ToolSendInput   = "sendInput"
	ToolResumeAgent = "resumeAgent"
	ToolWait        = "wait"
	ToolCloseAgent  = "closeAgent"
	// ToolFollowupTask gives a running child more work (codex-acp 2.x
	// treats it as sendInput and resumeAgent).
	ToolFollowupTask = "followupTask"

	ActivityStarted    = "started"
	ActivityInteracted = "interacted"
)

// reports reports whether a collaboration tool only reports on runs it
// did not start.
func reports(tool string) bool {
	switch tool {
	case ToolSendInput, ToolResumeAgent, ToolWait, ToolCloseAgent, ToolFollowupTask:
		return true
	}
	return false
}

// collabTool reports whether name is a collaboration tool.
func collabTool(name string) bool {
	return name == ToolSpawnAgent || reports(name)
}

// StatusRank orders a subagent's statuses: 1 starting (started,
// pendingInit), 2 running (running, inProgress, in_progress), 3 final
// (completed, complete, interrupted, cancelled, errored, error, shutdown,
// notFound); 0 for anything else.
func StatusRank(status string) int {
	switch status {
	case "started", "pendingInit", "pending":
		return 1
	case "running", "inProgress", "in_progress":
		return 2
	case "completed", "complete", "interrupted", "cancelled", "errored", "error", "shutdown", "notFound":
		return 3
	}
	return 0
}

// Forward returns next, unless it is empty or would move the status
// backwards (StatusRank): a subagent's status only moves forward.
func Forward(old, next string) string {
	if next == "" || StatusRank(next) < StatusRank(old) {
		return old
	}
	return next
}

// acpStatus is the tool call status a final subagent status means, or "".
func acpStatus(status string) string {
	switch status {
	case "completed", "complete", "shutdown":
		return acpdialect.StatusCompleted
	case "interrupted", "cancelled":
		return acpdialect.StatusCancelled
	case "errored", "error", "notFound":
		return acpdialect.StatusFailed
	}
	return ""
}

// Runs names the subagent runs a tool call speaks of: a spawn's child
// (the first receiver, from _meta else rawInput) with its sender as parent
// thread; a started or finished activity's thread (from _meta else
// rawInput); and, as runs only reported on, the receivers of sendInput,
// resumeAgent, wait and closeAgent and the thread of an interacted
// activity.
func Runs(u frame.ToolUpdate) []acpdialect.Run {
	// The needles leave out the opening quote: a search that starts on
	// `"` stops at every quote of the frame.
	if !strings.Contains(u.Meta.Raw, `codex"`) && !strings.Contains(u.RawInput.Raw, `ThreadId"`) {
		return nil
	}
	m := ReadMeta(u)
	switch {
	case m.Tool == ToolSpawnAgent:
		in := ParseInput(u.RawInput)
		child := or(first(m.Receivers), first(in.Receivers))
		if child == "" {
			return nil
		}
		return []acpdialect.Run{{Child: strings.Clone(child), Parent: strings.Clone(or(m.Sender, in.Sender)), Done: in.ended(child)}}
	case reports(m.Tool):
		in := ParseInput(u.RawInput)
		ids := m.Receivers
		if len(ids) == 0 {
			ids = in.Receivers
		}
		runs := make([]acpdialect.Run, 0, len(ids))
		for _, id := range ids {
			runs = append(runs, acpdialect.Run{Child: strings.Clone(id), Touch: true, Done: in.ended(id)})
		}
		return runs
	case m.Activity != "":
		child := or(m.Thread, ParseInput(u.RawInput).Thread)
		if child == "" || (m.Activity != ActivityStarted && m.Activity != ActivityInteracted && StatusRank(m.Activity) != 3) {
			return nil
		}
		return []acpdialect.Run{{Child: strings.Clone(child), Touch: m.Activity == ActivityInteracted, Done: StatusRank(m.Activity) == 3}}
	}
	return nil
}

// Input is what a collaboration or activity tool call's rawInput says.
// Its strings view the frame.
type Input struct {
	Prompt    string
	Sender    string
	Receivers []string
	// States is agentsStates: {<thread>: {status, message}}.
	States gjson.Result
	Model  string
	Status string
	// Thread and Path are an activity's agentThreadId and agentPath,
	// Activity its activityKind.
	Thread   string
	Path     string
	Activity string
}

// ParseInput reads rawInput in one pass; a field of the wrong type reads
// as absent, of a key that appears twice the first counts.
func ParseInput(raw gjson.Result) Input {
	var in Input
	frame.Members(raw, func(k string, v gjson.Result) bool {
		switch k {
		case "prompt":
			in.Prompt = or(in.Prompt, frame.View(v))
		case "senderThreadId":
			in.Sender = or(in.Sender, frame.View(v))
		case "receiverThreadIds":
			if in.Receivers == nil {
				in.Receivers = threads(v)
			}
		case "agentsStates":
			if !in.States.Exists() {
				in.States = v
			}
		case "model":
			in.Model = or(in.Model, frame.View(v))
		case "status":
			in.Status = or(in.Status, frame.View(v))
		case "agentThreadId":
			in.Thread = or(in.Thread, frame.View(v))
		case "agentPath":
			in.Path = or(in.Path, frame.View(v))
		case "activityKind":
			in.Activity = or(in.Activity, frame.View(v))
		}
		return true
	})
	return in
}

// state returns a child's agentsStates entry: its status and message.
func (in Input) state(child string) (status, message string) {
	if child == "" || !in.States.IsObject() {
		return "", ""
	}
	frame.Members(in.States, func(k string, v gjson.Result) bool {
		if k != child {
			return true
		}
		status, message = frame.View(v.Get("status")), frame.View(v.Get("message"))
		return false
	})
	return status, message
}

// ended reports whether agentsStates gives child a final status. Only the
// child's own state says so: the tool call's status (and rawInput.status)
// is the collaboration call's, which completes once a spawn has started
// the child.
func (in Input) ended(child string) bool {
	status, _ := in.state(child)
	return StatusRank(status) == 3
}

// PathName returns the last element of a subagent path
// ("/root/weather_research" -> "weather_research"), or "".
func PathName(path string) string {
	path = strings.TrimRight(path, "/")
	return path[strings.LastIndexByte(path, '/')+1:]
}

// failureText returns a child's agentsStates message when its status is a
// failure: Codex's CollabAgentState gives an errored child its error text
// as the message (a completed child's is its last message, which is no
// error); "" otherwise.
func failureText(status, message string) string {
	if acpStatus(status) != acpdialect.StatusFailed {
		return ""
	}
	return message
}

// subagentCall merges a collaboration or activity frame into a subagent
// card. A frame that only reports on runs changes a card only when it is
// one already. Merges fill what is empty; the status only moves forward.
// A failed child's message (agentsStates, on a spawn or on a report such
// as wait) is the card's error, the latest winning, and not its
// description.
func subagentCall(u frame.ToolUpdate, m Meta, prev acpdialect.Payload) acpdialect.Payload {
	var st acpdialect.SubagentTask
	claimed := prev.Kind == acpdialect.KindSubagentTask && prev.SubagentTask != nil
	if claimed {
		st = *prev.SubagentTask
	}
	in := ParseInput(u.RawInput)
	var child, desc, prompt, kind, model, status, errText string
	switch {
	case m.Tool == ToolSpawnAgent:
		child = or(first(m.Receivers), first(in.Receivers))
		s, msg := in.state(or(st.ChildSessionID, child))
		if errText = failureText(s, msg); errText != "" {
			msg = ""
		}
		desc, prompt, model, status = or(msg, in.Prompt), in.Prompt, in.Model, or(s, in.Status)
		claimed = true
	case reports(m.Tool):
		var msg string
		status, msg = in.state(st.ChildSessionID)
		errText = failureText(status, msg)
	case m.Activity != "":
		child = or(m.Thread, in.Thread)
		desc = PathName(or(m.Path, in.Path))
		kind = desc
		if m.Activity != ActivityInteracted {
			status = m.Activity
			claimed = claimed || m.Activity == ActivityStarted || StatusRank(m.Activity) == 3
		}
	}
	if !claimed {
		return prev
	}
	fillEmpty(&st.ChildSessionID, child)
	fillEmpty(&st.Description, desc)
	fillEmpty(&st.Prompt, prompt)
	fillEmpty(&st.SubagentType, kind)
	fillEmpty(&st.Model, model)
	if errText != "" && errText != st.Error {
		st.Error = strings.Clone(errText)
	}
	if s := Forward(st.Status, status); s != st.Status {
		st.Status = strings.Clone(s)
	}
	prev.Kind = acpdialect.KindSubagentTask
	if s := acpStatus(st.Status); s != "" {
		prev.Status = s
	}
	if prev.SubagentTask == nil || !st.Equal(*prev.SubagentTask) {
		prev.SubagentTask = frame.Keep(st)
	}
	return prev
}

// fillEmpty sets *dst to a copy of v when *dst is empty.
func fillEmpty(dst *string, v string) {
	if *dst == "" && v != "" {
		*dst = strings.Clone(v)
	}
}
