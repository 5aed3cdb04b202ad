package replay

import (
	"strings"
)

// A one-pass validator for transcript lines. json.Valid walks every byte
// through a state machine, which made validation most of a replay's time
// on a transcript of large tool outputs. This one skips a string's
// contents with byte searches (as the Conn's own scanner does) and checks
// them word by word; it accepts exactly what json.Valid accepts
// (FuzzValid), and on the way records where the top-level members a
// replay reads (method, id, params, result) are.

// maxDepth is json.Valid's nesting limit.
const maxDepth = 10000

// top is what validation saw of a line's top-level object: raw member
// values (first occurrences), "" when absent.
type top struct {
	object                     bool
	method, id, params, result string
}

// validate reports whether s is exactly one JSON value (surrounding
// whitespace allowed) and, for an object, fills t.
func validate(s string, t *top) bool {
	v := validator{s: s}
	i := skipWS(s, 0)
	if i < len(s) && s[i] == '{' {
		t.object = true
		i = v.object(i, t)
	} else {
		i = v.value(i)
	}
	return i >= 0 && skipWS(s, i) == len(s)
}

type validator struct {
	s     string
	depth int
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// value returns the index just past the value at s[i], or -1.
func (v *validator) value(i int) int {
	if i >= len(v.s) {
		return -1
	}
	switch c := v.s[i]; {
	case c == '"':
		return v.str(i + 1)
	case c == '{':
		return v.object(i, nil)
	case c == '[':
		return v.array(i)
	case c == 't':
		return literal(v.s, i, "true")
	case c == 'f':
		return literal(v.s, i, "false")
	case c == 'n':
		return literal(v.s, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return number(v.s, i)
	}
	return -1
}

func literal(s string, i int, lit string) int {
	if strings.HasPrefix(s[i:], lit) {
		return i + len(lit)
	}
	return -1
}

// object validates the object at s[i]; with t set (the top level) it
// records the members a replay reads.
func (v *validator) object(i int, t *top) int {
	if v.depth++; v.depth > maxDepth {
		return -1
	}
	defer func() { v.depth-- }()
	i = skipWS(v.s, i+1)
	if i < len(v.s) && v.s[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(v.s) || v.s[i] != '"' {
			return -1
		}
		kend := v.str(i + 1)
		if kend < 0 {
			return -1
		}
		key := v.s[i+1 : kend-1]
		i = skipWS(v.s, kend)
		if i >= len(v.s) || v.s[i] != ':' {
			return -1
		}
		i = skipWS(v.s, i+1)
		end := v.value(i)
		if end < 0 {
			return -1
		}
		if t != nil {
			t.note(key, v.s[i:end])
		}
		i = skipWS(v.s, end)
		if i >= len(v.s) {
			return -1
		}
		switch v.s[i] {
		case '}':
			return i + 1
		case ',':
			i = skipWS(v.s, i+1)
		default:
			return -1
		}
	}
}

// note records a top-level member's raw value, first occurrence first
// (as gjson and the Conn read them). An escaped key is compared as
// written: the SDKs never escape these names.
func (t *top) note(key, raw string) {
	var p *string
	switch key {
	case "method":
		p = &t.method
	case "id":
		p = &t.id
	case "params":
		p = &t.params
	case "result":
		p = &t.result
	default:
		return
	}
	if *p == "" {
		*p = raw
	}
}

func (v *validator) array(i int) int {
	if v.depth++; v.depth > maxDepth {
		return -1
	}
	defer func() { v.depth-- }()
	i = skipWS(v.s, i+1)
	if i < len(v.s) && v.s[i] == ']' {
		return i + 1
	}
	for {
		i = v.value(i)
		if i < 0 {
			return -1
		}
		i = skipWS(v.s, i)
		if i >= len(v.s) {
			return -1
		}
		switch v.s[i] {
		case ']':
			return i + 1
		case ',':
			i = skipWS(v.s, i+1)
		default:
			return -1
		}
	}
}

// str validates the string whose contents start at s[i] and returns the
// index just past its closing quote, or -1. Short strings (keys, kinds,
// ids) are read byte by byte; a long one is searched for its quote and
// backslashes, and its plain runs are checked for control characters a
// word at a time.
func (v *validator) str(i int) int {
	s := v.s
	for stop := min(i+16, len(s)); i < stop; i++ {
		switch c := s[i]; {
		case c == '"':
			return i + 1
		case c == '\\':
			return v.escaped(i)
		case c < 0x20:
			return -1
		}
	}
	return v.escaped(i)
}

// escaped validates string contents from s[i] on, where escapes may be.
func (v *validator) escaped(i int) int {
	s := v.s
	for {
		q := strings.IndexByte(s[i:], '"')
		if q < 0 {
			return -1
		}
		run := s[i : i+q]
		b := strings.IndexByte(run, '\\')
		if b < 0 {
			if hasControl(run) {
				return -1
			}
			return i + q + 1
		}
		if hasControl(run[:b]) {
			return -1
		}
		i += b + 1
		n := escapeLen(s, i)
		if n < 0 {
			return -1
		}
		i += n
	}
}

// escapeLen returns the length of the escape after a backslash at s[i-1],
// or -1.
func escapeLen(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 1
	case 'u':
		if i+5 > len(s) {
			return -1
		}
		for _, c := range []byte(s[i+1 : i+5]) {
			if !isHex(c) {
				return -1
			}
		}
		return 5
	}
	return -1
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// hasControl reports whether s has a byte below 0x20, eight bytes at a
// time: (x - 0x20 in each byte) & ^x & 0x80 in each byte is non-zero
// exactly when some byte of x is below 0x20.
func hasControl(s string) bool {
	const lo, hi = 0x2020202020202020, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if (x-lo)&^x&hi != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i] < 0x20 {
			return true
		}
	}
	return false
}

// number validates the JSON number at s[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func number(s string, i int) int {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
