package replay

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// keptBytes is what the table's ids hold, counting an id that the map
// and the order share twice: an upper bound.
func keptBytes(r *requests) int {
	n := 0
	for _, m := range []map[string]uint64{r.client, r.agent} {
		for k := range m {
			n += len(k)
		}
	}
	for _, o := range r.order {
		for _, e := range o {
			n += len(e.id)
		}
	}
	return n
}

// TestHugeIDsBounded: requests with huge ids, never answered, keep no
// more bytes than the table's count bound times maxIDKey, and a huge id
// still finds its request.
func TestHugeIDsBounded(t *testing.T) {
	const limit = 16
	r := newRequests(limit)
	long := func(i int) string { return fmt.Sprintf(`"%d%s"`, i, strings.Repeat("x", 4<<10)) }
	for i := range 200 {
		r.sent(AgentToClient, long(i))
	}
	// Per side: limit ids in the map, up to 2*limit+65 in the order.
	if got, bound := keptBytes(r), (3*limit+65)*(maxIDKey+1); got > bound {
		t.Errorf("the table keeps %d bytes of ids, want at most %d", got, bound)
	}
	r.sent(ClientToAgent, long(1))
	if got := r.answer(long(1)); got != AgentToClient {
		t.Errorf("answer to a huge client id went %v", got)
	}
	if got := r.answer(long(199)); got != ClientToAgent {
		t.Errorf("answer to a huge agent id went %v", got)
	}
	if got := r.answer(long(199)); got != ClientToAgent || len(r.agent) != limit-1 {
		t.Errorf("the huge id was not forgotten once answered: %d left", len(r.agent))
	}
}

// TestHugeIDsMemory: a replay of agent requests with 1 MB ids, never
// answered, keeps its heap bounded (each id used to be kept whole, up to
// 4096 per side).
func TestHugeIDsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 48 MB")
	}
	s, err := NewStream(Builtins(), Options{Agent: "cursor"}, Sink{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 1<<20)
	line := func(i int) []byte {
		return tw.Request(fmt.Sprintf("%d%s", i, pad), "x/ask", map[string]any{"sessionId": "s1"})
	}
	s.Line(1, line(0)) // the Conn's first allocations are not the table's
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 48
	for i := 1; i <= n; i++ {
		if err := s.Line(i+1, line(i)); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 8<<20 {
		t.Errorf("the heap grew by %d MB for %d requests with 1 MB ids, want < 8 MB", grew>>20, n)
	}
	runtime.KeepAlive(s)
}
