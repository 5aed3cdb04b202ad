package acpdialect

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect/internal/scan"
)

var emptyObject = []byte("{}")

// The frames' fixed parts, shared by the append functions and the length
// functions that size a frame before it is written.
const (
	frameHead    = `{"jsonrpc":"2.0","id":`
	resultHead   = `,"result":`
	methodHead   = `,"method":`
	paramsHead   = `,"params":`
	errorHead    = `,"error":{"code":`
	messageHead  = `,"message":`
	dataHead     = `,"data":`
	replyTail    = "}\n"
	errorTail    = "}}\n"
	maxIntLength = 20 // digits of a 64-bit int, and its sign
)

// appendReply appends {"jsonrpc":"2.0","id":<id>,"result":<result>}\n with
// the id bytes exactly as received.
func appendReply(b []byte, id string, result []byte) []byte {
	b = append(b, frameHead...)
	b = append(b, id...)
	b = append(b, resultHead...)
	b = append(b, result...)
	return append(b, replyTail...)
}

// replyLen is the length of appendReply's frame.
func replyLen(id string, result []byte) int {
	return len(frameHead) + len(id) + len(resultHead) + len(result) + len(replyTail)
}

// appendError appends a JSON-RPC error response.
func appendError(b []byte, id string, e RPCError) []byte {
	b = append(b, frameHead...)
	b = append(b, id...)
	b = append(b, errorHead...)
	b = appendInt(b, int64(e.Code))
	b = append(b, messageHead...)
	b = appendJSONString(b, e.Message)
	if d, ok := oneLineString(string(e.Data)); ok {
		b = append(b, dataHead...)
		b = append(b, d...)
	}
	return append(b, errorTail...)
}

// errorLen is the length of appendError's frame.
func errorLen(id string, e RPCError) int {
	n := len(frameHead) + len(id) + len(errorHead) + len(appendInt(make([]byte, 0, maxIntLength), int64(e.Code))) +
		len(messageHead) + jsonStringLen(e.Message) + len(errorTail)
	if d, ok := oneLineString(string(e.Data)); ok {
		n += len(dataHead) + len(d)
	}
	return n
}

// oneLine returns a JSON value a dialect made, fit for a frame of the wire,
// where a frame is one line: as it is when it has no line break, compacted
// when it has (a break in valid JSON is always whitespace). ok is false when
// v is empty, not one JSON value or not valid UTF-8 (which json.Valid does
// not check, but the other side's decoder replaces or rejects): such error
// data is left out, and such a result or params refused (fitReply,
// resultFits, fitParams).
func oneLine(v []byte) (_ []byte, ok bool) {
	s, ok := oneLineString(scan.UnsafeString(v))
	if !ok {
		return nil, false
	}
	if len(s) == len(v) {
		return v, true
	}
	return []byte(s), true
}

// oneLineString is oneLine for a string.
func oneLineString(v string) (_ string, ok bool) {
	if len(v) == 0 || !scan.Valid(v) || !utf8.ValidString(v) {
		return "", false
	}
	if strings.IndexByte(v, '\n') < 0 && strings.IndexByte(v, '\r') < 0 {
		return v, true
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(v)) != nil {
		return "", false
	}
	return b.String(), true
}

// fitReply makes a Method's reply fit the wire: a result that spans lines
// is compacted, and one that is not one JSON value, or not valid UTF-8,
// becomes an internal error (-32603) that says so, where the agent would
// otherwise get a broken frame (json.Valid does not check UTF-8, but the
// agent's decoder replaces or rejects such bytes: the agent would read
// another value than the dialect meant); error data that is not one JSON
// value in valid UTF-8 is left out.
func fitReply(act Action, dialect, method string) Action {
	if act.Error != nil {
		if len(act.Error.Data) > 0 {
			e := *act.Error // the dialect's own, maybe shared: never changed
			d, _ := oneLineString(string(e.Data))
			e.Data = RawJSON(d)
			act.Error = &e
		}
		return act
	}
	if len(act.Result) == 0 {
		return act
	}
	r, ok := oneLine(act.Result)
	switch {
	case !ok && !utf8.Valid(act.Result):
		return refuseResult(act, dialect, method, "is not valid UTF-8")
	case !ok:
		return refuseResult(act, dialect, method, "is not one JSON value")
	}
	act.Result = r
	return act
}

// refuseResult replaces a result the wire cannot carry with the -32603
// error that says why.
func refuseResult(act Action, dialect, method, why string) Action {
	act.Result, act.Await = nil, false
	act.Error = &RPCError{Code: -32603, Message: "acpdialect: the " + dialect + " dialect's result for " + method + " " + why}
	return act
}

// appendRequest appends a JSON-RPC request with the id bytes as received.
func appendRequest(b []byte, id, method string, params []byte) []byte {
	b = append(b, frameHead...)
	b = append(b, id...)
	b = append(b, methodHead...)
	b = appendJSONString(b, method)
	if len(params) > 0 {
		b = append(b, paramsHead...)
		b = append(b, params...)
	}
	return append(b, replyTail...)
}

// requestLen is the length of appendRequest's frame.
func requestLen(id, method string, params []byte) int {
	n := len(frameHead) + len(id) + len(methodHead) + jsonStringLen(method) + len(replyTail)
	if len(params) > 0 {
		n += len(paramsHead) + len(params)
	}
	return n
}

func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

// appendJSONString appends s as a JSON string. Messages are ours and plain,
// but escape the characters JSON requires anyway; a byte that is not UTF-8
// (a dialect's message may quote what it read) is written \ufffd, as
// encoding/json writes it, so that the frame is valid UTF-8 and both sides
// read the same text.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '"' || ch == '\\':
			b = append(b, '\\', ch)
		case ch < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[ch>>4], hex[ch&0xf])
		case ch < utf8.RuneSelf:
			b = append(b, ch)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n - 1
		}
	}
	return append(b, '"')
}

// jsonStringLen is the length of appendJSONString's string.
func jsonStringLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '"' || ch == '\\':
			n++
		case ch < 0x20:
			n += 5
		case ch >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				n += len(`\ufffd`) - 1
			}
			i += size - 1
		}
	}
	return n
}
