package grok

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// ContextWindow reads the tokens in context that Grok puts on a
// session/update's params._meta.totalTokens (beside the update), over the
// current model's totalContextTokens. Only a whole, non-negative number
// below 2^63 counts, and the size must be known and positive. It does not
// allocate: it runs on message chunks.
func ContextWindow(meta gjson.Result, state any) (acpdialect.ContextWindow, bool) {
	c, _ := state.(*Catalog)
	if c == nil {
		return acpdialect.ContextWindow{}, false
	}
	used, ok := ParseTotalTokens(meta)
	m := c.find(c.Current)
	if !ok || m == nil || m.ContextTokens <= 0 {
		return acpdialect.ContextWindow{}, false
	}
	return acpdialect.ContextWindow{Used: used, Size: m.ContextTokens, Remaining: max(m.ContextTokens-used, 0)}, true
}

// ParseTotalTokens reads totalTokens from a _meta object: ok only for a
// whole, non-negative number below 2^63.
func ParseTotalTokens(meta gjson.Result) (int64, bool) {
	n, ok := frame.Int64(meta.Get("totalTokens"))
	return n, ok && n >= 0
}

// ParseUsage reads a session/prompt result's token counts: _meta.usage
// (inputTokens, outputTokens, totalTokens, cachedReadTokens,
// reasoningTokens as thought tokens, cacheCreationTokens as cache writes;
// Estimated when it says usageIsIncomplete), else, when it has no count,
// the flat counters on _meta, which count the last model call rather than
// the turn (Estimated). The model is _meta.modelId. No cost is reported.
// ok is false when there is no count.
func ParseUsage(result gjson.Result) (acpdialect.Usage, bool) {
	meta := result.Get("_meta")
	u := acpdialect.Usage{Turn: true, Model: frame.Str(meta.Get("modelId"))}
	if usage := meta.Get("usage"); usage.IsObject() && readCounts(&u, usage) {
		// Grok 1.0.41 says so when a background subagent's tokens are
		// still to come: the counts are not the whole turn's.
		u.Estimated = usage.Get("usageIsIncomplete").Type == gjson.True
		return u, true
	}
	u.Estimated = true
	return u, readCounts(&u, meta)
}

// readCounts sets u's counts from src's, and reports whether it had one.
func readCounts(u *acpdialect.Usage, src gjson.Result) bool {
	counts := [...]struct {
		key string
		dst **int64
	}{
		{"inputTokens", &u.InputTokens},
		{"outputTokens", &u.OutputTokens},
		{"totalTokens", &u.TotalTokens},
		{"cachedReadTokens", &u.CachedReadTokens},
		{"reasoningTokens", &u.ThoughtTokens},
		{"cacheCreationTokens", &u.CachedWriteTokens},
	}
	found := false
	for _, k := range counts {
		if n, ok := frame.Int64(src.Get(k.key)); ok && n >= 0 {
			*k.dst, found = &n, true
		}
	}
	return found
}

// usageEvent is the prompt response's usage event, or nil.
func usageEvent(result gjson.Result) *acpdialect.Event {
	u, ok := ParseUsage(result)
	if !ok {
		return nil
	}
	return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &u}
}
