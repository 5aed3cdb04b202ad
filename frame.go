package acpdialect

import (
	"encoding/json"
	"math"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// unsafeString views b as a string without copying. The string must not
// outlive the call that received b: anything kept is strings.Clone'd.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

var emptyObject = []byte("{}")

// appendReply appends {"jsonrpc":"2.0","id":<id>,"result":<result>}\n with
// the id bytes exactly as received.
func appendReply(b []byte, id string, result []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, "}\n"...)
}

// appendError appends a JSON-RPC error response.
func appendError(b []byte, id string, e RPCError) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"error":{"code":`...)
	b = appendInt(b, int64(e.Code))
	b = append(b, `,"message":`...)
	b = appendJSONString(b, e.Message)
	return append(b, "}}\n"...)
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
// but escape the characters JSON requires anyway.
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
		default:
			b = append(b, ch)
		}
	}
	return append(b, '"')
}

// Str returns r as a string when it is a JSON string, else "". Wrong types
// are treated as absent, never coerced. The string is a copy: frames are
// only borrowed, and hooks' results are kept.
func Str(r gjson.Result) string {
	if r.Type != gjson.String {
		return ""
	}
	return strings.Clone(r.Str)
}

// Int64 returns r as an integer when it is a JSON number holding a whole
// value that fits an int64; ok is false for anything else (a string, a
// fraction, NaN, out of range).
func Int64(r gjson.Result) (int64, bool) {
	if r.Type != gjson.Number {
		return 0, false
	}
	f := r.Num
	if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}

// Set copies r into *dst when r is a non-empty JSON string that differs:
// a later empty or wrong-typed value never blanks a field, and an unchanged
// one costs no copy.
func Set(dst *string, r gjson.Result) {
	if r.Type == gjson.String && r.Str != "" && r.Str != *dst {
		*dst = strings.Clone(r.Str)
	}
}

// Own replaces each string that views a borrowed frame with a copy, all
// copies sharing one allocation. A parser reads its fields as views (View)
// and calls Own once for the ones it keeps.
func Own(fields ...*string) {
	n := 0
	for _, f := range fields {
		n += len(*f)
	}
	if n == 0 {
		return
	}
	buf := make([]byte, 0, n)
	for _, f := range fields {
		buf = append(buf, *f...)
	}
	all := unsafe.String(unsafe.SliceData(buf), n)
	for _, f := range fields {
		l := len(*f)
		*f, all = all[:l], all[l:]
	}
}

// View returns r as a string when it is a JSON string, else "", like Str,
// but without copying: the result views the frame until Own'd.
func View(r gjson.Result) string {
	if r.Type != gjson.String {
		return ""
	}
	return r.Str
}

// validID reports whether s (a view of a frame) is one valid JSON value.
// Plain integers (no leading zero), the ids SDKs send, skip the full check.
func validID(s string) bool {
	plain := len(s) > 0 && len(s) < 19 && (s[0] != '0' || len(s) == 1)
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= '0' && s[i] <= '9'
	}
	return plain || json.Valid(unsafe.Slice(unsafe.StringData(s), len(s)))
}
