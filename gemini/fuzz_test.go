package gemini_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/gemini"
	"github.com/tidwall/gjson"
)

// FuzzTurnUsage: any prompt result gives no event or a turn summary whose
// counts are never negative.
func FuzzTurnUsage(f *testing.F) {
	f.Add(`{"_meta":{"quota":{"token_count":{"input_tokens":1,"output_tokens":2},"model_usage":[{"model":"m"}]}}}`)
	f.Add(`{"usage":{"inputTokens":1e40},"_meta":{"quota":{"model_usage":{"model":"x"}}}}`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, s string) {
		ev := gemini.TurnUsage(gjson.Parse(s))
		if ev == nil {
			return
		}
		u := ev.Usage()
		if u == nil || !u.Turn {
			t.Fatalf("event %+v", ev)
		}
		for _, p := range []*int64{u.InputTokens, u.OutputTokens, u.ThoughtTokens, u.CachedReadTokens, u.CachedWriteTokens, u.TotalTokens} {
			if p != nil && *p < 0 {
				t.Fatalf("negative count in %+v", u)
			}
		}
		_ = gemini.OnlyModel(gjson.Parse(s))
	})
}
