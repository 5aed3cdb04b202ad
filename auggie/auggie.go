// Package auggie is the dialect of Augment Code's Auggie CLI in ACP mode
// (`auggie --acp`).
//
// Auggie sends no update kinds of its own. Its vendor data is all outside
// a turn's events, and the dialect leaves it alone (Ignores): a login
// method's _meta.terminal-auth, session/list's _meta.messageCount, and the
// client-to-agent methods completion/* and augment/session/history. The
// one thing only its dialect knows is how it shows a
// subagent: a tool call titled "sub-agent-<type>: <description>", or
// "sub-agent: <description>" for its generic subagent tool (kind other,
// no rawInput), that is the subagent's whole run, with no events of the
// child in between, and whose final text is rawOutput.output; session/load
// replays it titled with the bare tool name ("sub-agent-<type>",
// "sub-agent") and with rawInput. That tool call becomes a subagent_task
// card: its type and description from the title, its prompt, name (and
// description, for a bare title) from rawInput, its result text from
// rawOutput.output (its error, when the tool call failed). Every other
// tool call is a standard one.
//
// The wire facts each rule relies on, with their public sources, are in
// the module's docs/auggie.md.
package auggie

import (
	"github.com/acpdialect/acpdialect"
)

// ID is the dialect's identifier.
const ID = "auggie"

// Dialect returns the Auggie dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:       ID,
		Match:    Match,
		ToolCall: ToolCall,
		Ignores:  ignores(),
	}
}

// ignores is the vendor data Auggie's wire carries that the dialect leaves
// alone on purpose (docs/auggie.md, section 2), so that an audit of a new
// release shows only what is new.
func ignores() []string {
	return []string{
		// initialize: the login method Auggie offers a client that
		// declares _meta.terminal-auth (a command for the client to run,
		// not an event).
		"_meta.terminal-auth",
		// session/list: each listed session's number of exchanges.
		"_meta.messageCount",
		// Requests and notifications the client sends Auggie: editor
		// completions, and (0.36.0 on) a saved session's messages. Their
		// results answer the client's own call and carry no events.
		"completion/request", "completion/resolve", "completion/cancel",
		"augment/session/history",
		// Client capabilities Auggie does not read (0.36.0): a client
		// that declares them gets plain ACP back.
		"_meta.jetbrains.air", "_meta.terminal_output",
	}
}

// Names are the initialize agentInfo names and titles Match accepts:
// Auggie's own agentInfo (name auggie, title Auggie Agent), its npm
// package and its name in the ACP registry.
var Names = []string{"auggie", "Auggie Agent", "@augmentcode/auggie", "Auggie CLI"}

// Match identifies Auggie by its agentInfo name or title: one of Names,
// in any case, around spaces. A name that only contains one of them
// ("auggie-proxy", "my auggie") is not Auggie's.
func Match(name, title string) bool {
	return acpdialect.MatchExact(name, Names...) || acpdialect.MatchExact(title, Names...)
}
