package grok

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
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

// ToolCall carries the tool's identity into the payload and makes
// run_terminal_command a shell card: its command and working directory
// from rawInput, its output and exit code from rawOutput. Other tool
// calls keep their kind. Kind objects are copied before a change.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	if t, ok := ParseTool(u.Meta); ok && (prev.Tool == nil || *prev.Tool != t) {
		prev.Tool = frame.Keep(t)
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
	} else {
		setFirst(&sh.Output, out, "output", "stdout")
		for _, k := range [...]string{"exit_code", "exitCode"} {
			if n, ok := frame.Int64(out.Get(k)); ok && (sh.ExitCode == nil || *sh.ExitCode != n) {
				sh.ExitCode = &n
				break
			}
		}
	}
	if prev.Shell == nil || !shellEqual(*prev.Shell, sh) {
		prev.Shell = frame.Keep(sh)
	}
	return prev
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

func shellEqual(a, b acpdialect.Shell) bool {
	ea, eb := a.ExitCode, b.ExitCode
	a.ExitCode, b.ExitCode = nil, nil
	if a != b {
		return false
	}
	if ea == nil || eb == nil {
		return ea == eb
	}
	return *ea == *eb
}
