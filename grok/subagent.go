package grok

import (
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// ToolSubagent is the name of Grok's tool that runs a subagent.
const ToolSubagent = "spawn_subagent"

// MaxSubagentText bounds a subagent's prompt, result text and error, in
// bytes: past it the text is cut at a rune boundary.
const MaxSubagentText = 64 << 10

// subagentCard makes spawn_subagent's tool call a subagent_task card
// (Grok CLI 1.0.41, docs/grok.md section 9): its description and prompt
// from rawInput, async when it runs in the background; and, from the
// result of one that ran in the foreground (rawOutput type
// SubagentCompleted), its id, type, output, tool call count and run time.
// A failed call's message (rawOutput {error, message}) is the card's
// error. The kind object is copied before a change.
func subagentCard(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	var st acpdialect.SubagentTask
	if prev.SubagentTask != nil {
		st = *prev.SubagentTask
	}
	prev.Kind = acpdialect.KindSubagentTask
	in := u.RawInput
	fillText(&st.Description, in.Get("description"))
	fillText(&st.Prompt, in.Get("prompt"))
	if in.Get("background").Type == gjson.True || in.Get("run_in_background").Type == gjson.True ||
		u.Meta.Get("subagentBackground").Type == gjson.True {
		st.IsAsync = true
	}
	out := u.RawOutput
	switch {
	case out.Get("type").Str == "SubagentCompleted":
		st.Status = acpdialect.StatusCompleted
		fillText(&st.AgentID, out.Get("subagent_id"))
		fillText(&st.SubagentType, out.Get("subagent_type"))
		fillText(&st.ResultText, out.Get("output"))
		setCount(&st.ToolUseCount, out.Get("tool_calls"))
		setCount(&st.DurationMs, out.Get("duration_ms"))
	case out.Get("error").Type == gjson.String && u.Status.Str == acpdialect.StatusFailed:
		st.Status = acpdialect.StatusFailed
		fillText(&st.Error, out.Get("message"))
	}
	if prev.SubagentTask == nil || !subagentEqual(*prev.SubagentTask, st) {
		prev.SubagentTask = &st
	}
	return prev
}

// fillText sets *dst to v, a non-empty string, cut to MaxSubagentText;
// anything else leaves *dst as it is.
func fillText(dst *string, v gjson.Result) {
	if v.Type != gjson.String || v.Str == "" {
		return
	}
	s := v.Str
	if len(s) > MaxSubagentText {
		n := MaxSubagentText
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	if s != *dst {
		*dst = strings.Clone(s) // s views the frame
	}
}

// setCount sets *dst to v, a whole non-negative number.
func setCount(dst **int64, v gjson.Result) {
	if n, ok := frame.Int64(v); ok && n >= 0 && (*dst == nil || **dst != n) {
		*dst = &n
	}
}

func subagentEqual(a, b acpdialect.SubagentTask) bool {
	return (&acpdialect.Payload{SubagentTask: &a}).Equal(acpdialect.Payload{SubagentTask: &b})
}
