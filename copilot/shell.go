package copilot

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/terminal"
	"github.com/tidwall/gjson"
)

// ShellExit is the type of the rawOutput.contents entry that ends a
// command: {type, shellId, exitCode, cwd, outputPreview}.
const ShellExit = "shell_exit"

// ToolCall makes Copilot CLI's shell tool call a shell card (shellCard)
// and its task tool call a subagent_task card (taskCard). Other tool
// calls are left as they are.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	if prev.Kind == acpdialect.KindSubagentTask || isTask(u, prev) {
		return taskCard(u, prev)
	}
	return shellCard(u, prev)
}

// shellCard makes Copilot CLI's shell tool call a shell card: an ACP
// execute call whose rawInput has a command (or, for an update of a call
// never announced, whose rawOutput.contents has a shell_exit entry). The
// command is rawInput.command; the output is the call's text content,
// which Copilot resends whole on every update (else rawOutput.content),
// without the "<shellId: N completed with exit code M>" line Copilot adds
// at the end; the working directory and the exit code are the shell_exit
// entry's. A non-zero exit code fails the call, whose status Copilot
// reports as completed (a cancelled call stays cancelled). Other tool
// calls are left as they are. The shell object is copied before a change.
func shellCard(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	if prev.Kind != acpdialect.KindShell {
		if prev.Kind != acpdialect.KindGeneric && prev.Kind != "" {
			return prev
		}
		kind := frame.View(u.ACPKind)
		if kind == "" && prev.Generic != nil {
			kind = prev.Generic.ACPKind
		}
		if kind != "execute" {
			return prev
		}
	}
	command := frame.View(frame.Get(u.RawInput, "command"))
	exit, exited := readExit(u.RawOutput)
	if prev.Kind != acpdialect.KindShell && command == "" && !exited {
		return prev // an execute call that is not Copilot's shell
	}
	var n acpdialect.Shell
	if prev.Shell != nil {
		n = *prev.Shell
	}
	if command != "" && command != n.Command {
		n.Command = strings.Clone(command)
	}
	if out, ok := shellOutput(u); ok && out != n.Output {
		n.Output, n.OutputTruncated = terminal.Bounded(out)
	}
	if exited {
		if exit.cwd != "" && exit.cwd != n.Cwd {
			n.Cwd = strings.Clone(exit.cwd)
		}
		if exit.hasCode && (n.ExitCode == nil || *n.ExitCode != exit.code) {
			n.ExitCode = frame.Keep(exit.code)
		}
	}
	prev.Kind = acpdialect.KindShell
	if prev.Shell == nil || !terminal.Same(*prev.Shell, n) {
		prev.Shell = frame.Keep(n)
	}
	prev.Status = terminal.Status(prev.Shell, prev.Status)
	return prev
}

// shellExit is what a shell_exit entry says; its strings view the frame.
type shellExit struct {
	cwd     string
	code    int64
	hasCode bool
}

// readExit reads the first shell_exit entry of rawOutput.contents. ok is
// false when there is none (contents absent or not an array included); an
// exitCode that is not a whole number is absent.
func readExit(rawOutput gjson.Result) (e shellExit, ok bool) {
	contents := frame.Get(rawOutput, "contents")
	if !contents.IsArray() {
		return e, false
	}
	contents.ForEach(func(_, c gjson.Result) bool {
		if frame.View(frame.Get(c, "type")) != ShellExit {
			return true
		}
		ok = true
		frame.Members(c, func(k string, v gjson.Result) bool {
			switch k {
			case "cwd":
				if e.cwd == "" {
					e.cwd = frame.View(v)
				}
			case "exitCode":
				if !e.hasCode {
					e.code, e.hasCode = frame.Int64(v)
				}
			}
			return true
		})
		return false
	})
	return e, ok
}

// shellOutput is the command's output so far: the text of the update's
// content blocks, else a string rawOutput.content, without Copilot's
// closing "<shellId: ...>" line. ok is false when the update has neither.
func shellOutput(u frame.ToolUpdate) (string, bool) {
	var b strings.Builder
	var texts int
	var first string
	if content := frame.Get(u.Raw, "content"); content.IsArray() {
		content.ForEach(func(_, c gjson.Result) bool {
			if frame.View(frame.Get(c, "type")) != "content" {
				return true
			}
			block := frame.Get(c, "content")
			text := frame.Get(block, "text")
			if frame.View(frame.Get(block, "type")) != "text" || text.Type != gjson.String {
				return true
			}
			if texts++; texts == 1 {
				first = text.Str
			} else {
				if texts == 2 {
					b.WriteString(first)
				}
				b.WriteString(text.Str)
			}
			return true
		})
	}
	switch {
	case texts == 1:
		return trimTrailer(first), true
	case texts > 1:
		return trimTrailer(b.String()), true
	}
	if c := frame.Get(u.RawOutput, "content"); c.Type == gjson.String {
		return trimTrailer(c.Str), true
	}
	return "", false
}

// trimTrailer cuts the line Copilot ends a finished command's text with,
// "<shellId: N completed with exit code M>", and nothing else.
func trimTrailer(s string) string {
	i := strings.LastIndex(s, "<shellId: ")
	if i < 0 || !strings.HasSuffix(s, ">") {
		return s
	}
	id, code, ok := strings.Cut(s[i+len("<shellId: "):len(s)-1], " completed with exit code ")
	if !ok || id == "" || strings.ContainsAny(id, " \n>") || !number(code) {
		return s
	}
	return s[:i]
}

// number reports whether s is an integer: digits after an optional minus.
func number(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}
