// Package opencode is the dialect of OpenCode (`opencode acp`).
//
// OpenCode runs a subagent through its task tool: a standard tool call
// titled "task" (later the task's description) with ACP kind "think" and
// rawInput {description, prompt, subagent_type}. The subagent is a real
// OpenCode session, a child of the one that called the tool, and its
// updates reach the client as ACP session/update notifications under the
// child's own session id (OpenCode 1.18.33 sends them only for a child
// the client has loaded). The child is named only when the task is done:
// the completion's rawOutput.metadata holds its sessionId and the model
// that ran it ({providerID, modelID}), and rawOutput.output its final text
// between <task_result> tags; since 1.18 the output opens with a
// <task id="..." state="..."> tag, whose state "running" marks a task
// that went on in the background (its card completes at once, and the
// text is OpenCode's notice, not a result).
//
// The dialect makes the task a subagent_task card and, through the Conn's
// child session rules (acpdialect.Dialect.ChildSessions), nests the child
// session's tool calls and messages under that card: those that arrive
// after the link, and those that arrived before it, which the Conn nests
// (cards) or held (messages) until the completion named the child.
//
// OpenCode's bash tool (ACP kind "execute", which OpenCode gives its shell
// tools alone) is a shell card: the command and cwd from rawInput, the
// output and exit code from the completion's rawOutput {output,
// metadata: {output, exit}} (IsShell, ReadShell). The completion carries
// no kind: the card's is the one seen before.
//
// OpenCode's opencode.dev/subagents extension (in its repository; no npm
// release up to 1.18.33 has it) describes the tree of subagent sessions:
// _opencode/subagents/list and
// _opencode/subagents/subscribe (client -> agent requests) answer a
// snapshot of it, and the _opencode/subagents/update notification sends
// the changes (upsert nodes, removedSessionIds). Each node is keyed by its
// child session: its phase becomes the status of the card the child is
// linked to (or waits for the link), its agent the subagent type.
//
// Usage comes from ACP's usage_update (the context window, and the
// session's cost) and from the session/prompt response's usage (the
// turn's tokens: summed over the turn's messages in OpenCode's repository,
// the last message's alone in the releases up to 1.18.33).
//
// The wire facts each rule relies on, with their public sources, are in
// the module's docs/opencode.md.
package opencode

import (
	"strings"

	"github.com/acpdialect/acpdialect"
)

// ID is the dialect's identifier.
const ID = "opencode"

// Names are the agentInfo names Match accepts, compared without case
// after trimming spaces: "OpenCode" is what `opencode acp` sends, and
// "opencode" what its first ACP server sent.
var Names = []string{"OpenCode"}

// Dialect returns the OpenCode dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    ID,
		Match: Match,
		Methods: []acpdialect.Method{
			{Name: MethodSubagentsUpdate, Kind: acpdialect.Notification, Handle: HandleSubagentsUpdate},
		},
		Updates: []acpdialect.Update{
			{Kind: "usage_update", Standard: true, Event: UsageEvent},
			// A child session's text, nested under its task card: the
			// Conn reads chunks only in child sessions.
			{Kind: "agent_message_chunk", Standard: true, Event: acpdialect.ChunkMessage},
			{Kind: "agent_thought_chunk", Standard: true, Event: acpdialect.ChunkMessage},
		},
		Calls: []acpdialect.Call{
			{Name: "session/prompt", Result: TurnUsage},
			{Name: MethodSubagentsList, Children: SnapshotChildren},
			{Name: MethodSubagentsSubscribe, Children: SnapshotChildren},
		},
		ToolCall:      ToolCall,
		ToolEvent:     TodosEvent,
		MergeLate:     MergeLate,
		ChildSessions: true,
		// For audits: initialize's _meta advertises the subagents
		// extension and steering; the dialect reads neither (a client
		// that wants the tree asks for it). _opencode/rawEvent, seen in
		// OpenCode's clients, carries OpenCode's own bus events: nothing
		// a card needs. A client's terminal_output and AIR capabilities
		// (initialize's clientCapabilities._meta) are declarations
		// OpenCode 1.18.33 does not act on: it reads only terminal-auth.
		Ignores: []string{"_meta.steering", "_meta.opencode.dev/subagents", "_meta.terminal-auth", "_opencode/rawEvent",
			"_meta.terminal_output", "_meta.jetbrains.air.capabilities"},
	}
}

// Match identifies OpenCode by its agentInfo name, or by its title when
// the name is empty: one of Names, compared without case after trimming
// spaces. A name that merely contains "opencode" ("opencode-fork",
// "not-opencode") is another agent's.
func Match(name, title string) bool {
	if acpdialect.MatchExact(name, Names...) {
		return true
	}
	return strings.TrimSpace(name) == "" && acpdialect.MatchExact(title, Names...)
}
