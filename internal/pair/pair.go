// Package pair times passes of work in alternation, for benchmarks whose
// result is a ratio. On a shared machine the load changes between two
// benchmarks' runs; it changes much less between passes a few milliseconds
// apart, and the process's CPU time leaves out the time spent waiting for
// a core. So the ratio of two passes taken side by side, and its median
// over many pairs, is steady where absolute times are not.
package pair

import (
	"slices"
	"testing"
	"time"
)

// Pass is one pass of work under a name.
type Pass struct {
	Name string
	Run  func()
}

// Report runs one pass of each per iteration of b.Loop, in an order that
// rotates, and reports for every pass after the first the median over the
// iterations of its time over the first's: in wall time as
// "<name>/<first>" and in CPU time as "cpu-<name>/<first>". Above 1 the
// first pass is the faster. It also reports each pass's median wall time,
// as "us-<name>": two builds of the same baseline can differ in speed by
// several percent (code layout, the heap the other passes leave), so a
// change to one pass is judged by that pass's own time, side by side with
// the other build's, and the ratio is read from the final build.
func Report(b *testing.B, passes ...Pass) {
	b.Helper()
	wall := make([][]float64, len(passes))
	cpu := make([][]float64, len(passes))
	abs := make([][]float64, len(passes))
	for i := 0; b.Loop(); i++ {
		t := make([][2]time.Duration, len(passes))
		for k := range passes {
			j := (i + k) % len(passes)
			t[j] = timed(passes[j].Run)
		}
		for j := range passes {
			abs[j] = append(abs[j], float64(t[j][0])/1e3)
		}
		for j := 1; j < len(passes); j++ {
			wall[j] = append(wall[j], float64(t[j][0])/float64(t[0][0]))
			if t[0][1] > 0 {
				cpu[j] = append(cpu[j], float64(t[j][1])/float64(t[0][1]))
			}
		}
	}
	for j := range passes {
		b.ReportMetric(median(abs[j]), "us-"+passes[j].Name)
	}
	for j := 1; j < len(passes); j++ {
		name := passes[j].Name + "/" + passes[0].Name
		b.ReportMetric(median(wall[j]), name)
		if c := median(cpu[j]); c > 0 {
			b.ReportMetric(c, "cpu-"+name) // none where CPU time is not read
		}
	}
}

// timed returns the wall time and the process's CPU time f took.
func timed(f func()) [2]time.Duration {
	t, c := time.Now(), cpuTime()
	f()
	return [2]time.Duration{time.Since(t), cpuTime() - c}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
