package replay

import (
	"encoding/json"
	"strings"
	"testing"

	tw "github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// FuzzValid: the validator accepts what json.Valid accepts, and rejects
// it too unless the difference is inside a long string (whose contents
// it does not check); it finds the top-level members gjson finds first,
// escaped names decoded as gjson decodes them.
func FuzzValid(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]}}`,
		`{"a":"` + strings.Repeat("x", 40) + `\"` + strings.Repeat("y", 40) + `"}`,
		"{\"a\":\"tab\there\"}", `[01]`, `{"a":1,}`, `"\x"`, `1.`, `-`, `{"id":1,"id":2}`, ` {} `, `[[[]]]`,
		`{"method":"a\"b"}`, "\"\u2028\"", `{"a":"\ud800"}`, `"\u12G4"`,
		`{"\u006dethod":"x","method":"y","i\u0064":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var tp top
		got := validate(string(b), &tp)
		if want := json.Valid(b); got != want {
			t.Fatalf("validate(%q) = %v, json.Valid %v", b, got, want)
		}
		if !got || !tp.object {
			return
		}
		for _, m := range []struct{ key, raw string }{{"method", tp.method}, {"id", tp.id}, {"params", tp.params}, {"result", tp.result}} {
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

// TestValidLongStrings: a long string is checked to its end (past escaped
// quotes and backslashes, a bad escape or a control character deep in it
// caught), and the structure after it too.
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
		{`{"a":"` + strings.Repeat("x", 300) + `\\"}`, true},
		{`{"a":"` + strings.Repeat("x", 300) + `\"}`, false},
		{`{"a":"` + long + `\q"}`, false},
		{`{"a":"` + long + "\x01" + `"}`, false},
		{`{"a":"` + long + `\u00e9"}`, true},
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

// TestEscapedMemberNames: a frame whose top-level member names are
// escaped ("\u006dethod") is the same JSON as one whose names are not,
// and replays the same, as the Conn reads it (it decodes member names).
func TestEscapedMemberNames(t *testing.T) {
	escape := strings.NewReplacer(`"method":`, `"\u006dethod":`, `"id":`, `"\u0069d":`,
		`"params":`, `"p\u0061rams":`, `"result":`, `"r\u0065sult":`)
	plain := append(cursorInit(), tw.CursorTaskToolCall("s1", "t1"), task(9),
		tw.Request(3, "session/request_permission", map[string]any{"sessionId": "s1"}))
	var escaped [][]byte
	for _, f := range plain {
		// The first of each name is the top-level one in these frames.
		e := string(f)
		for _, k := range []string{"method", "id", "params", "result"} {
			if i := strings.Index(e, `"`+k+`":`); i >= 0 {
				e = e[:i] + escape.Replace(e[i:i+len(k)+3]) + e[i+len(k)+3:]
			}
		}
		if e == string(f) || !json.Valid([]byte(e)) {
			t.Fatalf("frame not escaped: %s", e)
		}
		escaped = append(escaped, []byte(e))
	}
	want, err := Run(Builtins(), transcript(plain...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Run(Builtins(), transcript(escaped...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Bad) != 0 {
		t.Errorf("escaped names taken for bad lines: %+v", got.Bad)
	}
	w, _ := json.Marshal([]any{want.Agent, want.Events, want.Replies, want.Cards, want.Sessions})
	g, _ := json.Marshal([]any{got.Agent, got.Events, got.Replies, got.Cards, got.Sessions})
	if string(g) != string(w) {
		t.Errorf("escaped names replay as\n%s\nplain ones as\n%s", g, w)
	}
	if len(want.Events) == 0 || len(want.Replies) == 0 {
		t.Errorf("the transcript shows nothing: %s", w)
	}
}

// A response that writes the request's string id escaped (as encoding/json
// writes "<") answers that request, in the replay as in the Conn: the
// agent is identified and the turn's prompt response ends it.
func TestEscapedResponseIDs(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":"i<1>","method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":"i\u003c1\u003e","result":{"agentInfo":{"name":"cursor-agent"}}}`,
		`{"jsonrpc":"2.0","id":"n\u0031","method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":"n1","result":{"sessionId":"s1"}}`,
	}
	var frames [][]byte
	for _, l := range lines {
		frames = append(frames, []byte(l))
	}
	got, err := Run(Builtins(), transcript(frames...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Agent != "cursor" || len(got.Sessions) != 1 {
		t.Errorf("agent %q, %d sessions; want cursor and s1", got.Agent, len(got.Sessions))
	}
}
