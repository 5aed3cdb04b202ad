package replay

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestCaptures pins the real Claude captures in the repository's
// testdata (provenance in testdata/SOURCES.md) through the built-in
// dialects. Regenerate with `go test ./internal/replay -update` and review
// the diff.
func TestCaptures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no captures: %v", err)
	}
	for _, path := range paths {
		base := strings.TrimSuffix(path, ".jsonl")
		t.Run(filepath.Base(base), func(t *testing.T) {
			final, events := replayFile(t, Builtins(), path)
			testwire.Golden(t, base+".final.golden", final)
			testwire.Golden(t, base+".events.golden", events)
			// No dialect claims these agents yet: their output must not
			// depend on which dialects are registered.
			bareFinal, bareEvents := replayFile(t, acpdialect.NewRegistry(), path)
			if !bytes.Equal(final, bareFinal) || !bytes.Equal(events, bareEvents) {
				t.Errorf("output depends on the registered dialects")
			}
		})
	}
}

func replayFile(t *testing.T, reg *acpdialect.Registry, path string) (final, events []byte) {
	t.Helper()
	final, events, err := File(reg, path)
	if err != nil {
		t.Fatal(err)
	}
	return final, events
}
