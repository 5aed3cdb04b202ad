package cursor_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Cursor dialect, its
// transcripts and their goldens.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, cursor.Dialect(), dialecttest.Options{
		Agents:     []string{"cursor-agent", "Cursor Agent"},
		NearMisses: []string{"precursor", "claude-code (cursor-compatible)"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
