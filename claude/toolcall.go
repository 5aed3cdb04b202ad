package claude

import (
	"strconv"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/terminal"
	"github.com/tidwall/gjson"
)

// Claude's SDK tool names the dialect recognizes (_meta.claudeCode.toolName).
const (
	ToolAgent          = "Agent" // the subagent tool; "Task" in older builds
	ToolTask           = "Task"
	ToolBash           = "Bash"
	ToolMonitor        = "Monitor"
	ToolScheduleWakeup = "ScheduleWakeup"
	ToolCompact        = "compact" // the synthetic tool call of a compaction
)

// Code is what a tool call update's _meta says in Claude's keys. Strings
// view the frame.
type Code struct {
	// ToolName is _meta.claudeCode.toolName: the SDK's tool name (Bash,
	// Agent, mcp__docs__search, ...).
	ToolName string
	// Parent is _meta.claudeCode.parentToolUseId: the subagent tool call
	// the update was made inside.
	Parent string
	// Subagent is _meta.claudeCode.subagent: true on Agent/Task calls.
	Subagent bool
	// Response is _meta.claudeCode.toolResponse: the tool's structured
	// output (PostToolUse), of any JSON type.
	Response gjson.Result
	// Terminal says _meta has a terminal_* key (package terminal).
	Terminal bool
	// MCPServer and MCPTool are _meta.jetbrains.air.mcp's server and
	// tool: the adapter's own split of an MCP tool's name, which AIR
	// clients get from 0.92.0. Both or neither.
	MCPServer, MCPTool string
}

// ReadCode reads Claude's keys of a tool call update's _meta in one pass;
// a value of the wrong type is absent, and of a key that appears twice the
// first counts.
func ReadCode(meta gjson.Result) Code {
	var c Code
	var seen uint8
	r := frame.NewReader(meta)
	r.Object(func(k string) {
		switch {
		case k == "claudeCode" && once(&seen, 1):
			c.readClaudeCode(r)
		case k == "jetbrains" && once(&seen, 2):
			c.readAirMCP(r)
		case strings.HasPrefix(k, "terminal_"):
			c.Terminal = true
		}
	})
	return c
}

// readAirMCP reads jetbrains.air.mcp {server, tool}: Claude Code's split
// of mcp__<server>__<tool> (the server up to the next "__", the tool the
// rest), which resolves a name ParseMCPName finds ambiguous. A pair with
// a part missing or empty is absent.
func (c *Code) readAirMCP(r *frame.Reader) {
	var server, tool string
	var seen uint8
	r.Object(func(k string) {
		if k != "air" || !once(&seen, 1) {
			return
		}
		var air uint8
		r.Object(func(k string) {
			if k != "mcp" || !once(&air, 1) {
				return
			}
			var mcp uint8
			r.Object(func(k string) {
				switch {
				case k == "server" && once(&mcp, 1):
					server = r.String()
				case k == "tool" && once(&mcp, 2):
					tool = r.String()
				}
			})
		})
	})
	if server != "" && tool != "" {
		c.MCPServer, c.MCPTool = server, tool
	}
}

func (c *Code) readClaudeCode(r *frame.Reader) {
	var seen uint8
	r.Object(func(k string) {
		switch {
		case k == "toolName" && once(&seen, 1):
			c.ToolName = r.String()
		case k == "parentToolUseId" && once(&seen, 2):
			c.Parent = r.String()
		case k == "subagent" && once(&seen, 4):
			c.Subagent = r.True()
		case k == "toolResponse" && once(&seen, 8):
			c.Response = r.Value()
		}
	})
}

// ToolCall recognizes Claude's tool calls and merges what each update
// says: the tool's name (Payload.Tool), the parent a subagent's work
// names, and by tool name a subagent_task (Agent, Task, or
// subagent:true), a shell (Bash, or any update with terminal metadata), a
// monitor (Monitor), a wakeup (ScheduleWakeup) or an mcp_tool (a strictly
// parsed mcp__server__tool).
// A card keeps the kind it was first given: later updates often carry no
// _meta. Kind objects are copied before they change.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	c := ReadCode(u.Meta)
	if c.Parent != "" && prev.ParentToolCallID == "" {
		// The Conn's link (a native child session's card) wins: it names
		// a card the client has.
		prev.ParentToolCallID = strings.Clone(c.Parent)
	}
	prev = named(prev, c.ToolName)
	switch kindOf(c, prev) {
	case acpdialect.KindSubagentTask:
		return subagentCall(u, c, prev)
	case acpdialect.KindShell:
		return shellCall(u, c, prev)
	case acpdialect.KindMonitor:
		return monitorCall(u, c, prev)
	case acpdialect.KindWakeup:
		return wakeupCall(u, c, prev)
	case acpdialect.KindMCPTool:
		return mcpCall(u, c, prev)
	}
	return prev
}

// named gives the card the SDK's tool name (Payload.Tool.Name), a copy:
// as Devin's, a later update's name replaces it and one without keeps it
// (ACP's own name, which the Conn applies after, wins over both).
func named(p acpdialect.Payload, name string) acpdialect.Payload {
	if name == "" || (p.Tool != nil && p.Tool.Name == name) {
		return p
	}
	var t acpdialect.Tool
	if p.Tool != nil {
		t = *p.Tool
	}
	t.Name = strings.Clone(name)
	p.Tool = &t
	return p
}

// kindOf picks the payload kind of a card: the one it has, else the one its
// tool name (or terminal metadata) says.
func kindOf(c Code, prev acpdialect.Payload) string {
	if prev.Kind != "" && prev.Kind != acpdialect.KindGeneric {
		return prev.Kind
	}
	switch {
	case c.ToolName == ToolAgent || c.ToolName == ToolTask || c.Subagent:
		return acpdialect.KindSubagentTask
	case c.ToolName == ToolBash || c.Terminal:
		return acpdialect.KindShell
	case c.ToolName == ToolMonitor:
		return acpdialect.KindMonitor
	case c.ToolName == ToolScheduleWakeup:
		return acpdialect.KindWakeup
	}
	if _, _, ok := c.mcpName(); ok {
		return acpdialect.KindMCPTool
	}
	return ""
}

// shellCall merges a shell update: rawInput's command and background
// flag, the terminal metadata, and, for a client without the terminal
// channel, the output the tool call reports (rawOutput, or the tool
// response's stdout and stderr).
func shellCall(u frame.ToolUpdate, c Code, prev acpdialect.Payload) acpdialect.Payload {
	prev.Kind = acpdialect.KindShell
	sh := prev.Shell
	if c.Terminal {
		sh = terminal.Fold(sh, terminal.ReadMeta(u.Meta))
	}
	var n acpdialect.Shell
	if sh != nil {
		n = *sh
	}
	cmd, bg := readShellInput(u.RawInput)
	if cmd != "" && cmd != n.Command {
		n.Command = strings.Clone(cmd)
	}
	n.Background = n.Background || bg
	if n.TerminalID == "" {
		if out, ok := shellOutput(u.RawOutput, c.Response); ok && out != n.Output {
			n.Output, n.OutputTruncated = terminal.Bounded(out)
		}
		if code, ok := failureExitCode(u); ok && (n.ExitCode == nil || *n.ExitCode != code) {
			kept := code // only a new code escapes: an unchanged card allocates nothing
			n.ExitCode = &kept
		}
	}
	if sh == nil || !terminal.Same(*sh, n) {
		sh = frame.Keep(n)
	}
	prev.Shell = sh
	return prev
}

// readShellInput reads rawInput.command and rawInput.run_in_background
// (true only for the JSON true); the command views the frame.
func readShellInput(in gjson.Result) (command string, background bool) {
	var seen uint8
	r := frame.NewReader(in)
	r.Object(func(k string) {
		switch {
		case k == "command" && once(&seen, 1):
			command = r.String()
		case k == "run_in_background" && once(&seen, 2):
			background = r.True()
		}
	})
	return command, background
}

// shellOutput is the output a tool call reports without a terminal: a
// string rawOutput, else the tool response's stdout (and stderr).
func shellOutput(rawOutput, response gjson.Result) (string, bool) {
	if rawOutput.Type == gjson.String {
		if rawOutput.Str == EmptyBashOutput {
			return "", true // Claude Code's words for none, not output
		}
		return rawOutput.Str, true
	}
	if !response.IsObject() {
		return "", false
	}
	var stdout, stderr string
	var ok bool
	frame.Members(response, func(k string, v gjson.Result) bool {
		switch k {
		case "stdout":
			stdout, ok = frame.View(v), ok || v.Type == gjson.String
		case "stderr":
			stderr = frame.View(v)
		}
		return true
	})
	switch {
	case stderr == "":
	case stdout == "":
		stdout, ok = stderr, true // no blank first line
	default:
		stdout, ok = strings.TrimSuffix(stdout, "\n")+"\n"+stderr, true
	}
	return stdout, ok
}

// EmptyBashOutput is what Claude Code tells its model, and a client
// without the terminal channel gets as rawOutput, for a command that
// printed nothing.
const EmptyBashOutput = "(Bash completed with no output)"

// failureExitCode reads the exit code a failed command's text names
// without the terminal channel: Claude Code starts it "Exit code N" (as
// claude-agent-acp's own failureExitCode reads it for the terminal
// channel). Other failures, a denial or a command that could not start,
// name none.
func failureExitCode(u frame.ToolUpdate) (int64, bool) {
	if u.Status.Str != acpdialect.StatusFailed || u.RawOutput.Type != gjson.String {
		return 0, false
	}
	text, ok := strings.CutPrefix(u.RawOutput.Str, "Exit code ")
	digits, _, _ := strings.Cut(text, "\n")
	if !ok || digits == "" || len(digits) > 18 || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil
}

// once reports whether bit is new in *seen, and sets it: the first of a
// repeated key counts, as with gjson's Get.
func once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// set copies v into *dst when v is not empty and differs.
func set(dst *string, v string) {
	if v != "" && v != *dst {
		*dst = strings.Clone(v)
	}
}

// fill copies v into *dst when *dst is empty.
func fill(dst *string, v string) {
	if *dst == "" && v != "" {
		*dst = strings.Clone(v)
	}
}

// setInt points *dst at v when ok and the value differs.
func setInt(dst **int64, v int64, ok bool) {
	if ok && (*dst == nil || **dst != v) {
		*dst = &v
	}
}

// mcpName returns the server and tool of an MCP tool call: the adapter's
// own split when it gave one (AIR), else the name parsed strictly.
func (c Code) mcpName() (server, tool string, ok bool) {
	if c.MCPServer != "" {
		return c.MCPServer, c.MCPTool, true
	}
	return ParseMCPName(c.ToolName)
}
