package claude

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/acpdialect/acpdialect/frame"
)

// MergeLate folds what an update said about a card (an async task's news,
// a monitor's events) into it. A
// non-empty value replaces, an empty one never blanks; a monitor's events
// add up. Only the objects of the card's own kind are merged; ok is false
// when the half has nothing for it. cur's objects are never changed.
func MergeLate(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
	frame.Fill(&cur.Title, late.Title)
	ok := late.Title != ""
	switch cur.Kind {
	case acpdialect.KindSubagentTask:
		if late.SubagentTask != nil {
			cur.SubagentTask, ok = mergeSubagent(cur.SubagentTask, late.SubagentTask), true
		}
	case acpdialect.KindMonitor:
		ended := cur.Monitor != nil && cur.Monitor.Ended
		if !ended && pauses(cur.Status, late.Status) {
			// AIR's async task paused or resumed the monitor, which runs
			// past its tool call: its card says so.
			cur.Status, ok = late.Status, true
		}
		if m, merged := mergeMonitor(cur.Monitor, late.Monitor); merged {
			cur.Monitor, ok = m, true
			if !ended && m.Ended && acpdialect.StatusEnded(late.Status) {
				// The monitor's task ended (AIR's async task state,
				// 0.98.0 on): its card, which ran past its tool call,
				// ends with it, as it does at the turn's end.
				cur.Status = late.Status
			}
		}
	case acpdialect.KindShell:
		if late.Shell != nil {
			cur.Shell, ok = air.MergeShell(cur.Shell, late.Shell), true
		}
	}
	return cur, ok || late.Kind == cur.Kind
}

// mergeSubagent returns cur with late's values filled in, cur itself when
// nothing changed.
func mergeSubagent(cur, late *acpdialect.SubagentTask) *acpdialect.SubagentTask {
	var st acpdialect.SubagentTask
	if cur != nil {
		st = *cur
	}
	frame.Fill(&st.Description, late.Description)
	frame.Fill(&st.Prompt, late.Prompt)
	frame.Fill(&st.SubagentType, late.SubagentType)
	frame.Fill(&st.Status, late.Status)
	frame.Fill(&st.AgentID, late.AgentID)
	frame.Fill(&st.Model, late.Model)
	frame.Fill(&st.ChildSessionID, late.ChildSessionID)
	frame.Fill(&st.Name, late.Name)
	frame.Fill(&st.Cwd, late.Cwd)
	frame.Fill(&st.OutputFile, late.OutputFile)
	frame.Fill(&st.ResultText, late.ResultText)
	st.IsAsync = st.IsAsync || late.IsAsync
	st.Cancellable = st.Cancellable || late.Cancellable
	mergeInt(&st.DurationMs, late.DurationMs)
	mergeInt(&st.TotalTokens, late.TotalTokens)
	mergeInt(&st.ToolUseCount, late.ToolUseCount)
	if cur != nil && st.Equal(*cur) {
		return cur
	}
	return &st
}

// mergeInt points *dst at a copy of *src when src is set and differs.
func mergeInt(dst **int64, src *int64) {
	if src != nil {
		setInt(dst, *src, true)
	}
}

// pauses reports whether a task's status next pauses a running card or
// resumes a paused one.
func pauses(cur, next string) bool {
	return (cur == acpdialect.StatusInProgress && next == acpdialect.StatusPaused) ||
		(cur == acpdialect.StatusPaused && next == acpdialect.StatusInProgress)
}
