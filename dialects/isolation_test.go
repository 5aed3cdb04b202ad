package dialects_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/replay"
)

// TestTranscriptsIsolated: each built-in dialect's transcripts, replayed
// on a connection named as another built-in agent or an unknown one, give
// byte for byte what they give when that dialect is not registered, and
// nothing labelled with its ID. The kit's isolation rule checks the same
// against stand-in dialects; this holds the real ones to it (a Claude
// frame on a Cursor connection, a Codex frame on a Claude one).
func TestTranscriptsIsolated(t *testing.T) {
	all := dialects.All()
	for _, d := range all {
		paths, _ := filepath.Glob(filepath.Join("..", d.ID, "testdata", "*.jsonl"))
		if len(paths) == 0 {
			continue
		}
		var rest []*acpdialect.Dialect
		for _, o := range all {
			if o.ID != d.ID {
				rest = append(rest, o)
			}
		}
		with, without := acpdialect.NewRegistry(all...), acpdialect.NewRegistry(rest...)
		agents := []string{"unknown"}
		for _, o := range rest {
			agents = append(agents, o.ID)
		}
		t.Run(d.ID, func(t *testing.T) {
			for _, p := range paths {
				for _, agent := range agents {
					got := replayAs(t, with, p, agent)
					if want := replayAs(t, without, p, agent); !bytes.Equal(got, want) {
						t.Errorf("%s as %s: the output depends on the %s dialect:\n%s\nwithout it:\n%s", p, agent, d.ID, got, want)
					}
					if label := fmt.Sprintf(`"agent":%q`, d.ID); bytes.Contains(got, []byte(label)) {
						t.Errorf("%s as %s: an event says %s", p, agent, label)
					}
				}
			}
		})
	}
}

// replayAs is a transcript's events, replies and final state through reg,
// on a connection named as agent.
func replayAs(t *testing.T, reg *acpdialect.Registry, path, agent string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := replay.Run(reg, f, replay.Options{Agent: agent})
	if err != nil {
		t.Fatalf("%s as %s: %v", path, agent, err)
	}
	var b bytes.Buffer
	if err := r.WriteEvents(&b); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "replies: %+v\n", r.Replies)
	if err := r.WriteFinal(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
