package cursor

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Native subagents: a client that opts in (ClientFeatures.Subagents) gets
// two non-spec session/update kinds on the parent session, and the child's
// own updates under sessionId = subagentSessionId. Shapes and sources:
// docs/cursor.md section 6.
const (
	// UpdateSubagentSpawned: {"sessionUpdate":"subagent_spawned",
	// "subagentSessionId","task","name","_meta":{"cursor":{"model",
	// "toolCallId"}}}.
	UpdateSubagentSpawned = "subagent_spawned"
	// UpdateSubagentState: {"sessionUpdate":"subagent_state_update",
	// "subagentSessionId","state":"completed"|"failed"|"cancelled"|
	// "disconnected"}. It carries no error text.
	UpdateSubagentState = "subagent_state_update"
)

// SubagentRunning is the subagent status of a spawned child that has not
// reported a state yet.
const SubagentRunning = "running"

// HandleSpawned reads a subagent_spawned update into a late half for the
// Task tool call named by _meta.cursor.toolCallId (which may be absent: the
// Conn then keys the card by the child session). The spawn's task is the
// description; MergeLate lets cursor/task's description win over it. An
// update without a subagentSessionId says nothing: a zero Late.
func HandleSpawned(update gjson.Result) acpdialect.Late {
	var st acpdialect.SubagentTask
	var toolCallID string
	var seen uint8
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch {
		case k == "subagentSessionId" && once(&seen, 1):
			st.ChildSessionID = r.String()
		case k == "task" && once(&seen, 2):
			st.Description = r.String()
		case k == "name" && once(&seen, 4):
			st.Name = r.String()
		case k == "_meta" && once(&seen, 8):
			st.Model, toolCallID = readSpawnMeta(r)
		}
	})
	if st.ChildSessionID == "" {
		return acpdialect.Late{}
	}
	frame.Own(&toolCallID, &st.ChildSessionID, &st.Description, &st.Name, &st.Model)
	st.Status = SubagentRunning
	return acpdialect.Late{
		ToolCallID: toolCallID,
		Payload: acpdialect.Payload{
			Kind:         acpdialect.KindSubagentTask,
			Status:       acpdialect.StatusInProgress,
			SubagentTask: &st,
		},
	}
}

// readSpawnMeta reads _meta.cursor.{model,toolCallId}; the strings view the
// frame.
func readSpawnMeta(r *frame.Reader) (model, toolCallID string) {
	var seen uint8
	r.Object(func(k string) {
		if k != "cursor" || !once(&seen, 1) {
			return
		}
		var seen uint8
		r.Object(func(k string) {
			switch {
			case k == "model" && once(&seen, 1):
				model = r.String()
			case k == "toolCallId" && once(&seen, 2):
				toolCallID = r.String()
			}
		})
	})
	return model, toolCallID
}

// HandleSubagentState reads a subagent_state_update into a late half for
// the child session's card: the card status the state maps to (completed;
// failed for failed and disconnected; cancelled; "" for anything else),
// and the state as sent as the subagent's own status. An update without a
// subagentSessionId says nothing: a zero Late.
func HandleSubagentState(update gjson.Result) acpdialect.Late {
	var child, state string
	var seen uint8
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch {
		case k == "subagentSessionId" && once(&seen, 1):
			child = r.String()
		case k == "state" && once(&seen, 2):
			state = r.String()
		}
	})
	if child == "" {
		return acpdialect.Late{}
	}
	if known := subagentState(state); known != "" {
		state = known // a constant: no copy
		frame.Own(&child)
	} else {
		frame.Own(&child, &state)
	}
	return acpdialect.Late{Payload: acpdialect.Payload{
		Kind:         acpdialect.KindSubagentTask,
		Status:       cardStatus(state),
		SubagentTask: &acpdialect.SubagentTask{ChildSessionID: child, Status: state},
	}}
}

// subagentState returns Cursor's subagent states as constants, else "".
func subagentState(s string) string {
	for _, known := range [...]string{"completed", "failed", "cancelled", "disconnected"} {
		if s == known {
			return known
		}
	}
	return ""
}

// cardStatus maps a subagent state to a tool call status. A disconnected
// child will not finish: for the card that is a failure.
func cardStatus(state string) string {
	switch state {
	case "completed":
		return acpdialect.StatusCompleted
	case "failed", "disconnected":
		return acpdialect.StatusFailed
	case "cancelled":
		return acpdialect.StatusCancelled
	}
	return ""
}
