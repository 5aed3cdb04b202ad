package main

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// endless is a reader of 'x' without end: a line that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestEachLine: lines up to max bytes (their newline included) reach fn
// whole, in order, the last one without a newline too; a longer one, or
// one that never ends, stops the reading with errLineTooLong before fn
// sees any of it, holding at most about max bytes.
func TestEachLine(t *testing.T) {
	const max = 200 << 10 // over bufio's 64 KiB buffer, so that long lines are joined
	long := strings.Repeat("y", max-1) + "\n"
	tests := []struct {
		name    string
		in      io.Reader
		want    []string
		tooLong bool
	}{
		{"short lines", strings.NewReader("a\nb\r\nc"), []string{"a\n", "b\r\n", "c"}, false},
		{"a line of max bytes", strings.NewReader("a\n" + long + "b\n"), []string{"a\n", long, "b\n"}, false},
		{"a line of max+1 bytes", strings.NewReader("a\n" + "z" + long + "b\n"), []string{"a\n"}, true},
		{"a last line over max without newline", strings.NewReader("a\n" + strings.Repeat("z", max+1)), []string{"a\n"}, true},
		{"a line without end", io.MultiReader(strings.NewReader("a\n"), endless{}), []string{"a\n"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := eachLine(tt.in, max, func(b []byte) error {
				got = append(got, string(b))
				return nil
			})
			if tt.tooLong != errors.Is(err, errLineTooLong) || (!tt.tooLong && err != nil) {
				t.Fatalf("err = %v, want too long: %v", err, tt.tooLong)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("fn saw %d lines %.80q, want %d %.80q", len(got), got, len(tt.want), tt.want)
			}
		})
	}
}
