package opencode_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/opencode"
)

// TestConformance runs the public kit on the OpenCode dialect, its
// hand-written transcripts and their goldens. Regenerate with
// `go test ./opencode -update` and review the diff: the golden is the
// spec.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, opencode.Dialect(), dialecttest.Options{
		Agents:     []string{"OpenCode", "opencode", " OPENCODE "},
		NearMisses: []string{"opencode-fork", "not-opencode", "OpenCode Agent", "open code", "opencoder", "claude-code (opencode-compatible)"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
