package codex_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Codex dialect, its recorded
// transcripts (replayed as agent codex: they have no initialize) and their
// goldens. Regenerate with `go test ./codex -update` and review the diff.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, codex.Dialect(), dialecttest.Options{
		Agents:     []string{"codex-acp", "@zed-industries/codex-acp", "Codex"},
		NearMisses: []string{"claude-code (codex-compatible)", "openai-codex", "codexx", "@codex/claude-agent-acp"},
		Agent:      codex.ID,
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
