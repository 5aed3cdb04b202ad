package replay

import (
	"bytes"

	"github.com/acpdialect/acpdialect/internal/scan"
)

// tails remembers the last line whose last string value ran to its
// closing brackets. A stream of chunks repeats every byte but that
// string's (the text): a line with the same bytes before the string and
// after it is valid once the string is, and its top-level members are
// where they were. So most lines of a transcript are validated by two
// compares and one string, instead of a walk of every token.
type tails struct {
	slot [4]tail // message and thought chunks interleave: a few shapes
	next int
	hit  int // the slot that matched last, tried first: chunks come in runs
}

type tail struct {
	prefix, suffix []byte // the line before the string's contents, and from its closing quote on
	t              top    // its members; spans ending past the prefix count from the end
	n              int    // the line's length
	ok             bool
}

// maxTail bounds what is remembered: longer prefixes are rare and cheap
// to validate anyway next to their length.
const maxTail = 1024

// remember keeps a validated line's shape, if it has a last string, in
// the next slot.
func (cs *tails) remember(b []byte, t *top) {
	c := &cs.slot[cs.next]
	if c.set(b, t) {
		cs.next = (cs.next + 1) % len(cs.slot)
	}
}

// match validates b by a remembered shape; ok is false when none fits,
// and then b must be validated whole.
func (cs *tails) match(b []byte, t *top) bool {
	if cs.slot[cs.hit].match(b, t) {
		return true
	}
	for i := range cs.slot {
		if i != cs.hit && cs.slot[i].match(b, t) {
			cs.hit = i
			return true
		}
	}
	return false
}

func (c *tail) set(b []byte, t *top) bool {
	c.ok = false
	if t.last.end <= 0 || t.last.start > maxTail || len(b)-t.last.end > maxTail {
		return false
	}
	c.prefix = append(c.prefix[:0], b[:t.last.start]...)
	c.suffix = append(c.suffix[:0], b[t.last.end:]...)
	c.t, c.n, c.ok = *t, len(b), true
	return true
}

func (c *tail) match(b []byte, t *top) bool {
	if !c.ok || len(b) < len(c.prefix)+len(c.suffix) || !bytes.HasPrefix(b, c.prefix) || !bytes.HasSuffix(b, c.suffix) {
		return false
	}
	s := scan.UnsafeString(b)
	v := validator{s: s}
	if v.str(len(c.prefix)) != len(b)-len(c.suffix)+1 {
		return false // a quote inside, or a bad escape: validate it whole
	}
	*t = top{object: c.t.object}
	end := len(b) - len(c.suffix)
	t.last = span{len(c.prefix), end}
	for i, sp := range c.t.spans {
		if sp.end == 0 {
			continue
		}
		if sp.end > len(c.prefix) {
			sp.end = len(b) - (c.n - sp.end)
		}
		t.spans[i] = sp
		t.setRaw(i, s[sp.start:sp.end])
	}
	return true
}

func (t *top) setRaw(i int, raw string) {
	switch i {
	case 0:
		t.method = raw
	case 1:
		t.id = raw
	case 2:
		t.params = raw
	case 3:
		t.result = raw
	}
}
