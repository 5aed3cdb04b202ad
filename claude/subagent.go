package claude

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// StatusAsyncLaunched is the tool response status of a subagent that runs
// on in the background: its tool call completes at once.
const StatusAsyncLaunched = "async_launched"

// MaxResultText bounds a subagent's result text, in bytes: its head is
// kept (a report starts with its point).
const MaxResultText = 64 << 10

// subagentCall merges an Agent/Task update: rawInput fills what is still
// empty (it repeats itself over several updates), and the tool response
// gives the run's outcome. A failed call's rawOutput, the raw tool_result
// (a string or text blocks), is the subagent's error, as a failed MCP
// call's is its error.
func subagentCall(u frame.ToolUpdate, c Code, prev acpdialect.Payload) acpdialect.Payload {
	prev.Kind = acpdialect.KindSubagentTask
	var st acpdialect.SubagentTask
	if prev.SubagentTask != nil {
		st = *prev.SubagentTask
	}
	in := ReadAgentInput(u.RawInput)
	fill(&st.Description, in.Description)
	fill(&st.Prompt, in.Prompt)
	fill(&st.SubagentType, in.SubagentType)
	if c.Response.IsObject() {
		ReadAgentResponse(c.Response, &st)
	}
	if prev.Status == acpdialect.StatusFailed {
		if text := joinText(u.RawOutput); text != "" && text != st.Error {
			st.Error = text
		}
	}
	if st.Status == StatusAsyncLaunched {
		// The subagent works on; its tool call is done.
		st.IsAsync = true
		prev.Status = acpdialect.StatusCompleted
	}
	if prev.SubagentTask == nil || !st.Equal(*prev.SubagentTask) {
		prev.SubagentTask = frame.Keep(st)
	}
	return prev
}

// AgentInput is what an Agent/Task call's rawInput says. Strings view the
// frame.
type AgentInput struct {
	Description, Prompt, SubagentType string
}

// ReadAgentInput reads rawInput's description, prompt and subagent_type in
// one pass; wrong types read as absent.
func ReadAgentInput(in gjson.Result) AgentInput {
	var a AgentInput
	var seen uint8
	r := frame.NewReader(in)
	r.Object(func(k string) {
		switch {
		case k == "description" && once(&seen, 1):
			a.Description = r.String()
		case k == "prompt" && once(&seen, 2):
			a.Prompt = r.String()
		case k == "subagent_type" && once(&seen, 4):
			a.SubagentType = r.String()
		}
	})
	return a
}

// ReadAgentResponse merges an Agent/Task tool response into st: agentId,
// agentType (or subagentType while it runs), status, totalDurationMs,
// totalTokens, totalToolUseCount (a reported 0 is kept), isAsync,
// outputFile, resolvedModel, prompt (fills) and the text blocks of
// content joined by newlines as the result text. A value of the wrong type
// is absent: the recordings hold "totalDurationMs":"<number>".
func ReadAgentResponse(resp gjson.Result, st *acpdialect.SubagentTask) {
	r := frame.NewReader(resp)
	r.Object(func(k string) {
		switch k {
		case "agentId":
			set(&st.AgentID, r.String())
		case "agentType", "subagentType":
			fill(&st.SubagentType, r.String())
		case "status":
			st.Status = status(r.String(), st.Status)
		case "totalDurationMs":
			n, ok := frame.Int64(r.Value())
			setInt(&st.DurationMs, n, ok && n >= 0)
		case "totalTokens":
			n, ok := frame.Int64(r.Value())
			setInt(&st.TotalTokens, n, ok && n >= 0)
		case "totalToolUseCount":
			n, ok := frame.Int64(r.Value())
			setInt(&st.ToolUseCount, n, ok && n >= 0)
		case "isAsync":
			st.IsAsync = st.IsAsync || r.True()
		case "outputFile":
			set(&st.OutputFile, r.String())
		case "resolvedModel":
			set(&st.Model, r.String())
		case "prompt":
			fill(&st.Prompt, r.String())
		case "content":
			if text := joinText(r.Value()); text != "" && text != st.ResultText {
				st.ResultText = text
			}
		}
	})
}

// status returns a subagent status as a constant when it is a known one,
// else a copy; cur when s is empty.
func status(s, cur string) string {
	for _, known := range [...]string{"completed", StatusAsyncLaunched, "failed", "cancelled", "running"} {
		if s == known {
			return known
		}
	}
	if s == "" || s == cur {
		return cur
	}
	return strings.Clone(s)
}

// joinText joins the non-blank text blocks of a content array with
// newlines, within MaxResultText bytes. A string counts as one block.
func joinText(v gjson.Result) string {
	if v.Type == gjson.String {
		if strings.TrimSpace(v.Str) == "" {
			return "" // as a blank text block is skipped
		}
		return frame.Head(v.Str, MaxResultText)
	}
	var b strings.Builder
	r := frame.NewReader(v)
	r.Array(func() {
		var text string
		isText := true
		r.Object(func(k string) {
			switch k {
			case "type":
				isText = r.String() == "text"
			case "text":
				text = r.String()
			}
		})
		if !isText || strings.TrimSpace(text) == "" || b.Len() >= MaxResultText {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(text)
	})
	return frame.Head(b.String(), MaxResultText)
}
