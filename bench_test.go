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

// Cursor's session-level frames: a blocking question, a todo list and the
// native subagent updates. Each setup below returns a Cursor connection
// with benchSession open and a turn in flight (default Options, so a
// blocking request is answered its default at once) and frames that each
// do real work on it in steady state; TestCursorBenchFrames checks that
// they do.

// benchCursorConn is benchConn for any testing.TB, so that the test can
// check what the benchmarks measure.
func benchCursorConn(tb testing.TB) *acpdialect.Conn {
	h := newHarness(tb, registry(), acpdialect.Options{})
	h.initialize("cursor-agent")
	h.session(2, benchSession)
	h.out([]byte(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"` + benchSession + `","prompt":[]}}`))
	return h.c
}

// questionFormat is cursor/ask_question with two questions of three options
// each; ids and tool call ids are distinct per frame.
const questionFormat = `{"jsonrpc":"2.0","id":%d,"method":"cursor/ask_question","params":{"toolCallId":"toolu_%06d","title":"Pick a stack","questions":[` +
	`{"id":"q1","prompt":"Which language should the service use?","options":[{"id":"go","label":"Go"},{"id":"rs","label":"Rust"},{"id":"ts","label":"TypeScript"}],"allowMultiple":false},` +
	`{"id":"q2","prompt":"What should the first release include?","options":[{"id":"ci","label":"CI pipeline"},{"id":"docs","label":"Docs"},{"id":"bench","label":"Benchmarks"}],"allowMultiple":true}]}}`

// todoStatuses cycle through the todos so that every merge changes the list.
var todoStatuses = [...]string{"pending", "in_progress", "completed", "cancelled"}

// todosFrame is cursor/update_todos (a notification) with five todos, ids
// 1-5, whose statuses depend on n.
func todosFrame(n int, merge bool) []byte {
	b := []byte(`{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"toolCallId":"toolu_todos","todos":[`)
	for j := range 5 {
		if j > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"id":"%d","content":"Step %d: read, change and test the package","status":"%s"}`, j+1, j+1, todoStatuses[(n+j)%4])
	}
	return fmt.Appendf(b, `],"merge":%t}}`, merge)
}

// todosConn: the session's list holds the five todos.
func todosConn(tb testing.TB) *acpdialect.Conn {
	c := benchCursorConn(tb)
	if _, err := c.Inbound(todosFrame(0, false)); err != nil {
		tb.Fatal(err)
	}
	return c
}

// todosFrames each merge five todos (the same ids, new statuses).
func todosFrames() ([][]byte, int64) {
	return framesOf(64, func(i int) []byte { return todosFrame(i+1, true) })
}

// spawnFormat is subagent_spawned in the SDK layout (sessionUpdate first)
// with the fields in the order the research notes give: child session, tool
// call (both i%1024) and model (the round) as arguments.
const spawnFormat = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + benchSession +
	`","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"child_%06d","task":"Summarize the JS files under src","name":"explorer",` +
	`"_meta":{"cursor":{"model":"composer-%d","toolCallId":"toolu_%06d"}}}}}`

func spawnFrame(child, round, tool int) []byte {
	return fmt.Appendf(nil, spawnFormat, child, round, tool)
}

// stateFrame is subagent_state_update for child_<child>.
func stateFrame(child int, state string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"`+benchSession+
		`","update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"child_%06d","state":"%s"}}}`, child, state)
}

// framesOf makes n frames with frame and returns their mean size.
func framesOf(n int, frame func(i int) []byte) ([][]byte, int64) {
	frames := make([][]byte, n)
	var size int
	for i := range frames {
		frames[i] = frame(i)
		size += len(frames[i])
	}
	return frames, int64(size / n)
}

// feed feeds frames to c.
func feed(tb testing.TB, c *acpdialect.Conn, frames [][]byte) {
	for _, f := range frames {
		if _, err := c.Inbound(f); err != nil {
			tb.Fatal(err)
		}
	}
}

// taskCardsConn knows the 1024 Task tool calls of subagentFormat.
func taskCardsConn(tb testing.TB) *acpdialect.Conn {
	c := benchCursorConn(tb)
	cards, _ := benchFrames(1024, subagentFormat)
	feed(tb, c, cards)
	return c
}

// spawnFrames is the usual order on taskCardsConn: each spawn names a
// known Task tool call (and its child). The model alternates by round, so
// that every merge is a change: each frame is a card update.
func spawnFrames() ([][]byte, int64) {
	return framesOf(2048, func(i int) []byte { return spawnFrame(i%1024, i/1024, i%1024) })
}

// spawnNewFrames name no known tool call: 8192 distinct ones cycling, twice
// the tool store's per-session bound, so that each frame makes a new card
// and the store evicts one.
func spawnNewFrames() ([][]byte, int64) {
	return framesOf(8192, func(i int) []byte { return spawnFrame(i, 0, i) })
}

// spawnedConn: the 1024 subagents spawned from their Task tool calls.
func spawnedConn(tb testing.TB) *acpdialect.Conn {
	c := taskCardsConn(tb)
	spawns, _ := framesOf(1024, func(i int) []byte { return spawnFrame(i, 0, i) })
	feed(tb, c, spawns)
	return c
}

// stateFrames on spawnedConn: each is a state for a known child, found
// through the child's session id. The state alternates by round so that
// every frame changes the card.
func stateFrames() ([][]byte, int64) {
	states := [2]string{"completed", "cancelled"}
	return framesOf(2048, func(i int) []byte { return stateFrame(i%1024, states[i/1024]) })
}

func BenchmarkInboundAskQuestion(b *testing.B) {
	frames, size := benchFrames(4096, questionFormat)
	benchInbound(b, benchCursorConn(b), frames, size)
}

func BenchmarkBaselineAskQuestion(b *testing.B) {
	frames, size := benchFrames(4096, questionFormat)
	benchBaseline(b, frames, size, func(m map[string]any) {
		sinkString = str(m, "method")
		id := m["id"]
		p := obj(m, "params")
		sinkString = str(p, "toolCallId")
		sinkString = str(p, "title")
		qs, _ := p["questions"].([]any)
		for _, q := range qs {
			qm, _ := q.(map[string]any)
			sinkString = str(qm, "id")
			sinkString = str(qm, "prompt")
			_, _ = qm["allowMultiple"].(bool)
			opts, _ := qm["options"].([]any)
			for _, o := range opts {
				om, _ := o.(map[string]any)
				sinkString = str(om, "id")
				sinkString = str(om, "label")
			}
		}
		// The default answer, as an untyped client marshals it.
		reply, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
			"result": map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}})
		if err != nil {
			b.Fatal(err)
		}
		sinkBytes = reply
	})
}

func BenchmarkInboundUpdateTodos(b *testing.B) {
	frames, size := todosFrames()
	benchInbound(b, todosConn(b), frames, size)
}

// BenchmarkBaselineUpdateTodos merges each frame's todos into a list of
// maps by id, in place: it takes no snapshot of the list for the UI, which
// the Conn's event is, so the baseline is if anything the cheaper.
func BenchmarkBaselineUpdateTodos(b *testing.B) {
	frames, size := todosFrames()
	var list []map[string]any
	for j := range 5 {
		list = append(list, map[string]any{"id": fmt.Sprint(j + 1), "content": "x", "status": "pending"})
	}
	benchBaseline(b, frames, size, func(m map[string]any) {
		sinkString = str(m, "method")
		p := obj(m, "params")
		sinkString = str(p, "toolCallId")
		merge, _ := p["merge"].(bool)
		todos, _ := p["todos"].([]any)
		if !merge {
			list = list[:0]
		}
		for _, t := range todos {
			tm, _ := t.(map[string]any)
			list = mergeTodoMap(list, tm)
		}
	})
	if len(list) != 5 {
		b.Fatalf("list has %d todos; want 5", len(list))
	}
}

func mergeTodoMap(list []map[string]any, in map[string]any) []map[string]any {
	id := str(in, "id")
	if id == "" {
		return list
	}
	for _, t := range list {
		if str(t, "id") == id {
			for _, k := range [...]string{"content", "status"} {
				if v := str(in, k); v != "" {
					t[k] = v
				}
			}
			return list
		}
	}
	return append(list, in)
}

func BenchmarkInboundSubagentSpawned(b *testing.B) {
	frames, size := spawnFrames()
	benchInbound(b, taskCardsConn(b), frames, size)
}

func BenchmarkInboundSubagentSpawnedNew(b *testing.B) {
	frames, size := spawnNewFrames()
	benchInbound(b, benchCursorConn(b), frames, size)
}

// BenchmarkBaselineSubagentSpawned reads the spawn's fields and remembers
// the child's tool call, which a client needs to find the card when the
// child's state comes.
func BenchmarkBaselineSubagentSpawned(b *testing.B) {
	frames, size := spawnFrames()
	children := map[string]string{}
	benchBaseline(b, frames, size, func(m map[string]any) {
		_, u := readUpdate(m)
		child := str(u, "subagentSessionId")
		sinkString = str(u, "task")
		sinkString = str(u, "name")
		cur := obj(obj(u, "_meta"), "cursor")
		sinkString = str(cur, "model")
		children[child] = str(cur, "toolCallId")
	})
}

func BenchmarkInboundSubagentState(b *testing.B) {
	frames, size := stateFrames()
	benchInbound(b, spawnedConn(b), frames, size)
}

// BenchmarkBaselineSubagentState reads the state and finds the child's tool
// call.
func BenchmarkBaselineSubagentState(b *testing.B) {
	frames, size := stateFrames()
	children := map[string]string{}
	for i := range 1024 {
		children[fmt.Sprintf("child_%06d", i)] = fmt.Sprintf("toolu_%06d", i)
	}
	benchBaseline(b, frames, size, func(m map[string]any) {
		_, u := readUpdate(m)
		sinkString = str(u, "state")
		sinkString = children[str(u, "subagentSessionId")]
	})
}

// TestCursorBenchFrames checks that the Cursor benchmarks measure what they
// say: every frame, over more than one round of the cycle, gives the
// reply and the events named, so no round is a cheap no-change.
func TestCursorBenchFrames(t *testing.T) {
	allTodos := func(t *testing.T, frame int, r acpdialect.Result) {
		items := r.Events[0].Todos().Items
		// Frame i of todosFrames carries statuses from todosFrame(i+1).
		if len(items) != 5 || items[0].Status != todoStatuses[(frame+1)%4] {
			t.Fatalf("frame %d: todos %+v; want the 5 merged", frame, items)
		}
	}
	tests := []struct {
		name   string
		conn   func(testing.TB) *acpdialect.Conn
		frames func() ([][]byte, int64)
		reply  bool
		events []string
		check  func(t *testing.T, frame int, r acpdialect.Result)
	}{
		{"ask_question", benchCursorConn, func() ([][]byte, int64) { return benchFrames(4096, questionFormat) },
			true, []string{acpdialect.EventQuestion, acpdialect.EventReply}, nil},
		{"update_todos", todosConn, todosFrames, false, []string{acpdialect.EventTodos}, allTodos},
		{"subagent_spawned", taskCardsConn, spawnFrames, false, []string{acpdialect.EventToolCallUpdate}, nil},
		{"subagent_spawned, new cards", benchCursorConn, spawnNewFrames, false, []string{acpdialect.EventToolCall}, nil},
		{"subagent_state_update", spawnedConn, stateFrames, false, []string{acpdialect.EventToolCallUpdate}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.conn(t)
			frames, _ := tt.frames()
			for i := range 2*len(frames) + 1 {
				r, err := c.Inbound(frames[i%len(frames)])
				if err != nil {
					t.Fatal(err)
				}
				var types []string
				for _, e := range r.Events {
					types = append(types, e.Type)
				}
				if (r.Reply != nil) != tt.reply || strings.Join(types, ",") != strings.Join(tt.events, ",") {
					t.Fatalf("frame %d: reply %q, events %v; want reply %t, events %v", i, r.Reply, types, tt.reply, tt.events)
				}
				if tt.check != nil {
					tt.check(t, i%len(frames), r)
				}
			}
			if st := c.Stats(); st.Tools.Live > acpdialect.DefaultToolsPerSession {
				t.Fatalf("tool store over its bound: %+v", st.Tools)
			}
		})
	}
}
