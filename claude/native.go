package claude

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
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
	// The reading is package air's, shared with codex-acp's dialect.
	UpdateAsyncTaskSpawned  = air.UpdateTaskSpawned
	UpdateAsyncTaskProgress = air.UpdateTaskProgress
	UpdateAsyncTaskState    = air.UpdateTaskState
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
// with a failed card; the error message beside the error stop reason is
// the subagent's Error). The dialect no longer lists the kind: the Conn
// reads it on every connection, and starts a card it makes running.
func HandleSubagentUpdate(update gjson.Result) acpdialect.Late {
	return acpdialect.ReadSubagentUpdate(update)
}

// HandleSubagentSpawned reads the pre-rework subagent_spawned into a late
// half for the child session's card, as the reworked subagent_update's
// would be: acpdialect.ReadSubagentSpawned (name is the title and the
// description, task the prompt, and the child runs).
func HandleSubagentSpawned(update gjson.Result) acpdialect.Late {
	return acpdialect.ReadSubagentSpawned(update)
}

// HandleSubagentState reads the pre-rework subagent_state_update: its
// string state is the original draft's, which acpdialect.ReadSubagentUpdate
// maps (completed, failed, cancelled; disconnected is a failed card).
func HandleSubagentState(update gjson.Result) acpdialect.Late {
	return acpdialect.ReadSubagentUpdate(update)
}

// HandleAsyncTask reads AIR's async task updates into a late half for the
// task's card (package air: air.ReadTask, Task.Late), named by the task
// id, an alias of the tool call that started it when an update names
// one: a shell task is a background shell, a monitor task a monitor
// (a Monitor's task from 0.98.0 too), any other (task, workflow, an SDK
// type) a card titled by its name. Each update names the tool call once
// it is known: a progress or state update may name it after a spawn that
// did not, and the Conn then hands the card keyed by the task id over to
// the tool call's (see Late.Alias).
//
// What only claude-agent-acp sends is read here: the task of an
// autonomous turn makes no card.
func HandleAsyncTask(update gjson.Result) acpdialect.Late {
	t := air.ReadTask(update)
	if autonomousTurn(t) {
		return acpdialect.Late{}
	}
	return t.Late()
}

// autonomousTurn reports whether the update is of an autonomous turn's
// task: a spawn by its type, a progress or state update (which have none)
// by the id the adapter gives it.
func autonomousTurn(t air.Task) bool {
	return t.Type == TaskTypeTurn || strings.HasPrefix(t.ID, AutonomousTurnPrefix)
}
