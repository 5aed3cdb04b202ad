package opencode

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/terminal"
	"github.com/tidwall/gjson"
)

// KindExecute is the ACP kind OpenCode gives its shell tools, bash and
// shell, and no other tool (its toToolKind).
const KindExecute = "execute"

// IsShell reports whether a tool call frame is OpenCode's shell tool on
// a card not yet claimed: its ACP kind, the frame's or else the one the
// card has seen (prev.Generic.ACPKind: the completion carries no kind),
// is "execute", and the card is generic. A card of another kind is not
// taken over.
func IsShell(u frame.ToolUpdate, prev acpdialect.Payload) bool {
	if prev.Kind != acpdialect.KindGeneric && prev.Kind != "" {
		return false
	}
	kind := frame.View(u.ACPKind)
	if kind == "" && prev.Generic != nil {
		kind = prev.Generic.ACPKind
	}
	return kind == KindExecute
}

// ReadShell reads a tool call frame as OpenCode's shell tool: the command
// is rawInput.command; the cwd rawInput.cwd, else rawInput.workdir when it
// is an absolute path (OpenCode adds cwd only when the model named no
// workdir, and sends a workdir as the model wrote it); the output
// rawOutput.metadata.output, the command's own (its last 30,000
// characters), else rawOutput.output, what the model was told, with
// OpenCode's notes (strings; NoOutput is none); the exit
// code rawOutput.metadata.exit when it is a whole number (OpenCode sends
// null for a command it killed). A value of the wrong type is absent, and
// of a key that appears twice the first counts. The strings view the
// frame until terminal.FoldCommand copies what it keeps.
func ReadShell(u frame.ToolUpdate) terminal.Command {
	var c terminal.Command
	var workdir string
	var seen uint8
	frame.Members(u.RawInput, func(k string, v gjson.Result) bool {
		switch {
		case k == "command" && once(&seen, 1):
			c.Command = frame.View(v)
		case k == "cwd" && once(&seen, 2):
			c.Cwd = frame.View(v)
		case k == "workdir" && once(&seen, 4):
			workdir = frame.View(v)
		}
		return true
	})
	if c.Cwd == "" && absPath(workdir) {
		c.Cwd = workdir
	}
	var md, forModel gjson.Result
	seen = 0
	frame.Members(u.RawOutput, func(k string, v gjson.Result) bool {
		switch {
		case k == "output" && once(&seen, 1):
			forModel = v
		case k == "metadata" && once(&seen, 2):
			md = v
		}
		return true
	})
	seen = 0
	frame.Members(md, func(k string, v gjson.Result) bool {
		switch {
		case k == "output" && once(&seen, 1):
			if v.Type == gjson.String {
				c.Output, c.HasOutput = v.Str, true
			}
		case k == "exit" && once(&seen, 2):
			if n, ok := frame.Int64(v); ok {
				c.ExitCode = &n
			}
		}
		return true
	})
	if !c.HasOutput && forModel.Type == gjson.String {
		c.Output, c.HasOutput = forModel.Str, true
	}
	if c.Output == NoOutput {
		c.Output = "" // OpenCode's words for none, not output
	}
	return c
}

// NoOutput is what OpenCode writes, in both rawOutput.output and
// metadata.output, for a command that printed nothing.
const NoOutput = "(no output)"

// absPath reports whether p is an absolute path on any system OpenCode
// runs on: "/..." , a drive's "C:\..." or "C:/...", or a UNC "\\...".
func absPath(p string) bool {
	switch {
	case len(p) > 0 && p[0] == '/':
		return true
	case len(p) > 1 && p[0] == '\\' && p[1] == '\\':
		return true
	case len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'):
		c := p[0] | 0x20
		return 'a' <= c && c <= 'z'
	}
	return false
}

// shellCall makes the card a shell card and merges what the frame says
// (ReadShell) with terminal.FoldCommand, copy-on-write: the command
// replaces the one kept, the cwd and the exit code fill empty ones, and
// the output, bounded to its tail (terminal.Limit; the Conn cuts further
// to Options.MaxOutput), replaces the one kept. A non-zero exit code
// fails the card, which OpenCode reports completed, as every dialect's
// shell card does (terminal.Status; a cancelled call stays cancelled).
func shellCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	prev.Kind = acpdialect.KindShell
	prev.Generic = nil
	sh := terminal.FoldCommand(prev.Shell, ReadShell(u))
	if sh == nil {
		sh = frame.Keep(acpdialect.Shell{}) // a shell card has its object
	}
	prev.Shell = sh
	prev.Status = terminal.Status(sh, prev.Status)
	return prev
}
