package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	claudedialect "github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/tidwall/gjson"
)

// A native child's state update that names a directory (none of the
// releases sends one; ReadSubagentUpdate reads it on every shape) fills
// the card's cwd in both dialects that read AIR's form, as their merges
// fill every other field of the half.
func TestMergeLateNativeCwd(t *testing.T) {
	u := gjson.Parse(`{"sessionUpdate":"subagent_state_update","subagentSessionId":"c","state":"completed","cwd":"/w/tree"}`)
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
		if !ok || got.SubagentTask == nil || got.SubagentTask.Cwd != "/w/tree" || got.SubagentTask.Status != "completed" {
			t.Errorf("%s: merged %v: %+v", d.name, ok, got.SubagentTask)
		}
		if cur.SubagentTask.Cwd != "" {
			t.Errorf("%s: the card's own object changed", d.name)
		}
	}
}
