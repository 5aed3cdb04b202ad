package grok

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect/internal/scan"
)

// writer writes the pieces a rewrite builds (the set_model params, the
// config options, a refusal's message) in two passes over the same code:
// the first counts the bytes, the second writes them into one allocation
// of exactly that size. A piece costs one allocation, with no
// intermediate values, and the count cannot drift from what is written.
type writer struct {
	b     []byte
	n     int
	write bool
}

// build runs f twice, to count and then to write, and returns the bytes.
func build(f func(w *writer)) []byte {
	var w writer
	f(&w)
	w = writer{b: make([]byte, 0, w.n), write: true}
	f(&w)
	return w.b
}

// buildString is build's bytes as a string: they are never changed, so
// the string shares them.
func buildString(f func(w *writer)) string { return scan.UnsafeString(build(f)) }

func (w *writer) raw(s string) {
	if w.write {
		w.b = append(w.b, s...)
	} else {
		w.n += len(s)
	}
}

// str writes s as a JSON string exactly as encoding/json does: the usual
// plain string as it is, any other through json.Marshal (it escapes <, >
// and &, and replaces invalid UTF-8).
func (w *writer) str(s string) {
	if !plainJSON(s) {
		q, _ := json.Marshal(s) // a string: it cannot fail
		w.raw(scan.UnsafeString(q))
		return
	}
	w.raw(`"`)
	w.raw(s)
	w.raw(`"`)
}

// plainJSON reports whether encoding/json writes s between quotes as it is.
func plainJSON(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&':
			return false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return ascii || utf8.ValidString(s) && !strings.ContainsRune(s, '\u2028') && !strings.ContainsRune(s, '\u2029')
}

// quote writes s as fmt's %q does: printable ASCII as it is, any other
// through strconv.Quote.
func (w *writer) quote(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			w.raw(strconv.Quote(s))
			return
		}
	}
	w.raw(`"`)
	w.raw(s)
	w.raw(`"`)
}
