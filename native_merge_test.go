package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	claudedialect "github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/tidwall/gjson"
)

// A native child's state update that names a directory or grants cancel
// (none of the releases sends either: AIR's form grants no capabilities;
// ReadSubagentUpdate reads both on every shape) fills the card's cwd and
// grant in both dialects that read AIR's form, as their merges fill the
// half's other fields.
func TestMergeLateNativeFields(t *testing.T) {
	u := gjson.Parse(`{"sessionUpdate":"subagent_state_update","subagentSessionId":"c","state":"completed","cwd":"/w/tree","capabilities":{"cancel":{}}}`)
	for _, d := range []struct {
		name   string
		handle func(gjson.Result) acpdialect.Late
		merge  func(cur, late acpdialect.Payload) (acpdialect.Payload, bool)
	}{
		{"claude", claudedialect.HandleSubagentState, claudedialect.MergeLate},
		{"codex", codex.HandleSubagentState, codex.MergeLate},
	} {
		cur := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
			SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "c", Status: "running"}}
		got, ok := d.merge(cur, d.handle(u).Payload)
		if st := got.SubagentTask; !ok || st == nil || st.Cwd != "/w/tree" || !st.Cancellable || st.Status != "completed" {
			t.Errorf("%s: merged %v: %+v", d.name, ok, got.SubagentTask)
		}
		if cur.SubagentTask.Cwd != "" {
			t.Errorf("%s: the card's own object changed", d.name)
		}
	}
}
