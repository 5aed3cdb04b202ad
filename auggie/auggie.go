// Package auggie is the dialect of Augment Code's Auggie CLI in ACP mode
// (`auggie --acp`).
//
// Auggie speaks plain ACP: no vendor methods, no update kinds of its own
// and no _meta. The one thing only its dialect knows is how it shows a
// subagent: a tool call titled "sub-agent-<type>: <description>" (kind
// other, no rawInput) that is the subagent's whole run, with no events of
// the child in between, and whose final text is rawOutput.output. That
// tool call becomes a subagent_task card: its type and description from
// the title, its result text from rawOutput.output. Every other tool call
// is a standard one.
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
