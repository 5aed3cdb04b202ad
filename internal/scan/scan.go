// Package scan is the structural JSON scanner under the frame readers and
// the Conn's hot path. It is internal: dialect authors read frames with
// the public package frame, which is built on it.
package scan

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
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
	// Keys, ids and kinds are short: the first 32 bytes are tested eight
	// at a time for a quote or a backslash, where a call to IndexByte per
	// string costs more than the string. A long one falls back to it.
	for n := 0; n < 4 && i+8 <= len(s); n++ {
		j := quoteOrBackslash(s, i)
		switch {
		case j < 0:
			i += 8
		case s[j] == '"':
			return j + 1
		default:
			i = j + 2 // the backslash and the byte it escapes
			if i > len(s) {
				return len(s)
			}
		}
	}
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

// quoteOrBackslash returns the index of the first quote or backslash in
// s[i:i+8], or -1.
func quoteOrBackslash(s string, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
	q, b := x^(ones*'"'), x^(ones*'\\')
	// The high bit of a byte is set where it is zero in q or b; a borrow
	// may set it wrongly only above the first such byte.
	stop := ((q - ones) &^ q) | ((b - ones) &^ b)
	if stop&highs == 0 {
		return -1
	}
	return i + bits.TrailingZeros64(stop&highs)/8
}

// ScanString is skipString that also reports whether the string has an
// escape. Keys and most values the parsers read are short: a byte loop
// finds the quote (and sees any backslash) in one pass, where two
// vectorized searches would each cost a call; a long string falls back to
// them.
func ScanString(s string, i int) (end int, escaped bool) {
	for n := 0; n < 4 && i+8 <= len(s); n++ {
		if j := quoteOrBackslash(s, i); j >= 0 {
			if s[j] == '"' {
				return j + 1, false
			}
			return SkipString(s, j), true
		}
		i += 8
	}
	for stop := min(i+8, len(s)); i < stop; i++ {
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
		return skipContainer(s, i+1)
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return len(s)
}

// skipContainer returns the index just past the object or array whose
// opening bracket is s[i-1]. Nested values are what walks skip most (a
// tool call's content, a result's capabilities), so it tests each byte
// with two range compares before any switch, as gjson does, and runs
// through strings eight bytes at a time, inline: a call per string costs
// more than most strings.
func skipContainer(s string, i int) int {
	depth := 1
	for i < len(s) {
		c := s[i]
		i++
		if c < '"' || c > '}' || (c > '"' && c < '[') || (c > ']' && c < '{') {
			continue // not a quote or a bracket
		}
		switch c {
		case '"':
			for {
				if i+8 > len(s) {
					i = stringTail(s, i)
					break
				}
				j := quoteOrBackslash(s, i)
				if j < 0 {
					i += 8
					continue
				}
				if s[j] == '"' {
					i = j + 1
					break
				}
				i = j + 2 // the backslash and the byte it escapes
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return len(s)
}

// stringTail returns the index past the closing quote of a string whose
// contents start at s[i], with fewer than eight bytes left, or len(s).
func stringTail(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
		i++
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
		if !backslash(raw) {
			return gjson.Result{Type: gjson.String, Raw: raw, Str: raw[1 : len(raw)-1]}
		}
	case raw == "true":
		return gjson.Result{Type: gjson.True, Raw: raw}
	case raw == "false":
		return gjson.Result{Type: gjson.False, Raw: raw}
	case raw == "null":
		return gjson.Result{Type: gjson.Null, Raw: raw}
	case c == '-' || (c >= '0' && c <= '9'):
		if n, ok := smallInt(raw); ok {
			// Counts, sizes and ids: exact in a float64, so this is the
			// Num strconv.ParseFloat gives, without its cost (a usage
			// sample is mostly such numbers).
			return gjson.Result{Type: gjson.Number, Raw: raw, Num: float64(n)}
		}
		if !ValidScalar(raw) {
			return gjson.Result{}
		}
	default:
		return gjson.Result{}
	}
	return gjson.Parse(raw)
}

// backslash reports whether s has a backslash: by a byte loop for the
// short strings most values read are (ids, kinds, statuses), where a call
// to IndexByte costs more than the string.
func backslash(s string) bool {
	if len(s) > 16 {
		return strings.IndexByte(s, '\\') >= 0
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			return true
		}
	}
	return false
}

// smallInt reads a JSON integer of at most 15 digits (no leading zero):
// one a float64 holds exactly.
func smallInt(s string) (int64, bool) {
	neg := s[0] == '-'
	d := s
	if neg {
		d = s[1:]
	}
	if len(d) == 0 || len(d) > 15 || (d[0] == '0' && len(d) > 1) {
		return 0, false
	}
	var n int64
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		if n == 0 {
			return 0, false // -0: ParseFloat keeps its sign
		}
		n = -n
	}
	return n, true
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

// IDKey is the key by which a JSON-RPC id is matched to its request, by
// value as the ACP SDK matches ids, because the other side's JSON library
// may write an id back otherwise: a string by its value (encoding/json
// writes "<" as \u003c), a number by its exact decimal value (a
// JavaScript agent echoes 1.0 as 1), anything else by its bytes. A plain
// string or integer is its own key, so the common case allocates nothing.
// The key of a key is not the key (an escaped backslash decodes to one):
// derive it once, from the id as received.
func IDKey(id string) string {
	switch {
	case len(id) > 1 && id[0] == '"' && strings.IndexByte(id, '\\') >= 0:
		return `"` + gjson.Parse(id).Str + `"`
	case len(id) > 0 && (id[0] == '-' || id[0] >= '0' && id[0] <= '9') && !plainInt(id):
		return numberKey(id)
	}
	return id
}

// plainInt says whether a number is written as an integer the canonical
// way: no fraction, no exponent, no leading zero, no "-0", and no more
// trailing zeros than numberKey writes out (past that, its key is
// numberKey's, as for the same value written otherwise).
func plainInt(n string) bool {
	d := strings.TrimPrefix(n, "-")
	if d == "" || d[0] == '0' && (len(d) > 1 || len(n) > 1) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return len(d)-len(strings.TrimRight(d, "0")) <= maxIntKey
}

// maxIntKey bounds the exponent up to which numberKey writes an integral
// value out in full, as plainInt reads it; past it the key is
// digits and exponent (an id of a thousand zeros is no one's).
const maxIntKey = 64

// numberKey is the key of a number that is not a plain integer: its exact
// value, written as plainInt would write it when it is an integer (1.0,
// 1e0, 10e-1 and 1 are one id), else as "n:" digits "e" exponent. A
// malformed number is its own key.
func numberKey(n string) string {
	neg, digits, exp, ok := decimal(n)
	switch {
	case !ok:
		return n
	case digits == "":
		return "0" // -0, 0.0, 0e5
	case exp >= 0 && exp <= maxIntKey:
		key := digits + strings.Repeat("0", exp)
		if neg {
			key = "-" + key
		}
		return key
	}
	sign := ""
	if neg {
		sign = "-"
	}
	return "n:" + sign + digits + "e" + strconv.Itoa(exp)
}

// decimal reads a JSON number as sign, significant digits (no leading or
// trailing zeros) and the power of ten they are scaled by.
func decimal(n string) (neg bool, digits string, exp int, ok bool) {
	neg = strings.HasPrefix(n, "-")
	n = strings.TrimPrefix(n, "-")
	mant, e, hasExp := strings.Cut(strings.ToLower(n), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	if hasExp {
		var err error
		if exp, err = strconv.Atoi(strings.TrimPrefix(e, "+")); err != nil || exp > 1<<20 || exp < -(1<<20) {
			return false, "", 0, false
		}
	}
	digits = whole + frac
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false, "", 0, false
		}
	}
	exp -= len(frac)
	digits = strings.TrimLeft(digits, "0")
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	return neg, digits, exp, whole != ""
}
