package claude_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/floor"
	"github.com/acpdialect/acpdialect/internal/pair"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// The capture benchmarks replay every line of the recorded Claude
// captures (not the hand-written transcripts) per op, in one pass: through
// Conns identified as Claude, through encoding/json into map[string]any
// reading what a client reads to dispatch a frame, and through gjson
// reading three fields of each line. Run:
//
//	go test -run '^$' -bench 'Captures|Chunk' -count 6 ./claude | benchstat -

var (
	sinkString string
	sinkResult acpdialect.Result
)

// capture is one recorded transcript: its lines and which way each goes.
type capture struct {
	lines    [][]byte
	outbound []bool // client -> agent
}

// agentServes are the client requests in the captures.
var agentServes = map[string]bool{"initialize": true, "session/new": true, "session/load": true, "session/prompt": true, "session/cancel": true}

// captures reads the recorded transcripts (their names say the adapter
// generation: origin-main, v2, air).
func captures(tb testing.TB) ([]capture, int64) {
	tb.Helper()
	paths, _ := filepath.Glob(filepath.Join("testdata", "*__*.jsonl"))
	var out []capture
	var size int64
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			tb.Fatal(err)
		}
		var c capture
		clientIDs := map[string]bool{}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := append([]byte(nil), sc.Bytes()...)
			method, id := gjson.GetBytes(line, "method"), gjson.GetBytes(line, "id").Raw
			out := agentServes[method.Str]
			if out {
				clientIDs[id] = true
			} else if !method.Exists() {
				out = !clientIDs[id]
			}
			c.lines, c.outbound = append(c.lines, line), append(c.outbound, out)
			size += int64(len(line))
		}
		f.Close()
		out = append(out, c)
	}
	if len(out) != 25 {
		tb.Fatalf("%d captures, want the 25 recorded ones", len(out))
	}
	return out, size
}

func BenchmarkCapturesConn(b *testing.B) { benchCaptures(b, "") }

// BenchmarkCapturesConnUnknown replays the same lines as an unknown agent:
// the core's share of the cost, without the dialect's hooks.
func BenchmarkCapturesConnUnknown(b *testing.B) { benchCaptures(b, "unknown") }

func benchCaptures(b *testing.B, agent string) {
	caps, size := captures(b)
	reg := dialects.Registry()
	conns := make([]*acpdialect.Conn, len(caps))
	for i := range conns {
		conns[i] = reg.NewConn(acpdialect.Options{Agent: agent})
	}
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		replayConns(b, conns, caps)
	}
	if want := map[string]string{"": "claude"}[agent]; conns[0].Agent() != want {
		b.Fatalf("identified as %q", conns[0].Agent())
	}
}

func obj(m map[string]any, k string) map[string]any { v, _ := m[k].(map[string]any); return v }
func str(m map[string]any, k string) string         { v, _ := m[k].(string); return v }

// BenchmarkCapturesBaseline decodes each line into map[string]any and
// reads what a client reads to dispatch it: the method, the session id
// and the update kind (or the id of a response).
func BenchmarkCapturesBaseline(b *testing.B) {
	caps, size := captures(b)
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		decodeMaps(b, caps)
	}
}

// replayConns sends every line through its capture's Conn.
func replayConns(b *testing.B, conns []*acpdialect.Conn, caps []capture) {
	for i, c := range caps {
		for j, line := range c.lines {
			var err error
			if c.outbound[j] {
				sinkResult, err = conns[i].Outbound(line)
			} else {
				sinkResult, err = conns[i].Inbound(line)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// decodeMaps decodes each line into map[string]any and reads what a
// client reads to dispatch it.
func decodeMaps(b *testing.B, caps []capture) {
	for _, c := range caps {
		for _, line := range c.lines {
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				b.Fatal(err)
			}
			sinkString = str(m, "method")
			params := obj(m, "params")
			sinkString = str(params, "sessionId")
			sinkString = str(obj(params, "update"), "sessionUpdate")
		}
	}
}

// readGJSON reads the same three fields of each line with gjson.
func readGJSON(caps []capture) {
	for _, c := range caps {
		for _, line := range c.lines {
			sinkString = gjson.GetBytes(line, "method").Str
			sinkString = gjson.GetBytes(line, "params.sessionId").Str
			sinkString = gjson.GetBytes(line, "params.update.sessionUpdate").Str
		}
	}
}

// BenchmarkCapturesGJSON reads three fields of each line with gjson: the
// method, the session id and the update kind.
func BenchmarkCapturesGJSON(b *testing.B) {
	caps, size := captures(b)
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		readGJSON(caps)
	}
}

const chunkText = "I'll start by reading the package layout, then look at how the " +
	"connection tracks sessions so the change stays small."

// A top-level chunk on a Claude connection, in the SDKs' key order and
// with sorted keys (as claude-agent-acp writes it), and a nested one.
var (
	chunkFrame  = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + chunkText + `"}}}}`
	chunkSorted = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"content":{"text":"` + chunkText + `\n","type":"text"},"messageId":"msg_1","sessionUpdate":"agent_message_chunk"}}}`
	chunkNested = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"parentToolUseId":"toolu_task"}},"content":{"text":"` + chunkText + `","type":"text"},"messageId":"msg_1","sessionUpdate":"agent_message_chunk"}}}`
)

// claudeConn is a connection identified as Claude with session s1 in a
// turn.
func claudeConn(tb testing.TB, agent string) *acpdialect.Conn {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: agent})
	for _, f := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
	} {
		if _, err := c.Outbound([]byte(f)); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

func benchChunk(b *testing.B, agent, frame string) {
	c := claudeConn(b, agent)
	f := []byte(frame)
	b.ReportAllocs()
	b.SetBytes(int64(len(f)))
	for b.Loop() {
		sinkResult, _ = c.Inbound(f)
	}
}

func BenchmarkChunkClaude(b *testing.B)        { benchChunk(b, "claude", chunkFrame) }
func BenchmarkChunkSortedClaude(b *testing.B)  { benchChunk(b, "claude", chunkSorted) }
func BenchmarkChunkNestedClaude(b *testing.B)  { benchChunk(b, "claude", chunkNested) }
func BenchmarkChunkUnknownAgent(b *testing.B)  { benchChunk(b, "unknown", chunkFrame) }
func BenchmarkChunkSortedUnknown(b *testing.B) { benchChunk(b, "unknown", chunkSorted) }

// TestChunkAllocs: a top-level chunk costs no allocation, on a Claude
// connection as on any other; only a nested one makes its message event.
func TestChunkAllocs(t *testing.T) {
	for _, tt := range []struct {
		agent, frame string
		max          float64
	}{
		{"claude", chunkFrame, 0}, {"claude", chunkSorted, 0}, {"unknown", chunkFrame, 0}, {"unknown", chunkSorted, 0},
		{"claude", chunkNested, 6},
		// Escapes that cannot spell what the byte searches look for (all
		// printable ASCII) keep the pass: non-ASCII text as an ASCII-only
		// encoder writes it, and a terminal colour code.
		{"claude", escapedChunk(`caf\u00e9 \u4e2d\u6587 \ud83d\ude00`), 0},
		{"claude", escapedChunk(`\u001b[31mred\u001b[0m`), 0},
	} {
		c := claudeConn(t, tt.agent)
		f := []byte(tt.frame)
		n := testing.AllocsPerRun(100, func() { sinkResult, _ = c.Inbound(f) })
		if n > tt.max {
			t.Errorf("%s %.60s...: %.0f allocs, want <= %.0f", tt.agent, strings.TrimPrefix(tt.frame, `{"jsonrpc":"2.0","method":"session/update","params":`), n, tt.max)
		}
	}
}

// escapedChunk is a top-level chunk whose text is the JSON string body s.
func escapedChunk(s string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + s + `"}}}}`
}

// TestUnchangedToolUpdateAllocs: a tool call update that changes nothing
// in its card costs no allocation (its merge keeps the card's kind
// object: frame.Keep), nor one that changes only the status.
func TestUnchangedToolUpdateAllocs(t *testing.T) {
	c := claudeConn(t, "claude")
	for _, f := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"rawInput":{"command":"ls -la"},"sessionUpdate":"tool_call","title":"ls -la","toolCallId":"toolu_1"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"toolu_1"}}}`,
	} {
		res, err := c.Inbound([]byte(f))
		if err != nil || len(res.Events) != 1 || res.Events[0].Payload.Shell == nil {
			t.Fatalf("%s: %+v, %v", f, res, err)
		}
	}
	again := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"rawInput":{"command":"ls -la"},"sessionUpdate":"tool_call_update","toolCallId":"toolu_1"}}}`)
	if n := testing.AllocsPerRun(100, func() { sinkResult, _ = c.Inbound(again) }); n != 0 {
		t.Errorf("an update that changes nothing: %.0f allocs, want 0", n)
	}
}

// BenchmarkCapturesRatio replays the captures through the Conns, the map
// baseline and gjson in alternation and reports the medians of their times
// over the Conn's (map/conn, gjson/conn; cpu- in CPU time): the figures
// the speed targets name, steady on a shared machine where the three
// benchmarks above, run one after another, are not.
func BenchmarkCapturesRatio(b *testing.B) {
	caps, _ := captures(b)
	reg := dialects.Registry()
	conns := make([]*acpdialect.Conn, len(caps))
	for i := range conns {
		conns[i] = reg.NewConn(acpdialect.Options{})
	}
	pair.Report(b,
		pair.Pass{Name: "conn", Run: func() { replayConns(b, conns, caps) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, caps) }},
		pair.Pass{Name: "gjson", Run: func() { readGJSON(caps) }},
	)
}

// BenchmarkCapturesCheckedRatio is BenchmarkCapturesRatio's map/conn with
// Conns that check nothing (Options.Checked, as when the caller checked
// every line): the most that folding the check into the walks the Conn
// and the hooks make anyway could give, since those walks would then
// check what they skip, at no less than a skip's cost.
func BenchmarkCapturesCheckedRatio(b *testing.B) {
	caps, _ := captures(b)
	reg := dialects.Registry()
	conns := make([]*acpdialect.Conn, len(caps))
	for i := range conns {
		conns[i] = reg.NewConn(acpdialect.Options{Checked: true})
	}
	pair.Report(b,
		pair.Pass{Name: "conn", Run: func() { replayConns(b, conns, caps) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, caps) }},
	)
}

// BenchmarkCapturesFloorRatio reports gjson's three fields and the map
// baseline against the floor of any Claude normalizer (internal/floor,
// reading the claudeCode tool name and parent): at 1 or below
// (gjson/floor), not even the floor is faster than gjson, and a Conn that
// does all the contract asks cannot be; map/floor is the most any such
// Conn could reach against the map baseline.
func BenchmarkCapturesFloorRatio(b *testing.B) {
	caps, _ := captures(b)
	f := floor.New("claudeCode", "toolName", "parentToolUseId")
	pair.Report(b,
		pair.Pass{Name: "floor", Run: func() {
			for _, c := range caps {
				for _, line := range c.lines {
					f.Line(scan.UnsafeString(line))
				}
			}
		}},
		pair.Pass{Name: "gjson", Run: func() { readGJSON(caps) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, caps) }},
	)
}

// BenchmarkCapturesOutputsFloorRatio is BenchmarkCapturesFloorRatio with
// the floor that also makes the contract's other events, each in the least
// way (floor.NewOutputs): gjson/out at 1 or below says that no Conn that
// makes them can be faster than gjson; floor/out is what they add.
func BenchmarkCapturesOutputsFloorRatio(b *testing.B) {
	caps, _ := captures(b)
	out := floor.NewOutputs("claudeCode", "toolName", "parentToolUseId")
	f := floor.New("claudeCode", "toolName", "parentToolUseId")
	lines := func(f *floor.Floor) func() {
		return func() {
			for _, c := range caps {
				for _, line := range c.lines {
					f.Line(scan.UnsafeString(line))
				}
			}
		}
	}
	pair.Report(b,
		pair.Pass{Name: "out", Run: lines(out)},
		pair.Pass{Name: "gjson", Run: func() { readGJSON(caps) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, caps) }},
		pair.Pass{Name: "floor", Run: lines(f)},
	)
}

// BenchmarkCapturesCheckFloorRatio reports gjson's three fields against
// the least a normalizer that checks what it acts on spends on checking
// alone: scan.Valid over each line floor.MustCheck selects, and nothing
// else. gjson/check at 1 or below says that no such normalizer can be
// faster than gjson, whatever it reads and however it merges.
func BenchmarkCapturesCheckFloorRatio(b *testing.B) {
	caps, _ := captures(b)
	var checked []string
	for _, c := range caps {
		for _, l := range c.lines {
			if floor.MustCheck(string(l)) {
				checked = append(checked, scan.UnsafeString(l))
			}
		}
	}
	pair.Report(b,
		pair.Pass{Name: "check", Run: func() {
			for _, l := range checked {
				if !scan.Valid(l) {
					b.Fatal("not JSON:", l)
				}
			}
		}},
		pair.Pass{Name: "gjson", Run: func() { readGJSON(caps) }},
		pair.Pass{Name: "map", Run: func() { decodeMaps(b, caps) }},
	)
}

// BenchmarkCapturesKinds logs where the Conn's time goes on the captures,
// by kind of line, beside the map baseline's (internal/pair.Kinds):
//
//	go test -run '^$' -bench CapturesKinds -benchtime 200x -v ./claude
func BenchmarkCapturesKinds(b *testing.B) {
	k := kindLines(b, func(_ *floor.Floor, line []byte) func() {
		return func() { decodeMaps(b, []capture{{lines: [][]byte{line}}}) }
	})
	for b.Loop() {
		k.Round()
	}
	b.Logf("\n%s", k)
}

// BenchmarkCapturesKindsOver logs where the Conn's time beyond the floor
// with the contract's other events (floor.NewOutputs) goes, by kind of
// line (internal/pair.Kinds.Over):
//
//	go test -run '^$' -bench CapturesKindsOver -benchtime 400x -v ./claude
func BenchmarkCapturesKindsOver(b *testing.B) {
	k := kindLines(b, func(f *floor.Floor, line []byte) func() {
		return func() { f.Line(scan.UnsafeString(line)) }
	})
	for b.Loop() {
		k.Round()
	}
	b.Logf("\n%s", k.Over())
}

// kindLines sets every captured line, through a Conn per capture, beside
// base's work on it, given a floor per capture.
func kindLines(b *testing.B, base func(f *floor.Floor, line []byte) func()) *pair.Kinds {
	caps, _ := captures(b)
	reg := dialects.Registry()
	var lines []pair.Line
	for _, c := range caps {
		conn := reg.NewConn(acpdialect.Options{})
		f := floor.NewOutputs("claudeCode", "toolName", "parentToolUseId")
		kinds := testwire.Kinder{Vendor: "claudeCode"}
		for j, line := range c.lines {
			send := conn.Inbound
			if c.outbound[j] {
				send = conn.Outbound
			}
			lines = append(lines, pair.Line{Kind: kinds.Kind(line, c.outbound[j]), Size: len(line),
				Run: func() {
					if _, err := send(line); err != nil {
						b.Fatal(err)
					}
				},
				Base: base(f, line),
			})
		}
	}
	return pair.NewKinds(lines)
}
