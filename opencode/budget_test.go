package opencode_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
)

// heapNow returns the live heap after a collection.
func heapNow() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// The messages held for sessions that may be subagents are bounded per
// session (MaxHeld, MaxHeldBytes) and, across sessions, by the Conn's
// byte budget: a flood of possible children, each holding its most, stays
// within MaxBytes, the oldest session's messages evicted first, counted.
func TestHeldWithinBudget(t *testing.T) {
	const limit = 4 << 20
	c := conn(t, acpdialect.Options{MaxBytes: limit, MaxHeldBytes: 256 << 10})
	text := strings.Repeat("x", 60<<10)
	var frames [][]byte // 100 sessions of 240 KiB: 6 times the budget
	for i := range 100 {
		for range 4 {
			frames = append(frames, chunk(fmt.Sprintf("kid%03d", i), text))
		}
	}
	before := heapNow()
	for _, f := range frames {
		if _, err := c.Inbound(f); err != nil {
			t.Fatal(err)
		}
	}
	grown := heapNow() - before
	st := c.Stats()
	t.Logf("100 possible children holding 240 KiB each: heap +%.1f MiB, budget used %.1f MiB, early %+v",
		float64(grown)/(1<<20), float64(st.Budget.Used)/(1<<20), st.Early)
	if grown > limit+limit/8 {
		t.Errorf("heap grew %d KiB; the budget is %d KiB", grown>>10, limit>>10)
	}
	if st.Budget.Used > st.Budget.Limit || st.Budget.Evicted == 0 || st.Early.Evicted == 0 {
		t.Errorf("budget %+v, early %+v", st.Budget, st.Early)
	}
	// The newest session's messages are still held, and go out at its link.
	out := feed(t, c, taskStart("root", "task1"), false) + feed(t, c, taskDone("root", "task1", "kid099"), false)
	if n := strings.Count(out, `"session_id":"kid099","message"`); n != 4 {
		t.Errorf("released %d messages of the newest session; want 4", n)
	}
	runtime.KeepAlive(frames)
	runtime.KeepAlive(c)
}
