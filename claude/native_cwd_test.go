package claude_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
	"github.com/tidwall/gjson"
)

// A native child's state update that names a directory (none of the
// releases sends one; ReadSubagentUpdate reads it on every shape) fills
// the card's cwd in both dialects that read the AIR form, as their
// merges fill every other field of the half.
func TestMergeLateNativeCwd(t *testing.T) {
	u := gjson.Parse(`{"sessionUpdate":"subagent_state_update","subagentSessionId":"c","state":"completed","cwd":"/w/tree"}`)
	cur := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress,
		SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "c", Status: "running"}}
	got, ok := claude.MergeLate(cur, claude.HandleSubagentState(u).Payload)
	if !ok || got.SubagentTask == nil || got.SubagentTask.Cwd != "/w/tree" || got.SubagentTask.Status != "completed" {
		t.Errorf("merged %v: %+v", ok, got.SubagentTask)
	}
	if cur.SubagentTask.Cwd != "" {
		t.Error("the card's own object changed")
	}
}
