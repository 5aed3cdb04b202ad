// Package dialects lists every dialect built into acpdialect, for clients
// that want them all. The root package cannot hold this list: vendor
// packages import the root, never the other way round.
package dialects

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/auggie"
	"github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/copilot"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/devin"
	"github.com/acpdialect/acpdialect/gemini"
	"github.com/acpdialect/acpdialect/goose"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/acpdialect/acpdialect/kimi"
	"github.com/acpdialect/acpdialect/opencode"
)

// All returns a fresh value of every built-in dialect, in the order they
// are tried when identifying an agent. Add a new dialect here.
func All() []*acpdialect.Dialect {
	return []*acpdialect.Dialect{
		cursor.Dialect(),
		claude.Dialect(),
		codex.Dialect(),
		grok.Dialect(),
		opencode.Dialect(),
		auggie.Dialect(),
		gemini.Dialect(),
		goose.Dialect(),
		devin.Dialect(),
		copilot.Dialect(),
		kimi.Dialect(),
	}
}

// Registry returns a registry of every built-in dialect.
func Registry() *acpdialect.Registry {
	return acpdialect.NewRegistry(All()...)
}
