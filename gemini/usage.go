package gemini

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// TurnUsage reads a session/prompt result's token counts into a turn
// summary: ACP's usage object (camelCase: inputTokens, outputTokens,
// thoughtTokens, cachedReadTokens, cachedWriteTokens, totalTokens) where
// the agent sends one, else Gemini's snake_case _meta.quota.token_count
// (input_tokens, output_tokens). The model is model_usage's when the turn
// used exactly one; with several, no one model answered the turn and none
// is named. A count that is not a whole number of zero or more is absent.
// It returns nil when it reads neither a count nor a model.
func TurnUsage(r gjson.Result) *acpdialect.Event {
	usage := r.Get("usage")
	quota := r.Get("_meta.quota")
	if !usage.IsObject() && !quota.IsObject() {
		return nil
	}
	x := acpdialect.Usage{Turn: true}
	x.ReadTokens(usage)
	if quota.IsObject() {
		frame.Members(quota.Get("token_count"), func(k string, v gjson.Result) bool {
			switch k {
			case "input_tokens":
				x.InputTokens = frame.Count(x.InputTokens, v)
			case "output_tokens":
				x.OutputTokens = frame.Count(x.OutputTokens, v)
			}
			return true
		})
		x.Model = OnlyModel(quota.Get("model_usage"))
	}
	if !x.HasCounts() && x.Model == "" {
		return nil // nothing read: no empty summary
	}
	return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &x}
}

// OnlyModel returns the model of a model_usage list that holds exactly
// one entry naming a model (a copy), else "". An entry under a routing
// alias ("auto", "auto-gemini-3", ...) names no model: Gemini CLI 0.61.0
// files a turn's model calls under the configured model until the router
// names the one it picked, so the calls after a tool result land under
// "auto" beside the real model (turnModelId in its ACP session).
func OnlyModel(list gjson.Result) string {
	if !list.IsArray() {
		return ""
	}
	var model gjson.Result
	n := 0
	list.ForEach(func(_, e gjson.Result) bool {
		m := e.Get("model")
		if m.Type == gjson.String && isRoutingAlias(m.Str) {
			return true
		}
		n++
		model = m
		return n < 2
	})
	if n != 1 || model.Type != gjson.String {
		return ""
	}
	return frame.Str(model)
}

// isRoutingAlias reports whether a model name is one of Gemini CLI's
// routing aliases, which the router resolves to a model per request.
func isRoutingAlias(name string) bool {
	return name == "auto" || strings.HasPrefix(name, "auto-")
}
