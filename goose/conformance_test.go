package goose_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/goose"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Goose dialect, its
// transcripts and their goldens. Regenerate with `go test ./goose
// -update` and review the diff.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, goose.Dialect(), dialecttest.Options{
		Agents:     []string{"goose", "Goose"},
		NearMisses: []string{"mongoose", "goose-proxy", "goosebump", "Goose Desktop", "grey goose"},
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}
