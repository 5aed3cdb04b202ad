package acpdialect_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
)

// smallBudget is the smallest budget: a 64 KiB per-value cap and 128 KiB
// for each store that keeps its own within a share.
const smallBudget = correlate.MinBudget

// withinBudget fails if the Conn's budget is over its limit.
func withinBudget(t *testing.T, c *acpdialect.Conn) acpdialect.Stats {
	t.Helper()
	st := c.Stats()
	if st.Budget.Used > st.Budget.Limit {
		t.Errorf("budget used %d > limit %d", st.Budget.Used, st.Budget.Limit)
	}
	return st
}

// Every store of a Conn is held to the one budget, and every eviction of
// each is counted in Stats.
func TestBudgetEvictionsCounted(t *testing.T) {
	pad := strings.Repeat("p", 40<<10)
	t.Run("cards", func(t *testing.T) {
		h := cursorConn(t, acpdialect.Options{MaxBytes: smallBudget})
		for i := range 40 {
			h.in([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c` +
				fmt.Sprint(i) + `","title":"` + pad + `"}}}`))
		}
		st := withinBudget(t, h.c)
		if st.Tools.OverBudget == 0 || st.Tools.Evicted != st.Tools.OverBudget || st.Budget.Evicted < st.Tools.OverBudget {
			t.Errorf("tools %+v, budget %+v", st.Tools, st.Budget)
		}
	})
	t.Run("late halves", func(t *testing.T) {
		h := cursorConn(t, acpdialect.Options{MaxBytes: smallBudget})
		for i := range 40 {
			h.in([]byte(taskFrame(fmt.Sprint(100+i), `{"toolCallId":"t`+fmt.Sprint(i)+`","prompt":"`+pad+`"}`)))
		}
		st := withinBudget(t, h.c)
		if st.Pending.OverBudget == 0 || st.Pending.Live+int(st.Pending.OverBudget) != 40 {
			t.Errorf("pending %+v", st.Pending)
		}
	})
	t.Run("todo lists", func(t *testing.T) {
		h := newHarness(t, acpdialect.NewRegistry(asker()), acpdialect.Options{MaxBytes: smallBudget})
		h.initialize("asker")
		h.session(2, "s1")
		h.in(todo(false, `{"id":"1","content":"kept until the cards come"}`))
		for i := range 40 {
			h.in([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c` +
				fmt.Sprint(i) + `","title":"` + pad + `"}}}`))
		}
		st := withinBudget(t, h.c)
		if st.TodosEvicted != 1 {
			t.Errorf("todos evicted %d; want the list, the oldest value", st.TodosEvicted)
		}
		// The next merge starts a new list.
		r := h.in(todo(true, `{"id":"2","content":"new"}`))
		if items := r.Events[0].Todos().Items; len(items) != 1 || items[0].ID != "2" {
			t.Errorf("list after eviction: %+v", items)
		}
	})
	t.Run("blocking requests", func(t *testing.T) {
		h := newHarness(t, acpdialect.NewRegistry(asker()), acpdialect.Options{MaxBytes: smallBudget, ClientAnswers: true})
		h.initialize("asker")
		h.session(2, "s1")
		id := strings.Repeat("q", 20<<10) // each waiting request holds about 40 KiB
		var replies int
		for i := range 8 {
			r := h.in(ask(`"` + id + fmt.Sprint(i) + `"`))
			replies += strings.Count(string(r.Reply), "\n")
		}
		st := withinBudget(t, h.c)
		if st.AnswersEvicted == 0 || uint64(replies) != st.AnswersEvicted {
			t.Errorf("answered early %d, replies %d", st.AnswersEvicted, replies)
		}
		// An id too long to keep: answered its default at once.
		r := h.in(ask(`"` + strings.Repeat("q", 40<<10) + `"`))
		if r.Awaiting || len(r.Reply) == 0 || h.c.Stats().Budget.Refused != 1 {
			t.Errorf("an oversized id: awaiting %v, reply %d bytes, %+v", r.Awaiting, len(r.Reply), h.c.Stats().Budget)
		}
	})
	t.Run("sessions", func(t *testing.T) {
		h := cursorConn(t, acpdialect.Options{MaxBytes: smallBudget})
		for i := range 10 {
			h.in([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + pad + fmt.Sprint(i) +
				`","update":{"sessionUpdate":"tool_call","toolCallId":"c"}}}`))
		}
		st := withinBudget(t, h.c)
		if st.SessionsEvicted == 0 || len(h.c.Sessions())+int(st.SessionsEvicted) != 11 {
			t.Errorf("sessions evicted %d, tracked %d", st.SessionsEvicted, len(h.c.Sessions()))
		}
		// A session id too long to keep is not tracked.
		h.in([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + strings.Repeat("s", 70<<10) +
			`","update":{"sessionUpdate":"tool_call","toolCallId":"c"}}}`))
		if st := h.c.Stats(); st.Budget.Refused != 1 || st.Malformed != 1 {
			t.Errorf("an oversized session id: %+v, malformed %d", st.Budget, st.Malformed)
		}
	})
	t.Run("client requests", func(t *testing.T) {
		h := cursorConn(t, acpdialect.Options{MaxBytes: smallBudget})
		for i := range 10 {
			h.out([]byte(`{"jsonrpc":"2.0","id":"` + pad + fmt.Sprint(i) + `","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`))
		}
		if st := withinBudget(t, h.c); st.RequestsEvicted == 0 {
			t.Errorf("requests evicted %d", st.RequestsEvicted)
		}
	})
}

// A card whose title is larger than the per-value cap is cut (its event
// too: it shows what is kept), and stays cut through later updates.
func TestBudgetCutsOversizedCard(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{MaxBytes: smallBudget})
	title := strings.Repeat("é", 50<<10) // 100 KiB
	r := h.in([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"` +
		title + `"}}}`))
	got := r.Events[0].Payload.Title
	if len(got) >= 64<<10 || len(got) < 60<<10 || !strings.HasPrefix(title, got) {
		t.Errorf("title cut to %d bytes; want a prefix of nearly 64 KiB", len(got))
	}
	if st := h.c.Stats(); st.Budget.Cut != 1 || st.Tools.Cut != 1 {
		t.Errorf("cut counted %+v / %+v", st.Budget, st.Tools)
	}
	r = h.in([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":"` +
		title + `","status":"completed"}}}`))
	if p := r.Events[0].Payload; len(p.Title) >= 64<<10 || !strings.HasPrefix(title, p.Title) || p.Status != "completed" {
		t.Errorf("update: title %d bytes, status %q", len(p.Title), p.Status)
	}
	if st := withinBudget(t, h.c); st.Tools.Live != 1 {
		t.Errorf("tools %+v", st.Tools)
	}
}

// The budget's counts are not optimistic: what each store keeps on the heap
// is about what it is charged (at most an eighth more, the allocator's
// rounding), so that the limit bounds the heap.
func TestBudgetCountsTheHeap(t *testing.T) {
	if raceEnabled {
		// After the package's other tests, the race detector's build keeps
		// 15% more for late halves and client requests than a normal
		// build (609 B for 522 charged): the counts are a normal build's.
		t.Skip("heap sizes differ under the race detector")
	}
	const n = 1000
	cases := []struct {
		name  string
		opts  acpdialect.Options
		frame func(i int) []byte
		out   bool // a client -> agent frame
	}{
		{"cards", acpdialect.Options{}, func(i int) []byte { return []byte(toolCallFrame("s1", fmt.Sprintf("tool-%06d", i), taskInput)) }, false},
		{"late halves", acpdialect.Options{}, func(i int) []byte {
			return []byte(taskFrame(fmt.Sprint(i+10), fmt.Sprintf(`{"toolCallId":"t-%06d","description":"d","prompt":"p","model":"m"}`, i)))
		}, false},
		{"client requests", acpdialect.Options{}, func(i int) []byte {
			return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`, i+100))
		}, true},
		{"blocking requests", acpdialect.Options{ClientAnswers: true}, func(i int) []byte {
			return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"cursor/ask_question","params":{"toolCallId":"q","questions":[]}}`, i+100))
		}, false},
		{"sessions", acpdialect.Options{MaxSessions: 2 * n}, func(i int) []byte {
			return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-%06d","update":{"sessionUpdate":"tool_call_update","toolCallId":"x"}}}`, i))
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := cursorConn(t, tc.opts)
			frames := make([][]byte, n)
			for i := range frames {
				frames[i] = tc.frame(i)
			}
			before, used := heapNow(), h.c.Stats().Budget.Used
			for _, f := range frames {
				if tc.out {
					h.c.Outbound(f)
				} else {
					h.c.Inbound(f)
				}
			}
			grown, charged := heapNow()-before, h.c.Stats().Budget.Used-used
			t.Logf("%d %s: heap %d B each, charged %d B each", n, tc.name, grown/n, charged/n)
			if grown > charged+charged/8 {
				t.Errorf("heap grew %d B each; charged %d B", grown/n, charged/n)
			}
			runtime.KeepAlive(frames)
			runtime.KeepAlive(h.c)
		})
	}
}

// The default budget is the one documented, and the one the retained-heap
// tests hold a Conn to.
func TestDefaultMaxBytes(t *testing.T) {
	c := registry().NewConn(acpdialect.Options{})
	if got := c.Stats().Budget.Limit; got != acpdialect.DefaultMaxBytes || acpdialect.DefaultMaxBytes != retainBudget {
		t.Errorf("default budget %d; want %d, the retained-heap tests' %d", got, acpdialect.DefaultMaxBytes, retainBudget)
	}
}
