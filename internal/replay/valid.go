package replay

import (
	"strings"

	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// A one-pass validator for transcript lines. json.Valid walks every byte
// through a state machine, which made validation most of a replay's time
// on a transcript of large tool outputs. This one checks exactly what
// json.Valid checks (FuzzValid), string contents eight bytes at a time,
// and on the way records where the top-level members a replay reads
// (method, id, params, result) are. Because it is exact, the replay's Conn
// is told its frames are checked (Options.Checked) and does not check
// them again.

// maxDepth is json.Valid's nesting limit.
const maxDepth = 10000

// top is what validation saw of a line's top-level object: raw member
// values (first occurrences), "" when absent, and where they are.
type top struct {
	object                     bool
	method, id, params, result string
	spans                      [4]span // of method, id, params, result
	// last is the span of the contents of the line's last string value,
	// when only closing brackets follow it (a chunk's text): see tails.
	last span
}

// span is [start, end) in a line.
type span struct{ start, end int }

// validate reports whether s is exactly one JSON value (surrounding
// whitespace allowed) and, for an object, fills t.
func validate(s string, t *top) bool {
	v := validator{s: s, last: span{-1, -1}}
	i := skipWS(s, 0)
	if i < len(s) && s[i] == '{' {
		t.object = true
		i = v.object(i, t)
	} else {
		i = v.value(i)
	}
	if i < 0 || skipWS(s, i) != len(s) {
		return false
	}
	if v.last.end > 0 && onlyClosers(s[v.last.end+1:]) {
		t.last = v.last
	}
	return true
}

// onlyClosers reports whether s is closing brackets and whitespace.
func onlyClosers(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '}', ']', ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

type validator struct {
	s     string
	depth int
	last  span // the contents of the latest string value
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
		end := v.str(i + 1)
		v.last = span{i + 1, end - 1}
		return end
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
		kstart, kend := i, v.str(i+1)
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
			if strings.IndexByte(key, '\\') >= 0 {
				// "\u006dethod" is "method", as the Conn reads it.
				key = gjson.Parse(v.s[kstart:kend]).Str
			}
			t.note(key, span{i, end}, v.s[i:end])
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
// (as gjson and the Conn read them), by its key decoded: the SDKs never
// escape these names, but a frame that does means the same.
func (t *top) note(key string, sp span, raw string) {
	var p *string
	var i int
	switch key {
	case "method":
		p, i = &t.method, 0
	case "id":
		p, i = &t.id, 1
	case "params":
		p, i = &t.params, 2
	case "result":
		p, i = &t.result, 3
	default:
		return
	}
	if *p == "" {
		*p, t.spans[i] = raw, sp
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
// index just past its closing quote, or -1: its contents are checked for
// bad escapes and control characters as the Conn's own scanner checks
// them, eight bytes at a time.
func (v *validator) str(i int) int { return scan.StringEnd(v.s, i) }

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
