package devin_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/devin"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// FuzzToolCall feeds any update object to ToolCall: no panic, the payload
// it is given unchanged, texts bounded, a subagent card with its object,
// an error only on a subagent that failed, and the same frame twice
// changing nothing the second time.
func FuzzToolCall(f *testing.F) {
	f.Add(`{"toolCallId":"a1","_meta":{"cognition.ai/subagent_started":{"agentId":"a1","title":"T","task":"x"}}}`)
	f.Add(`{"_meta":{"cognition.ai/inferenceToolName":"exec","cognition.ai/subagent_context":{"parentAgentId":"a1"}}}`)
	f.Add(`{"_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":false}}}`)
	f.Add(`{"status":"completed","_meta":{"cognition.ai/subagent_completed":{"agentId":"a1","success":false,"summary":"gave up","error":"e"}}}`)
	f.Add(`{"_meta":[`)
	f.Fuzz(func(t *testing.T, s string) {
		u := frame.ReadToolUpdate(gjson.Parse(s))
		_ = devin.ParseMeta(gjson.Parse(s))
		for _, prev := range []acpdialect.Payload{
			{Kind: acpdialect.KindGeneric},
			{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{AgentID: "a1", Status: "completed"}, Tool: &acpdialect.Tool{Name: "x"}},
		} {
			keep := prev.Clone()
			next := devin.ToolCall(u, prev)
			if !prev.Equal(keep) {
				t.Fatal("ToolCall changed the payload it was given")
			}
			if (next.Kind == acpdialect.KindSubagentTask) != (next.SubagentTask != nil) {
				t.Fatalf("kind %q with %+v", next.Kind, next.SubagentTask)
			}
			if st := next.SubagentTask; st != nil && (len(st.Prompt) > devin.MaxText || len(st.ResultText) > devin.MaxText || len(st.Error) > devin.MaxText) {
				t.Fatal("text past MaxText")
			}
			if st := next.SubagentTask; st != nil && st.Error != "" && st.Status != acpdialect.StatusFailed {
				t.Fatalf("an error on a subagent that did not fail: %s", s)
			}
			if again := devin.ToolCall(u, next); !again.Equal(next) {
				t.Fatalf("the same frame twice: %+v -> %+v", next, again)
			}
		}
	})
}

// FuzzUsageEvent: any usage_update gives no event or a usage sample with
// no negative count, never a turn summary.
func FuzzUsageEvent(f *testing.F) {
	f.Add(`{"used":1,"size":2,"_meta":{"cognition.ai/inputTokens":3,"cognition.ai/subagent_context":{"parentAgentId":"a1"}}}`)
	f.Add(`{"_meta":{"cognition.ai/subagent_context":{"parentAgentId":"root"}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		ev := devin.UsageEvent(gjson.Parse(s))
		if ev == nil {
			return
		}
		u := ev.Usage()
		if u == nil || u.Turn {
			t.Fatalf("event %+v", ev)
		}
		for _, p := range []*int64{u.Used, u.Size, u.InputTokens, u.OutputTokens, u.CachedReadTokens, u.CachedWriteTokens, u.TotalTokens} {
			if p != nil && *p < 0 {
				t.Fatalf("negative count in %+v", u)
			}
		}
	})
}
