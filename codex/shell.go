package codex

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/terminal"
)

// shellCall merges a command execution into a shell card, with package
// terminal: the terminal channel in _meta, the command and cwd in
// rawInput, the result in rawOutput {formatted_output, exit_code}. A
// non-zero exit fails the call. A tool call that is not a command is left
// as it is.
//
// A generic card becomes a shell when its ACP kind is execute, or not
// known (an update for a tool call never announced), and the update has
// terminal metadata or a command's result; on an execute call a command
// in rawInput is enough. The commands Codex parses into a read, a search
// or a listing (ACP kind read or search) stay generic cards: codex-acp
// gives them no terminal.
func shellCall(u frame.ToolUpdate, m Meta, prev acpdialect.Payload) acpdialect.Payload {
	var execute bool
	if prev.Kind != acpdialect.KindShell {
		kind := frame.View(u.ACPKind)
		if kind == "" && prev.Generic != nil {
			kind = prev.Generic.ACPKind
		}
		execute = kind == "execute"
		if !execute && kind != "" {
			return prev
		}
		if !m.Terminal && !u.RawOutput.IsObject() && !(execute && u.RawInput.IsObject()) {
			return prev // nothing to read: spare the parse
		}
	}
	c := terminal.ReadCommand(u.RawInput, u.RawOutput)
	if prev.Kind != acpdialect.KindShell && !m.Terminal && !c.HasOutput && c.ExitCode == nil && !(execute && c.Command != "") {
		return prev
	}
	sh := prev.Shell
	if m.Terminal {
		sh = terminal.FoldChunks(sh, terminal.ReadMeta(u.Meta))
	}
	prev.Kind = acpdialect.KindShell
	prev.Shell = terminal.FoldCommand(sh, c)
	prev.Status = terminal.Status(prev.Shell, prev.Status)
	return prev
}
