// Package scan is the structural JSON scanner under the frame readers and
// the Conn's hot path. It is internal: dialect authors read frames with
// the public package frame, which is built on it.
package scan

import (
	"encoding/json"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// A small structural scanner for the wire path. Most of a frame's bytes are
// string contents (message text, tool output) that the Conn never reads;
// skipping a string with a byte search for its closing quote is an order of
// magnitude faster than walking it byte by byte, as gjson does. The scanner
// is lenient like gjson: on broken JSON it stops early, never panics and
// never loops. Values it hands out are converted to gjson.Result for the
// hooks, which read small objects with Get.

// SkipString returns the index just past the closing quote of the string
// whose contents start at s[i], or len(s) if it does not close.
func SkipString(s string, i int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '"')
		if j < 0 {
			return len(s)
		}
		i += j
		// The quote is escaped if an odd number of backslashes precede it.
		// Each backslash run is counted once, so this stays linear.
		n := 0
		for k := i - 1; k >= 0 && s[k] == '\\'; k-- {
			n++
		}
		i++
		if n%2 == 0 {
			return i
		}
	}
	return len(s)
}

// ScanString is skipString that also reports whether the string has an
// escape. Keys and most values the parsers read are short: a byte loop
// finds the quote (and sees any backslash) in one pass, where two
// vectorized searches would each cost a call; a long string falls back to
// them.
func ScanString(s string, i int) (end int, escaped bool) {
	for stop := min(i+32, len(s)); i < stop; i++ {
		switch s[i] {
		case '"':
			return i + 1, false
		case '\\':
			return SkipString(s, i), true
		}
	}
	end = SkipString(s, i)
	return end, strings.IndexByte(s[i:end], '\\') >= 0
}

// SkipValue returns the index just past the JSON value starting at s[i].
func SkipValue(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	switch s[i] {
	case '"':
		return SkipString(s, i+1)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = SkipString(s, i+1)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(s)
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return len(s)
}

// SkipSpace returns the index of the first byte at or after s[i] that is
// not JSON whitespace, or len(s). Most bytes are above ' ': one compare
// rejects them.
func SkipSpace(s string, i int) int {
	for i < len(s) && s[i] <= ' ' && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// Members calls fn with the key and raw value of each member of the JSON
// object at the start of obj, in order, until fn returns false. It stops at
// the object's closing brace, so obj may run on past it (a frame's tail),
// and returns the index just past that brace, or -1 if it stopped early
// (fn said so, or the object is broken).
func Members(obj string, fn func(key, raw string) bool) int {
	end, _ := Walk(obj, "", fn)
	return end
}

// Member returns the raw value of the first member named key, or "".
func Member(obj, key string) string {
	var out string
	Members(obj, func(k, raw string) bool {
		if k == key {
			out = raw
			return false
		}
		return true
	})
	return out
}

// MemberTail returns obj from the start of the first member named key's
// value on, without scanning the value: a view for a reader that stops at
// the value's end itself (members, ReadToolUpdate). "" if there is none.
func MemberTail(obj, key string) string {
	_, tail := Walk(obj, key, func(string, string) bool { return true })
	return tail
}

// Walk is members, except that it stops at the first member named stop (if
// stop is not "") and returns obj from that member's value on.
func Walk(obj, stop string, fn func(key, raw string) bool) (end int, tail string) {
	i := SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return -1, ""
	}
	i = SkipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return i + 1, ""
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return -1, ""
		}
		kend, escaped := ScanString(obj, i+1)
		if kend-i < 2 || obj[kend-1] != '"' {
			return -1, ""
		}
		key := obj[i+1 : kend-1]
		if escaped {
			key = gjson.Parse(obj[i:kend]).Str // escaped keys are rare
		}
		i = SkipSpace(obj, kend)
		if i >= len(obj) || obj[i] != ':' {
			return -1, ""
		}
		i = SkipSpace(obj, i+1)
		if stop != "" && key == stop {
			return -1, obj[i:]
		}
		vend := SkipValue(obj, i)
		if vend <= i || !fn(key, obj[i:vend]) {
			return -1, ""
		}
		i = SkipSpace(obj, vend)
		if i >= len(obj) {
			return -1, ""
		}
		switch obj[i] {
		case '}':
			return i + 1, ""
		case ',':
			i = SkipSpace(obj, i+1)
		default:
			return -1, ""
		}
	}
}

// Result views a raw JSON value as a gjson.Result without scanning it
// again: objects and arrays stay lazy, plain strings are sliced. Scalars
// must be exact JSON (gjson alone would read "t" as true); anything else is
// absent.
func Result(raw string) gjson.Result {
	if raw == "" {
		return gjson.Result{}
	}
	switch c := raw[0]; {
	case c == '{' || c == '[':
		return gjson.Result{Type: gjson.JSON, Raw: raw}
	case c == '"':
		if len(raw) < 2 || raw[len(raw)-1] != '"' {
			return gjson.Result{}
		}
		if strings.IndexByte(raw, '\\') < 0 {
			return gjson.Result{Type: gjson.String, Raw: raw, Str: raw[1 : len(raw)-1]}
		}
	case raw == "true" || raw == "false" || raw == "null":
	case c == '-' || (c >= '0' && c <= '9'):
		if !ValidScalar(raw) {
			return gjson.Result{}
		}
	default:
		return gjson.Result{}
	}
	return gjson.Parse(raw)
}

// ValidScalar reports whether s (a view of a frame) is one valid JSON
// value. Plain integers (no leading zero), the ids SDKs send, skip the
// full check.
func ValidScalar(s string) bool {
	plain := len(s) > 0 && len(s) < 19 && (s[0] != '0' || len(s) == 1)
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= '0' && s[i] <= '9'
	}
	return plain || json.Valid(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// UnsafeString views b as a string without copying. The string must not
// outlive the call that received b: anything kept is copied.
func UnsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
