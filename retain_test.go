package acpdialect_test

import (
	"bytes"
	"runtime"
	"strconv"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// The retained-heap tests feed large frames and measure what the Conn
// keeps of them once they are gone: whatever the frames say, a Conn keeps
// at most its byte budget (Options.MaxBytes, DefaultMaxBytes here), and a
// kept string pins nothing it no longer shows (a value it replaced, the
// frame it was read from). Each case takes a fraction of a second to two
// seconds; they are skipped with -short, and the todo cases (millions of
// small allocations: 15 s with the race detector) under -race too.

// retainBudget is the default budget the cases are held to.
const retainBudget = 64 << 20

// retainSlack is what a Conn keeps beyond the values its budget counts:
// its maps and lists themselves, and the noise of the measurement.
const retainSlack = 1 << 20

// heapNow returns the live heap after a collection.
func heapNow() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// big is n bytes of text: a large prompt, title or todo.
func big(n int) []byte { return bytes.Repeat([]byte("0123456789abcdef"), n/16) }

// bigFrame appends head, then pad, then tail, reusing buf.
func bigFrame(buf []byte, head string, pad []byte, tail string) []byte {
	buf = append(buf[:0], head...)
	buf = append(buf, pad...)
	return append(buf, tail...)
}

// feedAll feeds frames made by frame(i, buf) for i in [0, n), reusing one
// buffer, and fails on an error.
func feedAll(t *testing.T, c *acpdialect.Conn, n int, frame func(i int, buf []byte) []byte) {
	t.Helper()
	var buf []byte
	for i := range n {
		buf = frame(i, buf)
		if _, err := c.Inbound(buf); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
	}
}

func skipRetained(t *testing.T) {
	if testing.Short() {
		t.Skip("feeds a few hundred megabytes of frames")
	}
}

// skipRetainedRace skips a case that is too slow under the race detector
// (what it checks involves no goroutines).
func skipRetainedRace(t *testing.T) {
	skipRetained(t)
	if raceEnabled {
		t.Skip("parses millions of todos: too slow with -race")
	}
}

// checkRetained fails unless grown is within the budget, and within
// want when want is not negative (a tighter figure: what the state shows,
// give or take the allocator's rounding, at most an eighth).
func checkRetained(t *testing.T, what string, grown, want int64) {
	t.Helper()
	t.Logf("%s: retained %.1f MiB", what, float64(grown)/(1<<20))
	if grown > retainBudget+retainSlack {
		t.Errorf("%s: retained %d MiB; the budget is %d MiB", what, grown>>20, retainBudget>>20)
	}
	if want >= 0 && grown > want+want/8+retainSlack {
		t.Errorf("%s: retained %d KiB; what the Conn shows is %d KiB", what, grown>>10, want>>10)
	}
}

// 50 cursor/task requests with 10 MB prompts whose tool calls never come:
// the halves wait until the turn ends.
func TestRetainedUnmatchedTasks(t *testing.T) {
	skipRetained(t)
	prompt := big(10 << 20)
	h := cursorConn(t, acpdialect.Options{})
	before := heapNow()
	feedAll(t, h.c, 50, func(i int, buf []byte) []byte {
		n := strconv.Itoa(i)
		return bigFrame(buf, `{"jsonrpc":"2.0","id":`+n+`,"method":"cursor/task","params":{"toolCallId":"big-`+n+
			`","description":"d","prompt":"`, prompt, `"}}`)
	})
	checkRetained(t, "50 unmatched cursor/task, 10 MB prompts", heapNow()-before, -1)
	runtime.KeepAlive(prompt)
	runtime.KeepAlive(h.c)
}

// cardFrame is a tool_call with a title of its own.
func cardFrame(buf []byte, i int, title []byte) []byte {
	return bigFrame(buf, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":`+
		`{"sessionUpdate":"tool_call","toolCallId":"card-`+strconv.Itoa(i)+`","kind":"read","status":"pending","title":"`,
		title, `"}}}`)
}

// retitleFrame gives card i a new title.
func retitleFrame(buf []byte, i int, title string) []byte {
	return append(buf[:0], `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":`+
		`{"sessionUpdate":"tool_call_update","toolCallId":"card-`+strconv.Itoa(i)+`","title":"`+title+`"}}}`...)
}

// 50 cards with 10 MB titles; then every title becomes "short", which
// must free the large ones: nothing else shares their allocations (the
// cards' ids were once cut from the same one).
func TestRetainedCardTitles(t *testing.T) {
	skipRetained(t)
	title := big(10 << 20)
	h := cursorConn(t, acpdialect.Options{})
	before := heapNow()
	feedAll(t, h.c, 50, func(i int, buf []byte) []byte { return cardFrame(buf, i, title) })
	checkRetained(t, "50 cards, 10 MB titles", heapNow()-before, -1)

	feedAll(t, h.c, 50, func(i int, buf []byte) []byte { return retitleFrame(buf, i, "short") })
	// 50 small cards: a few hundred bytes each.
	checkRetained(t, "the titles replaced with \"short\"", heapNow()-before, 50*1024)
	runtime.KeepAlive(title)
	runtime.KeepAlive(h.c)
}

// todoListFrame is a cursor/update_todos notification: items with ids
// i0.. i0+n-1, the first kept of them with content, the rest bare.
func todoListFrame(buf []byte, merge bool, i0, n, kept int, content []byte) []byte {
	buf = append(buf[:0], `{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"toolCallId":"t","merge":`...)
	buf = strconv.AppendBool(buf, merge)
	buf = append(buf, `,"todos":[`...)
	for i := range n {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"id":"`...)
		buf = strconv.AppendInt(buf, int64(i0+i), 10)
		buf = append(buf, `","status":"pending"`...)
		if i < kept {
			buf = append(buf, `,"content":"`...)
			buf = append(buf, content...)
			buf = append(buf, '"')
		}
		buf = append(buf, '}')
	}
	return append(buf, `]}}`...)
}

// todosShown is what the session's list shows: its strings, and its items.
func todosShown(items []acpdialect.Todo) int64 {
	n := int64(len(items)) * 48
	for _, it := range items {
		n += int64(len(it.ID) + len(it.Content) + len(it.Status))
	}
	return n
}

// lastTodos feeds one frame and returns the todo list it reported.
func lastTodos(t *testing.T, c *acpdialect.Conn, frame []byte) []acpdialect.Todo {
	t.Helper()
	r, err := c.Inbound(frame)
	if err != nil || len(r.Events) != 1 || r.Events[0].Todos() == nil {
		t.Fatalf("todos frame: %v, %d events", err, len(r.Events))
	}
	return r.Events[0].Todos().Items
}

// A replacing list of 1,000,000 todos: the session keeps the first 1,024,
// what its list shows of them, within the budget, and nothing of the
// frame's other items. With 100 KB of content in each kept item, the list
// is larger than the budget; with 100 bytes in every item, the frame is
// 100 times larger than the list.
func TestRetainedTodoFrame(t *testing.T) {
	skipRetainedRace(t)
	for _, tc := range []struct {
		name          string
		withContent   int
		contentLength int
	}{
		{"1,024 items of 100 KB", acpdialect.MaxTodos, 100 << 10},
		{"1M items of 100 B", 1_000_000, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := cursorConn(t, acpdialect.Options{})
			frame := todoListFrame(nil, false, 0, 1_000_000, tc.withContent, big(tc.contentLength))
			before := heapNow() - int64(cap(frame))
			items := lastTodos(t, h.c, frame)
			frame = nil
			shown := todosShown(items)
			items = nil
			checkRetained(t, "a 1M-item todo frame, "+tc.name, heapNow()-before, shown)
			runtime.KeepAlive(h.c)
		})
	}
}

// A full list of 1,024 todos of 100 KB, then 200 merges each changing one
// small item; each merge also carries 1 MB of a new item past MaxTodos,
// which is dropped. The session keeps what its list shows, within the
// budget, and nothing of the merged frames but the changes.
func TestRetainedTodoMerges(t *testing.T) {
	skipRetainedRace(t)
	h := cursorConn(t, acpdialect.Options{})
	before := heapNow()
	h.in(todoListFrame(nil, false, 0, acpdialect.MaxTodos, acpdialect.MaxTodos, big(100<<10)))
	pad := big(1 << 20)
	var items []acpdialect.Todo
	var buf []byte
	for i := range 200 {
		buf = append(buf[:0], `{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"toolCallId":"t","merge":true,"todos":[{"id":"`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `","content":"done `...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `","status":"completed"},{"id":"new","content":"`...)
		buf = append(buf, pad...)
		buf = append(buf, `"}]}}`...)
		items = lastTodos(t, h.c, buf)
	}
	buf, pad = nil, nil
	if len(items) != acpdialect.MaxTodos || items[199].Content != "done 199" {
		t.Fatalf("list after the merges: %d items, item 199 %q", len(items), items[199].Content)
	}
	shown := todosShown(items)
	items = nil
	checkRetained(t, "a list of large todos, then 200 merges", heapNow()-before, shown)
	runtime.KeepAlive(h.c)
}

// 50 client requests with 100 KB ids in flight at once, then answered:
// the Conn tracked them until their responses and keeps nothing of them
// after, in its tracking order either.
func TestRetainedAnsweredRequests(t *testing.T) {
	skipRetained(t)
	id := big(100 << 10)
	h := cursorConn(t, acpdialect.Options{})
	h.in(testwire.PromptResponse(3, ""))
	before := heapNow()
	var buf []byte
	for i := range 50 {
		buf = bigFrame(buf, `{"jsonrpc":"2.0","id":"`+strconv.Itoa(i), id, `","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
		h.out(buf)
	}
	for i := range 50 {
		buf = bigFrame(buf, `{"jsonrpc":"2.0","id":"`+strconv.Itoa(i), id, `","result":{"stopReason":"end_turn"}}`)
		h.quiet(buf)
	}
	buf = nil
	if st := h.c.Stats(); st.RequestsEvicted != 0 {
		t.Fatalf("%d requests were not tracked to their responses", st.RequestsEvicted)
	}
	checkRetained(t, "50 answered requests with 100 KB ids", heapNow()-before, 0)
	runtime.KeepAlive(id)
	runtime.KeepAlive(h.c)
}

// 100 client requests with 1 MB ids, each answered at once, while one
// prompt is never answered (its session closed mid-turn, say): the Conn
// keeps nothing of the answered ids, although a request is still tracked.
// The order the requests are forgotten in kept each answered id until
// it grew to twice MaxRequests entries, outside the budget: 100 MB here.
func TestRetainedAnsweredBesideUnanswered(t *testing.T) {
	skipRetained(t)
	id := big(1 << 20)
	h := cursorConn(t, acpdialect.Options{}) // its prompt 3 is never answered
	before := heapNow()
	var buf []byte
	for i := range 100 {
		buf = bigFrame(buf, `{"jsonrpc":"2.0","id":"`+strconv.Itoa(i), id, `","method":"session/set_mode","params":{"sessionId":"s1","modeId":"ask"}}`)
		h.out(buf)
		buf = bigFrame(buf, `{"jsonrpc":"2.0","id":"`+strconv.Itoa(i), id, `","result":{}}`)
		h.quiet(buf)
	}
	buf = nil
	checkRetained(t, "100 answered requests with 1 MB ids beside an unanswered one", heapNow()-before, 0)
	runtime.KeepAlive(id)
	runtime.KeepAlive(h.c)
}
