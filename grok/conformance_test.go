package grok_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Grok dialect, its
// transcripts and their goldens.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, grok.Dialect(), dialecttest.Options{
		Agents:     []string{"grok-build", "Grok Build", "@xai-official/grok", "grok"},
		NearMisses: []string{"groklike", "not-grok-agent", "grok-cli", "grokker", "superagent grok-cli", "Grok Build Plus"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
