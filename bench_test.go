package acpdialect_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
)

// Each Inbound benchmark has a baseline on the same frames: encoding/json
// into map[string]any, then reading the fields the Conn reads, the way an
// untyped client does. Run:
//
//	go test -run '^$' -bench . -count 6 . | benchstat -

// Sinks keep the compiler from dropping the work.
var (
	sinkResult acpdialect.Result
	sinkString string
	sinkBytes  []byte
)

const benchSession = "sess_01JZ4Q8W3V6T2N9K5R7M1X0B8C"

const chunkText = "I'll start by reading the package layout, then look at how the " +
	"connection tracks sessions so the change stays small."

// chunkFrame is an agent_message_chunk in the ACP SDKs' key order
// (TypeScript, Go and Rust all write it so).
const chunkFrame = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + benchSession +
	`","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + chunkText + `"}}}}`

// chunkFrameSorted is the same chunk with its keys sorted, as the Claude
// captures have them: the kind comes after the content.
const chunkFrameSorted = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + benchSession +
	`","update":{"content":{"text":"` + chunkText + `","type":"text"},"sessionUpdate":"agent_message_chunk"}}}`

// benchConn is a Cursor connection with benchSession open and a turn in
// flight.
func benchConn(b *testing.B, opts acpdialect.Options) *acpdialect.Conn {
	h := newHarness(b, registry(), opts)
	h.initialize("cursor-agent")
	h.session(2, benchSession)
	h.out([]byte(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"` + benchSession + `","prompt":[]}}`))
	return h.c
}

// benchFrames makes n frames from a template with %d for a distinct id, so
// that per-frame state is honest (no frame is a repeat of the last).
func benchFrames(n int, format string) ([][]byte, int64) {
	frames := make([][]byte, n)
	var total int
	for i := range frames {
		frames[i] = fmt.Appendf(nil, format, i, i)
		total += len(frames[i])
	}
	return frames, int64(total / n)
}

func benchInbound(b *testing.B, c *acpdialect.Conn, frames [][]byte, size int64) {
	b.ReportAllocs()
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r, err := c.Inbound(frames[i%len(frames)])
		if err != nil {
			b.Fatal(err)
		}
		sinkResult = r
	}
}

func benchBaseline(b *testing.B, frames [][]byte, size int64, read func(map[string]any)) {
	b.ReportAllocs()
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		var m map[string]any
		if err := json.Unmarshal(frames[i%len(frames)], &m); err != nil {
			b.Fatal(err)
		}
		read(m)
	}
}

func obj(m map[string]any, k string) map[string]any { v, _ := m[k].(map[string]any); return v }
func str(m map[string]any, k string) string         { v, _ := m[k].(string); return v }

// readUpdate reads what a client reads to dispatch a session/update.
func readUpdate(m map[string]any) (params, update map[string]any) {
	sinkString = str(m, "method")
	params = obj(m, "params")
	sinkString = str(params, "sessionId")
	update = obj(params, "update")
	sinkString = str(update, "sessionUpdate")
	return params, update
}

func BenchmarkInboundChunk(b *testing.B) {
	benchInbound(b, benchConn(b, acpdialect.Options{}), [][]byte{[]byte(chunkFrame)}, int64(len(chunkFrame)))
}

func BenchmarkBaselineChunk(b *testing.B) {
	benchBaseline(b, [][]byte{[]byte(chunkFrame)}, int64(len(chunkFrame)), func(m map[string]any) { readUpdate(m) })
}

func BenchmarkInboundChunkSorted(b *testing.B) {
	benchInbound(b, benchConn(b, acpdialect.Options{}), [][]byte{[]byte(chunkFrameSorted)}, int64(len(chunkFrameSorted)))
}

func BenchmarkBaselineChunkSorted(b *testing.B) {
	benchBaseline(b, [][]byte{[]byte(chunkFrameSorted)}, int64(len(chunkFrameSorted)), func(m map[string]any) { readUpdate(m) })
}

// subagentFormat is Cursor's subagent tool_call. 1024 distinct ids cycle,
// so the tool store holds a steady 1024 cards and each frame replaces one
// (a tool_call for a known id starts a new card): bounded state, and every
// frame pays for a lookup, a merge, an event and a snapshot.
const subagentFormat = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + benchSession +
	`","update":{"sessionUpdate":"tool_call","toolCallId":"toolu_%06d","title":"Task: Subagent task","kind":"other","status":"in_progress",` +
	`"rawInput":{"_toolName":"task","description":"Summarize src %d","prompt":"Summarize the JS files under src","subagentType":"explore"}}}}`

func BenchmarkInboundSubagentToolCall(b *testing.B) {
	frames, size := benchFrames(1024, subagentFormat)
	benchInbound(b, benchConn(b, acpdialect.Options{}), frames, size)
}

func BenchmarkBaselineSubagentToolCall(b *testing.B) {
	frames, size := benchFrames(1024, subagentFormat)
	benchBaseline(b, frames, size, func(m map[string]any) {
		_, u := readUpdate(m)
		sinkString = str(u, "toolCallId")
		sinkString = str(u, "status")
		sinkString = str(u, "title")
		sinkString = str(u, "kind")
		in := obj(u, "rawInput")
		if strings.EqualFold(str(in, "_toolName"), "task") {
			sinkString = str(in, "description")
			sinkString = str(in, "prompt")
		}
		out := obj(u, "rawOutput")
		_, _ = out["durationMs"].(float64)
		_, _ = out["isBackground"].(bool)
	})
}

// taskFormat is a cursor/task request. 4096 distinct tool call ids cycle
// with no tool call to match, so every frame waits in the pending store,
// which sits at its bound (1024) and evicts one per frame: the flood case.
const taskFormat = `{"jsonrpc":"2.0","id":%d,"method":"cursor/task","params":{"toolCallId":"toolu_%06d","description":"Summarize src",` +
	`"prompt":"Summarize the JS files under src","subagentType":{"custom":{"unspecified":{}}},"model":"composer-2.5-fast","agentId":"eaa1c0de-2f4b-4c6a-9d0e-7b1f3a5c9e21"}}`

func BenchmarkInboundCursorTask(b *testing.B) {
	frames, size := benchFrames(4096, taskFormat)
	benchInbound(b, benchConn(b, acpdialect.Options{}), frames, size)
}

// BenchmarkInboundCursorTaskMatched is the common order: the tool call is
// known (1024 cards), so each request merges into a card and emits a
// tool_call_update besides the reply. The model alternates so that every
// merge is a change.
func BenchmarkInboundCursorTaskMatched(b *testing.B) {
	c := benchConn(b, acpdialect.Options{})
	cards, _ := benchFrames(1024, subagentFormat)
	for _, f := range cards {
		if _, err := c.Inbound(f); err != nil {
			b.Fatal(err)
		}
	}
	// Ids 0..2047 point at cards 0..1023, with a model that differs from
	// the one the card got last time round.
	frames := make([][]byte, 2048)
	var size int
	for i := range frames {
		frames[i] = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"cursor/task","params":{"toolCallId":"toolu_%06d",`+
			`"description":"Summarize src","prompt":"Summarize the JS files under src","subagentType":{"custom":{"unspecified":{}}},`+
			`"model":"composer-%d","agentId":"eaa1c0de-2f4b-4c6a-9d0e-7b1f3a5c9e21"}}`, i, i%1024, i/1024)
		size += len(frames[i])
	}
	benchInbound(b, c, frames, int64(size/len(frames)))
}

func BenchmarkBaselineCursorTask(b *testing.B) {
	frames, size := benchFrames(4096, taskFormat)
	benchBaseline(b, frames, size, func(m map[string]any) {
		sinkString = str(m, "method")
		id := m["id"]
		p := obj(m, "params")
		sinkString = str(p, "toolCallId")
		sinkString = str(p, "description")
		sinkString = str(p, "prompt")
		sinkString = str(p, "model")
		sinkString = str(p, "agentId")
		// The client owes a reply, which an untyped client marshals.
		reply, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{}})
		if err != nil {
			b.Fatal(err)
		}
		sinkBytes = reply
	})
}
