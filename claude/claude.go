// Package claude is the dialect of claude-agent-acp, the ACP adapter of
// Claude Code (npm @agentclientprotocol/claude-agent-acp, formerly
// @zed-industries/claude-code-acp).
//
// Claude speaks standard ACP and keeps its vendor data beside it: in
// _meta.claudeCode on tool calls (the SDK tool name, the tool's structured
// response, the parent tool call of a subagent's work), in "_claude/..."
// keys of usage_update's _meta, in the initialize response's
// agentCapabilities._meta, and in three "_"-prefixed notifications. The
// dialect reads them into the library's contract:
//
//   - Subagents: the Agent/Task tool is a subagent_task card, whatever its
//     ACP kind, filled from rawInput and from the tool response (agent id,
//     run time, tokens, tool uses, result text, async launch). Updates
//     made inside a subagent name it in parentToolUseId: their cards get
//     parent_tool_call_id, and its text chunks become message events.
//     Native child sessions (ACP's draft subagent_update, which the Conn
//     reads on every connection) link a child session to its card; AIR's
//     async_task_* updates become cards.
//   - Background work: a Monitor tool call is a monitor card that keeps
//     running after its tool call completes, fed by the
//     <task-notification> envelopes in the conversation text; a
//     ScheduleWakeup tool call is a wakeup card.
//   - Shell, MCP and permissions: Bash is a shell card (package terminal
//     folds the terminal metadata), an mcp__server__tool is an mcp_tool
//     card, and session/request_permission yields a permission event (the
//     client still answers it).
//   - Session level: usage (usage_update, the prompt response's usage,
//     _claude/accountingUsage), compaction (four wire forms), capabilities
//     (initialize) and auth status (_auth/status_update).
//   - Failures: a client that declares AIR's typed session failures gets
//     them instead of error text, in a session_info_update's _meta and on
//     the session/prompt result's _meta: provider_error events with the
//     failure's id and revision (package air).
//
// The wire facts each rule relies on, with their public sources, are in the
// module's docs/claude.md.
package claude

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/acpdialect/acpdialect/terminal"
)

// ID is the dialect's identifier.
const ID = "claude"

// Vendor notifications the agent sends (agent -> client).
const (
	// MethodSDKMessage carries a raw Claude SDK message, when the client
	// asked for them at session/new. Allowed, read for nothing.
	MethodSDKMessage = "_claude/sdkMessage"
	// MethodAccountingUsage carries the token usage of one SDK result.
	MethodAccountingUsage = "_claude/accountingUsage"
	// MethodAuthStatus carries the agent's account status.
	MethodAuthStatus = "_auth/status_update"
	// MethodRequestPermission is ACP's own permission request, which the
	// dialect only reads: the client answers it.
	MethodRequestPermission = "session/request_permission"
)

// Dialect returns the Claude dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    ID,
		Match: Match,
		Methods: []acpdialect.Method{
			{Name: MethodSDKMessage, Kind: acpdialect.Notification},
			{Name: MethodAccountingUsage, Kind: acpdialect.Notification, Handle: HandleAccountingUsage},
			{Name: MethodAuthStatus, Kind: acpdialect.Notification, Handle: HandleAuthStatus},
			{Name: MethodRequestPermission, Kind: acpdialect.Request, Handle: HandlePermission},
		},
		Updates: []acpdialect.Update{
			{Kind: "usage_update", Standard: true, Event: UsageEvent},
			{Kind: "agent_message_chunk", Standard: true, Event: ChunkEvent, HandleAll: HandleChunk},
			{Kind: "agent_thought_chunk", Standard: true, Event: ChunkEvent, HandleAll: HandleChunk},
			{Kind: "user_message_chunk", Standard: true, Event: ChunkEvent, HandleAll: HandleChunk},
			{Kind: "tool_call", Standard: true, Event: CompactToolEvent},
			{Kind: "tool_call_update", Standard: true, Event: CompactToolEvent},
			// The ACP v2 draft ends a turn with state_update idle and its
			// usage: the turn summary, after the state event every
			// connection gets (the Conn quarantines the kind, Standard
			// as ACP's kinds are).
			{Kind: "state_update", Standard: true, Event: StateEvent},
			// AIR's typed failures (package air); the dialect reads
			// nothing else of session_info_update.
			{Kind: "session_info_update", Standard: true, Event: air.UpdateEvent},
			// Kinds of drafts the SDK does not know: it would misread them
			// (one with content as a user chunk), so they are quarantined.
			{Kind: UpdateCompaction, Event: CompactionEvent},
			// Claude Code's informational messages, to a client that
			// declares session.notices (chunk.go for the others).
			{Kind: air.UpdateNotice, Event: air.NoticeEvent},
			{Kind: UpdateCompactionSummary, Event: CompactionEvent},
			// Native child sessions before the RFD's rework (native.go);
			// a state that comes before its spawn waits for it.
			{Kind: UpdateSubagentSpawned, Handle: HandleSubagentSpawned},
			{Kind: UpdateSubagentState, Handle: HandleSubagentState, Waits: true},
			{Kind: UpdateAsyncTaskSpawned, Handle: HandleAsyncTask},
			{Kind: UpdateAsyncTaskProgress, Handle: HandleAsyncTask},
			{Kind: UpdateAsyncTaskState, Handle: HandleAsyncTask},
		},
		Calls: []acpdialect.Call{
			{Name: "initialize", Result: CapabilitiesEvent},
			{Name: "session/prompt", Result: TurnEvent},
			// A turn's terminal AIR failure, beside its usage.
			{Name: "session/prompt", Result: air.PromptEvent},
		},
		ToolCall:      ToolCall,
		MergeLate:     MergeLate,
		EndBackground: EndBackground,
		Reads:         reads(),
		Ignores:       ignores(),
	}
}

// ignores are what docs/claude.md §15 lists as not read, for audits: an
// audit of a new release then shows only what it added. They pass as
// standard ACP.
func ignores() []string {
	return []string{
		// AIR's _meta.jetbrains.air beyond the compaction figures and
		// the typed failures.
		"_meta.jetbrains.air",
		// AskUserQuestion's option preview: elicitation/create is not read.
		"_meta._claude/askUserQuestionOption",
		// A permission request's MCP server is read by name only; a tool
		// call's title is ACP's, not its _meta copy.
		"_meta.claudeCode.mcpServer.source", "_meta.claudeCode.title",
		// Tool responses of tools without a card kind (Edit, Read, ...),
		// and fields no card shows. Named one by one: a new field of a
		// tool response may be one a card should show.
		"_meta.claudeCode.toolResponse.canContinueAgent",
		"_meta.claudeCode.toolResponse.canReadOutputFile",
		"_meta.claudeCode.toolResponse.decisionReason",
		"_meta.claudeCode.toolResponse.decisionReasonType",
		"_meta.claudeCode.toolResponse.description",
		"_meta.claudeCode.toolResponse.elapsedTimeSeconds",
		"_meta.claudeCode.toolResponse.filePath",
		"_meta.claudeCode.toolResponse.harnessNoteCount",
		"_meta.claudeCode.toolResponse.harnessSectionHash",
		"_meta.claudeCode.toolResponse.harnessTailCount",
		"_meta.claudeCode.toolResponse.interrupted",
		"_meta.claudeCode.toolResponse.isImage",
		"_meta.claudeCode.toolResponse.message",
		"_meta.claudeCode.toolResponse.mode",
		"_meta.claudeCode.toolResponse.newString",
		"_meta.claudeCode.toolResponse.noOutputExpected",
		"_meta.claudeCode.toolResponse.oldString",
		"_meta.claudeCode.toolResponse.originalFile",
		"_meta.claudeCode.toolResponse.replaceAll",
		"_meta.claudeCode.toolResponse.structuredPatch",
		"_meta.claudeCode.toolResponse.userModified",
		// A subagent's token breakdown by kind: the card keeps its
		// total (totalTokens).
		"_meta.claudeCode.toolResponse.usage",
		// Which background work a turn the agent started itself reports
		// on, beside its kind (read): no card is named.
		"_meta._claude/origin.producer", "_meta._claude/origin.runId",
		// The client's session options on session/new and the like
		// (claudeCode.options: allowDangerouslySkipPermissions, ...): the
		// client's own settings, nothing the agent reports.
		"_meta.claudeCode.options",
		// The compaction figures' schema version.
		"_meta.contextCompaction.version",
		// The initialize response's goal and steering extensions.
		"_meta.goal", "_meta.steering",
		// A mode's or config option value's kind (AIR's presentation).
		"_meta.kind",
		// A permission request's title and version for AIR; ACP's title
		// is read.
		"_meta.permission",
		// The auth methods' terminal login command, for the client to run.
		"_meta.terminal-auth",
		// Why a tool did not run (0.101.0: user-rejected, permission-rule,
		// automode-*, interrupted, cancelled): the call's status and text
		// say it failed; the card does not name the reason.
		"_meta.claudeCode.nonExecutionKind",
	}
}

// reads are the _meta key paths the dialect reads, for audits.
func reads() []string {
	// The terminal metadata first (package terminal).
	return append(terminal.MetaReads(),
		// Tool calls, permission requests and chunks (toolcall.go,
		// permission.go, chunk.go).
		"_meta.claudeCode.toolName", "_meta.claudeCode.parentToolUseId", "_meta.claudeCode.subagent",
		"_meta.claudeCode.mcpServer.name",
		// Claude Code's notices sent as text (chunk.go).
		"_meta.claudeCode.kind", "_meta.claudeCode.level",
		// AIR's split of an MCP tool's name (toolcall.go).
		"_meta.jetbrains.air.mcp.server", "_meta.jetbrains.air.mcp.tool",
		// The tool response: an Agent/Task run (subagent.go), a shell's
		// output (toolcall.go), a wakeup's time (wakeup.go); an MCP
		// tool's is its text blocks (mcp.go).
		"_meta.claudeCode.toolResponse.agentId", "_meta.claudeCode.toolResponse.agentType",
		"_meta.claudeCode.toolResponse.subagentType", "_meta.claudeCode.toolResponse.status",
		"_meta.claudeCode.toolResponse.totalDurationMs", "_meta.claudeCode.toolResponse.totalTokens",
		"_meta.claudeCode.toolResponse.totalToolUseCount", "_meta.claudeCode.toolResponse.isAsync",
		"_meta.claudeCode.toolResponse.outputFile", "_meta.claudeCode.toolResponse.resolvedModel",
		"_meta.claudeCode.toolResponse.prompt", "_meta.claudeCode.toolResponse.content",
		"_meta.claudeCode.toolResponse.stdout", "_meta.claudeCode.toolResponse.stderr",
		"_meta.claudeCode.toolResponse.scheduledFor",
		// Compaction figures, Claude's and AIR's (compaction.go).
		"_meta.contextCompaction.trigger", "_meta.contextCompaction.preTokens",
		"_meta.contextCompaction.postTokens", "_meta.contextCompaction.durationMs",
		"_meta.contextCompaction.error",
		"_meta.jetbrains.air.contextCompaction.trigger", "_meta.jetbrains.air.contextCompaction.preTokens",
		"_meta.jetbrains.air.contextCompaction.postTokens", "_meta.jetbrains.air.contextCompaction.durationMs",
		"_meta.jetbrains.air.contextCompaction.error",
		// AIR's typed failures (package air).
		"_meta.jetbrains.air.sessionFailure",
		// Usage: usage_update's and the prompt response's (usage.go).
		"_meta._claude/model", "_meta._claude/origin.kind",
		"_meta._claude/rateLimit.status", "_meta._claude/rateLimit.rateLimitType",
		"_meta._claude/rateLimit.utilization", "_meta._claude/rateLimit.resetsAt",
		"_meta.quota.token_count.inputTokens", "_meta.quota.token_count.outputTokens",
		"_meta.quota.token_count.cachedReadTokens", "_meta.quota.token_count.cachedInputTokens",
		"_meta.quota.token_count.cachedWriteTokens", "_meta.quota.token_count.thoughtTokens",
		"_meta.quota.token_count.reasoningOutputTokens", "_meta.quota.token_count.totalTokens",
		"_meta.quota.model_usage",
		// Capabilities (initialize).
		"_meta.claudeCode.promptQueueing", "_meta.authStatus",
	)
}

// Names are the initialize agentInfo names of claude-agent-acp, current
// and former, that Match accepts, compared exactly (case and surrounding
// space aside).
var Names = []string{
	"@agentclientprotocol/claude-agent-acp",
	"@zed-industries/claude-code-acp",
	"claude-agent-acp",
	"claude-code-acp",
	"claude-code",
}

// Titles are the agentInfo titles Match accepts: the adapter's own.
var Titles = []string{"Claude Agent", "Claude Code"}

// Match identifies claude-agent-acp by its agentInfo name, or by its
// title when the name is empty or one of Names. A name or title that
// merely contains "claude" is not Claude's: another agent's name that
// mentions it ("claude-code (cursor-compatible)") must not get Claude's
// rules.
func Match(name, title string) bool {
	if acpdialect.MatchExact(name, Names...) {
		return true
	}
	return strings.TrimSpace(name) == "" && acpdialect.MatchExact(title, Titles...)
}
