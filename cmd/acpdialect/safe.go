package main

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// safe makes agent-controlled text harmless on a terminal: each control
// character (C0, DEL, C1), format character (bidi overrides), other
// unprintable rune and invalid byte is written as its Go escape (\x1b,
// \n, \u202e, \xff). Without it an agent could colour, move the cursor,
// set the window title or forge whole rows of the view through a session
// id, a method name or an error message; the view and audit print those
// unquoted. Printable text, the common case, comes back as is.
func safe(s string) string {
	i := unsafeAt(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		b.WriteString(escapeRune(r, s, &i))
	}
	return b.String()
}

// unsafeAt is the byte offset of the first rune safe must escape, or -1.
func unsafeAt(s string) int {
	for i, r := range s {
		if !printable(r) || (r == utf8.RuneError && isInvalid(s[i:])) {
			return i
		}
	}
	return -1
}

func printable(r rune) bool { return r == ' ' || unicode.IsPrint(r) }

// isInvalid says whether s starts with a byte that is not UTF-8 (a
// RuneError of width 1), as opposed to a real U+FFFD.
func isInvalid(s string) bool {
	_, n := utf8.DecodeRuneInString(s)
	return n == 1
}

// escapeRune is r as safe writes it. The range loop hands an invalid byte
// over as RuneError, so i (advanced here) finds the byte itself.
func escapeRune(r rune, s string, i *int) string {
	at := *i
	_, n := utf8.DecodeRuneInString(s[at:])
	*i += n
	switch {
	case r == utf8.RuneError && n == 1:
		return `\x` + strconv.FormatUint(uint64(s[at])|0x100, 16)[1:]
	case printable(r):
		return string(r)
	}
	q := strconv.QuoteRuneToASCII(r)
	return q[1 : len(q)-1]
}
