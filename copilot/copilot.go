// Package copilot is the dialect of GitHub Copilot CLI in ACP mode
// (`copilot --acp`).
//
// Copilot CLI speaks standard ACP: no vendor methods, no update kinds of
// its own and no _meta the library reads. Its dialect identifies it, so
// that a client and `acpdialect replay` name the agent, and makes its
// shell tool call a shell card (ToolCall), failed when the command exits
// with a non-zero code; every other frame gets standard behaviour (and
// the recognizers every dialect shares).
//
// The wire facts it relies on, with their public sources, are in the
// module's docs/copilot.md.
package copilot

import (
	"github.com/acpdialect/acpdialect"
)

// ID is the dialect's identifier.
const ID = "copilot"

// Dialect returns the Copilot CLI dialect. Each call returns a fresh
// value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:       ID,
		Match:    Match,
		ToolCall: ToolCall,
		// For audits: a model's premium-request multiplier is left to the
		// client, as ACP's models are, and so is the auth methods'
		// terminal login command (docs/copilot.md). The client's own
		// capability flags on initialize (terminal output, AIR's
		// records) are names Copilot CLI's ACP code does not contain,
		// so an audit of a client that declares them shows only what
		// Copilot CLI added.
		Ignores: []string{"_meta.copilotUsage", "_meta.terminal-auth",
			"_meta.terminal_output", "_meta.jetbrains.air.capabilities"},
	}
}

// Names are the initialize agentInfo names and titles Match accepts:
// Copilot CLI's own agentInfo name (Copilot), the product name, its npm
// package and its binary.
var Names = []string{"Copilot", "GitHub Copilot", "GitHub Copilot CLI", "@github/copilot"}

// Match identifies Copilot CLI by its agentInfo name or title: one of
// Names, in any case, around spaces. Names that only contain one of them
// (a "copilot-companion-broker", "copilot_muse_adapter") are other
// agents.
func Match(name, title string) bool {
	return acpdialect.MatchExact(name, Names...) || acpdialect.MatchExact(title, Names...)
}
