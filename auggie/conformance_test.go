package auggie_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/auggie"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Auggie dialect, its
// transcripts and their goldens. Regenerate with `go test ./auggie
// -update` and review the diff.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, auggie.Dialect(), dialecttest.Options{
		Agents:     []string{"auggie", "Auggie Agent", "@augmentcode/auggie", "Auggie CLI"},
		NearMisses: []string{"auggie-proxy", "augment", "my auggie", "Auggie Agent 2", "@augmentcode/auggie-sdk"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
