package codex

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// UsageEvent reads a usage_update: the context window's tokens in use and
// its size. It returns nil when the update has neither.
func UsageEvent(u gjson.Result) *acpdialect.Event {
	var x acpdialect.Usage
	frame.Members(u, func(k string, v gjson.Result) bool {
		switch k {
		case "used":
			x.Used = frame.Count(x.Used, v)
		case "size":
			x.Size = frame.Count(x.Size, v)
		}
		return true
	})
	if x.Used == nil && x.Size == nil {
		return nil
	}
	return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &x}
}

// TurnUsage reads a session/prompt result's usage and _meta.quota into a
// turn summary, marked estimated: codex-acp before 2.2.1 reports the token
// counts of the turn's last model request, not of the whole turn (see
// PromptUsage). The counts come from usage (totalTokens, inputTokens,
// cachedReadTokens, cachedWriteTokens, outputTokens, thoughtTokens), else
// from quota.token_count (cachedInputTokens, reasoningOutputTokens); the
// model from the first model_usage entry, split with ParseModelID. It
// returns nil when it reads no count and no model.
func TurnUsage(r gjson.Result) *acpdialect.Event { return turnUsage(r, true) }

// PromptUsage is TurnUsage for codex-acp 2.2.1 and later, which report
// the whole prompt's tokens (ReportsPromptUsage): the same summary, not
// marked estimated. The Codex dialect reads a session/prompt result with
// it on a connection whose agent reports such a release.
func PromptUsage(r gjson.Result) *acpdialect.Event { return turnUsage(r, false) }

// ReportsPromptUsage reports whether a codex-acp release (initialize's
// agentInfo.version) reports the whole prompt's token counts in the
// session/prompt result: 2.2.1 and later do, earlier releases and their
// prereleases the last model request's. A version ParseVersion cannot
// read is an earlier one.
func ReportsPromptUsage(version string) bool {
	v, ok := acpdialect.ParseVersion(version)
	return ok && v.AtLeast(2, 2, 1)
}

func turnUsage(r gjson.Result, estimated bool) *acpdialect.Event {
	usage := r.Get("usage")
	quota := r.Get("_meta.quota")
	if !usage.IsObject() && !quota.IsObject() {
		return nil
	}
	x := acpdialect.Usage{Turn: true, Estimated: estimated}
	x.ReadTokens(usage)
	readTokenCount(&x, quota.Get("token_count"))
	if m := frame.View(quota.Get("model_usage.0.model")); m != "" {
		x.Model, x.Effort = ParseModelID(m)
		frame.Own(&x.Model, &x.Effort)
	}
	if !x.HasCounts() && x.Model == "" {
		return nil // nothing a summary could say
	}
	return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &x}
}

// readTokenCount fills the counts x lacks from a Codex token_count, which
// has its own names for cached input and reasoning.
func readTokenCount(x *acpdialect.Usage, obj gjson.Result) {
	frame.Members(obj, func(k string, v gjson.Result) bool {
		switch k {
		case "totalTokens":
			x.TotalTokens = frame.Count(x.TotalTokens, v)
		case "inputTokens":
			x.InputTokens = frame.Count(x.InputTokens, v)
		case "outputTokens":
			x.OutputTokens = frame.Count(x.OutputTokens, v)
		case "cachedInputTokens":
			x.CachedReadTokens = frame.Count(x.CachedReadTokens, v)
		case "cachedWriteTokens", "cacheWriteInputTokens": // 2.6.0 says cacheWriteInputTokens
			x.CachedWriteTokens = frame.Count(x.CachedWriteTokens, v)
		case "reasoningOutputTokens":
			x.ThoughtTokens = frame.Count(x.ThoughtTokens, v)
		}
		return true
	})
}

// ParseModelID splits a Codex model id written "model[effort]"
// ("gpt-5.2[high]") into the model and its reasoning effort: the id must
// end in "]" and hold exactly one "[", after a non-empty model and before
// a non-empty effort. Any other id is the model, with no effort. The
// results view id.
func ParseModelID(id string) (model, effort string) {
	i := strings.IndexByte(id, '[')
	if i <= 0 || i != strings.LastIndexByte(id, '[') || !strings.HasSuffix(id, "]") ||
		i+2 >= len(id) || strings.IndexByte(id, ']') != len(id)-1 {
		return id, ""
	}
	return id[:i], id[i+1 : len(id)-1]
}
