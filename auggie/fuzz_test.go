package auggie_test

import (
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/auggie"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// FuzzParseTitle: a parsed title names Auggie's generic subagent tool
// (no type) or a configured one, whose type is non-empty, trimmed and
// taken from the title itself; the description is the title's too.
func FuzzParseTitle(f *testing.F) {
	for _, s := range []string{"sub-agent-explore: Find it", "sub-agent-:", "sub-agent-a:b:c", "sub-agent-\xff: x", "",
		"sub-agent", "sub-agent: Find it", "sub-agent-explore", "sub-agents", "sub-agent-a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		typ, desc, ok := auggie.ParseTitle(title)
		if !ok {
			return
		}
		generic := title == auggie.GenericTool || strings.HasPrefix(title, auggie.GenericTool+":")
		if generic != (typ == "") || !generic && !strings.HasPrefix(title, auggie.SubagentPrefix) ||
			typ != strings.TrimSpace(typ) || strings.Contains(typ, ":") ||
			!strings.Contains(title, typ) || !strings.Contains(title, desc) {
			t.Fatalf("ParseTitle(%q) = %q, %q", title, typ, desc)
		}
		if !strings.Contains(title, ":") && (desc != "" || title != auggie.GenericTool && title != auggie.SubagentPrefix+typ) {
			t.Fatalf("ParseTitle(%q) = %q, %q: a bare tool name has no description", title, typ, desc)
		}
	})
}

// FuzzToolCall feeds any update object to ToolCall: no panic, the payload
// it is given unchanged, the result text and error bounded, a subagent
// card always with its object, and an error only on a card that failed.
func FuzzToolCall(f *testing.F) {
	f.Add(`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent-explore: x","rawOutput":{"output":"done"}}`)
	f.Add(`{"title":7,"rawOutput":"output"}`)
	f.Add(`{"status":"failed","rawOutput":{"output":"Sub-agent failed."}}`)
	f.Add(`[`)
	f.Add(`{"sessionUpdate":"tool_call","toolCallId":"t","title":"sub-agent","rawInput":{"name":"n","instruction":"do it"}}`)
	f.Add(`{"title":"sub-agent: x","rawInput":{"instruction":7}}`)
	f.Fuzz(func(t *testing.T, s string) {
		u := frame.ReadToolUpdate(gjson.Parse(s))
		for _, prev := range []acpdialect.Payload{
			{Kind: acpdialect.KindGeneric, Title: frame.Str(u.Title)},
			{Kind: acpdialect.KindSubagentTask, Title: "sub-agent-a: b", SubagentTask: &acpdialect.SubagentTask{SubagentType: "a", ResultText: "r"}},
			{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusFailed, Title: "sub-agent-a: b", SubagentTask: &acpdialect.SubagentTask{SubagentType: "a"}},
		} {
			keep := prev.Clone()
			next := auggie.ToolCall(u, prev)
			if !prev.Equal(keep) {
				t.Fatal("ToolCall changed the payload it was given")
			}
			if (next.Kind == acpdialect.KindSubagentTask) != (next.SubagentTask != nil) {
				t.Fatalf("kind %q with %+v", next.Kind, next.SubagentTask)
			}
			if st := next.SubagentTask; st != nil && (len(st.ResultText) > auggie.MaxResultText || len(st.Error) > auggie.MaxResultText) {
				t.Fatalf("result text of %d bytes, error of %d", len(st.ResultText), len(st.Error))
			}
			if st := next.SubagentTask; st != nil && st.Error != "" && prev.Status != acpdialect.StatusFailed {
				t.Fatalf("an error on a card that did not fail: %s", s)
			}
		}
	})
}
