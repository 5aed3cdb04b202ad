package acpdialect

import (
	"encoding/base64"
	"strings"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// ACP v2 moves a command's terminal out of the tool call: the agent owns
// the terminal and reports it with its own updates, terminal_update (an
// upsert: command, cwd, output as a whole base64 snapshot, exitStatus,
// capabilities) and terminal_output_chunk (base64 bytes to append). A
// tool call shows the terminal as {type: "terminal", terminalId} content.
// claude-agent-acp (dist/v2/terminal.js) and codex-acp (AcpV2SessionUpdate)
// send a v2 client these instead of v1's _meta.terminal_* keys, and both
// name the terminal after its tool call. The Conn reads them on every
// connection into the shell card of the tool call whose id is the
// terminal's: its Shell's command, cwd, output (bounded by
// Options.MaxOutput, the tail kept), exit code and signal, and whether
// the agent lets the client cancel it. The SDKs before v2 do not know the
// kinds (acp-go-sdk v0.13.0 reads them as session_info_update), so they
// are quarantined on every connection.

// The ACP v2 draft's terminal updates.
const (
	UpdateTerminal       = "terminal_update"
	UpdateTerminalOutput = "terminal_output_chunk"
)

// TerminalFields names fields of a terminal_update.
type TerminalFields uint8

// The fields of TerminalUpdate.Set.
const (
	TerminalCommand TerminalFields = 1 << iota
	TerminalCwd
	TerminalExitStatus
)

// terminalKind reports whether an update kind is one of ACP v2's terminal
// updates.
func terminalKind(kind string) bool {
	return kind == UpdateTerminal || kind == UpdateTerminalOutput
}

// TerminalUpdate is what one terminal_update or terminal_output_chunk
// says. Output is decoded; TerminalID, Command, Cwd and Signal view the
// frame.
//
// A terminal_update patches the terminal: a field it leaves out (or sends
// with a value of the wrong type) stays as it was, a null clears it, a
// value replaces it. Set names the fields it sets, to a value or null.
type TerminalUpdate struct {
	TerminalID string
	// Set names the fields of a terminal_update that the update sets (to a
	// value, or clears with null): TerminalCommand and TerminalCwd for a
	// string or null, TerminalExitStatus for an exitStatus object or null.
	// A field it leaves out, or sends with a value of the wrong type, is
	// not in Set. Output, Snapshot and Cancel say for themselves.
	Set     TerminalFields
	Command string // "" when null
	Cwd     string // "" when null
	// Output is the terminal's whole output (a terminal_update's
	// snapshot, which replaces what came before; "" for a null output)
	// when Snapshot, else bytes to append (a chunk).
	Output   string
	Snapshot bool
	// Exited says a concrete exitStatus came: ExitCode (nil when null or
	// absent) and Signal ("" when null or absent) are its values, which
	// replace the terminal's. With Set&TerminalExitStatus and not Exited,
	// the exitStatus was null: the terminal has no exit status.
	Exited   bool
	ExitCode *int64
	Signal   string
	// Cancel is 1 when the update grants capabilities.cancel, -1 when it
	// withdraws it (capabilities null, or without cancel), 0 when it
	// leaves it as it was (no capabilities).
	Cancel int8
}

// ReadTerminalUpdate reads a terminal_update or a terminal_output_chunk
// (kind says which); ok is false when it names no terminal. Of a key that
// appears twice the first counts. Data that is not base64 is no output;
// values of the wrong type are absent.
func ReadTerminalUpdate(update gjson.Result, kind string) (t TerminalUpdate, ok bool) {
	var seen uint16
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch {
		case k == "terminalId" && first(&seen, 1):
			t.TerminalID = r.String()
		case k == "data" && kind == UpdateTerminalOutput && first(&seen, 2):
			t.Output, _ = decode(r.String())
		case kind != UpdateTerminal:
		case k == "command" && first(&seen, 4):
			t.Command = t.patch(r, TerminalCommand)
		case k == "cwd" && first(&seen, 8):
			t.Cwd = t.patch(r, TerminalCwd)
		case k == "output" && first(&seen, 16):
			t.Output, t.Snapshot = snapshot(r)
		case k == "exitStatus" && first(&seen, 32):
			t.readExitStatus(r)
		case k == "capabilities" && first(&seen, 64):
			t.Cancel = readGrant(r)
		}
	})
	return t, t.TerminalID != ""
}

// patch reads a string field of a terminal_update, noting in t.Set that
// it is set when it is a string or null ("").
func (t *TerminalUpdate) patch(r *frame.Reader, f TerminalFields) string {
	switch r.Peek() {
	case '"':
		t.Set |= f
		return r.String()
	case 'n':
		t.Set |= f
	}
	r.Skip()
	return ""
}

// readGrant reads the capabilities of a terminal_update or a tool call:
// 1 when they grant cancel, else -1. Only an object grants it: the draft
// reads anything else, a malformed value too (the subagents draft's
// true, say), as no control, so that a client never cancels what the
// agent did not offer.
func readGrant(r *frame.Reader) int8 {
	var seen uint16
	grant := int8(-1)
	r.Object(func(k string) {
		if k == "cancel" && first(&seen, 1) && r.Peek() == '{' {
			grant = 1
		}
	})
	return grant
}

// snapshot reads terminal_update's output {data}: ok is false for one
// whose data is not a base64 string; a null output is an empty snapshot.
func snapshot(r *frame.Reader) (out string, ok bool) {
	if r.Peek() == 'n' {
		r.Skip()
		return "", true
	}
	var seen uint16
	r.Object(func(k string) {
		if k == "data" && first(&seen, 1) && r.Peek() == '"' {
			out, ok = decode(r.String())
		}
	})
	return out, ok
}

// readExitStatus reads exitStatus: an object {exitCode, signal} marks
// the terminal as exited, null clears its exit status, any other value
// is absent.
func (t *TerminalUpdate) readExitStatus(r *frame.Reader) {
	if r.Peek() == 'n' {
		t.Set |= TerminalExitStatus
		r.Skip()
		return
	}
	var seen uint16
	t.Exited = r.Object(func(k string) {
		switch {
		case k == "exitCode" && first(&seen, 1):
			if n, ok := frame.Int64(r.Value()); ok {
				t.ExitCode = &n
			}
		case k == "signal" && first(&seen, 2):
			t.Signal = r.String()
		}
	})
	if t.Exited {
		t.Set |= TerminalExitStatus
	}
}

// decode returns base64 data as the bytes it stands for.
func decode(data string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// terminalUpdate applies a terminal update to the card of the tool call
// named after its terminal, making a card that waits, hidden, for its
// tool call when there is none yet (codex-acp sends the terminal first).
// A card of another kind than shell or generic is left alone.
func (c *Conn) terminalUpdate(sid string, h *Update, u gjson.Result, kind string) []Event {
	s := c.updateSession(sid)
	t, ok := ReadTerminalUpdate(u, kind)
	if s == nil || !ok {
		c.stats.Malformed++
		return nil
	}
	var out []Event
	k := correlate.Key{Session: s.id, ID: t.TerminalID}
	st := c.tools.Get(k)
	if st == nil {
		k.ID = strings.Clone(k.ID)
		st = c.tools.Put(k, toolState{id: k.ID, epoch: c.turnEpoch(s), payload: Payload{Kind: KindGeneric,
			ParentToolCallID: s.parent.ID}})
	}
	k.ID = st.id // the card's own copy: the frame is only borrowed
	if old := st.payload; old.Kind == KindGeneric || old.Kind == KindShell {
		next := old
		next.Kind, next.Generic = KindShell, nil
		next.Shell = foldTerminal(old.Shell, t)
		st.set(c.bound(next))
		c.tools.Changed(k)
		next = st.payload
		switch {
		case !st.surfaced && next.Shell != nil && next.Shell.Cancellable:
			// A command the client may stop is one it must see, with or
			// without its tool call: a resumed session's running command
			// comes back as a terminal_update alone (claude-agent-acp,
			// dist/v2/background.js, currentItems).
			st.surfaced = true
			out = c.toolEvent(EventToolCall, k, next)
		case st.surfaced && !next.Equal(old):
			out = c.toolEvent(EventToolCallUpdate, k, next)
		}
	}
	if h != nil {
		out = append(out, c.vendorUpdate(sid, h, u)...)
	}
	return out
}

// foldTerminal returns sh with what t says, a new Shell (sh is shared
// with events handed out); sh when nothing changed.
func foldTerminal(sh *Shell, t TerminalUpdate) *Shell {
	var n Shell
	if sh != nil {
		n = *sh
	}
	setClone(&n.TerminalID, t.TerminalID)
	if t.Set&TerminalCommand != 0 && t.Command != "" && t.Set&TerminalExitStatus == 0 && (n.ExitCode != nil || n.Signal != "") {
		// A command for a terminal that has exited starts a new run
		// under its id (an agent that reuses a tool call id, and so its
		// terminal's, in a later turn, even for the same command): the
		// old run's output and exit go, so that they are not shown as the
		// new run's, and a grant to cancel the new run holds. An update
		// that states an exit too is a state sent again whole, or a run
		// reported at its end, and keeps what it does not replace.
		n.Output, n.OutputTruncated, n.ExitCode, n.Signal = "", false, nil, ""
	}
	if t.Set&TerminalCommand != 0 {
		setClone(&n.Command, t.Command)
	}
	if t.Set&TerminalCwd != 0 {
		setClone(&n.Cwd, t.Cwd)
	}
	switch {
	case t.Snapshot:
		n.Output, n.OutputTruncated = t.Output, false
	case t.Output != "":
		n.Output += t.Output
	}
	if t.Set&TerminalExitStatus != 0 {
		n.ExitCode = sameCode(n.ExitCode, t.ExitCode)
		setClone(&n.Signal, t.Signal)
	}
	if t.Cancel != 0 || t.Exited {
		// An exited terminal, this update's or one whose exit code or
		// signal is known, cannot be cancelled (the draft answers
		// terminal/cancel with -32602), whatever a grant says. (An exit
		// with neither, {}, leaves no trace for a later grant to meet.)
		exited := t.Exited || n.ExitCode != nil || n.Signal != ""
		n.Cancellable = t.Cancel > 0 && !exited
	}
	if sh != nil && sh.equal(&n) {
		return sh
	}
	return &n
}

// setClone sets *dst to a copy of v when v differs.
func setClone(dst *string, v string) {
	if v != *dst {
		*dst = strings.Clone(v)
	}
}

// sameCode returns code as a pointer of its own, cur when it holds the
// same value.
func sameCode(cur, code *int64) *int64 {
	switch {
	case code == nil:
		return nil
	case cur != nil && *cur == *code:
		return cur
	}
	n := *code
	return &n
}
