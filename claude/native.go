package claude

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Native child sessions (ACP's subagents RFD, reworked form) and AIR's
// async tasks: update kinds the SDK does not know.
const (
	// UpdateSubagent, on the parent session, creates or updates a child
	// session: {sessionId, title?, description?, cwd?, capabilities?,
	// state?:{state, stopReason?, error?}}, description the child's role
	// (its subagent_type) from 0.99.1. The child id is the SDK task id, or
	// "<taskId>:generation:<n>" for a resumed one. The Conn reads it on
	// every connection, as the standard's (acpdialect.UpdateSubagent).
	UpdateSubagent = acpdialect.UpdateSubagent
	// UpdateSessionMessage is a message between sessions: a child's
	// prompt (on the child, and from 0.95.0 on the parent too, in place of
	// the Agent call the client is not sent), and a child's answer (on the
	// parent). Quarantined on every connection; the Conn reads the prompt
	// and the answer into the child's card (docs/claude.md section 5).
	UpdateSessionMessage = acpdialect.UpdateSessionMessage
	// AIR (JetBrains) async tasks: background shells, workflows, monitors
	// and tasks.
	UpdateAsyncTaskSpawned  = "async_task_spawned"
	UpdateAsyncTaskProgress = "async_task_progress"
	UpdateAsyncTaskState    = "async_task_state_update"
	// TaskTypeTurn is the async task of a model turn Claude Code started
	// with no prompt open (to answer a task notification or a wakeup),
	// from 0.95.0: "Claude is working", without a tool call, not shown in
	// the transcript, its id AutonomousTurnPrefix and a UUID. It is not
	// work beside the session's turns but one of them, whose tool calls
	// and text come as usual: neither it nor its progress and state make
	// a card.
	TaskTypeTurn         = "turn"
	AutonomousTurnPrefix = "autonomous-turn-"
	// Native child sessions as claude-agent-acp sent them from 0.71.0
	// (#1017), before the subagents RFD's rework into subagent_update:
	// subagent_spawned {subagentSessionId, name, task, capabilities} opens
	// the child, subagent_state_update {subagentSessionId, state:
	// completed|failed|cancelled} ends it. Agents in the field still run
	// those releases; without these kinds their children would link to no
	// card and their work would nest under nothing.
	UpdateSubagentSpawned = "subagent_spawned"
	UpdateSubagentState   = "subagent_state_update"
)

// Subagent statuses: the RFD's words, which the Cursor dialect also uses.
const (
	SubagentRunning      = acpdialect.SubagentRunning
	SubagentCompleted    = acpdialect.SubagentCompleted
	SubagentCancelled    = acpdialect.SubagentCancelled
	SubagentFailed       = acpdialect.SubagentFailed
	SubagentDisconnected = acpdialect.SubagentDisconnected
)

// HandleSubagentUpdate reads a subagent_update into a late half for the
// child session's card: acpdialect.ReadSubagentUpdate, which maps
// claude-agent-acp's work states (idle with end_turn or another normal
// stop is completed, idle with cancelled is cancelled, idle with refusal
// or without a stop reason is a failure, unknown is a disconnected child
// with a failed card). The dialect no longer lists the kind: the Conn
// reads it on every connection, and starts a card it makes running.
func HandleSubagentUpdate(update gjson.Result) acpdialect.Late {
	return acpdialect.ReadSubagentUpdate(update)
}

// HandleSubagentSpawned reads the pre-rework subagent_spawned into a late
// half for the child session's card, as the reworked subagent_update's
// would be: name (the subagent's display name) is the title and the
// description, task (its prompt) the prompt, and the child runs. An update
// without a subagentSessionId says nothing: a zero Late.
func HandleSubagentSpawned(update gjson.Result) acpdialect.Late {
	var st acpdialect.SubagentTask
	var seen uint8
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch {
		case k == "subagentSessionId" && once(&seen, 1):
			st.ChildSessionID = r.String()
		case k == "name" && once(&seen, 2):
			st.Description = r.String()
		case k == "task" && once(&seen, 4):
			st.Prompt = r.String()
		}
	})
	if st.ChildSessionID == "" {
		return acpdialect.Late{}
	}
	frame.Own(&st.ChildSessionID, &st.Description, &st.Prompt)
	st.Status = SubagentRunning
	return acpdialect.Late{Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
		Status: acpdialect.StatusInProgress, Title: st.Description, SubagentTask: &st}}
}

// HandleSubagentState reads the pre-rework subagent_state_update: its
// string state is the original draft's, which acpdialect.ReadSubagentUpdate
// maps (completed, failed, cancelled; disconnected is a failed card).
func HandleSubagentState(update gjson.Result) acpdialect.Late {
	return acpdialect.ReadSubagentUpdate(update)
}

// HandleAsyncTask reads AIR's async task updates into a late half for the
// task's card, named by the task id (an alias of the tool call that
// started it, when async_task_spawned names one):
//
//   - async_task_spawned {asyncTaskId, name, taskType, description,
//     toolCallId?, outputFilePath?}: a shell task is a background shell,
//     a monitor task a monitor, any other (task, workflow, an SDK type)
//     a card titled by its name; the task is running (in_progress);
//   - async_task_progress {asyncTaskId, summary?, usage?, toolCallId?}:
//     a monitor's summary is one of its events; usage the figures of a
//     subagent card, were the task's card one;
//   - async_task_state_update {asyncTaskId, state, summary?,
//     toolCallId?}: the task's state (running, paused, completed, failed,
//     stopped).
//
// Each names the tool call once it is known: a progress or state update
// may name it after a spawn that did not, and the Conn then hands the
// card keyed by the task id over to the tool call's (see Late.Alias).
func HandleAsyncTask(update gjson.Result) acpdialect.Late {
	t := readAsyncTask(update)
	if t.id == "" || t.autonomousTurn() {
		return acpdialect.Late{}
	}
	l := acpdialect.Late{ToolCallID: t.toolCallID, Alias: t.id}
	switch t.taskType {
	case "shell":
		l.Payload = acpdialect.Payload{Kind: acpdialect.KindShell, Shell: &acpdialect.Shell{Command: t.description, Background: true}}
	case "monitor":
		l.Payload = acpdialect.Payload{Kind: acpdialect.KindMonitor, Monitor: &acpdialect.Monitor{TaskID: t.id, Command: t.description}}
	default:
		// "task" (the adapter's word for a task whose SDK type is
		// missing), "workflow" and any SDK type passed through: a
		// background card of no kind of its own, titled by the name.
		// Never a subagent: the adapter does not report those as async
		// tasks (docs/claude.md section 6).
		l.Payload.Title = t.name
	}
	t.progress(&l.Payload)
	t.state(&l.Payload)
	return l
}

// asyncTask is what one async task update says; strings are copies.
type asyncTask struct {
	kind                         string
	id, toolCallID, taskType     string
	name, description            string
	summary, stateName           string
	durationMs, toolUses, tokens *int64
}

func readAsyncTask(update gjson.Result) asyncTask {
	var t asyncTask
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch k {
		case "sessionUpdate":
			fill(&t.kind, r.String())
		case "asyncTaskId":
			fill(&t.id, r.String())
		case "toolCallId":
			fill(&t.toolCallID, r.String())
		case "taskType":
			fill(&t.taskType, r.String())
		case "name":
			fill(&t.name, r.String())
		case "description":
			fill(&t.description, r.String())
		case "summary":
			fill(&t.summary, r.String())
		case "state":
			fill(&t.stateName, r.String())
		case "usage":
			r.Object(func(k string) {
				switch k {
				case "durationMs":
					t.durationMs = frame.Count(t.durationMs, r.Value())
				case "toolUses":
					t.toolUses = frame.Count(t.toolUses, r.Value())
				case "totalTokens":
					t.tokens = frame.Count(t.tokens, r.Value())
				}
			})
		}
	})
	return t
}

// autonomousTurn reports whether the update is of an autonomous turn's
// task: a spawn by its type, a progress or state update (which have none)
// by the id the adapter gives it.
func (t asyncTask) autonomousTurn() bool {
	return t.taskType == TaskTypeTurn || strings.HasPrefix(t.id, AutonomousTurnPrefix)
}

// progress puts a progress update's news on the half: a summary is an
// event of a monitor (its kind is known by its card, so the half carries
// a monitor object only with the summary), and usage the figures of a
// subagent.
func (t asyncTask) progress(p *acpdialect.Payload) {
	if t.kind != UpdateAsyncTaskProgress {
		return
	}
	if t.summary != "" {
		p.Monitor = &acpdialect.Monitor{TaskID: t.id, EventCount: 1, RecentEvents: []string{frame.Head(t.summary, MaxEventBody)}}
	}
	if t.durationMs != nil || t.toolUses != nil || t.tokens != nil {
		p.SubagentTask = &acpdialect.SubagentTask{DurationMs: t.durationMs, ToolUseCount: t.toolUses, TotalTokens: t.tokens}
	}
}

// state maps the task's state to the card status (applied only to a card
// the updates made: a tool call's card keeps its own) and ends a monitor.
// A spawned task is running, so a spawn makes its card in_progress, unless
// the spawn names a state of its own: a task that runs past the turn may
// send no state update for a long time.
func (t asyncTask) state(p *acpdialect.Payload) {
	switch t.kind {
	case UpdateAsyncTaskSpawned:
		p.Status = acpdialect.StatusInProgress
	case UpdateAsyncTaskState:
	default:
		return
	}
	switch t.stateName {
	case "running", "paused":
		p.Status = acpdialect.StatusInProgress
	case "completed":
		p.Status = acpdialect.StatusCompleted
	case "failed":
		p.Status = acpdialect.StatusFailed
	case "stopped":
		p.Status = acpdialect.StatusCancelled
	default:
		return
	}
	if p.Status != acpdialect.StatusInProgress {
		p.Monitor = endedMonitor(p.Monitor, t.id, t.stateName)
	}
}

// endedMonitor returns a new monitor object, m's values (a spawn's command)
// kept, that ends with the task's state.
func endedMonitor(m *acpdialect.Monitor, id, state string) *acpdialect.Monitor {
	e := acpdialect.Monitor{TaskID: id}
	if m != nil {
		e = *m
	}
	e.Ended, e.EndReason = true, state
	return &e
}
