package codex_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Codex dialect, its recorded
// transcripts (replayed as agent codex: most have no initialize, and the
// version of those that have one picks the dialect's variant) and their
// goldens, and on its variant for the releases that report the whole
// prompt's usage. Regenerate with `go test ./codex -update` and review
// the diff.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, codex.Dialect(), dialecttest.Options{
		Agents:     []string{"codex-acp", "@zed-industries/codex-acp", "Codex"},
		NearMisses: []string{"claude-code (codex-compatible)", "openai-codex", "codexx", "@codex/claude-agent-acp"},
		Agent:      codex.ID,
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
		// Releases before and after the change of the turn's usage.
		Versions: []string{"1.6.2", "2.1.1", "2.2.1-beta.1", "2.2.1", "2.6.0", "v2.6.0", "2.6.0-beta.1"},
	})
}
