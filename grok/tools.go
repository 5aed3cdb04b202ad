package grok

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/terminal"
	"github.com/tidwall/gjson"
)

// ToolTerminal is the name of Grok's shell tool.
const ToolTerminal = "run_terminal_command"

// ParseTool reads a tool call's _meta["x.ai/tool"]: {name, kind,
// namespace, label, read_only}. ok is false when it is absent or names
// nothing.
func ParseTool(meta gjson.Result) (acpdialect.Tool, bool) {
	t := meta.Get(`x\.ai/tool`)
	if !t.IsObject() {
		return acpdialect.Tool{}, false
	}
	out := acpdialect.Tool{
		Name:      frame.Str(t.Get("name")),
		Kind:      frame.Str(t.Get("kind")),
		Namespace: frame.Str(t.Get("namespace")),
		Label:     frame.Str(t.Get("label")),
		ReadOnly:  t.Get("read_only").Type == gjson.True,
	}
	return out, out.Name != "" || out.Label != ""
}

// ToolCall carries the tool's identity into the payload, makes
// run_terminal_command a shell card (its command and working directory
// from rawInput, its output and exit code from rawOutput) and
// spawn_subagent a subagent_task card (subagentCard). Other tool calls
// keep their kind. Kind objects are copied before a change.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	if t, ok := ParseTool(u.Meta); ok && (prev.Tool == nil || *prev.Tool != t) {
		prev.Tool = frame.Keep(t)
	}
	if prev.Kind == acpdialect.KindSubagentTask || (prev.Tool != nil && prev.Tool.Name == ToolSubagent) {
		return subagentCard(u, prev)
	}
	// A shell card stays one when ACP's standard name (which the Conn
	// puts over the vendor's) names the tool otherwise.
	if prev.Kind != acpdialect.KindShell && (prev.Tool == nil || prev.Tool.Name != ToolTerminal) {
		return prev
	}
	var sh acpdialect.Shell
	if prev.Shell != nil {
		sh = *prev.Shell
	}
	prev.Kind = acpdialect.KindShell
	setFirst(&sh.Command, u.RawInput, "command", "cmd")
	setFirst(&sh.Cwd, u.RawInput, "cwd", "working_directory", "workingDirectory")
	if out := u.RawOutput; out.Type == gjson.String {
		frame.Set(&sh.Output, out)
	} else if out.IsObject() {
		readShellOutput(&sh, out, u.Status.Str)
	}
	if prev.Shell == nil || !terminal.Same(*prev.Shell, sh) {
		prev.Shell = frame.Keep(sh)
	}
	return prev
}

// readShellOutput reads the terminal tool's rawOutput: the output so far
// (a string, or Grok 1.0.41's array of byte values beside a copy for the
// model), the working directory it ran in, and the exit code. Grok 1.0.41
// sends exit_code 0 on every update while the command runs, so an update
// that says the tool call still runs (pending, in_progress) has no code.
func readShellOutput(sh *acpdialect.Shell, out gjson.Result, status string) {
	if b, ok := byteValues(out.Get("output")); ok {
		if b != sh.Output {
			sh.Output = b
		}
	} else {
		setFirst(&sh.Output, out, "output", "stdout")
	}
	if sh.Cwd == "" {
		setFirst(&sh.Cwd, out, "current_dir")
	}
	if status == "pending" || status == "in_progress" {
		return
	}
	for _, k := range [...]string{"exit_code", "exitCode"} {
		if n, ok := frame.Int64(out.Get(k)); ok && (sh.ExitCode == nil || *sh.ExitCode != n) {
			sh.ExitCode = &n
			break
		}
	}
}

// byteValues reads a JSON array of byte values (0 to 255) as the bytes
// they spell. ok is false for anything else, an element out of range
// included, so that a list of other numbers is never read as text.
func byteValues(v gjson.Result) (string, bool) {
	if !v.IsArray() {
		return "", false
	}
	var b []byte
	ok := true
	v.ForEach(func(_, e gjson.Result) bool {
		n, isInt := frame.Int64(e)
		if !isInt || n < 0 || n > 255 {
			ok = false
			return false
		}
		b = append(b, byte(n))
		return true
	})
	return string(b), ok
}

// setFirst sets *dst from the first of keys that obj has as a non-empty
// string.
func setFirst(dst *string, obj gjson.Result, keys ...string) {
	for _, k := range keys {
		if v := obj.Get(k); v.Type == gjson.String && v.Str != "" {
			frame.Set(dst, v)
			return
		}
	}
}
