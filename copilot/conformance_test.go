package copilot_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/copilot"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the GitHub Copilot CLI dialect, its
// transcripts and their goldens. Regenerate with `go test ./copilot
// -update` and review the diff.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, copilot.Dialect(), dialecttest.Options{
		Agents:     []string{"Copilot", "GitHub Copilot", "GitHub Copilot CLI", "@github/copilot"},
		NearMisses: []string{"copilot-companion-broker", "copilot_muse_adapter", "Copilot Muse", "@github/copilot-sdk"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
