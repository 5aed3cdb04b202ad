// Package gemini is the dialect of Google's Gemini CLI in ACP mode
// (`gemini --acp`, formerly `--experimental-acp`).
//
// Gemini CLI speaks standard ACP: no vendor methods, no update kinds of
// its own, no usage_update. The one thing only its dialect knows is where
// it reports a turn's tokens: the session/prompt response's
// _meta.quota, in snake_case ({token_count: {input_tokens,
// output_tokens}, model_usage: [{model, token_count}]}), summed over the
// turn's model calls. The dialect reads it into a turn usage event
// (acpdialect.Usage with Turn set), beside ACP's own PromptResponse.usage
// when an agent sends that too. A model call filed under a routing alias
// ("auto") names no model. Its subagents run inside the agent and send
// nothing on the wire. It sends a tool_call only for a call that needs no
// permission: the others first show as a tool_call_update, which makes
// their card (Dialect.SurfaceUpdates).
//
// The wire facts each rule relies on, with their public sources, are in
// the module's docs/gemini.md.
package gemini

import (
	"github.com/acpdialect/acpdialect"
)

// ID is the dialect's identifier.
const ID = "gemini"

// Dialect returns the Gemini CLI dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    ID,
		Match: Match,
		Calls: []acpdialect.Call{
			{Name: "session/prompt", Result: TurnUsage},
		},
		Reads: []string{"_meta.quota"},
		// A tool call that asks for permission, or fails before it runs,
		// is never sent as a tool_call (runTool in its ACP session): its
		// first update makes its card.
		SurfaceUpdates: true,
		// The auth methods' provider hints and a diff's kind
		// (add/delete/modify): known, and nothing a card or event shows.
		// The client's own capability flags on initialize (terminal
		// output, AIR's records): Gemini CLI reads only the fs
		// capability and sends neither, so an audit of a client that
		// declares them shows only what Gemini CLI added.
		Ignores: []string{"_meta.api-key", "_meta.gateway", "_meta.kind",
			"_meta.terminal_output", "_meta.jetbrains.air.capabilities"},
	}
}

// Names are the initialize agentInfo names and titles Match accepts:
// Gemini CLI's own agentInfo (name gemini-cli, title Gemini CLI), its npm
// package and its id in the ACP registry.
var Names = []string{"gemini-cli", "Gemini CLI", "@google/gemini-cli", "gemini"}

// Match identifies Gemini CLI by its agentInfo name or title: one of
// Names, in any case, around spaces. A name that only contains one of
// them ("gemini-cli-proxy", "gemini-api") is not Gemini CLI's.
func Match(name, title string) bool {
	return acpdialect.MatchExact(name, Names...) || acpdialect.MatchExact(title, Names...)
}
