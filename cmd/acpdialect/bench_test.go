package main

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// mixed is a large mixed transcript: 16 turns of a Cursor session (about
// 4.4 MB: chunks, file reads with outputs up to 30 KB, subagents with
// cursor/task) with the real Claude and Codex captures' updates in every
// turn.
func mixed(b *testing.B) []byte {
	caps, err := tw.CaptureUpdates(filepath.Join("..", "..", "testdata", "*.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tw.WriteMixed(&buf, 16, caps); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkReplayJSON is `acpdialect replay --json -` on the mixed
// transcript, output discarded.
func BenchmarkReplayJSON(b *testing.B) {
	in := mixed(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		replayJSON(b, in)
	}
}

func replayJSON(b *testing.B, in []byte) {
	if code := run([]string{"replay", "--json", "-"}, bytes.NewReader(in), io.Discard, io.Discard); code != 0 {
		b.Fatalf("exit %d", code)
	}
}

// BenchmarkConnAlone feeds the same lines to a Conn, each in its
// direction (worked out beforehand): the floor a replay adds to.
func BenchmarkConnAlone(b *testing.B) {
	in := mixed(b)
	lines := directed(in)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		connAlone(lines)
	}
}

// BenchmarkReplayRatio alternates a replay (as BenchmarkReplayJSON) and
// a Conn pass (as BenchmarkConnAlone), in turns of either order, and
// reports the median of the Conn's time over the replay's in each pair:
// wall time (conn/replay) and the process's CPU time (cpu-conn/replay).
// On a shared machine the load changes between two benchmarks' runs; it
// changes much less between two passes a few milliseconds apart, and
// CPU time leaves out the time spent waiting for a core.
func BenchmarkReplayRatio(b *testing.B) {
	in := mixed(b)
	lines := directed(in)
	var wall, cpu []float64
	for i := 0; b.Loop(); i++ {
		var r, c [2]time.Duration
		if i%2 == 0 {
			r = timed(func() { replayJSON(b, in) })
			c = timed(func() { connAlone(lines) })
		} else {
			c = timed(func() { connAlone(lines) })
			r = timed(func() { replayJSON(b, in) })
		}
		wall = append(wall, float64(c[0])/float64(r[0]))
		cpu = append(cpu, float64(c[1])/float64(r[1]))
	}
	b.ReportMetric(median(wall), "conn/replay")
	b.ReportMetric(median(cpu), "cpu-conn/replay")
}

// timed returns the wall time and the process's CPU time f took.
func timed(f func()) [2]time.Duration {
	t, c := time.Now(), cpuTime()
	f()
	return [2]time.Duration{time.Since(t), cpuTime() - c}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// line is a transcript line and its direction.
type line struct {
	b   []byte
	out bool
}

// directed splits a transcript into its valid lines, with the directions
// a replay infers.
func directed(in []byte) []line {
	var lines []line
	s, _ := replay.NewStream(replay.Builtins(), replay.Options{}, replay.Sink{Frame: func(f replay.Frame) {
		lines = append(lines, line{bytes.Clone(f.Raw), f.Dir == replay.ClientToAgent})
	}}, nil)
	s.Feed(bytes.NewReader(in))
	return lines
}

func connAlone(lines []line) {
	c := replay.Builtins().NewConn(acpdialect.Options{ClientAnswers: true})
	for _, l := range lines {
		if l.out {
			c.Outbound(l.b)
		} else {
			c.Inbound(l.b)
		}
	}
}
