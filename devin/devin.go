// Package devin is the dialect of Cognition's Devin CLI in ACP mode
// (`devin acp`).
//
// Devin speaks standard ACP frames and puts its extras in _meta under the
// "cognition.ai/" namespace:
//
//   - A tool call names its tool in _meta["cognition.ai/inferenceToolName"]
//     (exec, read, write, run_subagent, ...): the card's Tool.Name.
//   - Subagents run inside the session. A tool_call_update whose
//     toolCallId is the agent's id carries
//     _meta["cognition.ai/subagent_started"] {agentId, title, task,
//     profile, model, isBackground}, later ["cognition.ai/subagent_completed"]
//     {agentId, success, summary}: a subagent_task card, whose summary is
//     the result text, or the error when success is false. The subagent's own
//     tool calls carry _meta["cognition.ai/subagent_context"].parentAgentId:
//     they nest under that agent's card (parent_tool_call_id); "root" is
//     the session's own agent, no parent. Devin never completes them:
//     the subagent's completion ends those still open with its own status
//     (EndNested).
//   - usage_update carries the request's tokens in
//     _meta["cognition.ai/inputTokens"], "cachedReadTokens",
//     "cachedWriteTokens", "outputTokens" and "totalTokens": a usage event
//     with those counts. Devin sends each root update twice, once tagged
//     parentAgentId "root": the twin is dropped; one tagged with a
//     subagent is marked origin "subagent", so that a client does not bill
//     it to the user's turn.
//   - The client may call _cognition.ai/revert/listSteps, preview,
//     execute, resume and forkFromStep (after advertising
//     _meta["cognition.ai/revert"]): on the Calls list, so that they are
//     known as the client's requests.
//   - Devin streams a file write by resending the whole file so far in
//     each tool_call_update, with no status: one card, which changes (and
//     is reported) only when what it shows changes, never once per frame.
//
// Devin sends no vendor requests of its own.
//
// The wire facts each rule relies on, with their public sources, are in
// the module's docs/devin.md.
package devin

import (
	"github.com/acpdialect/acpdialect"
)

// ID is the dialect's identifier.
const ID = "devin"

// Devin's _meta keys.
const (
	MetaToolName         = "cognition.ai/inferenceToolName"
	MetaSubagentContext  = "cognition.ai/subagent_context"
	MetaSubagentStarted  = "cognition.ai/subagent_started"
	MetaSubagentComplete = "cognition.ai/subagent_completed"
)

// RootAgent is the parentAgentId of the session's own agent.
const RootAgent = "root"

// The client -> agent revert methods.
const (
	MethodRevertListSteps    = "_cognition.ai/revert/listSteps"
	MethodRevertPreview      = "_cognition.ai/revert/preview"
	MethodRevertExecute      = "_cognition.ai/revert/execute"
	MethodRevertResume       = "_cognition.ai/revert/resume"
	MethodRevertForkFromStep = "_cognition.ai/revert/forkFromStep"
)

// Dialect returns the Devin dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:        ID,
		Match:     Match,
		ToolCall:  ToolCall,
		EndNested: EndNested,
		Updates: []acpdialect.Update{
			{Kind: "usage_update", Standard: true, Event: UsageEvent},
		},
		Calls: []acpdialect.Call{
			{Name: MethodRevertListSteps},
			{Name: MethodRevertPreview},
			{Name: MethodRevertExecute},
			{Name: MethodRevertResume},
			{Name: MethodRevertForkFromStep},
		},
		Reads: []string{
			"_meta." + MetaToolName, "_meta." + MetaSubagentContext,
			"_meta." + MetaSubagentStarted, "_meta." + MetaSubagentComplete,
			"_meta.cognition.ai/inputTokens", "_meta.cognition.ai/cachedReadTokens",
			"_meta.cognition.ai/cachedWriteTokens", "_meta.cognition.ai/outputTokens",
			"_meta.cognition.ai/totalTokens",
		},
		Ignores: []string{
			"_meta.cognition.ai/streamingMessageId", "_meta.cognition.ai/timestamp",
			"_meta.cognition.ai/cwd", "_meta.cognition.ai/icon", "_meta.cognition.ai/allowOther",
			"_meta.cognition.ai/isLocked", "_meta.cognition.ai/revert",
		},
	}
}

// Names are the initialize agentInfo names and titles Match accepts:
// Devin's own (name devin, or Devin with the title Devin).
var Names = []string{"devin"}

// Match identifies Devin by its agentInfo name or title: "devin", in any
// case, around spaces. A name that only contains it ("devin-proxy",
// "devin-mcp") is not Devin's.
func Match(name, title string) bool {
	return acpdialect.MatchExact(name, Names...) || acpdialect.MatchExact(title, Names...)
}
