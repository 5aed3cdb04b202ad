package acpdialect

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A subagent_update's null fields clear the card's after the merge: cwd
// goes, and so does a cancel grant withdrawn; a null title takes the
// card's title and the subagent's description where they are one (the
// RFD's title), not a title the spawning tool call gave the card nor the
// description beside it, and a card left without a title falls back to
// the child's name, else its type.
// A clearing that finds nothing to clear changes nothing, and the card's
// own object is never written.
func TestClearingMerge(t *testing.T) {
	card := func(title string, st SubagentTask) Payload {
		return Payload{Kind: KindSubagentTask, Status: StatusInProgress, Title: title, SubagentTask: &st}
	}
	half := func(st SubagentTask) Payload {
		return Payload{Kind: KindSubagentTask, Title: st.Description, SubagentTask: &st}
	}
	child := SubagentTask{ChildSessionID: "c1"}
	for _, c := range []struct {
		name   string
		cl     clearing
		cur    Payload
		late   Payload
		want   Payload
		wantOK bool
	}{
		{"cwd", clearCwd,
			card("Fix", SubagentTask{ChildSessionID: "c1", Description: "Fix", Cwd: "/w/tree"}), half(child),
			card("Fix", SubagentTask{ChildSessionID: "c1", Description: "Fix"}), true},
		{"title: no name or type, no title", clearTitle,
			card("Fix", SubagentTask{ChildSessionID: "c1", Description: "Fix"}), half(child),
			card("", SubagentTask{ChildSessionID: "c1"}), true},
		{"title: the child's name", clearTitle,
			card("Scan", SubagentTask{ChildSessionID: "c1", Name: "explore", Description: "Scan", SubagentType: "Explore"}), half(child),
			card("explore", SubagentTask{ChildSessionID: "c1", Name: "explore", SubagentType: "Explore"}), true},
		{"title: the child's type", clearTitle,
			card("Fix", SubagentTask{ChildSessionID: "c1", Description: "Fix", SubagentType: "general-purpose"}), half(child),
			card("general-purpose", SubagentTask{ChildSessionID: "c1", SubagentType: "general-purpose"}), true},
		{"title: the tool call's title and description stay", clearTitle,
			card("Spawn agent", SubagentTask{ChildSessionID: "c1", Description: "Lint"}), half(child),
			card("Spawn agent", SubagentTask{ChildSessionID: "c1", Description: "Lint"}), true},
		{"title: a card without one falls back too", clearTitle,
			card("", SubagentTask{ChildSessionID: "c1", SubagentType: "Explore"}), half(child),
			card("Explore", SubagentTask{ChildSessionID: "c1", SubagentType: "Explore"}), true},
		{"title and cwd in one update, beside a state", clearTitle | clearCwd,
			card("Fix", SubagentTask{ChildSessionID: "c1", Description: "Fix", Cwd: "/w", Status: SubagentRunning}),
			half(SubagentTask{ChildSessionID: "c1", Status: SubagentCompleted}),
			card("", SubagentTask{ChildSessionID: "c1", Status: SubagentCompleted}), true},
		{"cancel withdrawn", clearCancel,
			card("Fix", SubagentTask{ChildSessionID: "c1", Description: "Fix", Cancellable: true}), half(child),
			card("Fix", SubagentTask{ChildSessionID: "c1", Description: "Fix"}), true},
		{"nothing to clear", clearTitle | clearCwd | clearCancel,
			card("", SubagentTask{ChildSessionID: "c1"}), half(child),
			card("", SubagentTask{ChildSessionID: "c1"}), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := *c.cur.SubagentTask
			got, ok := c.cl.merge(c.cur, c.late)
			if d := cmp.Diff(c.want, got); d != "" || ok != c.wantOK {
				t.Errorf("ok %v, want %v; (-want +got):\n%s", ok, c.wantOK, d)
			}
			if !c.cur.SubagentTask.Equal(before) {
				t.Errorf("the card's own object changed: %+v, was %+v", *c.cur.SubagentTask, before)
			}
		})
	}
}
