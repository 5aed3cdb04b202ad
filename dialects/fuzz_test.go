package dialects_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// FuzzInvalidActsOnNothing: on a connection of every dialect, a line that
// is not valid JSON gets no reply, no event and no rewrite, whatever path
// reads it (the fast path's tool calls, the walk that reads and checks a
// sorted-key update, a response's walk). Seeded with the Claude and Codex
// captures' lines, which take those paths.
func FuzzInvalidActsOnNothing(f *testing.F) {
	for _, glob := range []string{"../claude/testdata/*__*.jsonl", "../codex/testdata/*.jsonl"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths[:min(len(paths), 6)] {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			for line := range bytes.SplitSeq(data, []byte("\n")) {
				if len(line) > 0 && len(line) < 2048 {
					f.Add(line)
				}
			}
		}
	}
	// The table and the registry are built once: they are immutable, and
	// building them for each dialect of each input made this target run at
	// a tenth of its speed, under CI's floor of executions.
	all, reg := dialects.All(), dialects.Registry()
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, d := range all {
			c := reg.NewConn(acpdialect.Options{Agent: d.ID})
			c.Outbound([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"<session>","prompt":[]}}`))
			valid := json.Valid(bytes.TrimSpace(line))
			for _, send := range []func([]byte) (acpdialect.Result, error){c.Inbound, c.Outbound} {
				r, _ := send(line)
				if !valid && (r.Reply != nil || len(r.Events) > 0 || r.Wire != nil) {
					t.Fatalf("%s: the invalid line %q gave reply %q, %d events, wire %v", d.ID, line, r.Reply, len(r.Events), r.Wire)
				}
			}
		}
	})
}

// TestInvalidFramesEveryDialect: the invalid lines the Cursor tests send
// get no reply, no event and no rewrite on every dialect's connection,
// whichever walk reads them there (Claude's sorted-key updates, Codex's
// SDK-layout ones).
func TestInvalidFramesEveryDialect(t *testing.T) {
	for _, d := range dialects.All() {
		for _, tc := range testwire.InvalidFrames {
			c := dialects.Registry().NewConn(acpdialect.Options{Agent: d.ID})
			c.Outbound([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`))
			r, _ := c.Inbound([]byte(tc.Frame))
			if r.Reply != nil || len(r.Events) > 0 || r.Wire != nil {
				t.Errorf("%s, %s: reply %q, %d events, wire %v; want nothing", d.ID, tc.Name, r.Reply, len(r.Events), r.Wire)
			}
		}
	}
}
