package codex

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MaxMCPOutput bounds an MCP call's output kept on its card, in bytes: past
// it the tail is kept (MCPTool.OutputTruncated). MaxMCPError bounds its
// error message the same way.
const (
	MaxMCPOutput = 64 << 10
	MaxMCPError  = 4 << 10
)

// ToolCall reads Codex's tool calls: collaboration and subagent activity
// frames into subagent_task cards, MCP calls into mcp_tool cards, command
// executions into shell cards. Other tool calls are left as they are. It
// copies a kind object before changing it.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	if plain(u, prev) {
		return prev // the usual tool call
	}
	m := ReadMeta(u)
	switch {
	case m.Tool != "" || m.Activity != "" || prev.Kind == acpdialect.KindSubagentTask:
		prev = subagentCall(u, m, prev)
	case m.MCP || prev.Kind == acpdialect.KindMCPTool:
		prev = mcpCall(u, m, prev)
	default:
		return shellCall(u, m, prev)
	}
	if prev.Kind != acpdialect.KindShell {
		prev.Shell = nil // a command's id reused for a run or an MCP call
	}
	return prev
}

// plain reports whether u cannot concern a Codex card: it has no _meta,
// no rawOutput object, no rawInput object on an execute call, no thread
// ids in rawInput, and prev is not a card of Codex's.
func plain(u frame.ToolUpdate, prev acpdialect.Payload) bool {
	switch {
	case u.Meta.Exists(), u.RawOutput.IsObject():
		return false
	case u.RawInput.IsObject() && u.ACPKind.Type == gjson.String && u.ACPKind.Str == "execute":
		return false
	case strings.Contains(u.RawInput.Raw, `ThreadId"`):
		return false // an untagged collaboration or activity (ReadMeta)
	}
	return prev.Kind != acpdialect.KindSubagentTask && prev.Kind != acpdialect.KindMCPTool && prev.Kind != acpdialect.KindShell
}

// mcpCall merges an MCP tool call frame: the call's identity from
// rawInput, progress output from _meta.mcp_output_delta (appended, one
// message a line), and
// the result or error from rawOutput.
func mcpCall(u frame.ToolUpdate, m Meta, prev acpdialect.Payload) acpdialect.Payload {
	var t acpdialect.MCPTool
	switch {
	case prev.Kind == acpdialect.KindMCPTool && prev.MCPTool != nil:
		t = *prev.MCPTool
	default:
		server, tool, args, ok := ParseMCPInput(u.RawInput)
		if !ok {
			return prev
		}
		t = acpdialect.MCPTool{Server: strings.Clone(server), Tool: strings.Clone(tool), Arguments: args}
	}
	if d := frame.View(m.MCPDelta); d != "" {
		t.Output, t.OutputTruncated = tail(t.Output+lineBreak(t.Output)+d, MaxMCPOutput, t.OutputTruncated)
	}
	if res, errMsg, ok := ParseMCPOutput(u.RawOutput); ok {
		if res != "" {
			t.Output, t.OutputTruncated = tail(res, MaxMCPOutput, false)
		}
		if errMsg != "" {
			t.Error, _ = tail(errMsg, MaxMCPError, false)
		}
	}
	if t.Error != "" && prev.Status != acpdialect.StatusCancelled {
		prev.Status = acpdialect.StatusFailed // once reported, the call failed
	}
	prev.Kind = acpdialect.KindMCPTool
	if prev.MCPTool == nil || !sameMCP(*prev.MCPTool, t) {
		prev.MCPTool = frame.Keep(t)
	}
	return prev
}

// lineBreak is what separates the progress output so far from the next
// message: codex-acp trims each progress message (its line break too), so
// messages appended as they are would run together.
func lineBreak(out string) string {
	if out == "" || strings.HasSuffix(out, "\n") {
		return ""
	}
	return "\n"
}

// ParseMCPInput reads an MCP call's rawInput: ok is false unless server
// and tool are non-empty (after trimming spaces). args is a copy of the
// arguments as sent, nil when absent, null or larger than
// acpdialect.MaxMCPArguments (left out whole: a cut JSON value is not
// JSON).
func ParseMCPInput(raw gjson.Result) (server, tool string, args []byte, ok bool) {
	var argv gjson.Result
	frame.Members(raw, func(k string, v gjson.Result) bool {
		switch k {
		case "server":
			server = or(server, strings.TrimSpace(frame.View(v)))
		case "tool":
			tool = or(tool, strings.TrimSpace(frame.View(v)))
		case "arguments":
			if !argv.Exists() {
				argv = v
			}
		}
		return true
	})
	if server == "" || tool == "" {
		return "", "", nil, false
	}
	if argv.Exists() && argv.Type != gjson.Null && len(argv.Raw) <= acpdialect.MaxMCPArguments {
		args = []byte(argv.Raw)
	}
	return server, tool, args, true
}

// ParseMCPOutput unwraps an MCP call's rawOutput {result, error}: the
// result as text (a string as is; an MCP result's text content joined by
// newlines; any other value as its JSON), the error's message (a string,
// or an object's message, else its JSON). ok is false when rawOutput is
// not such an object. The strings are the caller's own.
func ParseMCPOutput(raw gjson.Result) (result, errMsg string, ok bool) {
	var res, e gjson.Result
	frame.Members(raw, func(k string, v gjson.Result) bool {
		switch {
		case k == "result" && !res.Exists():
			res = v
		case k == "error" && !e.Exists():
			e = v
		}
		return true
	})
	if !res.Exists() && !e.Exists() {
		return "", "", false
	}
	return resultText(res), errorText(e), true
}

func resultText(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return strings.Clone(v.Str)
	case !v.Exists() || v.Type == gjson.Null:
		return ""
	case v.IsObject():
		if c := v.Get("content"); c.IsArray() {
			// Every block is joined: the card keeps the tail, which is in
			// the last blocks (the string is at most the frame's size).
			var b strings.Builder
			c.ForEach(func(_, item gjson.Result) bool {
				if t := item.Get("text"); t.Type == gjson.String {
					if b.Len() > 0 {
						b.WriteByte('\n')
					}
					b.WriteString(t.Str)
				}
				return true
			})
			return b.String()
		}
	}
	return strings.Clone(v.Raw)
}

// errorText reads a reported error: a non-empty string, an object's
// non-empty message, else the object's JSON ({} is no error). Anything else
// (null, false, 0, an array) is no error: a wrong-typed value is absent.
func errorText(v gjson.Result) string {
	switch {
	case v.Type == gjson.String:
		return strings.Clone(v.Str)
	case v.IsObject():
		if m := v.Get("message"); m.Type == gjson.String && m.Str != "" {
			return strings.Clone(m.Str)
		}
		empty := true
		frame.Members(v, func(string, gjson.Result) bool { empty = false; return false })
		if empty {
			return "" // {}
		}
		return strings.Clone(v.Raw)
	}
	return ""
}

// tail returns s cut to its last max bytes (at a character boundary), as
// a string of its own, and whether anything was ever cut. s may view a
// frame (a first progress message: "" + d is d itself): the card never
// keeps that view.
func tail(s string, max int, cut bool) (string, bool) {
	return strings.Clone(frame.TailView(s, max)), cut || len(s) > max
}

func sameMCP(a, b acpdialect.MCPTool) bool {
	return a.Server == b.Server && a.Tool == b.Tool && a.Output == b.Output &&
		a.OutputTruncated == b.OutputTruncated && a.Error == b.Error && string(a.Arguments) == string(b.Arguments)
}
