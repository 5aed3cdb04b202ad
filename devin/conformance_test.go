package devin_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/devin"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Devin dialect, its
// transcripts and their goldens. Regenerate with `go test ./devin
// -update` and review the diff.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, devin.Dialect(), dialecttest.Options{
		Agents:     []string{"devin", "Devin"},
		NearMisses: []string{"devin-proxy", "devin-mcp", "Devin Cloud Relay", "kevin", "devinci"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
