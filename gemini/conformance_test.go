package gemini_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/gemini"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Gemini CLI dialect, its
// transcripts and their goldens. Regenerate with `go test ./gemini
// -update` and review the diff.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, gemini.Dialect(), dialecttest.Options{
		Agents:     []string{"gemini-cli", "Gemini CLI", "@google/gemini-cli", "gemini"},
		NearMisses: []string{"gemini-cli-proxy", "gemini-api", "Gemini CLI Proxy", "@google/gemini-cli-core", "not-gemini"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
