package terminal

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Command is what a command's tool call says outside _meta, in the keys
// codex-acp uses: rawInput {command, cwd} on the tool call, rawOutput
// {formatted_output, exit_code} on its last update. The legacy Rust
// adapter's rawInput and rawOutput are Codex's whole ExecCommandBegin and
// ExecCommandEnd events: the command is an argument vector, and the
// output also comes unformatted, as aggregated_output. Strings view the
// frame until FoldCommand copies what it keeps.
type Command struct {
	Command string
	Cwd     string
	// Output is the command's whole output, when HasOutput.
	Output    string
	HasOutput bool
	// ExitCode is rawOutput.exit_code; nil when null or absent.
	ExitCode *int64
}

// Empty reports whether c says nothing about a command.
func (c Command) Empty() bool {
	return c.Command == "" && c.Cwd == "" && !c.HasOutput && c.ExitCode == nil
}

// ReadCommand reads a tool call update's rawInput and rawOutput in one
// pass each. rawInput.command is a string, or an argument vector (strings
// only), joined by spaces with each argument quoted where a POSIX shell
// needs it. The output is rawOutput.aggregated_output, else
// formatted_output. A value of the wrong type is absent, and of a key that
// appears twice the first counts.
func ReadCommand(rawInput, rawOutput gjson.Result) Command {
	var c Command
	var seen uint8
	r := frame.NewReader(rawInput)
	r.Object(func(k string) {
		switch {
		case k == "command" && once(&seen, 1):
			c.Command = readArgv(r)
		case k == "cwd" && once(&seen, 2):
			c.Cwd = r.String()
		}
	})
	var formatted string
	var hasFormatted bool
	seen = 0
	r = frame.NewReader(rawOutput)
	r.Object(func(k string) {
		switch {
		case k == "aggregated_output" && once(&seen, 1):
			if r.Peek() == '"' {
				c.Output, c.HasOutput = r.String(), true
			}
		case k == "formatted_output" && once(&seen, 2):
			if r.Peek() == '"' {
				formatted, hasFormatted = r.String(), true
			}
		case k == "exit_code" && once(&seen, 4):
			if n, ok := frame.Int64(r.Value()); ok {
				c.ExitCode = &n
			}
		}
	})
	if !c.HasOutput {
		c.Output, c.HasOutput = formatted, hasFormatted
	}
	return c
}

// readArgv reads a command: a string as is, an array of strings as a
// shell would read it back; anything else is "".
func readArgv(r *frame.Reader) string {
	switch r.Peek() {
	case '"':
		return r.String()
	case '[':
	default:
		r.Skip()
		return ""
	}
	var b strings.Builder
	ok := true
	r.Array(func() {
		if r.Peek() != '"' {
			ok = false
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		quote(&b, r.String())
	})
	if !ok {
		return ""
	}
	return b.String()
}

// quote writes arg as a POSIX shell reads it back: as is when it has only
// characters no shell treats specially, else in single quotes.
func quote(b *strings.Builder, arg string) {
	if arg != "" && strings.IndexFunc(arg, special) < 0 {
		b.WriteString(arg)
		return
	}
	b.WriteByte('\'')
	b.WriteString(strings.ReplaceAll(arg, `'`, `'\''`))
	b.WriteByte('\'')
}

func special(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return false
	}
	return !strings.ContainsRune("@%+=:,./_-", r)
}

// FoldCommand merges c into sh (nil when the card has no shell yet) as
// Fold merges the terminal metadata, copy-on-write: the command replaces
// the one kept; the cwd and the exit code fill empty ones (terminal_info's
// and terminal_exit's come first). The output is the whole output: it
// replaces the kept one when there is none, when it starts with it, or
// when the kept one was cut; otherwise what the terminal channel streamed
// stays (an adapter's formatted result may differ from what it streamed).
func FoldCommand(sh *acpdialect.Shell, c Command) *acpdialect.Shell {
	if c.Empty() {
		return sh
	}
	var n acpdialect.Shell
	if sh != nil {
		n = *sh
	}
	setOwned(&n.Command, c.Command)
	if n.Cwd == "" {
		setOwned(&n.Cwd, c.Cwd)
	}
	if c.HasOutput && c.Output != n.Output && (n.OutputTruncated || strings.HasPrefix(c.Output, n.Output)) {
		n.Output, n.OutputTruncated = Bounded(c.Output)
	}
	if c.ExitCode != nil && n.ExitCode == nil {
		code := *c.ExitCode
		n.ExitCode = &code
	}
	if sh != nil && Same(*sh, n) {
		return sh
	}
	return frame.Keep(n)
}

// Status returns the status of a shell's tool call given the one the
// agent reported: failed once the command exited with a non-zero code
// (a cancelled call stays cancelled), else status as it is.
func Status(sh *acpdialect.Shell, status string) string {
	if sh != nil && sh.ExitCode != nil && *sh.ExitCode != 0 && status != acpdialect.StatusCancelled {
		return acpdialect.StatusFailed
	}
	return status
}
