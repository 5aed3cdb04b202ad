package auggie

import (
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// SubagentPrefix starts the title of a tool call that runs a subagent:
// "sub-agent-<type>: <description>".
const SubagentPrefix = "sub-agent-"

// MaxResultText bounds a subagent's result text and error, in bytes: its
// head is kept, cut at a rune boundary.
const MaxResultText = 64 << 10

// ParseTitle reads a subagent tool call's title, "sub-agent-<type>:
// <description>": the prefix exactly, then the type (the text up to the
// first ":", trimmed, not empty), then the description (the rest,
// trimmed; Auggie may cut it short, and it may be empty). ok is false for
// any other title. The results view title.
func ParseTitle(title string) (subagentType, description string, ok bool) {
	rest, found := strings.CutPrefix(title, SubagentPrefix)
	if !found {
		return "", "", false
	}
	typ, desc, found := strings.Cut(rest, ":")
	typ = strings.TrimSpace(typ)
	if !found || typ == "" {
		return "", "", false
	}
	return typ, strings.TrimSpace(desc), true
}

// ToolCall makes a tool call whose title names a subagent a subagent_task
// card: its type and description from the title (the latest title's, so
// that they agree with the card's title; an empty one, or a title that no
// longer names a subagent, does not blank them), and once Auggie
// reports it, rawOutput.output (a string): its result text, or its error
// when the card failed. Other tool calls keep their payload. The subagent
// object is copied before a change.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	typ, desc, isTask := ParseTitle(prev.Title) // the merged title: an update may omit it
	if !isTask && prev.Kind != acpdialect.KindSubagentTask {
		return prev
	}
	var st acpdialect.SubagentTask
	if prev.SubagentTask != nil {
		st = *prev.SubagentTask
	}
	fill(&st.SubagentType, typ)
	fill(&st.Description, desc)
	if out := u.RawOutput.Get("output"); u.RawOutput.IsObject() && out.Type == gjson.String && strings.TrimSpace(out.Str) != "" {
		// Auggie sends a failed subagent's tool result, its error text,
		// where a finished one's answer goes: on a failed card it is
		// the error, not a result.
		dst := &st.ResultText
		if prev.Status == acpdialect.StatusFailed {
			dst = &st.Error
		}
		if text := head(out.Str); text != *dst {
			*dst = strings.Clone(text)
		}
	}
	prev.Kind = acpdialect.KindSubagentTask
	if prev.SubagentTask == nil || !prev.SubagentTask.Equal(st) {
		prev.SubagentTask = frame.Keep(st)
	}
	return prev
}

// fill sets *dst to a copy of v (the title may be replaced: keep no view
// of it) when v is not empty and differs.
func fill(dst *string, v string) {
	if v != "" && v != *dst {
		*dst = strings.Clone(v)
	}
}

// head returns s within MaxResultText bytes, cut at a rune boundary. It
// views s.
func head(s string) string {
	if len(s) <= MaxResultText {
		return s
	}
	n := MaxResultText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n-- // s[n] continues a rune: cut before that rune
	}
	return s[:n]
}
