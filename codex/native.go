package codex

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Native child sessions, which codex-acp 2.x sends to an AIR client that
// declares nativeSubagentSessions, in the shape claude-agent-acp and
// Cursor send them: subagent_spawned {subagentSessionId, name, task,
// capabilities} on the parent session opens the child (its session id is
// the child's thread id, or "<thread>:generation:<n>" when the thread is
// reopened), subagent_state_update {subagentSessionId, state: completed,
// failed or cancelled} ends it. The child's own updates come on its
// session. A client that declares ACP's subagents capability instead gets
// subagent_update, which the Conn reads on every connection.
const (
	UpdateSubagentSpawned = "subagent_spawned"
	UpdateSubagentState   = "subagent_state_update"
	// UpdateV2Subagent is both records as codex-acp sends them to an ACP
	// v2 client (src/AcpV2SessionUpdate.ts), under one name of AIR's own:
	// the spawn's fields {subagentSessionId, name, task, capabilities},
	// or the state's {subagentSessionId, state}.
	UpdateV2Subagent = "_subagent_update"
)

// HandleV2Subagent reads _subagent_update: one with a state as
// HandleSubagentState, any other as HandleSubagentSpawned. The kind is
// the spawn too, so it cannot wait for the spawn (Update.Waits) as
// subagent_state_update does: a state that comes with no spawn before it
// (a client that attached mid-run, after the spawn went out) makes the
// child's card itself, ended. The adapter sends a child's spawn before
// its state on the one stream, so no spawn comes after.
func HandleV2Subagent(update gjson.Result) acpdialect.Late {
	if frame.Get(update, "state").Exists() {
		return HandleSubagentState(update)
	}
	return HandleSubagentSpawned(update)
}

// HandleSubagentSpawned reads subagent_spawned into a late half for the
// child session's card: acpdialect.ReadSubagentSpawned (name, the agent's
// name from its path, is the title and the description, task the spawn's
// prompt the prompt, and the child runs).
func HandleSubagentSpawned(update gjson.Result) acpdialect.Late {
	return acpdialect.ReadSubagentSpawned(update)
}

// HandleSubagentState reads subagent_state_update: its string state
// (completed, failed, cancelled) ends the child's card, as
// acpdialect.ReadSubagentUpdate maps it.
func HandleSubagentState(update gjson.Result) acpdialect.Late {
	return acpdialect.ReadSubagentUpdate(update)
}

// MergeLate folds a native child's late half (HandleSubagentSpawned,
// HandleSubagentState) into its subagent_task card: a non-empty value
// replaces, an empty one never blanks. A half without a subagent, or a
// card that is not a subagent's, does not apply.
//
// An async task's half (HandleAsyncTask) merges into a shell card
// (mergeTask).
func MergeLate(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
	if cur.Kind == acpdialect.KindShell {
		return mergeTask(cur, late)
	}
	if cur.Kind != acpdialect.KindSubagentTask || cur.SubagentTask == nil || late.SubagentTask == nil {
		return cur, false
	}
	st := *cur.SubagentTask
	m := late.SubagentTask
	frame.Fill(&st.ChildSessionID, m.ChildSessionID)
	frame.Fill(&st.Description, m.Description)
	frame.Fill(&st.Prompt, m.Prompt)
	frame.Fill(&st.Cwd, m.Cwd)
	frame.Fill(&st.Status, m.Status)
	st.Cancellable = st.Cancellable || m.Cancellable
	frame.Fill(&cur.Title, late.Title)
	if !st.Equal(*cur.SubagentTask) {
		*m = st
		cur.SubagentTask = m
	}
	return cur, true
}
