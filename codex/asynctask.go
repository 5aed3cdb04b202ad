package codex

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// AIR's async tasks, which codex-acp 2.x sends to an AIR client that lists
// asyncTasks: a command Codex runs on past its call (a background
// terminal) is announced when the adapter finds it running, and its end
// when Codex reports it:
//
//	tool_call_update {toolCallId, _meta.jetbrains.air.asyncTasks.backgrounded: true}
//	async_task_spawned {asyncTaskId, name, taskType: "shell", showInTranscript: false, canStop: true, toolCallId}
//	async_task_state_update {asyncTaskId, state: completed|failed|stopped, toolCallId}
//
// The task id is the command's item id (the tool call id), prefixed with
// "<thread>:" for a subagent's thread; the name is the tool call's title.
// The backgrounded marker always goes out just before the spawn, for the
// same tool call, and says nothing the spawn does not: it is not read.
// 2.6.0 declares async_task_progress but never sends it.
const (
	UpdateAsyncTaskSpawned  = air.UpdateTaskSpawned
	UpdateAsyncTaskProgress = air.UpdateTaskProgress
	UpdateAsyncTaskState    = air.UpdateTaskState
	// The spawn and the state as codex-acp sends them to an ACP v2
	// client (src/AcpV2SessionUpdate.ts): the same records.
	UpdateV2AsyncTaskSpawned = "_" + air.UpdateTaskSpawned
	UpdateV2AsyncTaskState   = "_" + air.UpdateTaskState
)

// HandleAsyncTask reads an async task update into a late half for the
// command's card (package air, shared with the Claude dialect): a spawn
// makes it a background shell, a state ends it (completed, failed;
// stopped is cancelled). codex-acp sends no description, so a card the
// spawn makes alone (its tool call not seen) is titled by the task's
// name, the command's title.
func HandleAsyncTask(update gjson.Result) acpdialect.Late {
	t := air.ReadTask(update)
	l := t.Late()
	if l.Payload.Kind == acpdialect.KindShell {
		l.Payload.Title = t.Name
	}
	return l
}

// mergeTask folds an async task's half into a shell card: the spawn's
// shell (the background flag), its title where the card has none, and
// the end the task's state gives, which ends the card while the command's
// own frames have not: Codex's command runs on, its tool call in
// progress, past the turn, and may be stopped without another frame of
// its own. ok is false for a card that is not a background shell and a
// half that would not make it one.
func mergeTask(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
	background := cur.Shell != nil && cur.Shell.Background
	if cur.Kind != acpdialect.KindShell || (late.Shell == nil && !background) {
		return cur, false
	}
	if late.Shell != nil {
		cur.Shell = air.MergeShell(cur.Shell, late.Shell)
	}
	if cur.Title == "" {
		frame.Fill(&cur.Title, late.Title)
	}
	if acpdialect.StatusEnded(late.Status) && !acpdialect.StatusEnded(cur.Status) {
		cur.Status = late.Status
	}
	return cur, true
}
