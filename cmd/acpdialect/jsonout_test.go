package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJSONWriter: the runes a terminal acts on and invalid bytes become
// escapes that decode to the same string; everything else, the JSON's
// own whitespace too, passes as is.
func TestJSONWriter(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"a":"plain é 🎉 └ …"}` + "\n", `{"a":"plain é 🎉 └ …"}` + "\n"},
		{"{\n\t\"a\" : 1 }\r\n", "{\n\t\"a\" : 1 }\r\n"},
		{`{"a":"` + "del\x7f c1\u0085\u009b" + `"}`, `{"a":"del\u007f c1\u0085\u009b"}`},
		{`{"a":"` + "\u202a\u202e\u2066\u2069\u200e\u200f\u061c" + `"}`, `{"a":"\u202a\u202e\u2066\u2069\u200e\u200f\u061c"}`},
		{`{"a":"` + "soft\u00adhy\ufeff tag\U000e0001" + `"}`, `{"a":"soft\u00adhy\ufeff tag\udb40\udc01"}`},
		{`{"a":"` + "bad\xff\xe2\x80 ok\ufffd" + `"}`, `{"a":"bad\ufffd\ufffd\ufffd ok` + "\ufffd" + `"}`},
		{`{"a":"` + "nbsp\u00a0 ideographic\u3000space" + `"}`, `{"a":"` + "nbsp\u00a0 ideographic\u3000space" + `"}`},
	} {
		var b bytes.Buffer
		if n, err := jsonOut(&b).Write([]byte(tt.in)); err != nil || n != len(tt.in) {
			t.Errorf("Write(%q) = %d, %v", tt.in, n, err)
		}
		if b.String() != tt.want {
			t.Errorf("Write(%q) wrote %q, want %q", tt.in, b.String(), tt.want)
		}
		var in, out any
		if json.Unmarshal([]byte(tt.in), &in) == nil && (json.Unmarshal(b.Bytes(), &out) != nil || !cmp.Equal(in, out)) {
			t.Errorf("Write(%q) decodes to %v, the input to %v", tt.in, out, in)
		}
	}
}
