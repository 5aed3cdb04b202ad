package codex_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/floor"
	"github.com/acpdialect/acpdialect/internal/pair"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// Replaying every recorded Codex line through a Conn, beside two baselines
// on the same lines: encoding/json into map[string]any reading what a
// client reads to dispatch, and gjson reading three fields per line. One
// op is the whole set of lines. Run:
//
//	go test -run '^$' -bench . -benchmem -count 6 ./codex | benchstat -

var (
	sinkEvents int
	sinkStr    string
)

// handWritten are the transcripts of testdata that are not codex-acp's
// recorded test scenarios (testdata/SOURCES.md: written by hand, or
// recorded live through the tap): the speed targets are read on the
// scenarios.
var handWritten = map[string]bool{"air-session-failure.jsonl": true,
	"v2-standard-client.jsonl": true, "v2-air-client.jsonl": true, "live-2.6.0-offline-prompt.jsonl": true,
	"live-2.6.0-stub.jsonl": true, "live-2.6.0-stub-subagent.jsonl": true, "live-2.6.0-stub-subagent-standard.jsonl": true,
	"v2-air-async-task.jsonl": true, "v2-subagents-client.jsonl": true}

// recordedCaptures is how many recorded transcripts testdata holds.
const recordedCaptures = 67

// captureLines reads every line of the recorded transcripts.
func captureLines(b *testing.B) (lines [][]byte, size int64) {
	b.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		b.Fatal("no transcripts", err)
	}
	files = slices.DeleteFunc(files, func(name string) bool { return handWritten[filepath.Base(name)] })
	if len(files) != recordedCaptures {
		b.Fatalf("%d recorded transcripts, want %d: list a hand-written one in handWritten", len(files), recordedCaptures)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
				lines = append(lines, bytes.Clone(l))
				size += int64(len(l))
			}
		}
	}
	return lines, size
}

func BenchmarkCapturesConn(b *testing.B) {
	lines, size := captureLines(b)
	c := conn(b, acpdialect.Options{})
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		replayConn(b, c, lines)
	}
}

func BenchmarkCapturesBaseline(b *testing.B) {
	lines, size := captureLines(b)
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		decodeMaps(b, lines)
	}
}

func BenchmarkCapturesGJSON(b *testing.B) {
	lines, size := captureLines(b)
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		readGJSON(lines)
	}
}

// BenchmarkCapturesRatio replays the captures through the Conn, the map
// baseline and gjson in alternation and reports the medians of their times
// over the Conn's (map/conn, gjson/conn; cpu- in CPU time): the figures
// the speed targets name, steady on a shared machine.
func BenchmarkCapturesRatio(b *testing.B) {
	lines, _ := captureLines(b)
	c := conn(b, acpdialect.Options{})
	pair.Report(b,
		pair.Pass{Name: "conn", Run: func() { replayConn(b, c, lines) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, lines) }},
		pair.Pass{Name: "gjson", Run: func() { readGJSON(lines) }},
	)
}

// BenchmarkCapturesCheckedRatio is BenchmarkCapturesRatio's map/conn with a
// Conn that checks nothing (Options.Checked): the most that folding the
// check into the walks the Conn and the hooks make anyway could give.
func BenchmarkCapturesCheckedRatio(b *testing.B) {
	lines, _ := captureLines(b)
	c := conn(b, acpdialect.Options{Checked: true})
	pair.Report(b,
		pair.Pass{Name: "conn", Run: func() { replayConn(b, c, lines) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, lines) }},
	)
}

// BenchmarkCapturesFloorRatio reports gjson's three fields and the map
// baseline against the floor of any Codex normalizer (internal/floor,
// reading _meta.codex's collaboration and subagent): at 1 or below
// (gjson/floor), not even the floor is faster than gjson, and a Conn that
// does all the contract asks cannot be; map/floor is the most any such
// Conn could reach against the map baseline.
func BenchmarkCapturesFloorRatio(b *testing.B) {
	lines, _ := captureLines(b)
	f := floor.New("codex", "collaboration", "subagent")
	pair.Report(b,
		pair.Pass{Name: "floor", Run: func() {
			for _, l := range lines {
				f.Line(scan.UnsafeString(l))
			}
		}},
		pair.Pass{Name: "gjson", Run: func() { readGJSON(lines) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, lines) }},
	)
}

// BenchmarkCapturesOutputsFloorRatio is BenchmarkCapturesFloorRatio with
// the floor that also makes the contract's other events, each in the least
// way (floor.NewOutputs); floor/out is what they add.
func BenchmarkCapturesOutputsFloorRatio(b *testing.B) {
	lines, _ := captureLines(b)
	out := floor.NewOutputs("codex", "collaboration", "subagent")
	f := floor.New("codex", "collaboration", "subagent")
	run := func(f *floor.Floor) func() {
		return func() {
			for _, l := range lines {
				f.Line(scan.UnsafeString(l))
			}
		}
	}
	pair.Report(b,
		pair.Pass{Name: "out", Run: run(out)},
		pair.Pass{Name: "gjson", Run: func() { readGJSON(lines) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, lines) }},
		pair.Pass{Name: "floor", Run: run(f)},
	)
}

// BenchmarkCapturesCheckFloorRatio reports gjson's three fields against
// the least a normalizer that checks what it acts on spends on checking
// alone: scan.Valid over each line floor.MustCheck selects, and nothing
// else. gjson/check at 1 or below says that no such normalizer can be
// faster than gjson, whatever it reads and however it merges.
func BenchmarkCapturesCheckFloorRatio(b *testing.B) {
	lines, _ := captureLines(b)
	var checked []string
	for _, l := range lines {
		if floor.MustCheck(string(l)) {
			checked = append(checked, scan.UnsafeString(l))
		}
	}
	pair.Report(b,
		pair.Pass{Name: "check", Run: func() { checkLines(b, checked) }},
		pair.Pass{Name: "gjson", Run: func() { readGJSON(lines) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, lines) }},
	)
}

func checkLines(b *testing.B, lines []string) {
	for _, l := range lines {
		if !scan.Valid(l) {
			b.Fatal("not JSON:", l)
		}
	}
}

func replayConn(b *testing.B, c *acpdialect.Conn, lines [][]byte) {
	for _, l := range lines {
		res, err := c.Inbound(l)
		if err != nil {
			b.Fatal(err)
		}
		sinkEvents += len(res.Events)
	}
}

// decodeMaps decodes each line into map[string]any and reads what a
// client reads to dispatch it.
func decodeMaps(b *testing.B, lines [][]byte) {
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			b.Fatal(err)
		}
		sinkStr, _ = m["method"].(string)
		p, _ := m["params"].(map[string]any)
		sinkStr, _ = p["sessionId"].(string)
		u, _ := p["update"].(map[string]any)
		sinkStr, _ = u["sessionUpdate"].(string)
	}
}

// readGJSON reads the same three fields of each line with gjson.
func readGJSON(lines [][]byte) {
	for _, l := range lines {
		r := gjson.GetManyBytes(l, "method", "params.sessionId", "params.update.sessionUpdate")
		sinkStr = r[2].Str
	}
}

const codexChunk = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"I'll start by reading the package layout, then look at how the connection tracks sessions."}}}}`

// BenchmarkChunk: a standard chunk on a Codex connection allocates
// nothing, though the dialect reads chunks for their phase.
func BenchmarkChunk(b *testing.B) {
	c := conn(b, acpdialect.Options{})
	f := []byte(codexChunk)
	b.ReportAllocs()
	b.SetBytes(int64(len(f)))
	for b.Loop() {
		res, _ := c.Inbound(f)
		sinkEvents += len(res.Events)
	}
}

// BenchmarkCapturesKinds logs where the Conn's time goes on the captures,
// by kind of line, beside the map baseline's (internal/pair.Kinds):
//
//	go test -run '^$' -bench CapturesKinds -benchtime 200x -v ./codex
func BenchmarkCapturesKinds(b *testing.B) {
	k := kindLines(b, func(l []byte) func() { return func() { decodeMaps(b, [][]byte{l}) } })
	for b.Loop() {
		k.Round()
	}
	b.Logf("\n%s", k)
}

// BenchmarkCapturesKindsOver logs where the Conn's time beyond the floor
// with the contract's other events (floor.NewOutputs) goes, by kind of
// line (internal/pair.Kinds.Over).
func BenchmarkCapturesKindsOver(b *testing.B) {
	f := floor.NewOutputs("codex", "collaboration", "subagent")
	k := kindLines(b, func(l []byte) func() { return func() { f.Line(scan.UnsafeString(l)) } })
	for b.Loop() {
		k.Round()
	}
	b.Logf("\n%s", k.Over())
}

// kindLines sets every captured line, through one Conn, beside base's
// work on it.
func kindLines(b *testing.B, base func(line []byte) func()) *pair.Kinds {
	lines, _ := captureLines(b)
	c := conn(b, acpdialect.Options{})
	var set []pair.Line
	for _, l := range lines {
		set = append(set, pair.Line{Kind: testwire.LineKind(l, false, "codex"), Size: len(l),
			Run: func() {
				if _, err := c.Inbound(l); err != nil {
					b.Fatal(err)
				}
			},
			Base: base(l),
		})
	}
	return pair.NewKinds(set)
}
