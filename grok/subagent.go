package grok

import (
	"strings"

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
// (Grok CLI 1.0.41, docs/grok.md section 9): its description, prompt and
// subagent type (when the model names one) from rawInput, async when it runs in the background; and, from the
// result of one that ran in the foreground (rawOutput type
// SubagentCompleted), its id, type, output, tool call count and run time;
// from one in the background, its id from the text that starts it. The
// subagent's id names its child session too (see SubagentChild). A failed
// call's message (rawOutput {error, message}) is the card's
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
	fillText(&st.SubagentType, in.Get("subagent_type"))
	if in.Get("background").Type == gjson.True || in.Get("run_in_background").Type == gjson.True ||
		u.Meta.Get("subagentBackground").Type == gjson.True {
		st.IsAsync = true
	}
	out := u.RawOutput
	switch typ := out.Get("type").Str; {
	case out.Get("error").Type == gjson.String && u.Status.Str == acpdialect.StatusFailed:
		st.Status = acpdialect.StatusFailed
		fillText(&st.Error, out.Get("message"))
	case typ == "SubagentCompleted":
		st.Status = acpdialect.StatusCompleted
		setID(&st, out.Get("subagent_id").Str)
		fillText(&st.SubagentType, out.Get("subagent_type"))
		fillText(&st.ResultText, out.Get("output"))
		setCount(&st.ToolUseCount, out.Get("tool_calls"))
		setCount(&st.DurationMs, out.Get("duration_ms"))
	case typ == "Text" && st.IsAsync:
		setID(&st, BackgroundID(out.Get("text").Str))
	}
	if prev.SubagentTask == nil || !prev.SubagentTask.Equal(st) {
		prev.SubagentTask = &st
	}
	return prev
}

// fillText sets *dst to v, a non-empty string, cut to MaxSubagentText at
// a rune boundary; anything else leaves *dst as it is.
func fillText(dst *string, v gjson.Result) {
	if v.Type != gjson.String || v.Str == "" {
		return
	}
	if s := frame.HeadView(v.Str, MaxSubagentText); s != *dst {
		*dst = strings.Clone(s) // s views the frame
	}
}

// setID sets the subagent's id, which names its child session too when
// none is named yet or the one named came with another subagent's id (a
// start's claim gone wrong), when it is one: not empty, with no space, at most 256 bytes (Grok's are
// UUIDs). A longer one is not cut: a cut id would name another session.
func setID(st *acpdialect.SubagentTask, id string) {
	if !validID(id) {
		return
	}
	if st.ChildSessionID == "" || (st.AgentID != "" && st.AgentID != id) {
		// None yet, or a start's claim named another subagent's (the
		// result is the subagent's own word): the id names the session.
		st.ChildSessionID = strings.Clone(id) // id views the frame
	}
	if id != st.AgentID {
		st.AgentID = strings.Clone(id)
	}
}

// validID reports whether id may be a subagent's id or session: not
// empty, with no space, at most 256 bytes.
func validID(id string) bool {
	return id != "" && len(id) <= maxSubagentID && !strings.ContainsAny(id, " \t\r\n")
}

// setCount sets *dst to v, a whole non-negative number.
func setCount(dst **int64, v gjson.Result) {
	if n, ok := frame.Int64(v); ok && n >= 0 && (*dst == nil || **dst != n) {
		*dst = &n
	}
}

// backgroundStart is how Grok's text for a subagent started in the
// background begins (1.0.41).
const backgroundStart = "Subagent started in background.\n"

// BackgroundID reads the subagent's id from the text with which Grok ends
// the tool call of a subagent it started in the background:
// "Subagent started in background.\nsubagent_id: <id>\n...". Any other
// text, or an id that is empty or has a space in it, gives "".
func BackgroundID(text string) string {
	rest, ok := strings.CutPrefix(text, backgroundStart)
	if !ok {
		return ""
	}
	line, _, _ := strings.Cut(rest, "\n")
	id, ok := strings.CutPrefix(line, "subagent_id: ")
	if !ok || !validID(id) {
		return ""
	}
	return id // it views text
}

// maxSubagentID bounds a subagent id: Grok's are UUIDs.
const maxSubagentID = 256

// SubagentChild reads a subagent's start or end, reported on
// x.ai/session_notification (Grok CLI 1.0.41, docs/grok.md section 9),
// into what it says of the subagent's card, keyed by its child session:
//
//   - subagent_spawned {subagent_id, parent_session_id, child_session_id,
//     subagent_type, description, model}: the subagent's id, type,
//     description and model, and its status running;
//   - subagent_finished {subagent_id, child_session_id, status,
//     tool_calls, duration_ms, tokens_used, output}: its status as
//     reported, its result text, tool call count, run time and tokens.
//
// sid is the notification's session, the parent's when the update names
// none. ok is false for any other update, and for one without a child
// session (a string of at most 256 bytes, without spaces). Grok names a
// subagent's session by its id (the two are equal in every start
// recorded), which is how the card, which knows only the id, links the
// child: see Dialect.ChildSessions. A start claims its child
// (acpdialect.Child.Claim) for the spawn's card when that is the only open
// spawn of the session, so that a subagent in the foreground nests under
// its card as it works, not only once its result names it.
func SubagentChild(sid string, u gjson.Result) (acpdialect.Child, bool) {
	kind := u.Get("sessionUpdate").Str
	if kind != "subagent_spawned" && kind != "subagent_finished" {
		return acpdialect.Child{}, false
	}
	child := u.Get("child_session_id")
	if child.Type != gjson.String || !validID(child.Str) {
		return acpdialect.Child{}, false
	}
	st := &acpdialect.SubagentTask{ChildSessionID: strings.Clone(child.Str)}
	if id := u.Get("subagent_id"); id.Type == gjson.String && validID(id.Str) {
		st.AgentID = strings.Clone(id.Str)
	}
	parent := sid
	if kind == "subagent_spawned" {
		st.Status = StatusRunning
		if p := u.Get("parent_session_id"); p.Type == gjson.String && p.Str != "" {
			parent = p.Str
		}
		fillText(&st.SubagentType, u.Get("subagent_type"))
		fillText(&st.Description, u.Get("description"))
		fillText(&st.Model, u.Get("model"))
	} else {
		fillText(&st.Status, u.Get("status"))
		fillText(&st.ResultText, u.Get("output"))
		setCount(&st.ToolUseCount, u.Get("tool_calls"))
		setCount(&st.DurationMs, u.Get("duration_ms"))
		setCount(&st.TotalTokens, u.Get("tokens_used"))
	}
	return acpdialect.Child{Session: st.ChildSessionID, Parent: strings.Clone(parent), Claim: kind == "subagent_spawned",
		Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: st}}, true
}

// StatusRunning is the subagent status of a subagent Grok reported
// started and not yet finished.
const StatusRunning = "running"

// MergeLate merges what a subagent notification says (SubagentChild) into
// its card, or into another such half while the two wait for the card:
// values the card lacks are filled; the subagent's status moves forward
// only (a finished subagent is not running again, whatever the order);
// the card's own status is left as it is (the tool call ends it). ok is
// false unless both are subagent payloads.
func MergeLate(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
	in := late.SubagentTask
	if in == nil || late.Kind != acpdialect.KindSubagentTask || cur.Kind != acpdialect.KindSubagentTask {
		return cur, false
	}
	var st acpdialect.SubagentTask
	if cur.SubagentTask != nil {
		st = *cur.SubagentTask
	}
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	fill(&st.AgentID, in.AgentID)
	fill(&st.ChildSessionID, in.ChildSessionID)
	fill(&st.SubagentType, in.SubagentType)
	fill(&st.Description, in.Description)
	fill(&st.Model, in.Model)
	fill(&st.ResultText, in.ResultText)
	if in.Status != "" && (st.Status == "" || st.Status == StatusRunning) {
		st.Status = in.Status
	}
	for _, c := range [...]struct{ dst, v **int64 }{{&st.ToolUseCount, &in.ToolUseCount},
		{&st.DurationMs, &in.DurationMs}, {&st.TotalTokens, &in.TotalTokens}} {
		if *c.dst == nil {
			*c.dst = *c.v
		}
	}
	if cur.SubagentTask == nil || !cur.SubagentTask.Equal(st) {
		*in = st // the late half's object is the merge's to take over
		cur.SubagentTask = in
	}
	return cur, true
}
