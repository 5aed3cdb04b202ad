package frame

import (
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// Reader reads a JSON value in one pass, for a dialect's parser of nested
// params (a list of questions, each with a list of options): each byte is
// looked at once, where Members and Elements skip a nested value and then
// read it again, once per level. Each method reads exactly one value at the
// current position; a value of another type than asked for is skipped and
// reads as absent. Like the rest of the package it is lenient: on broken
// JSON it stops where it is, never panics, and what was read stays read.
// Strings view the frame: Own what is kept.
type Reader struct {
	s string
	i int
}

// NewReader reads v, a value viewing a frame (v.Raw may run on past it).
func NewReader(v gjson.Result) *Reader { return &Reader{s: v.Raw} }

// at returns the next byte after spaces, or 0 at the end.
func (r *Reader) at() byte {
	r.i = scan.SkipSpace(r.s, r.i)
	if r.i >= len(r.s) {
		return 0
	}
	return r.s[r.i]
}

// Peek returns the first byte of the next value ('{', '[', '"', 't', 'f',
// 'n', '-' or a digit), without reading it; 0 at the end.
func (r *Reader) Peek() byte { return r.at() }

// stop ends the reading: the JSON is broken here.
func (r *Reader) stop() { r.i = len(r.s) }

// Skip reads over one value.
func (r *Reader) Skip() {
	if r.at() == 0 {
		return
	}
	end := scan.SkipValue(r.s, r.i)
	if end <= r.i {
		r.stop()
		return
	}
	r.i = end
}

// Value reads one value of any type, as a gjson.Result viewing the frame
// (read a number with Int64; an object or array with Members or Get).
func (r *Reader) Value() gjson.Result {
	switch r.at() {
	case 0:
		return gjson.Result{}
	case '"':
		// Most values read are strings (ids, kinds, names): one scan finds
		// the end and any escape, where skipping the string and then
		// searching it for a backslash would scan it twice.
		start := r.i
		end, escaped := scan.ScanString(r.s, start+1)
		r.i = end
		raw := r.s[start:end]
		if !escaped && len(raw) >= 2 && raw[len(raw)-1] == '"' {
			return gjson.Result{Type: gjson.String, Raw: raw, Str: raw[1 : len(raw)-1]}
		}
		return scan.Result(raw)
	}
	start := r.i
	r.Skip()
	return scan.Result(r.s[start:r.i])
}

// String reads a string; any other value reads as "". The result views the
// frame unless the string has escapes.
func (r *Reader) String() string {
	if r.at() != '"' {
		r.Skip()
		return ""
	}
	return r.str()
}

// str reads the string at the reader: a view of its contents when it has
// no escapes (the usual case, found in the same pass), else decoded.
func (r *Reader) str() string {
	start := r.i
	end, escaped := scan.ScanString(r.s, start+1)
	r.i = end
	if !escaped && end-start >= 2 && r.s[end-1] == '"' {
		return r.s[start+1 : end-1]
	}
	return scan.Result(r.s[start:end]).Str
}

// True reads a value and reports whether it is the JSON true.
func (r *Reader) True() bool {
	ok := r.at() == 't' && len(r.s)-r.i >= 4 && r.s[r.i:r.i+4] == "true"
	r.Skip()
	return ok
}

// Object reads an object, calling fn with each member's key, the reader at
// the member's value: fn reads the value with the reader's methods, or
// leaves it, and then it is skipped. It reports whether the value was an
// object; anything else is skipped.
func (r *Reader) Object(fn func(key string)) bool {
	if r.at() != '{' {
		r.Skip()
		return false
	}
	r.i++
	if r.at() == '}' {
		r.i++
		return true
	}
	for r.at() == '"' {
		key := r.str()
		if r.at() != ':' {
			r.stop()
			return true
		}
		// The value, as value reads it, without a closure around fn: this
		// is the loop of every member a dialect reads.
		r.i = scan.SkipSpace(r.s, r.i+1)
		if start := r.i; start < len(r.s) {
			fn(key)
			if r.i == start {
				r.Skip()
			}
		}
		switch r.at() {
		case ',':
			r.i++
		case '}':
			r.i++
			return true
		default:
			r.stop()
			return true
		}
	}
	r.stop()
	return true
}

// Array reads an array, calling fn with the reader at each element, which
// fn reads or leaves (then it is skipped). It reports whether the value was
// an array; anything else is skipped.
func (r *Reader) Array(fn func()) bool {
	if r.at() != '[' {
		r.Skip()
		return false
	}
	r.i++
	if r.at() == ']' {
		r.i++
		return true
	}
	for r.at() != 0 {
		r.value(fn)
		switch r.at() {
		case ',':
			r.i++
		case ']':
			r.i++
			return true
		default:
			r.stop()
			return true
		}
	}
	return true
}

// value lets fn read the value at the reader, and skips it if fn did not.
func (r *Reader) value(fn func()) {
	start := scan.SkipSpace(r.s, r.i)
	r.i = start
	if start >= len(r.s) {
		return
	}
	fn()
	if r.i == start {
		r.Skip()
	}
}
