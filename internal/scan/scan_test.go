package scan

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestSkipValue(t *testing.T) {
	tests := []struct {
		in   string
		want string // the value skipValue finds at the start of in
	}{
		{`"abc",1`, `"abc"`},
		{`"a\"b",1`, `"a\"b"`},
		{`"a\\",1`, `"a\\"`},
		{`"a\\\"b\\",1`, `"a\\\"b\\"`},
		{`"unterminated`, `"unterminated`},
		{`{"a":"}","b":[1,{"c":"]"}]},2`, `{"a":"}","b":[1,{"c":"]"}]}`},
		{`[1,"x",[2]] ,`, `[1,"x",[2]]`},
		{`123,`, `123`},
		{`true}`, `true`},
		{`null `, `null`},
		{`{"open":`, `{"open":`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := tt.in[:SkipValue(tt.in, 0)]; got != tt.want {
			t.Errorf("SkipValue(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestMembers(t *testing.T) {
	type kv struct{ k, v string }
	tests := []struct {
		name string
		in   string
		want []kv
		end  int
	}{
		{"plain", `{"a":1,"b":"x"}`, []kv{{"a", "1"}, {"b", `"x"`}}, 15},
		{"spaces", ` { "a" : [1, 2] , "b":{} } `, []kv{{"a", "[1, 2]"}, {"b", "{}"}}, 26},
		{"empty", `{}`, nil, 2},
		{"runs on past the object", `{"a":1},"b":2}`, []kv{{"a", "1"}}, 7},
		{"escaped key", `{"tool\u0043allId":"t"}`, []kv{{"toolCallId", `"t"`}}, 23},
		{"duplicate keys both visited", `{"a":1,"a":2}`, []kv{{"a", "1"}, {"a", "2"}}, 13},
		{"broken after a member", `{"a":1,"b"`, []kv{{"a", "1"}}, -1},
		{"not an object", `[1]`, nil, -1},
		{"truncated value", `{"a":"x`, []kv{{"a", `"x`}}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []kv
			end := Members(tt.in, func(k, raw string) bool {
				got = append(got, kv{k, raw})
				return true
			})
			if len(got) != len(tt.want) {
				t.Fatalf("members = %q; want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("members = %q; want %q", got, tt.want)
				}
			}
			if end != tt.end {
				t.Fatalf("end = %d; want %d", end, tt.end)
			}
		})
	}
}

func TestResult(t *testing.T) {
	for _, raw := range []string{`"plain"`, `"esc\"aped\u0041"`, `{"a":1}`, `[1,2]`, `12.5`, `-3`, `true`, `false`, `null`,
		`0`, `-0`, `7`, `200000`, `-123456789012345`, `999999999999999`, `1234567890123456`, `9007199254740993`, `-0.0`, `1e3`} {
		checkResult(t, raw)
	}
}

// checkResult fails unless Result reads a valid JSON scalar or container
// exactly as gjson.Parse does, bit for bit in Num (the sign of -0 too).
func checkResult(t *testing.T, raw string) {
	t.Helper()
	got, want := Result(raw), gjson.Parse(raw)
	if got.Type != want.Type || got.Str != want.Str || math.Float64bits(got.Num) != math.Float64bits(want.Num) ||
		got.Raw != want.Raw || got.Index != want.Index {
		t.Errorf("Result(%s) = %+v; gjson.Parse = %+v", raw, got, want)
	}
}

// FuzzResult: any valid JSON value is read as gjson.Parse reads it.
func FuzzResult(f *testing.F) {
	for _, s := range []string{`0`, `-0`, `12`, `-12.5e3`, `123456789012345678`, `true`, `null`, `"a\nb"`, `[1]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !json.Valid([]byte(raw)) || strings.TrimSpace(raw) != raw {
			// Strings and containers are viewed, not checked: the
			// scanner found their ends. Numbers and literals are checked.
			if r := Result(raw); r.Exists() && !json.Valid([]byte(raw)) &&
				(r.Type == gjson.Number || r.Type == gjson.True || r.Type == gjson.False || r.Type == gjson.Null) {
				t.Fatalf("Result(%q) = %+v for invalid JSON", raw, r)
			}
			return
		}
		checkResult(t, raw)
	})
}

// The scanner must read a valid object exactly as gjson's ForEach does, and
// must survive anything else.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"tool_call_update","toolCallId":"t","content":[{"type":"content","content":{"type":"text","text":"a \"quoted\" \\ line\n"}}],"rawOutput":{"durationMs":4200}}`,
		`{"a":{"b":[1,2,{"c":"}"}]},"d":"\\\\\"","e":-1.5e3,"f":null}`,
		`{"a":1`, `{`, `{"a":"\`, `[]`, `"x"`, ``, ` {"a" : 1 } `,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		type kv struct{ k, v string }
		var got []kv
		end := Members(s, func(k, raw string) bool {
			if raw == "" || !strings.Contains(s, raw) {
				t.Fatalf("raw value %q is not a piece of the input", raw)
			}
			got = append(got, kv{k, raw})
			return true
		})
		if end > len(s) {
			t.Fatalf("end %d past the input (%d)", end, len(s))
		}
		if !json.Valid([]byte(s)) || !gjson.Parse(s).IsObject() {
			return
		}
		if end < 0 {
			t.Fatalf("a valid object was not read to its end")
		}
		var want []kv
		gjson.Parse(s).ForEach(func(k, v gjson.Result) bool {
			want = append(want, kv{k.Str, v.Raw})
			return true
		})
		if len(got) != len(want) {
			t.Fatalf("members %q; gjson %q", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("member %d: %q; gjson %q", i, got[i], want[i])
			}
			if r := Result(got[i].v); r.Type != gjson.Parse(got[i].v).Type {
				t.Fatalf("Result(%s) type %v", got[i].v, r.Type)
			}
		}
	})
}

func TestMemberTail(t *testing.T) {
	tests := []struct{ in, key, want string }{
		{`{"a":1,"params":{"x":"y"},"z":2}`, "params", `{"x":"y"},"z":2}`},
		{`{"params" : [1] }`, "params", `[1] }`},
		{`{"a":{"params":1},"b":2}`, "params", ``},
		{`{"a":1}`, "params", ``},
		{`{"a":"x`, "params", ``},
	}
	for _, tt := range tests {
		if got := MemberTail(tt.in, tt.key); got != tt.want {
			t.Errorf("MemberTail(%s, %s) = %q; want %q", tt.in, tt.key, got, tt.want)
		}
	}
}

func TestResultIsStrict(t *testing.T) {
	for _, raw := range []string{`t`, `tru`, `nul`, `f`, `1e`, `-`, `00`, `"open`, `x`, `+1`} {
		if r := Result(raw); r.Exists() {
			t.Errorf("Result(%s) = %+v; want absent", raw, r)
		}
	}
	for _, raw := range []string{`0`, `-0.5`, `1e3`, `true`, `null`, `""`} {
		if r := Result(raw); !r.Exists() {
			t.Errorf("Result(%s) is absent", raw)
		}
	}
}

// scanString reads short strings by hand and long ones with two searches:
// quotes and escapes before, at and after the 32nd byte.
func TestScanString(t *testing.T) {
	long := strings.Repeat("x", 31)
	tests := []struct {
		in      string
		want    string
		escaped bool
	}{
		{`"",1`, `""`, false},
		{`"abc",1`, `"abc"`, false},
		{`"a\"b",1`, `"a\"b"`, true},
		{`"a\\",1`, `"a\\"`, true},
		{`"` + long + `",1`, `"` + long + `"`, false},
		{`"` + long + `x",1`, `"` + long + `x"`, false},
		{`"` + long + `xy",1`, `"` + long + `xy"`, false},
		{`"` + long + `\"",1`, `"` + long + `\""`, true},
		{`"` + long + `x\\",1`, `"` + long + `x\\"`, true},
		{`"` + long + `xy\n",1`, `"` + long + `xy\n"`, true},
		{`"` + long + long + `",1`, `"` + long + long + `"`, false},
		{`"unterminated`, `"unterminated`, false},
		{`"` + long + `unterminated\`, `"` + long + `unterminated\`, true},
	}
	for _, tt := range tests {
		end, escaped := ScanString(tt.in, 1)
		if got := tt.in[:end]; got != tt.want || escaped != tt.escaped {
			t.Errorf("ScanString(%q) = %q, %v; want %q, %v", tt.in, got, escaped, tt.want, tt.escaped)
		}
	}
}

func TestValid(t *testing.T) {
	deep := func(n int, open, close string) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	for _, s := range []string{
		``, ` `, `{}`, `[]`, ` { } `, `{"a":1}`, `{"a":1,}`, `{,"a":1}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a"}`, `{1:2}`,
		`[1,2]`, `[1,]`, `[,1]`, `[1 2]`, `[}`, `{]`, `{"a":[1,{"b":null}]}`, `{"a":[1,{"b":nul}]}`,
		`"x"`, `"x`, `"\"`, `"\\"`, `"\u00e9"`, `"\u00g9"`, `"\u00e"`, `"\x"`, `"a` + "\t" + `b"`, "\"\xff\"",
		`true`, `tru`, `truex`, `false`, `null`, `nulll`,
		`0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1e+5`, `1E-05`, `-1.0e0`, `+1`, `1.5.5`,
		`{"id":7}xyz`, `{"id":7}{"id":8}`, `{"id":7} `, "{\"id\":7}\r\n", `{"id":7`,
		`"0123456789abcdef\"0123456789"`, `"0123456789abcdef\u00e9x"`, "\"0123456789abcd\x1fef0123456789\"",
		"\"0123456789\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 and more\"", `"0123456789abcdef0123456789`,
		`{"0123456789abcdef":"0123456789abcdef","x":["0123456789abcdef"]}`,
		deep(10000, "[", "]"), deep(10001, "[", "]"), deep(10000, `{"a":`, "}"), deep(10001, `{"a":`, "}"),
	} {
		if got, want := Valid(s), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.40q) = %v; encoding/json says %v", s, got, want)
		}
	}
}

// FuzzValid: scan.Valid agrees with encoding/json on any input.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":null}],"c":"\u00e9\n"}`, `[-0.5e+3,true,false]`, `{"id":7}x`, `"\ud800"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := json.Valid([]byte(s))
		if got := Valid(s); got != want {
			t.Fatalf("Valid(%q) = %v; encoding/json says %v", s, got, want)
		}
		// CheckValue checks the same value, wherever it stands: here
		// inside two open containers.
		in := `[{"k":` + s + `}]`
		end := CheckValue(in, 6, 2)
		got := end >= 0 && SkipSpace(in, end) == len(in)-2
		deep := strings.Count(s, "[")+strings.Count(s, "{") >= maxDepth-2 // the two count
		if len(s) > 0 && !deep && want != got {
			t.Fatalf("CheckValue(%q) = %d; encoding/json says valid %v", in, end, want)
		}
	})
}

// validFrame is a Cursor subagent tool call, the kind of frame the Conn
// validates before it acts.
const validFrame = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_01JZ4Q8W3V6T2N9K5R7M1X0B8C",` +
	`"update":{"sessionUpdate":"tool_call","toolCallId":"toolu_000001","title":"Task: Subagent task","kind":"other",` +
	`"status":"in_progress","rawInput":{"_toolName":"task","description":"Summarize src 1",` +
	`"prompt":"Summarize the JS files under src","subagentType":"explore"}}}}`

var sinkBool bool

func BenchmarkValid(b *testing.B) {
	b.SetBytes(int64(len(validFrame)))
	for b.Loop() {
		sinkBool = Valid(validFrame)
	}
}

// BenchmarkValidJSON is encoding/json's Valid on the same frame.
func BenchmarkValidJSON(b *testing.B) {
	frame := []byte(validFrame)
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		sinkBool = json.Valid(frame)
	}
}

// skipStringByBackslashes is SkipString as it was before its 8-byte
// steps: a byte search for each quote, escaped when an odd run of
// backslashes precedes it.
func skipStringByBackslashes(s string, i int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '"')
		if j < 0 {
			return len(s)
		}
		i += j
		n := 0
		for k := i - 1; k >= 0 && s[k] == '\\'; k-- {
			n++
		}
		i++
		if n%2 == 0 {
			return i
		}
	}
	return len(s)
}

// FuzzSkipString: the 8-byte steps of SkipString and ScanString end a
// string where the byte search does, whatever the bytes, and ScanString
// sees every backslash.
func FuzzSkipString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b"`, `"a\\\\"x"`, `"0123456789abcdef0123456789abcdef0123\"456789"`, `"\\`, `"abcdefg\`, `"\u00e9\\\\\\"q"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) == 0 || s[0] != '"' {
			return
		}
		want := skipStringByBackslashes(s, 1)
		if got := SkipString(s, 1); got != want {
			t.Fatalf("SkipString(%q) = %d; want %d", s, got, want)
		}
		end, escaped := ScanString(s, 1)
		if end != want || escaped != strings.Contains(s[1:want], `\`) {
			t.Fatalf("ScanString(%q) = %d, %v; want %d", s, end, escaped, want)
		}
	})
}

// skipValueByBrackets is SkipValue as it was before skipContainer: the
// reference FuzzSkipValue holds it to.
func skipValueByBrackets(s string, i int) int {
	if i >= len(s) || (s[i] != '{' && s[i] != '[') {
		return SkipValue(s, i)
	}
	depth := 0
	for i < len(s) {
		switch s[i] {
		case '"':
			i = skipStringByBackslashes(s, i+1)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(s)
}

// FuzzSkipValue: SkipValue ends an object or array where counting
// brackets outside strings does, whatever the bytes.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a":"}","b":[1,{"c":"]"}]},2`, `[1,"x\"]",[2]] ,`, `{"open":`, `{"a":"\\"}`, `["\`, `{"k":{"l":[{"m":"|{}|"}]}}x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := SkipValue(s, 0), skipValueByBrackets(s, 0); got != want {
			t.Fatalf("SkipValue(%q) = %d; want %d", s, got, want)
		}
	})
}

type member struct{ k, v string }

func collect(out *[]member) func(k, raw string) bool {
	return func(k, raw string) bool {
		*out = append(*out, member{k, raw})
		return true
	}
}

// FuzzMembersValid: the checking walk reads a valid object as Members
// does and calls it valid exactly when encoding/json does (inside one
// open container, as a frame's params are); and ValidExcept, trusting
// the span of a member the checking walk found valid, agrees with
// encoding/json on the whole input.
func FuzzMembersValid(f *testing.F) {
	for _, s := range []string{
		validFrame, `{"a":{"b":[1,{"c":"\u00e9"}]},"d":"x"}`, `{"a":{"b":tru},"c":1}`, `{"a":{"b":1},"c":}`,
		`{"a":{"b":1} "c":1}`, `{"k\"ey":{"x":"y"}}`, `{"a":{}}`, `{"a":{"b":"` + "\x01" + `"}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var lenient, checked []member
		end := Members(s, collect(&lenient))
		cend, valid := MembersValid(s, 0, collect(&checked))
		objEnd := end
		if valid && cend > 0 {
			if cend != end || !slices.Equal(checked, lenient) {
				t.Fatalf("MembersValid read %q to %d; Members %q to %d", checked, cend, lenient, end)
			}
		}
		if end > 0 && json.Valid([]byte(s[:end])) != (valid && cend > 0) {
			t.Fatalf("MembersValid(%q) valid=%v end=%d; encoding/json says %v", s, valid, cend, json.Valid([]byte(s[:end])))
		}
		if objEnd < 0 {
			return
		}
		// Each object member, read by the checking walk one level down,
		// then trusted by ValidExcept.
		for _, m := range lenient {
			if m.v[0] != '{' {
				continue
			}
			start := strings.Index(s, m.v) // the first occurrence: a value found again later is fine too
			mend, ok := MembersValid(s[start:], 1, func(string, string) bool { return true })
			if !ok || mend <= 0 {
				continue
			}
			if got, want := ValidExcept(s, start, start+mend), json.Valid([]byte(s)); got != want {
				t.Fatalf("ValidExcept(%q, %d, %d) = %v; encoding/json says %v", s, start, start+mend, got, want)
			}
		}
	})
}

// FuzzMembersValidIn: reading the members of the objects one member
// holds, in the same checked walk, changes nothing of what MembersValid
// reads and decides; on a valid object, it reads those members as Members
// reads them from each such object.
func FuzzMembersValidIn(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"result":{"sessionId":"s","models":[{"a":1}]}}`, `{"result":{"a":1},"result":{"b":2}}`,
		`{"result":[1],"x":{"result":{"c":1}}}`, `{"result":{"a":tru}}`, `{"result":{"a":1}`, `{"result":{}}`,
		`{"result":{"a":{"b":"` + "\x01" + `"}}}`,
	} {
		f.Add(s, "result")
	}
	f.Fuzz(func(t *testing.T, s, in string) {
		var plain, outer, inner []member
		pend, pvalid := MembersValid(s, 0, collect(&plain))
		end, valid := MembersValidIn(s, 0, collect(&outer), in, collect(&inner))
		if end != pend || valid != pvalid {
			t.Fatalf("MembersValidIn(%q, %q) = %d, %v; MembersValid %d, %v", s, in, end, valid, pend, pvalid)
		}
		if !valid || end < 0 {
			return
		}
		if !slices.Equal(outer, plain) {
			t.Fatalf("MembersValidIn(%q) read %q; MembersValid %q", s, outer, plain)
		}
		var want []member
		for _, m := range plain {
			if m.k == in && m.v[0] == '{' {
				Members(m.v, collect(&want))
			}
		}
		if !slices.Equal(inner, want) {
			t.Fatalf("MembersValidIn(%q, %q) read inside %q; Members %q", s, in, inner, want)
		}
	})
}

// TestIDKey: ids equal in value have one key, as the ACP SDK matches them;
// plain strings and integers are their own keys.
func TestIDKey(t *testing.T) {
	same := [][]string{
		{`"a<1>"`, `"a\u003c1\u003e"`},
		{`"p1"`, `"p\u0031"`},
		{`1`, `1.0`, `1e0`, `10e-1`, `0.1e1`, `1E+0`, `1.000`},
		{`120`, `1.2e2`, `12e1`, `120.0`},
		{`-7`, `-7.0`, `-70e-1`},
		{`0`, `-0`, `0.0`, `0e5`, `-0.0e-3`},
		{`1.5`, `15e-1`, `1.50`},
		{`9007199254740993`, `9007199254740993.0`},
		// Past 64 trailing zeros the key is digits and exponent, for
		// every way of writing the value.
		{`1` + strings.Repeat("0", 65), `1e65`, `1` + strings.Repeat("0", 65) + `.0e0`},
		{`1` + strings.Repeat("0", 64), `1e64`},
	}
	for _, set := range same {
		for _, id := range set[1:] {
			if IDKey(id) != IDKey(set[0]) {
				t.Errorf("IDKey(%s) = %q, IDKey(%s) = %q; want one key", id, IDKey(id), set[0], IDKey(set[0]))
			}
		}
	}
	differ := [][2]string{
		{`1`, `"1"`}, {`1`, `2`}, {`1.5`, `15`}, {`9007199254740993`, `9007199254740992`},
		{`-1`, `1`}, {`null`, `"null"`}, {`"a\\b"`, `"a\b"`},
	}
	for _, p := range differ {
		if IDKey(p[0]) == IDKey(p[1]) {
			t.Errorf("IDKey(%s) = IDKey(%s) = %q; want two keys", p[0], p[1], IDKey(p[0]))
		}
	}
	for _, id := range []string{`0`, `7`, `-12`, `123456789`, `"plain"`, `null`, `"\u"`, `1e999999999`, `--1`, `-`} {
		if got := IDKey(id); (id == `0` || id == `7` || id == `-12` || id == `123456789` || id == `"plain"` || id == `null`) && got != id {
			t.Errorf("IDKey(%s) = %q; want the id itself", id, got)
		}
	}
	if n := testing.AllocsPerRun(100, func() { IDKey(`12345`); IDKey(`"abc"`) }); n != 0 {
		t.Errorf("%v allocations for plain ids; want 0", n)
	}
}

// FuzzIDKey: any id, however broken, gets a key without a panic; a number
// and the same number with a zero fraction and exponent have one key.
func FuzzIDKey(f *testing.F) {
	for _, s := range []string{`1`, `1.0`, `-0`, `1e5`, `"a\u003c"`, `"\u"`, `1e999999999`, `0.000e-3`, `--1`, `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		k := IDKey(id)
		if plainInt(id) && k != id {
			t.Fatalf("IDKey(%q) = %q; a plain integer is its own key", id, k)
		}
		if plainInt(id) && IDKey(id+".0e0") != k {
			t.Fatalf("IDKey(%q) = %q, IDKey(%q) = %q", id, k, id+".0e0", IDKey(id+".0e0"))
		}
	})
}
