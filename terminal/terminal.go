// Package terminal folds the terminal metadata ACP agents put on a shell
// tool call's updates into an acpdialect.Shell payload, for the dialects
// of the agents that send it (Claude's and Codex's adapters send the same
// keys).
//
// A client that declares clientCapabilities._meta.terminal_output gets,
// in the tool call's _meta:
//
//   - terminal_info {terminal_id, cwd?}: the terminal, on the tool_call;
//   - terminal_output {terminal_id, data}, or a bare string: output for
//     the terminal. Claude's adapter sends the whole output ([Fold]: data
//     that starts with the output kept so far is the whole output and
//     replaces it; other data is appended); codex-acp sends each chunk as
//     it comes ([FoldChunks]: always appended);
//   - terminal_output_delta {terminal_id, data}: output to append;
//   - terminal_exit {terminal_id, exit_code, signal}: the command ended.
//
// Outside _meta, codex-acp puts the command and its cwd in rawInput and
// its result in rawOutput {formatted_output, exit_code}, with or without
// the channel: [ReadCommand] reads them, [FoldCommand] merges them. A
// non-zero exit fails the tool call: [Status].
//
// The functions are pure: [ReadMeta] reads one update's keys, [Fold] merges
// them into the card's shell copy-on-write. Output is bounded: past
// [Limit] bytes the tail is kept and Shell.OutputTruncated says so; the
// Conn then keeps acpdialect.Options.MaxOutput (64 KiB by default) of it.
// A value of the wrong type is absent, never an error.
//
// ACP v2 replaces these keys with the agent-owned terminal's own updates
// (terminal_update, terminal_output_chunk), which the Conn reads on every
// connection into the same Shell (acpdialect.ReadTerminalUpdate): a
// dialect needs nothing from this package for them.
package terminal

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Limit is the most output Fold keeps, in bytes: a hook's own bound,
// above which an agent's flood never grows a card. The Conn cuts further
// to acpdialect.Options.MaxOutput.
const Limit = 1 << 20

// Meta is what one update's _meta says about its terminal. Strings view
// the frame until Fold copies what it keeps.
type Meta struct {
	TerminalID string
	Cwd        string
	// Output is terminal_output's data (the whole output so far, or the
	// next chunk of it), when HasOutput.
	Output    string
	HasOutput bool
	// Delta is terminal_output_delta's data (to append).
	Delta string
	// Exited says terminal_exit came: ExitCode (nil when null or absent)
	// and Signal ("" when null) are its values.
	Exited   bool
	ExitCode *int64
	Signal   string
}

// Empty reports whether m says nothing about a terminal.
func (m Meta) Empty() bool {
	return m.TerminalID == "" && m.Cwd == "" && !m.HasOutput && m.Delta == "" && !m.Exited
}

// MetaReads are the _meta key paths ReadMeta reads, for a dialect's
// Dialect.Reads (what acpdialect audit marks read).
func MetaReads() []string {
	return []string{
		"_meta.terminal_info.terminal_id", "_meta.terminal_info.cwd",
		"_meta.terminal_output.terminal_id", "_meta.terminal_output.data",
		"_meta.terminal_output_delta.terminal_id", "_meta.terminal_output_delta.data",
		"_meta.terminal_exit.terminal_id", "_meta.terminal_exit.exit_code", "_meta.terminal_exit.code",
		"_meta.terminal_exit.signal",
	}
}

// ReadMeta reads the terminal keys of a tool call update's _meta in one
// pass. Of a key that appears twice the first counts.
func ReadMeta(meta gjson.Result) Meta {
	var m Meta
	var seen uint8
	r := frame.NewReader(meta)
	r.Object(func(k string) {
		switch {
		case k == "terminal_info" && once(&seen, 1):
			readInfo(r, &m)
		case k == "terminal_output" && once(&seen, 2):
			m.Output, m.HasOutput = readData(r, &m)
		case k == "terminal_output_delta" && once(&seen, 4):
			m.Delta, _ = readData(r, &m)
		case k == "terminal_exit" && once(&seen, 8):
			readExit(r, &m)
		}
	})
	return m
}

func readInfo(r *frame.Reader, m *Meta) {
	r.Object(func(k string) {
		switch k {
		case "terminal_id":
			fill(&m.TerminalID, r.String())
		case "cwd":
			fill(&m.Cwd, r.String())
		}
	})
}

// readData reads {terminal_id, data} or a bare string; ok is false for
// anything else.
func readData(r *frame.Reader, m *Meta) (data string, ok bool) {
	if r.Peek() == '"' {
		return r.String(), true
	}
	r.Object(func(k string) {
		switch k {
		case "terminal_id":
			fill(&m.TerminalID, r.String())
		case "data":
			if r.Peek() == '"' {
				data, ok = r.String(), true
			}
		}
	})
	return data, ok
}

func readExit(r *frame.Reader, m *Meta) {
	m.Exited = r.Object(func(k string) {
		switch k {
		case "terminal_id":
			fill(&m.TerminalID, r.String())
		case "exit_code", "code":
			if n, ok := frame.Int64(r.Value()); ok && m.ExitCode == nil {
				m.ExitCode = &n
			}
		case "signal":
			fill(&m.Signal, r.String())
		}
	})
}

// fill sets *dst to v unless it is set already or v is empty.
func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// once reports whether bit is new in *seen, and sets it.
func once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// Fold merges m into sh (nil when the card has no shell yet) and returns
// the next shell: sh itself when nothing changed, else a new object (sh is
// never modified: events already handed out share it). terminal_output's
// data replaces the output when it starts with it (the whole output
// again, longer) and is appended otherwise (the next chunk);
// terminal_output_delta's is appended. The output keeps at most Limit
// bytes, its tail.
func Fold(sh *acpdialect.Shell, m Meta) *acpdialect.Shell { return fold(sh, m, false) }

// FoldChunks is Fold for an adapter that sends terminal_output chunk by
// chunk (codex-acp): its data is always appended, even when it repeats
// the output so far (a command that prints the same line twice).
func FoldChunks(sh *acpdialect.Shell, m Meta) *acpdialect.Shell { return fold(sh, m, true) }

func fold(sh *acpdialect.Shell, m Meta, chunks bool) *acpdialect.Shell {
	var n acpdialect.Shell
	if sh != nil {
		n = *sh
	}
	setOwned(&n.TerminalID, m.TerminalID)
	setOwned(&n.Cwd, m.Cwd)
	switch {
	case m.HasOutput && chunks:
		appendOutput(&n, m.Output)
	case m.HasOutput && m.Output == n.Output:
	case m.HasOutput && strings.HasPrefix(m.Output, n.Output):
		n.Output, n.OutputTruncated = Bounded(m.Output)
	case m.HasOutput:
		appendOutput(&n, m.Output)
	case m.Delta != "":
		appendOutput(&n, m.Delta)
	}
	if m.Exited {
		if m.ExitCode != nil && (n.ExitCode == nil || *n.ExitCode != *m.ExitCode) {
			code := *m.ExitCode
			n.ExitCode = &code
		}
		setOwned(&n.Signal, m.Signal)
	}
	if sh != nil && Same(*sh, n) {
		return sh
	}
	return frame.Keep(n)
}

// appendOutput appends data to n's output, keeping its tail. Once the
// kept output was cut, the whole output sent again no longer starts with
// it and is appended too: it is longer than the bound that cut it, so the
// tail kept is its own.
func appendOutput(n *acpdialect.Shell, data string) {
	out, cut := Bounded(n.Output + data)
	n.Output, n.OutputTruncated = out, n.OutputTruncated || cut
}

// setOwned copies v into *dst when it is new and not empty.
func setOwned(dst *string, v string) {
	if v != "" && v != *dst {
		*dst = strings.Clone(v)
	}
}

// Bounded returns s as a string of its own, its tail past Limit bytes
// (from a rune boundary), and whether it was cut: how a dialect keeps a
// command's output that it reads itself.
func Bounded(s string) (string, bool) {
	return strings.Clone(frame.TailView(s, Limit)), len(s) > Limit
}

// Same reports whether two shells say the same, their exit codes compared
// by value: a dialect keeps the card's shell object when nothing changed.
func Same(a, b acpdialect.Shell) bool {
	if (a.ExitCode == nil) != (b.ExitCode == nil) || (a.ExitCode != nil && *a.ExitCode != *b.ExitCode) {
		return false
	}
	a.ExitCode, b.ExitCode = nil, nil
	return a == b
}
