package scan

import (
	"encoding/binary"
	"math/bits"

	"github.com/tidwall/gjson"
)

// Valid reports whether s is exactly one JSON value with only whitespace
// around it: what encoding/json.Valid says, and so what the SDKs (which
// decode each line with encoding/json) accept. Like encoding/json it
// nests at most maxDepth containers and does not check UTF-8.
//
// It exists because the Conn must not act on a frame the SDK would drop,
// and json.Valid costs as much as the Conn's whole work on a tool call
// frame: string contents, most of a frame, are checked with a table
// lookup per byte instead of a state machine call.
func Valid(s string) bool {
	var v validator
	return v.valid(s)
}

// ValidExcept is Valid for a frame of which s[start:end] was checked
// already (by MembersValid): a value that starts at start is taken to end
// at end, unread. Reading and checking a large part of a frame in one walk
// then leaves only the rest to check.
func ValidExcept(s string, start, end int) bool {
	var v validator
	v.trusted.start, v.trusted.end = start, end
	return v.valid(s)
}

// Closes reports whether s[i:] is n closing braces, with whitespace
// around them and nothing after: the end of a frame whose last value ends
// at i inside n open objects.
func Closes(s string, i, n int) bool {
	for ; n > 0; n-- {
		if i = SkipSpace(s, i); i >= len(s) || s[i] != '}' {
			return false
		}
		i++
	}
	return SkipSpace(s, i) == len(s)
}

// MembersValid is Members that also checks, in the same walk, that the
// object is valid JSON where it sits: inside outer open containers, which
// the nesting limit counts. end is as Members returns it, and valid says
// whether all that was walked is valid: with end -1 and valid true, fn
// stopped the walk. Of a valid object it reads what Members reads.
func MembersValid(obj string, outer int, fn func(key, raw string) bool) (end int, valid bool) {
	return membersValid(obj, outer, fn, "", nil)
}

// MembersValidIn is MembersValid that also walks the members of the
// object that each member named in holds, calling inFn with each (its
// return is ignored), in the same checked walk: for a reader of a few
// fields of a frame's result, which would otherwise walk it again. fn sees
// that member too, after inFn saw its members.
func MembersValidIn(obj string, outer int, fn func(key, raw string) bool, in string, inFn func(key, raw string) bool) (end int, valid bool) {
	return membersValid(obj, outer, fn, in, inFn)
}

func membersValid(obj string, outer int, fn func(key, raw string) bool, in string, inFn func(key, raw string) bool) (end int, valid bool) {
	if outer >= maxDepth {
		return -1, false
	}
	v := validator{depth: outer + 1}
	i := SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return -1, false
	}
	i = SkipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return -1, false
		}
		kend, escaped := stringEnd(obj, i+1)
		if kend < 0 {
			return -1, false
		}
		key := obj[i+1 : kend-1]
		if escaped {
			key = gjson.Parse(obj[i:kend]).Str // escaped keys are rare
		}
		i = SkipSpace(obj, kend)
		if i >= len(obj) || obj[i] != ':' {
			return -1, false
		}
		i = SkipSpace(obj, i+1)
		var vend int
		if inFn != nil && key == in && i < len(obj) && obj[i] == '{' {
			vend = nestedEnd(obj, i, outer+1, inFn)
		} else {
			vend = v.value(obj, i)
		}
		if vend < 0 {
			return -1, false
		}
		if !fn(key, obj[i:vend]) {
			return -1, true
		}
		i = SkipSpace(obj, vend)
		if i >= len(obj) {
			return -1, false
		}
		switch obj[i] {
		case '}':
			return i + 1, true
		case ',':
			i = SkipSpace(obj, i+1)
		default:
			return -1, false
		}
	}
}

// nestedEnd checks the object at obj[i], inside depth open containers,
// calling fn with each of its members, and returns the index past it, or
// -1 if it is not valid.
func nestedEnd(obj string, i, depth int, fn func(key, raw string) bool) int {
	end, valid := membersValid(obj[i:], depth, func(k, raw string) bool {
		fn(k, raw)
		return true
	}, "", nil)
	if !valid || end < 0 {
		return -1
	}
	return i + end
}

// CheckValue checks the JSON value starting at s[i] (after any space),
// inside depth open containers, which the nesting limit counts, and
// returns the index just past it, or -1 if it is not valid there: for a
// walk that reads some values of a frame where they are and checks the
// others in the same pass (internal/floor).
func CheckValue(s string, i, depth int) int {
	v := validator{depth: depth}
	return v.value(s, i)
}

// maxDepth is encoding/json's nesting limit: deeper input is invalid to it.
const maxDepth = 10000

// validator holds the open containers, one bit each (1: an object): the
// first 64 in a word, deeper ones (rare) in a slice made when needed, so
// that a frame's validation allocates nothing.
type validator struct {
	open  uint64
	deep  []uint64
	depth int
	// object is whether the innermost open container is an object: read
	// after every value, so kept apart from its bit.
	object bool
	// trusted is a span already checked by a walk (ValidExcept): a value
	// that starts at trusted.start ends at trusted.end unread (none when
	// end is 0).
	trusted struct{ start, end int }
}

func (v *validator) valid(s string) bool {
	i := v.value(s, SkipSpace(s, 0))
	return i >= 0 && SkipSpace(s, i) == len(s)
}

// value checks the value starting at s[i], inside the containers already
// open, and returns the index just past it, or -1.
func (v *validator) value(s string, i int) int {
	base := v.depth
	member := false // a member's key comes before the value
values:
	for {
		i = SkipSpace(s, i)
		if member {
			// The key and its colon, read here rather than by a call: a
			// frame is mostly short keys.
			member = false
			if i >= len(s) || s[i] != '"' {
				return -1
			}
			if i, _ = stringEnd(s, i+1); i < 0 {
				return -1
			}
			if i = SkipSpace(s, i); i >= len(s) || s[i] != ':' {
				return -1
			}
			i = SkipSpace(s, i+1)
		}
		// A value starts at s[i].
		if i >= len(s) {
			return -1
		}
		switch c := s[i]; {
		case i == v.trusted.start && v.trusted.end > i:
			i = v.trusted.end
		case c == '{' || c == '[':
			if !v.push(c == '{') {
				return -1
			}
			i = SkipSpace(s, i+1)
			if i < len(s) && s[i] == v.closer() {
				break // empty: closed below
			}
			member = c == '{'
			continue // its first value
		case c == '"':
			i, _ = stringEnd(s, i+1)
		case c == 't':
			i = literal(s, i, "true")
		case c == 'f':
			i = literal(s, i, "false")
		case c == 'n':
			i = literal(s, i, "null")
		default:
			i = number(s, i)
		}
		if i < 0 {
			return -1
		}
		// After a value: close what ends here, then expect the next
		// member or element, or return after the value checked.
		for {
			if v.depth == base {
				return i
			}
			i = SkipSpace(s, i)
			if i >= len(s) {
				return -1
			}
			switch s[i] {
			case ',':
				member = v.top()
				i++
				continue values
			case v.closer():
				v.pop()
				i++
			default:
				return -1
			}
		}
	}
}

// closer is the byte that closes the innermost open container.
func (v *validator) closer() byte {
	if v.object {
		return '}'
	}
	return ']'
}

// pop closes the innermost open container.
func (v *validator) pop() {
	v.depth--
	if v.depth > 0 {
		v.object = v.bit(v.depth - 1)
	}
}

// push opens a container; false beyond maxDepth.
func (v *validator) push(object bool) bool {
	if v.depth >= maxDepth {
		return false
	}
	w := &v.open
	if v.depth >= 64 {
		if v.deep == nil {
			v.deep = make([]uint64, maxDepth/64)
		}
		w = &v.deep[v.depth/64-1]
	}
	b := uint64(1) << uint(v.depth%64)
	if object {
		*w |= b
	} else {
		*w &^= b
	}
	v.depth++
	v.object = object
	return true
}

// top reports whether the innermost open container is an object.
func (v *validator) top() bool { return v.object }

// bit reports whether the container open at depth d is an object.
func (v *validator) bit(d int) bool {
	w := v.open
	if d >= 64 {
		w = v.deep[d/64-1]
	}
	return w&(1<<uint(d%64)) != 0
}

// plain marks the bytes a string holds as they are: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// StringEnd is stringEnd, for the replay's own one-pass validator.
func StringEnd(s string, i int) int {
	end, _ := stringEnd(s, i)
	return end
}

// stringEnd returns the index past the closing quote of the string whose
// contents start at s[i], or -1 if it is not a valid JSON string, and
// whether it has an escape. It tests eight bytes at a time (message text
// and prompts are long plain runs), then one at a time.
func stringEnd(s string, i int) (end int, escaped bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for {
		found := false // s[i] is a quote, a backslash or a control character
		for ; i+8 <= len(s); i += 8 {
			x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
			// The high bit of each byte of stop is set where x has a
			// quote, a backslash or a control character (below 0x20); a
			// borrow may set it wrongly only above the first such byte.
			q, b := x^(ones*'"'), x^(ones*'\\')
			stop := ((q - ones) &^ q) | ((b - ones) &^ b) | ((x - ones*0x20) &^ x)
			if stop&highs != 0 {
				i += bits.TrailingZeros64(stop&highs) / 8
				found = true
				break
			}
		}
		if !found {
			// Fewer than eight bytes are left.
			for i < len(s) && plain[s[i]] {
				i++
			}
			if i >= len(s) {
				return -1, escaped
			}
		}
		switch s[i] {
		case '"':
			return i + 1, escaped
		case '\\':
			if i = escape(s, i+1); i < 0 {
				return -1, true
			}
			escaped = true
		default:
			return -1, escaped // a control character
		}
	}
}

// escape checks the escape after a backslash at s[i-1]; it returns the
// index past it, or -1.
func escape(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 1
	case 'u':
		if i+5 > len(s) {
			return -1
		}
		for _, c := range []byte(s[i+1 : i+5]) {
			if !isHex(c) {
				return -1
			}
		}
		return i + 5
	}
	return -1
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// literal checks that s[i:] starts with lit; it returns the index past it,
// or -1.
func literal(s string, i int, lit string) int {
	if len(s)-i < len(lit) || s[i:i+len(lit)] != lit {
		return -1
	}
	return i + len(lit)
}

// number checks the number at s[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// It returns the index past it, or -1.
func number(s string, i int) int {
	if i < len(s) && s[i] == '-' {
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
		if i = digits(s, i+1); i < 0 {
			return -1
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i = digits(s, i); i < 0 {
			return -1
		}
	}
	return i
}

// digits skips one or more digits at s[i]; -1 if there is none.
func digits(s string, i int) int {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}
