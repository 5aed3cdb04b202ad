// Package kimi is the dialect of Moonshot AI's Kimi Code CLI in ACP mode
// (`kimi acp`, formerly Kimi CLI).
//
// Kimi Code CLI speaks standard ACP: its extension methods are stubs, and
// it reports no usage and no context window. Its dialect only identifies
// it, so that a client and `acpdialect replay` name the agent; every
// frame gets standard behaviour (and the recognizers every dialect
// shares). Its one piece of vendor data, the terminal login command in
// initialize's auth method (_meta.terminal-auth), is left to the client
// (Ignores).
//
// One thing a client should know: Kimi prefixes every tool call id with
// the id of its turn ("<turn uuid>/<model's tool call id>"), because the
// model may reuse a tool call id after a rejected or cancelled call. Ids
// are therefore unique across turns; a client must not parse them, and
// the dialect does not need to sweep anything at turn end.
//
// The wire facts it relies on, with their public sources, are in the
// module's docs/kimi.md.
package kimi

import (
	"github.com/acpdialect/acpdialect"
)

// ID is the dialect's identifier.
const ID = "kimi"

// Dialect returns the Kimi Code CLI dialect. Each call returns a fresh
// value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    ID,
		Match: Match,
		// For audits: every initialize offers the login method with
		// _meta.terminal-auth, a command for the client to run in a
		// terminal (docs/kimi.md), not an event.
		Ignores: []string{"_meta.terminal-auth"},
	}
}

// Names are the initialize agentInfo names and titles Match accepts: the
// agentInfo name Kimi Code CLI sends (its NAME constant), the one it sent
// before its rename (Kimi CLI), its Python package and its binary.
var Names = []string{"Kimi Code CLI", "Kimi CLI", "kimi-cli", "kimi"}

// Match identifies Kimi Code CLI by its agentInfo name or title: one of
// Names, in any case, around spaces. Names that only contain one of them
// ("kimi-cli-proxy", "Kimi Chat") are other agents.
func Match(name, title string) bool {
	return acpdialect.MatchExact(name, Names...) || acpdialect.MatchExact(title, Names...)
}
