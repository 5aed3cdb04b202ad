package acpdialect

import "bytes"

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
}

// fastUpdateKind reads a session/update frame in the SDKs' layout; ok is
// false for every other frame.
func fastUpdateKind(frame []byte) (f fastUpdate, ok bool) {
	if !bytes.HasPrefix(frame, []byte(fastPrefix)) {
		return f, false
	}
	rest := frame[len(fastPrefix):]
	f.sid, ok = plainString(rest)
	if !ok || len(f.sid) == 0 {
		return f, false
	}
	rest = rest[len(f.sid):]
	if !bytes.HasPrefix(rest, []byte(fastMid)) {
		return f, false
	}
	// The update object starts at the brace before "sessionUpdate".
	f.update = rest[len(fastMid)-len(`{"sessionUpdate":"`):]
	f.kind, ok = plainString(rest[len(fastMid):])
	return f, ok
}

// plainString returns the bytes up to the closing quote of a JSON string
// whose opening quote was already consumed; ok is false if the string has
// an escape (it may hide a quote) or does not end.
func plainString(b []byte) ([]byte, bool) {
	q := bytes.IndexByte(b, '"')
	if q < 0 || bytes.IndexByte(b[:q], '\\') >= 0 {
		return nil, false
	}
	return b[:q], true
}

// wantsUpdate reports whether a session/update kind needs more than a pass:
// tool calls are merged for every agent.
func (c *Conn) wantsUpdate(kind string) bool {
	switch kind {
	case "tool_call", "tool_call_update":
		return true
	}
	return false
}
