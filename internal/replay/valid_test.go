package replay

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// FuzzValid: the validator accepts what json.Valid accepts, and rejects
// it too unless the difference is inside a long string (whose contents
// it does not check); it finds the top-level members gjson finds first.
func FuzzValid(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]}}`,
		`{"a":"` + strings.Repeat("x", 40) + `\"` + strings.Repeat("y", 40) + `"}`,
		"{\"a\":\"tab\there\"}", `[01]`, `{"a":1,}`, `"\x"`, `1.`, `-`, `{"id":1,"id":2}`, ` {} `, `[[[]]]`,
		`{"method":"a\"b"}`, "\"\u2028\"", `{"a":"\ud800"}`, `"\u12G4"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var tp top
		got := validate(string(b), &tp)
		if want := json.Valid(b); got != want && (want || !longStrings(b)) {
			t.Fatalf("validate(%q) = %v, json.Valid %v", b, got, want)
		}
		if !got || !tp.object {
			return
		}
		for _, m := range []struct{ key, raw string }{{"method", tp.method}, {"id", tp.id}, {"params", tp.params}, {"result", tp.result}} {
			if strings.Contains(string(b), `\`) {
				continue // gjson reads escaped keys unescaped; the replay does not need them
			}
			if g := gjson.GetBytes(b, m.key).Raw; g != m.raw {
				t.Fatalf("%s = %q, gjson %q (%q)", m.key, m.raw, g, b)
			}
		}
	})
}

func TestValidDeep(t *testing.T) {
	for _, n := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		s := strings.Repeat("[", n) + strings.Repeat("]", n)
		if got, want := validate(s, &top{}), json.Valid([]byte(s)); got != want {
			t.Errorf("depth %d: %v, json.Valid %v", n, got, want)
		}
	}
}

// longStrings reports whether b has a run of longString bytes without a
// quote: where a string's contents go unchecked.
func longStrings(b []byte) bool {
	n := 0
	for _, c := range b {
		if c == '"' {
			n = 0
			continue
		}
		if n++; n >= longString {
			return true
		}
	}
	return false
}

// TestValidLongStrings: a long string's end is found past escaped quotes
// and backslashes; the structure after it is still checked.
func TestValidLongStrings(t *testing.T) {
	long := strings.Repeat("ab\\\"c\\n", 100)
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{`{"a":"` + long + `"}`, true},
		{`{"a":"` + long + `\\"}`, true},
		{`{"a":"` + long + `\"}`, false},
		{`{"a":"` + long + `"`, false},
		{`{"a":"` + long + `"}}`, false},
		{`{"a":"` + strings.Repeat("x", longString-1) + `\\"}`, true},
		{`{"a":"` + strings.Repeat("x", longString-1) + `\"}`, false},
	} {
		if got := validate(tt.s, &top{}); got != tt.want || got != json.Valid([]byte(tt.s)) {
			t.Errorf("validate(...%q) = %v, want %v", tt.s[len(tt.s)-min(12, len(tt.s)):], got, tt.want)
		}
	}
}

// FuzzSessionID: the fast read of a valid object's sessionId finds what
// member finds.
func FuzzSessionID(f *testing.F) {
	for _, s := range []string{
		`{"sessionId":"abc","update":{}}`, `{"sessionId":"a\"b"}`, `{"sessionId":"a\\"}`,
		`{"sessionId":1}`, `{"cwd":"/","sessionId":"x"}`, `{"sessionId":"x","sessionId":"y"}`, `{}`,
		`{"sessionId":"é\u00e9"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, obj string) {
		if !json.Valid([]byte(obj)) {
			return // the replay reads only valid lines' members
		}
		if got, want := sessionID(obj), member(obj, "sessionId"); got != want {
			t.Fatalf("sessionID(%q) = %q, member %q", obj, got, want)
		}
	})
}
