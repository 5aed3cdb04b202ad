package main

import (
	"io"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonWriter is where the CLI writes JSON that holds the agent's text
// (replay --json and --final, audit --json, tap --events). encoding/json
// escapes the C0 controls but writes DEL, the C1 controls (U+009B is CSI
// on many terminals) and the format characters (the bidi overrides and
// isolates, U+200E, U+061C, ...) as they are, and raw JSON the agent sent
// (a reply's result, a frame) keeps even its invalid bytes: printed to a
// terminal, they could move the cursor or reorder a line. jsonWriter
// writes each such rune as its \uXXXX escape and each invalid byte as
// \ufffd, which a decoder reads as the same string (Go's reads an invalid
// byte as U+FFFD): the output stays equal as JSON. Outside strings, valid
// JSON has only ASCII, which passes as is.
//
// Each Write must hold whole runes: the JSON writers write whole lines.
type jsonWriter struct {
	w   io.Writer
	buf []byte // the escaped copy of a Write that needs one
}

func jsonOut(w io.Writer) *jsonWriter { return &jsonWriter{w: w} }

func (j *jsonWriter) Write(p []byte) (int, error) {
	i := jsonUnsafeAt(p)
	if i < 0 {
		return j.w.Write(p)
	}
	j.buf = appendJSONEscaped(append(j.buf[:0], p[:i]...), p[i:])
	if _, err := j.w.Write(j.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// AvailableBuffer is the underlying writer's, when it has one (a
// bufio.Writer): replay.WriteEvent then marshals straight into its free
// space, and Write passes those bytes on unchanged unless they need an
// escape.
func (j *jsonWriter) AvailableBuffer() []byte {
	if a, ok := j.w.(interface{ AvailableBuffer() []byte }); ok {
		return a.AvailableBuffer()
	}
	return nil
}

// jsonUnsafeAt is the offset of the first rune or byte of p that
// jsonWriter escapes, or -1. ASCII is skipped byte by byte: the common
// case.
func jsonUnsafeAt(p []byte) int {
	for i := 0; i < len(p); {
		if p[i] < utf8.RuneSelf {
			if p[i] == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if jsonUnsafe(r, n) {
			return i
		}
		i += n
	}
	return -1
}

// jsonUnsafe says whether a rune of width n must be escaped: a control,
// a format character or an invalid byte. Other unprintable runes (spaces
// other than ' ', private use, runes newer than Go's tables) move nothing
// on a terminal and stay readable.
func jsonUnsafe(r rune, n int) bool {
	return (r == utf8.RuneError && n == 1) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// appendJSONEscaped appends p with every rune jsonUnsafe names escaped.
// Only DEL among ASCII: C0 controls cannot be raw in valid JSON, and the
// whitespace between tokens must stay.
func appendJSONEscaped(dst, p []byte) []byte {
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, `\ufffd`...)
		case r == 0x7f || (r >= utf8.RuneSelf && jsonUnsafe(r, n)):
			dst = appendU(dst, r)
		default:
			dst = append(dst, p[i:i+n]...)
		}
		i += n
	}
	return dst
}

// appendU appends r as JSON's \uXXXX, a surrogate pair beyond U+FFFF.
func appendU(dst []byte, r rune) []byte {
	if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
		return appendU(appendU(dst, r1), r2)
	}
	s := strconv.FormatInt(int64(r)|0x10000, 16)
	return append(append(dst, `\u`...), s[1:]...)
}
