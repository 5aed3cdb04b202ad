package claude

import (
	"bytes"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MaxArguments bounds the arguments an mcp_tool card keeps, in bytes:
// larger arguments are left out rather than cut (a cut JSON value is not
// JSON). It is acpdialect.MaxMCPArguments, the bound Codex's cards share.
const MaxArguments = acpdialect.MaxMCPArguments

// ParseMCPName splits Claude's name of an MCP tool, mcp__<server>__<tool>,
// strictly: after the "mcp__" prefix there must be exactly one "__", with
// no third underscore beside it, and neither part may be empty or start
// with an underscore. Anything else is ambiguous (mcp__a___b could be
// server "a_" or tool "_b"; mcp__a__b__c could split twice) and ok is
// false: a wrong server name is worse than none.
func ParseMCPName(name string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, "mcp__")
	if !found || rest == "" || rest[0] == '_' {
		return "", "", false
	}
	i := strings.Index(rest, "__")
	if i <= 0 || i != strings.LastIndex(rest, "__") {
		return "", "", false
	}
	server, tool = rest[:i], rest[i+2:]
	if tool == "" || tool[0] == '_' {
		return "", "", false
	}
	return server, tool, true
}

// mcpCall merges an MCP tool update: the server and tool from the name,
// rawInput as the arguments, and the output (rawOutput, or the tool
// response: a string or text blocks); a failed call's output is its
// error.
func mcpCall(u frame.ToolUpdate, c Code, prev acpdialect.Payload) acpdialect.Payload {
	prev.Kind = acpdialect.KindMCPTool
	var m acpdialect.MCPTool
	if prev.MCPTool != nil {
		m = *prev.MCPTool
	}
	if server, tool, ok := c.mcpName(); ok {
		set(&m.Server, server)
		set(&m.Tool, tool)
	}
	if args := u.RawInput; args.IsObject() && len(args.Raw) <= MaxArguments && hasMembers(args) &&
		!bytes.Equal(m.Arguments, []byte(args.Raw)) {
		m.Arguments = []byte(args.Raw) // a copy
	}
	out := joinText(u.RawOutput)
	if out == "" {
		out = joinText(c.Response)
	}
	if prev.Status == acpdialect.StatusFailed {
		set(&m.Error, out)
	} else {
		set(&m.Output, out)
	}
	if prev.MCPTool == nil || !(acpdialect.Payload{MCPTool: &m}).Equal(acpdialect.Payload{MCPTool: prev.MCPTool}) {
		prev.MCPTool = frame.Keep(m)
	}
	return prev
}

// hasMembers reports whether an object has at least one member: the first
// update's rawInput is {}.
func hasMembers(obj gjson.Result) bool {
	any := false
	frame.Members(obj, func(string, gjson.Result) bool {
		any = true
		return false
	})
	return any
}
