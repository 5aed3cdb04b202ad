package acpdialect

import (
	"bytes"

	"github.com/acpdialect/acpdialect/internal/scan"
)

// The ACP SDKs (TypeScript, Go, Rust) write a session/update notification
// with its keys in one order:
//
//	{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"…","update":{"sessionUpdate":"<kind>",…
//
// Most frames on a connection are such updates of kinds no dialect cares
// about (message and thought chunks), so reading the kind at these fixed
// offsets lets them pass at the cost of two comparisons and two byte
// searches, with no JSON scan. Any other layout, or an escaped value, takes
// the gjson path, which reads the same first occurrences and so agrees.
const (
	fastPrefix = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"`
	fastMid    = `","update":{"sessionUpdate":"`
)

// fastUpdate is what fastUpdateKind reads of an SDK-layout frame.
type fastUpdate struct {
	sid    []byte // the session id, unescaped
	kind   []byte // the update kind
	update []byte // the frame from the update object's opening brace on
	end    int    // the offset just past the kind's closing quote
}

// fastUpdateKind reads a session/update frame in the SDKs' layout; ok is
// false for every other frame.
func fastUpdateKind(frame []byte) (f fastUpdate, ok bool) {
	if !bytes.HasPrefix(frame, []byte(fastPrefix)) {
		return f, false
	}
	i := len(fastPrefix)
	f.sid, ok = plainString(frame[i:])
	if !ok || len(f.sid) == 0 {
		return f, false
	}
	i += len(f.sid)
	if !bytes.HasPrefix(frame[i:], []byte(fastMid)) {
		return f, false
	}
	// The update object starts at the brace before "sessionUpdate".
	f.update = frame[i+len(fastMid)-len(`{"sessionUpdate":"`):]
	i += len(fastMid)
	f.kind, ok = plainString(frame[i:])
	f.end = i + len(f.kind) + 1
	return f, ok
}

// sortedUpdate reads a session/update frame whose update does not start
// with its kind, as claude-agent-acp writes every frame (keys sorted):
//
//	{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"…","update":{"_meta":…
//
// It returns the session id (unescaped), params and the frame from the
// update's value on. These are the first occurrences scan.MemberTail and
// scan.Member read, so the frame is handled as the walk would handle it,
// without walking to the update twice.
func sortedUpdate(frame []byte) (sid, params, update []byte, ok bool) {
	if !bytes.HasPrefix(frame, []byte(fastPrefix)) {
		return nil, nil, nil, false
	}
	i := len(fastPrefix)
	sid, ok = plainString(frame[i:])
	if !ok {
		return nil, nil, nil, false
	}
	i += len(sid)
	if !bytes.HasPrefix(frame[i:], []byte(sortedMid+"{")) {
		// Space before the update (valid JSON, but not as the sorted
		// writers write it) takes the general path: the update must start
		// where its value does, for its checked walk to end where the
		// update ends.
		return nil, nil, nil, false
	}
	return sid, frame[len(fastParams):], frame[i+len(sortedMid):], true
}

const sortedMid = `","update":`

// closesUpdate reports whether a frame read by fastUpdateKind or
// sortedUpdate, whose update was checked by the walk that read it (up to
// end), is valid JSON without checking the rest: its prefix is fixed
// JSON, valid when the session id has no control character (the readers
// took no quote or backslash), and what follows the update only closes
// params and the frame, the usual case. false means the rest must be
// checked (scan.ValidExcept), not that it is invalid.
func closesUpdate(frame, sid string, end int) bool {
	for i := 0; i < len(sid); i++ {
		if sid[i] < ' ' {
			return false
		}
	}
	return scan.Closes(frame, end, 2)
}

// plainString returns the bytes up to the closing quote of a JSON string
// whose opening quote was already consumed; ok is false if the string has
// an escape (it may hide a quote) or does not end.
func plainString(b []byte) ([]byte, bool) {
	// One scan finds the quote and sees any backslash: ids and kinds are
	// short, and two searches would each cost a call.
	end, escaped := scan.ScanString(scan.UnsafeString(b), 0)
	if escaped || end < 1 || end > len(b) || b[end-1] != '"' {
		return nil, false
	}
	return b[:end-1], true
}

// wantsUpdate reports whether a session/update kind needs more than a pass:
// tool calls, slash commands and the subagents RFD's kinds for every agent,
// and the dialect's own kinds.
func (c *Conn) wantsUpdate(kind string) bool {
	return wants(kind, c.d.update(kind))
}

// wants is wantsUpdate for a kind whose handler h (or nil) was looked up.
func wants(kind string, h *Update) bool {
	switch kind {
	case "tool_call", "tool_call_update", "available_commands_update", UpdateSubagent, UpdateSessionMessage, UpdateState,
		UpdateTerminal, UpdateTerminalOutput:
		return true
	}
	return h != nil
}

// quarantines reports whether a session/update kind, whose handler h (or
// nil) was looked up, is one the SDKs do not know: a dialect's own kind
// (its entry decides), or a draft kind every connection reads, such as
// ACP v2's state_update and terminal updates, which an SDK before v2
// misreads as a session_info_update.
func quarantines(kind string, h *Update) bool {
	if kind == UpdateState || terminalKind(kind) {
		return true
	}
	if h != nil {
		return !h.Standard
	}
	return draftKind(kind)
}

// skipCache remembers the exact leading bytes (through the kind's closing
// quote) of recent SDK-layout updates that needed nothing: a stream of
// chunks repeats the same session id and kind, so one prefix compare then
// decides a frame. fastUpdateKind reads only those bytes, so a frame that
// starts with them parses the same way.
type skipCache struct {
	prefix [4][]byte
	next   int
}

// hit reports whether frame starts with a remembered prefix.
func (sc *skipCache) hit(frame []byte) bool {
	for _, p := range sc.prefix {
		// The kind's last letter (before the quote) rejects most misses
		// without comparing the whole prefix.
		n := len(p)
		if n > 1 && len(frame) >= n && frame[n-2] == p[n-2] && bytes.Equal(frame[:n], p) {
			return true
		}
	}
	return false
}

// add remembers frame[:end], reusing the slot's buffer.
func (sc *skipCache) add(frame []byte, end int) {
	if end > len(frame) || end > 512 {
		return
	}
	sc.prefix[sc.next] = append(sc.prefix[sc.next][:0], frame[:end]...)
	sc.next = (sc.next + 1) % len(sc.prefix)
}
