package claude_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
)

// heapNow returns the live heap after a collection.
func heapNow() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// budgetConn is a Claude connection with a byte budget of limit and a
// turn in flight in sess-1.
func budgetConn(t *testing.T, limit int64) *acpdialect.Conn {
	t.Helper()
	c := acpdialect.NewRegistry(claude.Dialect()).NewConn(acpdialect.Options{Agent: claude.ID, MaxBytes: limit})
	if _, err := c.Outbound([]byte(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess-1","prompt":[]}}`)); err != nil {
		t.Fatal(err)
	}
	return c
}

func feedAll(t *testing.T, c *acpdialect.Conn, frames [][]byte) int64 {
	t.Helper()
	before := heapNow()
	for _, f := range frames {
		if _, err := c.Inbound(f); err != nil {
			t.Fatal(err)
		}
	}
	return heapNow() - before
}

// A monitor's task id is its card's alias, kept in the aliases store,
// which shares the cards' budget (Options.Tools): a flood of monitors
// with long task ids stays within MaxBytes even after their cards are
// evicted, the aliases sized by their ids and evicted oldest first.
func TestAliasesWithinBudget(t *testing.T) {
	const limit = 4 << 20
	c := budgetConn(t, limit)
	task := strings.Repeat("t", 60<<10)
	var frames [][]byte // 200 monitors: 12 MB of task ids in the aliases alone
	for i := range 200 {
		frames = append(frames, fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"_meta":{"claudeCode":{"toolName":"Monitor"}},"sessionUpdate":"tool_call","toolCallId":"toolu_%d","kind":"other","title":"Monitor","status":"completed","rawInput":{},"rawOutput":"Monitor started (task %s%d, timeout 600000ms)."}}}`, i, task, i))
	}
	grown := feedAll(t, c, frames)
	st := c.Stats()
	t.Logf("200 monitors with 60 KiB task ids: heap +%.1f MiB, budget %+v", float64(grown)/(1<<20), st.Budget)
	if grown > limit+limit/8 {
		t.Errorf("heap grew %d KiB; the budget is %d KiB", grown>>10, limit>>10)
	}
	if st.Budget.Used > st.Budget.Limit || st.Budget.Evicted == 0 {
		t.Errorf("budget %+v", st.Budget)
	}
	runtime.KeepAlive(frames)
	runtime.KeepAlive(c)
}

// A card's output (Shell.Output) is its payload's, which the card's Sizer
// measures: a flood of shell cards with 64 KiB outputs (Options.MaxOutput)
// stays within MaxBytes, the oldest cards evicted.
func TestShellOutputsWithinBudget(t *testing.T) {
	const limit = 4 << 20
	c := budgetConn(t, limit)
	out := strings.Repeat("o", 64<<10)
	var frames [][]byte // 200 cards of 64 KiB: 12.5 MiB
	for i := range 200 {
		frames = append(frames, fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"_meta":{"claudeCode":{"toolName":"Bash"}},"sessionUpdate":"tool_call","toolCallId":"toolu_%d","kind":"execute","title":"ls","status":"completed","rawInput":{"command":"ls"},"rawOutput":"%s%d"}}}`, i, out, i))
	}
	grown := feedAll(t, c, frames)
	st := c.Stats()
	t.Logf("200 shell cards with 64 KiB outputs: heap +%.1f MiB, budget %+v, tools %+v", float64(grown)/(1<<20), st.Budget, st.Tools)
	if grown > limit+limit/8 {
		t.Errorf("heap grew %d KiB; the budget is %d KiB", grown>>10, limit>>10)
	}
	if st.Budget.Used > st.Budget.Limit || st.Tools.OverBudget == 0 {
		t.Errorf("budget %+v, tools %+v", st.Budget, st.Tools)
	}
	runtime.KeepAlive(frames)
	runtime.KeepAlive(c)
}
