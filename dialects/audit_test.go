package dialects_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/audit"
)

// replayAgent is the agent each package's conformance test replays its
// transcripts as (dialecttest.Options.Agent): "" identifies the agent from
// the initialize response.
var replayAgent = map[string]string{
	"codex": "codex", // the captures have no initialize
}

// unread are, per judging dialect, the vendor methods, update kinds and
// _meta key paths of the built-in transcripts that stay unknown to the
// dialect on purpose, each group with why: a transcript's own test of
// data no agent sends, or another agent's frames under the dialect's
// name. Anything else unknown is data the dialect reads without declaring
// it in Reads, or leaves alone without saying so in Ignores (then a live
// audit would call it new), or should read. An entry that is no longer
// unknown must go.
var unread = map[string][]struct {
	why   string
	items []string
}{
	"claude": {
		{"unknown vendor methods on purpose (vendor-notifications.jsonl): ignored and declined",
			[]string{"method _claude/unknownRequest", "method _claude/unknownThing"}},
		{"Cursor's frames under Claude's name (cursor/testdata/claude-agent-same-frames.jsonl)",
			[]string{"method cursor/task", "meta _meta.parameterizedModelPicker"}},
	},
	"grok": {
		{"unknown vendor methods on purpose (vendor-methods.jsonl): declined and ignored",
			[]string{"method x.ai/git/status", "method x.ai/brand_new_notification"}},
	},
	"cursor": {
		{"an unknown vendor method on purpose (notification-and-ids.jsonl): declined",
			[]string{"method cursor/unknown_method"}},
	},
}

// TestAuditTestdata audits every built-in dialect's transcripts as its
// conformance test replays them: every vendor method, update kind and
// _meta key path a dialect judges must be read, ignored, standard, or
// listed in unread. Items of a transcript no dialect identifies (another
// agent's on purpose) are judged by none and pass.
func TestAuditTestdata(t *testing.T) {
	reg := dialects.Registry()
	known := map[string]string{} // agent kind name -> why
	for agent, groups := range unread {
		for _, g := range groups {
			for _, it := range g.items {
				known[agent+" "+it] = g.why
			}
		}
	}
	used := map[string]bool{}
	for _, d := range dialects.All() {
		t.Run(d.ID, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join("..", d.ID, "testdata", "*.jsonl"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no transcripts in ../%s/testdata (%v)", d.ID, err)
			}
			a := audit.New()
			for _, name := range files {
				f, err := os.Open(name)
				if err != nil {
					t.Fatal(err)
				}
				err = a.File(reg, name, f, replayAgent[d.ID])
				f.Close()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			judged := 0
			for _, it := range a.Items() {
				if it.Agent == d.ID {
					judged++
				}
				if it.Status != audit.Unknown || it.Agent == "unknown" {
					continue
				}
				k := it.Agent + " " + it.Kind + " " + it.Name
				if _, ok := known[k]; ok {
					used[k] = true
					continue
				}
				t.Errorf("%s:%d: %s %s is unknown to the %s dialect: declare it in its Reads (or Ignores) if it reads it, else list it in unread with why",
					it.File, it.Line, it.Kind, it.Name, it.Agent)
			}
			if judged == 0 {
				t.Errorf("no item of ../%s/testdata was judged by the %s dialect", d.ID, d.ID)
			}
		})
	}
	if t.Failed() {
		return
	}
	for k := range known {
		if !used[k] {
			t.Errorf("unread lists %q, which no transcript has unknown any more: remove it", k)
		}
	}
}
