// Package grok is the dialect of xAI's Grok CLI in ACP mode
// (`grok agent stdio`).
//
// Grok speaks ACP with these differences, each handled here:
//
//   - Release 1.0.41 sends no agentInfo: its initialize result is known by
//     _meta.grokShell (MatchResult).
//   - Before 1.0.41 it had no session/set_config_option and reported its
//     models only in the legacy models field of session/new and
//     session/load (1.0.41 sends config options itself, left alone). The dialect
//     builds standard config options from that catalog (a model select
//     and, for a model that supports it, a reasoning effort select), adds
//     them to the result the client sees and reports them as a config
//     event; a client's session/set_config_option is sent to Grok as
//     session/set_model and its reply turned back (a Rewrite). An unknown
//     model or an effort the model does not offer is refused without
//     reaching the agent.
//   - A switch to a model of another harness fails with
//     MODEL_SWITCH_INCOMPATIBLE_AGENT: the reply says to start a new
//     session, and a provider_error event says it too.
//   - It reports the tokens in context as params._meta.totalTokens on
//     session/update notifications (beside the update), which becomes a
//     context_window event over the current model's context size, and the
//     turn's token counts on the prompt response's _meta (a usage event).
//   - It echoes the user's prompt as user_message_chunk during the turn:
//     flagged (Result.Wire.Echo), and dropped by wiretap by default.
//   - Its vendor methods have no "_" prefix (x.ai/...), or have one
//     (_x.ai/...), and may wrap another method in an envelope
//     {method, params}. x.ai/ask_user_question is a blocking question
//     (answered with Answered, or Declined by default); its notifications
//     are allowlisted and read; any other x.ai/ request gets -32601.
//   - Its tool calls name their tool in _meta["x.ai/tool"], carried into
//     the payload's Tool; run_terminal_command is a shell card, whose
//     output 1.0.41 sends as a list of byte values.
//
// The wire facts each rule relies on, with their public sources, are in
// the module's docs/grok.md.
package grok

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// ID is the dialect's identifier.
const ID = "grok"

// Grok's vendor methods (agent -> client), without the "_" they are also
// sent with.
const (
	MethodAskUserQuestion     = "x.ai/ask_user_question"
	MethodSessionUpdate       = "x.ai/session/update"
	MethodSessionNotification = "x.ai/session_notification"
	MethodFSNotify            = "x.ai/fs_notify"
	MethodPromptComplete      = "x.ai/session/prompt_complete"
	MethodMCPServersUpdated   = "x.ai/mcp/servers_updated"
)

// Notifications of Grok 1.0.41 the dialect knows and leaves unread (they
// are not allowlisted: the Conn ignores and counts them). Grok sends
// each with the "_" prefix.
const (
	// MethodSessionSetup reports each phase of a session/new as it runs.
	MethodSessionSetup = "x.ai/session/setup"
	// MethodMCPInitialized reports a session's MCP tools once loaded.
	MethodMCPInitialized = "x.ai/mcp_initialized"
	// MethodSessionsChanged lists the sessions whose summary changed.
	MethodSessionsChanged = "x.ai/sessions/changed"
	// MethodQueueChanged lists a session's queued and running prompts.
	MethodQueueChanged = "x.ai/queue/changed"
)

// Standard methods the dialect reads or rewrites.
const (
	MethodSetConfigOption = "session/set_config_option"
	MethodSetModel        = "session/set_model"
)

// Dialect returns the Grok dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	notify := func(name string) acpdialect.Method {
		handle := func(params gjson.Result) acpdialect.Action { return HandleNotification(name, params) }
		return acpdialect.Method{Name: name, Kind: acpdialect.Notification, Handle: handle}
	}
	return &acpdialect.Dialect{
		ID:          ID,
		Match:       Match,
		MatchResult: MatchResult,
		Methods: []acpdialect.Method{
			{Name: MethodAskUserQuestion, Kind: acpdialect.Request, Handle: HandleQuestion},
			notify(MethodSessionUpdate),
			notify(MethodSessionNotification),
			notify(MethodFSNotify),
			notify(MethodPromptComplete),
			notify(MethodMCPServersUpdated),
		},
		Calls: []acpdialect.Call{
			{Name: "session/prompt", Result: usageEvent},
		},
		Rewrites: []acpdialect.Rewrite{
			{Method: MethodSetConfigOption, Request: SetConfigRequest, Response: SetConfigResponse},
		},
		Session: &acpdialect.SessionHooks{
			Result:        SessionResult,
			ContextWindow: ContextWindow,
			Notification:  Notification,
			EchoesPrompt:  true,
		},
		// A subagent's text in its own session, nested under its card:
		// the Conn reads chunks only in child sessions.
		Updates: []acpdialect.Update{
			{Kind: "agent_message_chunk", Standard: true, Event: acpdialect.ChunkMessage},
			{Kind: "agent_thought_chunk", Standard: true, Event: acpdialect.ChunkMessage},
		},
		ToolCall:      ToolCall,
		MergeLate:     MergeLate,
		ChildSessions: true,
		Reads:         reads(),
		Ignores:       ignores(),
	}
}

// reads are the _meta key paths the dialect reads, for audits.
func reads() []string {
	return []string{
		// A model catalog entry's (models.go).
		"_meta.totalContextTokens", "_meta.supportsReasoningEffort", "_meta.reasoningEfforts",
		"_meta.reasoningEffort",
		// session/set_model's result: a string or {Ok} (setconfig.go).
		"_meta.model.Ok",
		// The tokens in context on session/update, and the prompt
		// response's usage, its counts in usage or beside it (context.go).
		"_meta.totalTokens", "_meta.modelId",
		"_meta.usage.inputTokens", "_meta.usage.outputTokens", "_meta.usage.totalTokens",
		"_meta.usage.cachedReadTokens", "_meta.usage.reasoningTokens", "_meta.usage.cacheCreationTokens",
		"_meta.usage.usageIsIncomplete",
		"_meta.inputTokens", "_meta.outputTokens", "_meta.cachedReadTokens", "_meta.reasoningTokens",
		// A tool call's tool (tools.go).
		"_meta.x.ai/tool.name", "_meta.x.ai/tool.kind", "_meta.x.ai/tool.namespace",
		"_meta.x.ai/tool.label", "_meta.x.ai/tool.read_only",
		// The initialize result's mark (MatchResult).
		"_meta.grokShell",
		// A subagent's tool call runs in the background (subagent.go).
		"_meta.subagentBackground",
	}
}

// ignores are what docs/grok.md lists as not read (section 10).
func ignores() []string {
	return []string{
		// A model's harness (an incompatible switch is read from the
		// error), the client's own auto mode, the prompt response's
		// session id (the request's is known), the fs_notify capability
		// (x.ai/fs_notify is allowlisted whatever it says) and the tool
		// descriptor's version.
		"_meta.agentType", "_meta.autoMode", "_meta.sessionId",
		"_meta.x.ai/fs_notify", "_meta.x.ai/tool.version",
		// 1.0.41's initialize result: the agent's own details, and a
		// catalog and commands before any session, which session/new's
		// models and the session's commands update repeat.
		"_meta.agentId", "_meta.agentInstanceId", "_meta.agentVersion", "_meta.hostname",
		"_meta.availableCommands", "_meta.modelState", "_meta.cancelRewind",
		"_meta.currentWorkingDirectory", "_meta.defaultAuthMethodId", "_meta.feedbackTraceOffer",
		"_meta.mcpApps", "_meta.mcpServers", "_meta.metadata", "_meta.sessionRecap", "_meta.voiceMode",
		"_meta.x.ai/capabilities", "_meta.x.ai/hooks", "_meta.x.ai/mcp/sdk", "_meta.x.ai/pluginDirs",
		// 1.0.41's session/new result: the workspace, and the options
		// configOptions holds in ACP's form.
		"_meta.codebaseIndexed", "_meta.feedbackEnabled", "_meta.gitRoot", "_meta.isGitRepo",
		"_meta.showNonGitWarning", "_meta.x.ai/memoryMode", "_meta.x.ai/sessionConfig",
		"_meta.x.ai/sessionDetail",
		// 1.0.41's stamps on each update, a command's workflow source,
		// the turn's usage beyond its counts, and the tool's input again.
		"_meta.agentTimestampMs", "_meta.chunkId", "_meta.eventId", "_meta.promptId",
		"_meta.requestId", "_meta.streamStartMs", "_meta.turnStartMs", "_meta.tools",
		"_meta.updateParams", "_meta.updateType", "_meta.workflowPath", "_meta.workflowSource",
		"_meta.usage.apiDurationMs", "_meta.usage.modelCalls", "_meta.usage.modelUsage",
		"_meta.usage.numTurns", "_meta.x.ai/tool.input",
		// A subagent's prompt, echoed in its own session: its place.
		"_meta.promptIndex",
		// 1.0.41's progress and list notifications.
		MethodSessionSetup, MethodMCPInitialized, MethodSessionsChanged, MethodQueueChanged,
	}
}

// names are Grok's known agent names and titles: the registry id, the npm
// package, the binary and the product name.
var names = []string{"grok", "grok-build", "grok build", "@xai-official/grok"}

// Match identifies Grok by its initialize agentInfo name or title: one of
// its known names (the registry id grok-build, the npm package
// @xai-official/grok, the binary grok, the title Grok Build), in any case,
// around spaces. Any other name is not Grok, even one that contains
// "grok" (a community grok-cli, a "groklike" agent).
func Match(name, title string) bool {
	return acpdialect.MatchExact(name, names...) || acpdialect.MatchExact(title, names...)
}

// MatchResult identifies Grok by its initialize result's
// _meta.grokShell: true. Grok's CLI 1.0.41 sends no agentInfo, so Match
// never sees a name; the mark is Grok's own (the "grok-shell" agent that
// answers agent stdio), and only the boolean true counts.
func MatchResult(result gjson.Result) bool {
	return frame.Get(frame.Get(result, "_meta"), "grokShell").Type == gjson.True
}
