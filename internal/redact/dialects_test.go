package redact

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/internal/replay"
)

// root is the module root, from this package's directory.
var root = filepath.Join("..", "..")

// allCaptures is every transcript in the repository: each dialect's
// testdata, the shared testdata and the CLI's sample.
func allCaptures(t *testing.T) []string {
	t.Helper()
	var all []string
	for _, pattern := range []string{"*/testdata/*.jsonl", "testdata/*/*.jsonl", "testdata/*.jsonl", "cmd/acpdialect/*.jsonl"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, m...)
	}
	if len(all) < 100 {
		t.Fatalf("only %d captures found", len(all))
	}
	return all
}

// conformanceAgent is the Agent option of the conformance test in the
// package that holds dir ("" when none is set): the recordings with no
// initialize replay as that agent.
var conformanceAgent = regexp.MustCompile(`\bAgent:\s+(?:"([^"]+)"|(\w+)\.ID\b)`)

func agentFor(t *testing.T, dir string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "conformance_test.go"))
	if err != nil {
		return ""
	}
	m := conformanceAgent.FindSubmatch(src)
	switch {
	case m == nil:
		return ""
	case len(m[1]) > 0:
		return string(m[1])
	}
	// pkg.ID: the package's own ID, which is its directory's name.
	pkg := string(m[2])
	if pkg != filepath.Base(dir) || replay.Builtins().ByID(pkg) == nil {
		t.Fatalf("%s: cannot resolve Agent: %s.ID", dir, pkg)
	}
	return pkg
}

// redactionLosses are the events a redacted transcript may replay to
// differently, by capture: what a dialect reads from text that redact
// must hide. Each entry says why. Keep it empty if possible.
var redactionLosses = map[string]string{}

// TestRedactedEventsEveryCapture: every capture in the repository,
// redacted, replays (as cmd/acpdialect replay does, with the agent the
// package's conformance test sets) to the same sequence of event types
// and payload kinds.
func TestRedactedEventsEveryCapture(t *testing.T) {
	for _, path := range allCaptures(t) {
		rel, _ := filepath.Rel(root, path)
		t.Run(rel, func(t *testing.T) {
			agent := agentFor(t, filepath.Dir(filepath.Dir(path)))
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var red bytes.Buffer
			if err := New().Copy(&red, bytes.NewReader(orig)); err != nil {
				t.Fatal(err)
			}
			a, b := shape(t, orig, agent), shape(t, red.Bytes(), agent)
			same := strings.Join(a, "\n") == strings.Join(b, "\n")
			if why, ok := redactionLosses[filepath.ToSlash(rel)]; ok {
				if same {
					t.Errorf("listed as losing events (%s) but replays the same: drop it from redactionLosses", why)
				}
				return
			}
			if !same {
				t.Errorf("redacted replays differently (agent %q):\n%s", agent, diffShapes(a, b))
			}
		})
	}
}

// shape is the sequence of event types and payload kinds a transcript
// replays to.
func shape(t *testing.T, in []byte, agent string) []string {
	t.Helper()
	r, err := replay.Run(replay.Builtins(), bytes.NewReader(in), replay.Options{Agent: agent})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(r.Events))
	for _, rec := range r.Events {
		s := rec.Event.Type
		if p := rec.Event.Payload; p != nil {
			s += " " + p.Kind
		}
		out = append(out, s)
	}
	return out
}

// diffShapes counts each event shape in a and b and lists those that
// differ, then the first position where the sequences part.
func diffShapes(a, b []string) string {
	count := map[string][2]int{}
	var order []string
	for i, s := range [][]string{a, b} {
		for _, e := range s {
			c, ok := count[e]
			if !ok {
				order = append(order, e)
			}
			c[i]++
			count[e] = c
		}
	}
	var w strings.Builder
	for _, e := range order {
		if c := count[e]; c[0] != c[1] {
			fmt.Fprintf(&w, "  %-40s %d -> %d\n", e, c[0], c[1])
		}
	}
	for i := 0; i < len(a) || i < len(b); i++ {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			x, y := "(end)", "(end)"
			if i < len(a) {
				x = a[i]
			}
			if i < len(b) {
				y = b[i]
			}
			fmt.Fprintf(&w, "  first difference at event %d: %s -> %s", i+1, x, y)
			break
		}
	}
	return w.String()
}
