package dialecttest

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// checkGoldens replays every transcript in Options.Dir and compares its
// --final and --json outputs with the goldens beside it, or rewrites them.
func checkGoldens(k *kit) []string {
	reg := k.opts.Registry
	if reg == nil {
		reg = acpdialect.NewRegistry(k.d)
	}
	var fails []string
	for _, path := range k.transcripts {
		final, events, err := replay.FileAs(reg, path, k.opts.Agent)
		if err != nil {
			fails = append(fails, err.Error())
			continue
		}
		base := strings.TrimSuffix(path, ".jsonl")
		for _, g := range []struct {
			path string
			got  []byte
		}{{base + ".final.golden", final}, {base + ".events.golden", events}} {
			if err := testwire.CompareGolden(g.path, g.got, k.opts.Update || *testwire.Update); err != nil {
				fails = append(fails, err.Error())
			}
		}
	}
	return fails
}
