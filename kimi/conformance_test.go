package kimi_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/kimi"
)

// TestConformance runs the public kit on the Kimi Code CLI dialect, its
// transcripts and their goldens. Regenerate with `go test ./kimi
// -update` and review the diff.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, kimi.Dialect(), dialecttest.Options{
		Agents:     []string{"Kimi Code CLI", "Kimi CLI", "kimi-cli", "kimi"},
		NearMisses: []string{"kimi-cli-proxy", "Kimi Chat", "kimiko", "Kimi Code CLI Pro"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
