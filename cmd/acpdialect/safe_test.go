package main

import "testing"

func TestSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain text, with «unicode» └ …", "plain text, with «unicode» └ …"},
		{"\x1b[2J\x1b]0;pwned\x07", `\x1b[2J\x1b]0;pwned\a`},
		{"row\n99  forged", `row\n99  forged`},
		{"tab\there\r", `tab\there\r`},
		{"del\x7f", `del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bidi \u202egnp.exe", `bidi \u202egnp.exe`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"real \ufffd kept", "real \ufffd kept"},
		{"é\x00", `é\x00`},
	}
	for _, tt := range tests {
		if got := safe(tt.in); got != tt.want {
			t.Errorf("safe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
