package frame

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// Str returns r as a string when it is a JSON string, else "". Wrong types
// are treated as absent, never coerced. The string is a copy: frames are
// only borrowed, and hooks' results are kept.
func Str(r gjson.Result) string {
	if r.Type != gjson.String {
		return ""
	}
	return strings.Clone(r.Str)
}

// Int64 returns r as an integer when it is a JSON number whose exact value
// is a whole number that fits an int64, however it is written (42, 4.2e1,
// 42.0); ok is false for anything else (a string, a fraction however
// small, out of range, a malformed number). The literal is read exactly,
// never through a float64, which rounds past 2^53 (9007199254740993.0)
// and turns a tiny fraction whole (1e-400, 1.0000000000000001).
func Int64(r gjson.Result) (int64, bool) {
	if r.Type != gjson.Number {
		return 0, false
	}
	switch {
	case r.Raw == "":
		// A number gjson made rather than read (no literal to read).
		if f := r.Num; f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
			return int64(f), true
		}
		return 0, false
	case len(r.Raw) <= 15 && integer(r.Raw):
		return int64(r.Num), true // the common case: below 2^53, exact
	}
	return exactInt(r.Raw)
}

// integer reports whether a JSON number is written as an integer: digits
// after an optional minus.
func integer(s string) bool {
	s = strings.TrimPrefix(s, "-")
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// exactInt reads a JSON number literal -?digits(.digits)?([eE][+-]?digits)?
// as an int64 when its value is whole and in range.
func exactInt(s string) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intEnd := digitsEnd(s, 0)
	if intEnd == 0 {
		return 0, false
	}
	mant, fracLen, rest := s[:intEnd], 0, s[intEnd:]
	if strings.HasPrefix(rest, ".") {
		end := digitsEnd(rest, 1)
		if end == 1 {
			return 0, false
		}
		fracLen = end - 1
		mant, rest = s[:intEnd+end], rest[end:]
	}
	exp, ok := exponent(rest)
	if !ok {
		return 0, false
	}
	// mant is digits with at most one '.': its value is the digits'
	// times 10^(exp - fracLen). Trailing zeros move into the exponent; a
	// negative one is then a fraction, since the last digit is not zero.
	last := strings.LastIndexAny(mant, "123456789")
	if last < 0 {
		return 0, true // zero, whatever its exponent
	}
	exp += int64(strings.Count(mant[last+1:], "0") - fracLen)
	if exp < 0 {
		return 0, false
	}
	var v uint64
	n := int64(0) // significant digits in v
	for i := 0; i <= last; i++ {
		c := mant[i]
		if c == '.' || (n == 0 && c == '0') {
			continue
		}
		if n++; n+exp > 19 {
			return 0, false // 10^19 and up
		}
		v = v*10 + uint64(c-'0') // below 10^19: no overflow
	}
	for ; exp > 0; exp-- {
		v *= 10
	}
	switch {
	case neg && v <= 1<<63:
		return -int64(v-1) - 1, true // -2^63 included
	case !neg && v <= math.MaxInt64:
		return int64(v), true
	}
	return 0, false
}

// digitsEnd returns the offset of the first non-digit in s from i.
func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// exponent reads "" or [eE][+-]?digits, the whole of s; a value past any
// literal's length saturates, so that it still reads as out of range (or
// a fraction) without overflowing.
func exponent(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	if s[0] != 'e' && s[0] != 'E' {
		return 0, false
	}
	s = s[1:]
	neg := strings.HasPrefix(s, "-")
	if neg || strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	if s == "" || digitsEnd(s, 0) != len(s) {
		return 0, false
	}
	var e int64
	for i := 0; i < len(s) && e < 1<<40; i++ {
		e = e*10 + int64(s[i]-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// Set copies r into *dst when r is a non-empty JSON string that differs:
// a later empty or wrong-typed value never blanks a field, and an unchanged
// one costs no copy.
func Set(dst *string, r gjson.Result) {
	if r.Type == gjson.String && r.Str != "" && r.Str != *dst {
		*dst = strings.Clone(r.Str)
	}
}

// Own replaces each string that views a borrowed frame with its own copy.
// A parser reads its fields as views (View) and calls Own once for the
// ones it keeps. Each copy is separate, so that a field replaced later
// frees its bytes instead of pinning its neighbours'.
func Own(fields ...*string) {
	for _, f := range fields {
		if *f != "" {
			*f = strings.Clone(*f)
		}
	}
}

// Head returns a copy of s's first max bytes or fewer, cut before a rune
// that would cross max, so that a bounded text stays valid UTF-8.
func Head(s string, max int) string { return strings.Clone(HeadView(s, max)) }

// TailView returns s's last max bytes or fewer, cut after a rune that
// would cross max, so that a bounded text stays valid UTF-8. It views s.
func TailView(s string, max int) string {
	if len(s) <= max {
		return s
	}
	i := len(s) - max
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++ // s[i] is inside a rune: cut after that rune
	}
	return s[i:]
}

// HeadView is Head without the copy: it views s, for a caller that
// compares before it keeps.
func HeadView(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max-- // s[max] is inside a rune: cut before that rune
	}
	return s[:max]
}

// OwnTogether is Own with one allocation for all the copies, for strings
// that are kept and dropped together, such as the items of one event's
// list: while any of them lives, it keeps all their bytes.
func OwnTogether(fields ...*string) {
	n := 0
	for _, f := range fields {
		n += len(*f)
	}
	if n == 0 {
		return
	}
	buf := make([]byte, 0, n) // never grown: the strings below stay valid
	for _, f := range fields {
		if *f != "" {
			start := len(buf)
			buf = append(buf, *f...)
			*f = scan.UnsafeString(buf[start:])
		}
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

// Fill sets *dst to v when v is not empty: a later empty value never blanks
// a field that is already set. Mergers use it for every string field.
func Fill(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// Members calls fn for each member of the JSON object obj, in order, until
// fn returns false; of a key that appears twice both are visited (a parser
// that wants gjson's first-wins reading keeps the first). It skips values
// it is not asked about at byte-search speed, so it is the way for a hook to
// read several fields of an object that may hold large strings.
func Members(obj gjson.Result, fn func(key string, v gjson.Result) bool) {
	if !obj.IsObject() {
		return
	}
	scan.Members(obj.Raw, func(k, raw string) bool { return fn(k, scan.Result(raw)) })
}

// Get returns the first member of the JSON object obj named key, as
// obj.Get(key) does for a key that has none of gjson's path characters,
// skipping the members before it twice as fast as gjson does: the way to
// read one field of a large object, such as an initialize result.
func Get(obj gjson.Result, key string) gjson.Result {
	return First(obj, key, "")
}

// First is Get(obj, key), or when obj has no member named key,
// Get(obj, alt): a field that an older protocol version names otherwise,
// read in one walk.
func First(obj gjson.Result, key, alt string) gjson.Result {
	if !obj.IsObject() {
		return gjson.Result{}
	}
	var found, other string
	scan.Members(obj.Raw, func(k, raw string) bool {
		switch {
		case k == key:
			found = raw
			return false
		case k == alt && alt != "" && other == "":
			other = raw
		}
		return true
	})
	if found == "" {
		found = other
	}
	return scan.Result(found)
}

// Path returns what gjson's path keys[0].keys[1]... reads from obj, for
// keys without path characters: the first member named keys[0] that holds
// the rest of the path (gjson looks in each such member in turn, not only
// the first), skipping the members it passes faster than gjson does.
func Path(obj gjson.Result, keys ...string) gjson.Result {
	if len(keys) == 0 || !obj.IsObject() {
		return gjson.Result{}
	}
	if len(keys) == 1 {
		return Get(obj, keys[0])
	}
	var found gjson.Result
	scan.Members(obj.Raw, func(k, raw string) bool {
		if k == keys[0] {
			found = Path(scan.Result(raw), keys[1:]...)
		}
		return !found.Exists()
	})
	return found
}

// Count returns prev when it is set (the first occurrence of a count
// counts), else the token count r holds: a whole number that is not
// negative. Anything else is nil (absent), never zero.
func Count(prev *int64, r gjson.Result) *int64 {
	if prev != nil {
		return prev
	}
	n, ok := Int64(r)
	if !ok || n < 0 {
		return nil
	}
	return Keep(n) // not &n: that would allocate even for an absent count
}
