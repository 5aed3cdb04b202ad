package frame_test

import (
	"testing"
	"unsafe"

	"github.com/acpdialect/acpdialect/frame"
)

// OwnTogether copies every non-empty view, in one allocation, and leaves
// empty fields empty.
func TestOwnTogether(t *testing.T) {
	buf := []byte(`{"name":"plan","description":"Make a plan"}`)
	name, empty, desc := string(buf[9:13]), "", string(buf[30:41])
	views := []string{view(buf[9:13]), "", view(buf[30:41])}
	n := testing.AllocsPerRun(10, func() {
		a, b, c := views[0], views[1], views[2]
		frame.OwnTogether(&a, &b, &c)
	})
	if n != 1 {
		t.Errorf("%.0f allocs, want 1", n)
	}
	a, b, c := views[0], views[1], views[2]
	frame.OwnTogether(&a, &b, &c)
	for i := range buf {
		buf[i] = 'x' // the frame is reused
	}
	if a != name || b != empty || c != desc {
		t.Errorf("after the frame changed: %q %q %q, want %q %q %q", a, b, c, name, empty, desc)
	}
	var none string
	if n := testing.AllocsPerRun(10, func() { frame.OwnTogether(&none) }); n != 0 || none != "" {
		t.Errorf("nothing to copy: %.0f allocs, %q", n, none)
	}
}

// view is b as a string that views it, as the strings a hook reads view
// the Conn's frame.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Head keeps at most max bytes, cut before a rune that crosses max, and
// returns a copy that no longer views s.
func TestHead(t *testing.T) {
	tests := []struct {
		s    string
		max  int
		want string
	}{
		{"", 4, ""},
		{"abc", 4, "abc"},
		{"abcd", 4, "abcd"},
		{"abcde", 4, "abcd"},
		{"abé", 3, "ab"}, // é is 2 bytes: cut before it
		{"é€x", 4, "é"},  // € is 3 bytes from byte 2
		{"€", 2, ""},     // nothing whole fits
		{"abc", 0, ""},
	}
	for _, tc := range tests {
		got := frame.Head(tc.s, tc.max)
		if got != tc.want {
			t.Errorf("Head(%q, %d) = %q, want %q", tc.s, tc.max, got, tc.want)
		}
		if len(got) > 0 && unsafe.StringData(got) == unsafe.StringData(tc.s) {
			t.Errorf("Head(%q, %d) views its input", tc.s, tc.max)
		}
		view := frame.HeadView(tc.s, tc.max)
		if view != tc.want {
			t.Errorf("HeadView(%q, %d) = %q, want %q", tc.s, tc.max, view, tc.want)
		}
		if len(view) > 0 && unsafe.StringData(view) != unsafe.StringData(tc.s) {
			t.Errorf("HeadView(%q, %d) copied its input", tc.s, tc.max)
		}
	}
}

func TestTailView(t *testing.T) {
	tests := []struct {
		s    string
		max  int
		want string
	}{
		{"", 4, ""},
		{"abc", 4, "abc"},
		{"abcde", 4, "bcde"},
		{"éab", 3, "ab"}, // é is 2 bytes: cut after it
		{"x€é", 4, "é"},  // € ends at byte 4
		{"€", 2, ""},     // nothing whole fits
		{"abc", 0, ""},
	}
	for _, tc := range tests {
		got := frame.TailView(tc.s, tc.max)
		if got != tc.want {
			t.Errorf("TailView(%q, %d) = %q, want %q", tc.s, tc.max, got, tc.want)
		}
		if len(got) > 0 && unsafe.StringData(got) != unsafe.StringData(tc.s[len(tc.s)-len(got):]) {
			t.Errorf("TailView(%q, %d) copied its input", tc.s, tc.max)
		}
	}
}
