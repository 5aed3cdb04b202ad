package devin

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// OriginSubagent is the usage origin of a model request a subagent made.
const OriginSubagent = "subagent"

// UsageEvent reads a usage_update: the context window's used and size
// (ACP's), and the request's tokens from _meta["cognition.ai/inputTokens"],
// "cachedReadTokens", "cachedWriteTokens", "outputTokens" and
// "totalTokens". Devin sends one per model request, a delta, not a turn
// summary (Turn stays false). The twin tagged parentAgentId "root"
// repeats the untagged update and returns nil; one tagged with another
// agent is that subagent's request, marked Origin "subagent". It returns
// nil when the update has nothing it reads.
func UsageEvent(u gjson.Result) *acpdialect.Event {
	var x acpdialect.Usage
	var meta gjson.Result
	frame.Members(u, func(k string, v gjson.Result) bool {
		switch k {
		case "used":
			x.Used = frame.Count(x.Used, v)
		case "size":
			x.Size = frame.Count(x.Size, v)
		case "_meta":
			meta = v
		}
		return true
	})
	if meta.IsObject() {
		parent := ""
		frame.Members(meta, func(k string, v gjson.Result) bool {
			switch k {
			case "cognition.ai/inputTokens":
				x.InputTokens = frame.Count(x.InputTokens, v)
			case "cognition.ai/cachedReadTokens":
				x.CachedReadTokens = frame.Count(x.CachedReadTokens, v)
			case "cognition.ai/cachedWriteTokens":
				x.CachedWriteTokens = frame.Count(x.CachedWriteTokens, v)
			case "cognition.ai/outputTokens":
				x.OutputTokens = frame.Count(x.OutputTokens, v)
			case "cognition.ai/totalTokens":
				x.TotalTokens = frame.Count(x.TotalTokens, v)
			case MetaSubagentContext:
				parent = str(v.Get("parentAgentId"))
			}
			return true
		})
		switch parent {
		case "":
		case RootAgent:
			return nil // the root update's twin: counted once, untagged
		default:
			x.Origin = OriginSubagent
		}
	}
	if x == (acpdialect.Usage{Origin: x.Origin}) {
		return nil
	}
	return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &x}
}
