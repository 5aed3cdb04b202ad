package codex_test

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

// A flood of subagent runs with large child ids keeps the links from the
// children to their cards within the Conn's byte budget: the budget
// evicts them, oldest first, with the cards, each eviction counted.
func TestRunLinksWithinBudget(t *testing.T) {
	const limit = 4 << 20
	c := conn(t, acpdialect.Options{MaxBytes: limit})
	pad := strings.Repeat("x", 60<<10)
	frames := make([]string, 200) // 12 MB of child ids: 3 times the budget
	for i := range frames {
		frames[i] = spawn("tool_call", fmt.Sprintf("w%d", i), "main", fmt.Sprintf("%s%03d", pad, i), "running", "m")
	}
	before := heapNow()
	for _, f := range frames {
		if _, err := c.Inbound([]byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	grown := heapNow() - before
	st := c.Stats()
	t.Logf("200 runs with 60 KiB child ids: heap +%.1f MiB, budget used %.1f MiB, run links %+v",
		float64(grown)/(1<<20), float64(st.Budget.Used)/(1<<20), st.RunLinks)
	if grown > limit+limit/8 {
		t.Errorf("heap grew %d KiB; the budget is %d KiB", grown>>10, limit>>10)
	}
	if st.Budget.Used > st.Budget.Limit {
		t.Errorf("budget %+v", st.Budget)
	}
	if rl := st.RunLinks; rl.OverBudget == 0 || rl.Evicted < rl.OverBudget || rl.Live+int(rl.Evicted) != int(rl.Stored) || rl.Bytes <= 0 {
		t.Errorf("run links %+v", rl)
	}
	runtime.KeepAlive(frames)
	runtime.KeepAlive(c)
}

// An MCP call whose arguments, within MaxMCPArguments, still fill the
// budget's per-value cap (MaxBytes/16) with the rest of the card is kept
// without them, as the README says of a card over the cap: a JSON value
// cannot be cut, and a card refused for it would lose the call's result
// and end state.
func TestMCPArgumentsOverValueCap(t *testing.T) {
	c := conn(t, acpdialect.Options{MaxBytes: 1 << 20}) // a 64 KiB cap: MaxMCPArguments
	args := `{"q":"` + strings.Repeat("a", acpdialect.MaxMCPArguments-len(`{"q":""}`)) + `"}`
	feed(t, c, update(`{"sessionUpdate":"tool_call","toolCallId":"m1","kind":"execute","title":"mcp.s.t","status":"in_progress",`+
		`"rawInput":{"server":"s","tool":"t","arguments":`+args+`},"_meta":{"is_mcp_tool_call":true}}`))
	out := feed(t, c, update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":{"result":"ok"}}`))
	want := `{"type":"tool_call_update","agent":"codex","session_id":"s1","tool_call_id":"m1","payload":{"kind":"mcp_tool","status":"completed","title":"mcp.s.t","mcp_tool":{"server":"s","tool":"t","output":"ok"}}}`
	if out != want {
		t.Errorf("the result of an MCP call with large arguments:\n got %.300s\nwant %s", out, want)
	}
	if st := c.Stats(); st.Tools.Refused != 0 || st.Tools.Cut == 0 || st.Tools.Live != 1 {
		t.Errorf("tools %+v: the card is cut, not refused", st.Tools)
	}
}
