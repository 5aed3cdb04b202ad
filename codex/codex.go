// Package codex is the dialect of codex-acp, the ACP adapter of OpenAI's
// Codex (the current TypeScript adapter over codex app-server, and the
// legacy Rust one).
//
// Codex speaks standard ACP frames and puts its extras in _meta:
//
//   - Subagents are tool calls tagged _meta.codex.collaboration (the
//     collaboration tools spawnAgent, sendInput, resumeAgent, wait,
//     closeAgent) and _meta.codex.subagent (a subagent's activity:
//     started, interacted, then a final value). A spawn and a started or
//     finished activity describe a run: a subagent_task card for the
//     child thread. The other tools and interacted only report on a run:
//     they move its card's status forward, when there is a card. Codex
//     may report several children under one tool call id: each keeps its
//     own card (acpdialect.RunID), and a card's parent is the card whose
//     child sent the spawn, when exactly one card has that child.
//   - An AIR client that declares nativeSubagentSessions gets each child
//     as a session of its own (2.x): subagent_spawned opens its
//     subagent_task card, subagent_state_update ends it.
//   - MCP tool calls carry _meta.is_mcp_tool_call, with the server, tool
//     and arguments in rawInput: an mcp_tool card (arguments larger than
//     acpdialect.MaxMCPArguments left out whole). Progress output arrives
//     in _meta.mcp_output_delta (appended one message a line, its tail
//     kept: MaxMCPOutput),
//     the result in rawOutput {result, error}; an error fails the call.
//   - Commands are tool calls of kind execute: a shell card (package
//     terminal) with the command and cwd of rawInput, the terminal channel
//     of _meta (terminal_info, terminal_output, terminal_output_delta,
//     terminal_exit) and the result of rawOutput {formatted_output,
//     exit_code}; a non-zero exit fails the call. Commands Codex parses
//     into a read or a search stay generic cards.
//   - An AIR client that declares asyncTasks gets a command that runs on
//     in the background as an async task (2.x): async_task_spawned makes
//     its shell card a background shell, which stays in progress past
//     the turn, and async_task_state_update ends it (package air reads
//     both, as for Claude).
//   - Codex's synthetic compaction tool call (_meta.contextCompaction; in
//     2.x AIR's _meta.jetbrains.air.contextCompaction, or for other
//     clients its title alone) and ACP's compaction_update are compaction
//     events.
//   - Message chunks with _meta.codex.phase (commentary, final_answer) are
//     also message events with their phase; chunks without one cost a
//     byte search and produce nothing.
//   - session_info_update carries the AI title and _meta.codex.archived and
//     closed (a session_info event) and the thread status: after a
//     systemError status, assistant text saying the model is at capacity
//     is a provider_error event naming the chunk to hide; an error Codex
//     retries, or one of another turn (_meta.codex.error), is a
//     provider_error classed as codex-acp classes it.
//   - A client that declares session.notices gets configuration warnings
//     as notice updates (2.x): a provider_error of code notice.
//   - A client that declares AIR's typed session failures gets them
//     instead of error text: in a session_info_update's _meta, and the
//     turn's terminal one in the session/prompt result's _meta. Each is a
//     provider_error with the failure's id and revision (package air).
//   - usage_update is a usage event; the session/prompt result's usage and
//     _meta.quota are a turn summary, marked estimated: codex-acp reports
//     the last model request, not the whole turn. From 2.2.1 on it reports
//     the whole prompt: on a connection whose initialize names such a
//     release (agentInfo.version), the dialect's variant for it
//     (acpdialect.Dialect.ForVersion) does not mark the summary.
//   - Every session/request_permission is described in a permission event
//     (a plan review is marked, with its plan item id); the client answers
//     it, never the library.
//   - The client may call authentication/status and authentication/logout
//     (no "_" prefix); the status result is an auth_status event.
//
// Codex sends no vendor requests of its own. From 2.x it pushes its login
// state in the notification _auth/status_update (claude-agent-acp's): an
// auth_status event.
//
// The wire facts each rule relies on, with their public sources, are in
// the module's docs/codex.md.
package codex

import (
	"strings"
	"unicode"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/acpdialect/acpdialect/terminal"
	"github.com/tidwall/gjson"
)

// ID is the dialect's identifier.
const ID = "codex"

// Client -> agent vendor methods (no "_" prefix).
const (
	MethodAuthStatus = "authentication/status"
	MethodAuthLogout = "authentication/logout"
)

// Dialect returns the Codex dialect. Each call returns a fresh value,
// with its variant for codex-acp 2.2.1 and later (ForVersion): the same
// dialect, whose turn summary is not estimated (PromptUsage), built here
// once for every connection to share.
func Dialect() *acpdialect.Dialect {
	d := dialect()
	exact := *d
	exact.Calls = calls(PromptUsage)
	d.ForVersion = func(version string) *acpdialect.Dialect {
		if ReportsPromptUsage(version) {
			return &exact
		}
		return nil
	}
	return d
}

// dialect is the Codex dialect of releases before 2.2.1, and of an agent
// whose release is unknown (a recording without initialize): its turn
// summary is estimated (TurnUsage).
func dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    ID,
		Match: Match,
		// Codex's only agent -> client request is the standard permission
		// request: observed, never answered. Its one vendor notification
		// pushes the login state.
		Methods: []acpdialect.Method{
			{Name: "session/request_permission", Kind: acpdialect.Request, Handle: HandlePermission},
			{Name: MethodAuthStatusUpdate, Kind: acpdialect.Notification, Handle: HandleAuthStatus},
		},
		Updates: []acpdialect.Update{
			{Kind: "usage_update", Standard: true, Event: UsageEvent},
			{Kind: "session_info_update", Standard: true, Event: SessionInfoEvent, Mark: SystemError},
			// The same update carries AIR's typed failures (package air).
			{Kind: "session_info_update", Standard: true, Event: air.UpdateEvent},
			{Kind: "agent_message_chunk", Standard: true, Event: PhaseEvent, Marked: CapacityError},
			{Kind: "user_message_chunk", Standard: true, Event: PhaseEvent},
			// 2.x to a client that declares session.compaction, and
			// session.notices.
			{Kind: UpdateCompaction, Event: CompactionUpdateEvent},
			{Kind: air.UpdateNotice, Event: air.NoticeEvent},
			// 2.x to an AIR client that declares nativeSubagentSessions.
			{Kind: UpdateSubagentSpawned, Handle: HandleSubagentSpawned},
			{Kind: UpdateSubagentState, Handle: HandleSubagentState, Waits: true},
			// 2.x to an AIR client that declares asyncTasks: a command
			// gone to the background (package air). 2.6.0 declares the
			// progress kind but never sends it: listed, so that a release
			// that does is still quarantined from the SDK.
			{Kind: UpdateAsyncTaskSpawned, Handle: HandleAsyncTask},
			{Kind: UpdateAsyncTaskProgress, Handle: HandleAsyncTask},
			{Kind: UpdateAsyncTaskState, Handle: HandleAsyncTask},
			// The same records to an ACP v2 client, under names of AIR's
			// own ("_"): the progress kind is not sent there.
			{Kind: UpdateV2AsyncTaskSpawned, Handle: HandleAsyncTask},
			{Kind: UpdateV2AsyncTaskState, Handle: HandleAsyncTask},
			// And the native child sessions' two records, under one.
			{Kind: UpdateV2Subagent, Handle: HandleV2Subagent},
		},
		Calls:     calls(TurnUsage),
		MergeLate: MergeLate,
		Runs:      Runs,
		ToolCall:  ToolCall,
		ToolEvent: CompactionEvent,
		Reads:     reads(),
		Ignores:   ignores(),
	}
}

// calls are the client's requests whose results the dialect reads, the
// session/prompt result's turn summary with turn.
func calls(turn func(gjson.Result) *acpdialect.Event) []acpdialect.Call {
	return []acpdialect.Call{
		{Name: "session/prompt", Result: turn},
		// A turn's terminal AIR failure, beside its usage.
		{Name: "session/prompt", Result: air.PromptEvent},
		{Name: MethodAuthStatus, Result: AuthStatusEvent},
		{Name: MethodAuthLogout},
	}
}

// ignores are the _meta key paths codex-acp sends that the dialect leaves
// alone on purpose (docs/codex.md §11), for audits: an audit of a new
// release then shows only what it added.
func ignores() []string {
	return []string{
		// A permission request's raw app-server params, and an option's
		// decision and grant: the options' ids, names and kinds are read.
		"_meta.codex.decision", "_meta.codex.grantRoot", "_meta.codex.params",
		"_meta.codex.permissions", "_meta.permission",
		// A thread status's flags: only its type (systemError) matters.
		"_meta.codex.threadStatus.activeFlags",
		// A slash command's action (a config option shortcut): commands
		// pass as ACP's.
		"_meta.commandAction",
		// The thread goal on session_info_update.
		"_meta.goal",
		// The AIR extension's version beside a typed failure (the
		// failure's own fields are checked instead), and the client's AIR
		// capabilities on initialize (the records are read, not whether
		// the client asked for them).
		"_meta.jetbrains.air.version", "_meta.jetbrains.air.capabilities",
		// A diff's kind (add, delete, update) in tool call content.
		"_meta.kind",
		// Streamed plan text's AIR delta (2.x); plan_update itself, sent
		// only to a client that declares ACP's unstable plan capability,
		// is standard.
		"_meta.jetbrains.air.contentDelta",
		// 2.x: AIR's copies of keys above (commandAction, goal, a
		// permission option's decision), a session mode's kind, a
		// skill's path, a config option's recommended value, the file
		// change report, and the flag on collaboration and activity
		// calls (their rawInput is read instead).
		"_meta.jetbrains.air.commandAction", "_meta.jetbrains.air.goal",
		"_meta.jetbrains.air.permission", "_meta.jetbrains.air.kind",
		"_meta.jetbrains.air.skillPath", "_meta.jetbrains.air.recommendedValue",
		"_meta.jetbrains.air.agentFileChangeReport", "_meta.jetbrains.air.subagent",
		// 2.x: stdin typed into a command, which AIR gets apart from the
		// output (other clients get it in the output, which is read).
		"_meta.terminal_input",
		// 2.x on initialize: steering support, the presence of
		// _auth/status_update, an auth method's provider.
		"_meta.steering", "_meta.authStatus", "_meta.api-key",
		// 2.x: an elicitation Codex does not wait for.
		"_meta.codex.delivery",
		// 2.x: AIR's marker of a command gone to the background, sent
		// just before the async task spawn that says the same.
		"_meta.jetbrains.air.asyncTasks.backgrounded",
	}
}

// reads are the _meta key paths the dialect reads, for audits.
func reads() []string {
	// The terminal metadata first (package terminal).
	return append(terminal.MetaReads(),
		// Tool calls: collaboration and subagent activity, MCP calls
		// (meta.go), compaction (events.go).
		"_meta.codex.collaboration.tool", "_meta.codex.collaboration.senderThreadId",
		"_meta.codex.collaboration.receiverThreadIds",
		"_meta.codex.subagent.activity", "_meta.codex.subagent.threadId", "_meta.codex.subagent.path",
		"_meta.is_mcp_tool_call", "_meta.mcp_output_delta.data",
		"_meta.contextCompaction.trigger", "_meta.contextCompaction.preTokens",
		"_meta.contextCompaction.postTokens", "_meta.contextCompaction.durationMs",
		"_meta.contextCompaction.error", "_meta.jetbrains.air.contextCompaction",
		// A permission request's plan review (events.go).
		"_meta.codex.kind", "_meta.codex.planItemId",
		// Messages' phase, session info and thread errors (messages.go).
		"_meta.codex.phase", "_meta.jetbrains.air.phase", "_meta.codex.archived", "_meta.codex.closed",
		"_meta.codex.threadStatus.type", "_meta.threadStatus.type",
		// The prompt response's usage (usage.go).
		"_meta.quota.token_count.totalTokens", "_meta.quota.token_count.inputTokens",
		"_meta.quota.token_count.outputTokens", "_meta.quota.token_count.cachedInputTokens",
		"_meta.quota.token_count.cachedWriteTokens", "_meta.quota.token_count.cacheWriteInputTokens",
		"_meta.quota.token_count.reasoningOutputTokens",
		"_meta.quota.model_usage",
		// AIR's typed failures (package air).
		"_meta.jetbrains.air.sessionFailure",
	)
}

// Match identifies codex-acp: the first word of the agentInfo name or
// title, after an npm scope ("@org/"), is "codex" in any case, words being
// split at any character that is not a letter or a digit. It accepts
// "codex-acp", "@zed-industries/codex-acp" and "Codex"; it rejects names
// that only mention Codex ("claude-code (codex-compatible)") or glue it
// into a longer word ("precodex", "codexx").
func Match(name, title string) bool {
	return firstWordCodex(name) || firstWordCodex(title)
}

func firstWordCodex(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "@") {
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if end < 0 {
		end = len(s)
	}
	return strings.EqualFold(s[:end], "codex")
}
