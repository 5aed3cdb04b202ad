package grok_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/acpdialect/acpdialect"
)

// allocsEach returns the allocations of each of fs, run in turn, averaged
// over runs: testing.AllocsPerRun for the steps of a round that cannot
// run alone.
func allocsEach(runs int, fs ...func()) []float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, f := range fs {
		f() // warm up
	}
	total := make([]uint64, len(fs))
	var before, after runtime.MemStats
	for range runs {
		for i, f := range fs {
			runtime.ReadMemStats(&before)
			f()
			runtime.ReadMemStats(&after)
			total[i] += after.Mallocs - before.Mallocs
		}
	}
	out := make([]float64, len(fs))
	for i, n := range total {
		out[i] = float64(n / uint64(runs))
	}
	return out
}

// The set_config_option round's allocations, pinned (BENCHMARKS.md,
// "Grok's rewrites"):
//
//   - the request sent as set_model: 4, the new frame, the tracked
//     request's id (as every request's), and the dialect's params and
//     note (the note carries the catalog the reply makes the state);
//   - the reply turned back: 3, the new frame, and the dialect's result
//     (whose options the config event shares) and its config event (the
//     event and its object in one);
//   - a refusal: 3, the new frame, and the dialect's error and its
//     message.
//
// The frames' lengths do not change the counts: a catalog of 200 models
// turns the reply back as a frame of 10 KB.
func TestRewriteAllocs(t *testing.T) {
	t.Run("catalog of 2", func(t *testing.T) { rewriteAllocs(t, setConfigConn(fuzzModels)) })
	t.Run("catalog of 200", func(t *testing.T) {
		models := `{"currentModelId":"a","availableModels":[{"modelId":"a","name":"Model A","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","high"],"totalContextTokens":100}}`
		for i := range 199 {
			models += fmt.Sprintf(`,{"modelId":"model-%d","name":"Model number %d"}`, i, i)
		}
		rewriteAllocs(t, setConfigConn(models+`]}`))
	})
}

func rewriteAllocs(t *testing.T, c *acpdialect.Conn) {
	var out, in, refused int
	steps := allocsEach(100,
		func() {
			r, _ := c.Outbound(setConfigRequest)
			out = len(r.Wire.Frame)
		},
		func() {
			r, _ := c.Inbound(setModelReply)
			in = len(r.Wire.Frame)
		},
		func() {
			r, _ := c.Outbound(refusedRequest)
			refused = len(r.Wire.Deliver)
		})
	if out == 0 || in == 0 || refused == 0 {
		t.Fatalf("frames of %d, %d and %d bytes", out, in, refused)
	}
	t.Logf("frames of %d, %d and %d bytes", out, in, refused)
	want := []float64{4, 3, 3}
	for i, name := range []string{"set_config_option sent as set_model", "reply turned back", "refusal"} {
		if steps[i] != want[i] {
			t.Errorf("%s: %.0f allocs, want %.0f", name, steps[i], want[i])
		}
	}
	round := testing.AllocsPerRun(100, func() {
		c.Outbound(setConfigRequest)
		c.Inbound(setModelReply)
	})
	refusal := testing.AllocsPerRun(100, func() { c.Outbound(refusedRequest) })
	if round != want[0]+want[1] || refusal != want[2] {
		t.Errorf("round %.0f allocs, refusal %.0f; want %.0f and %.0f", round, refusal, want[0]+want[1], want[2])
	}
}
