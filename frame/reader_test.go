package frame_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// dump reads one value of any type with the Reader, writing what it read:
// strings quoted, true as T, objects as {k:v,...}, arrays as [v,...], any
// other value (skipped) as _.
func dump(r *frame.Reader, b *strings.Builder) {
	switch r.Peek() {
	case '{':
		b.WriteByte('{')
		n := 0
		r.Object(func(k string) {
			if n++; n > 1 {
				b.WriteByte(',')
			}
			b.WriteString(k + ":")
			dump(r, b)
		})
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		n := 0
		r.Array(func() {
			if n++; n > 1 {
				b.WriteByte(',')
			}
			dump(r, b)
		})
		b.WriteByte(']')
	case '"':
		b.WriteString(`"` + r.String() + `"`)
	case 't':
		if r.True() {
			b.WriteByte('T')
		} else {
			b.WriteByte('_')
		}
	default:
		r.Skip()
		b.WriteByte('_')
	}
}

func TestReader(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"x","b":{"c":"y","d":1},"e":"z"}`, `{a:"x",b:{c:"y",d:_},e:"z"}`},
		{`{"a":"x\"q","b":"\u00e9"} trailing`, `{a:"x"q",b:"é"}`},
		{` { "a" : "x" , "b" : true , "c" : false } `, `{a:"x",b:T,c:_}`},
		{`{"a":[{"k":"v"},"s",true,[1]],"b":"after"}`, `{a:[{k:"v"},"s",T,[_]],b:"after"}`},
		{`{}`, `{}`},
		{`[]`, `[]`},
		{`{"a":tru}`, `{a:_}`}, // not true: skipped
		// Broken JSON: what was read stays, and nothing after.
		{`{"a":"x","b":{"c":`, `{a:"x",b:{}}`}, // a key without a value is not read
		{`{"a":"x" "b":"y"}`, `{a:"x"}`},
		{`{"a"}`, `{}`},
		{`{"a":[1,`, `{a:[_]}`},
		{`{"a":"unterminated`, `{a:""}`},
		{``, `_`},
	}
	for _, tt := range tests {
		var b strings.Builder
		dump(frame.NewReader(gjson.Result{Type: gjson.JSON, Raw: tt.in}), &b)
		if got := b.String(); got != tt.want {
			t.Errorf("%s: read %s, want %s", tt.in, got, tt.want)
		}
	}
}

// A value of another type than asked for reads as absent and is skipped:
// the reader goes on with the next member.
func TestReaderWrongTypes(t *testing.T) {
	r := frame.NewReader(gjson.Parse(`{"s":{"x":"y"},"o":"str","a":{"k":1},"t":"true","last":"ok"}`))
	var got []string
	r.Object(func(k string) {
		switch k {
		case "s":
			got = append(got, "s="+r.String())
		case "o":
			got = append(got, "o="+map[bool]string{true: "object", false: "not"}[r.Object(func(string) {})])
		case "a":
			got = append(got, "a="+map[bool]string{true: "array", false: "not"}[r.Array(func() {})])
		case "t":
			got = append(got, "t="+map[bool]string{true: "true", false: "not"}[r.True()])
		case "last":
			got = append(got, "last="+r.String())
		}
	})
	want := []string{"s=", "o=not", "a=not", "t=not", "last=ok"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// FuzzPullReader: on any input the Reader never panics and ends; on a
// valid object it sees the same top-level keys, in order, as Members,
// whatever it reads of their values.
func FuzzReader(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":{"c":[1,2,{"d":"e"}]},"a":"x"}`, `{"q":[{"id":"1","options":[{"id":"x"}]}]}`, `{"s":"\"}"}`, `{"v":"x","v2":"a\\\"b\u00e9","v3":1.5e3,"v4":[1],"v5":null}`, `[]`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		dump(frame.NewReader(gjson.Result{Type: gjson.JSON, Raw: s}), &b)
		var got []string
		strs := map[int]string{}       // member index -> String() of it
		vals := map[int]gjson.Result{} // member index -> Value() of it
		r := frame.NewReader(gjson.Result{Type: gjson.JSON, Raw: s})
		r.Object(func(k string) {
			got = append(got, k)
			switch {
			case strings.HasPrefix(k, "s"):
				strs[len(got)-1] = r.String()
			case strings.HasPrefix(k, "v"):
				vals[len(got)-1] = r.Value()
			case strings.HasPrefix(k, "o"):
				r.Object(func(string) {})
			case strings.HasPrefix(k, "a"):
				r.Array(func() {})
			}
		})
		v := gjson.Parse(s)
		if !json.Valid([]byte(s)) || !v.IsObject() {
			return
		}
		var want []string
		frame.Members(v, func(k string, val gjson.Result) bool {
			// A string reads as gjson decodes it; anything else as "".
			wantStr := ""
			if val.Type == gjson.String {
				wantStr = val.Str
			}
			if str, ok := strs[len(want)]; ok && str != wantStr {
				t.Fatalf("member %q of %s: String() = %q; gjson %q", k, s, str, wantStr)
			}
			if got, ok := vals[len(want)]; ok && (got.Type != val.Type || got.Raw != val.Raw || got.Str != val.Str || got.Num != val.Num) {
				t.Fatalf("member %q of %s: Value() = %#v; gjson %#v", k, s, got, val)
			}
			want = append(want, k)
			return true
		})
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("keys of %s (-Members +Reader):\n%s", s, d)
		}
	})
}

// Value reads a value as gjson reads it: a plain string views the frame,
// an escaped one is decoded, and a broken one reads as absent.
func TestReaderValue(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want gjson.Result
	}{
		{`"plain"`, gjson.Result{Type: gjson.String, Raw: `"plain"`, Str: "plain"}},
		{`""`, gjson.Result{Type: gjson.String, Raw: `""`}},
		{`"a\"b\u00e9"`, gjson.Result{Type: gjson.String, Raw: `"a\"b\u00e9"`, Str: `a"bé`}},
		{` "a string longer than the thirty-two bytes read eight at a time"`, gjson.Result{Type: gjson.String,
			Raw: `"a string longer than the thirty-two bytes read eight at a time"`, Str: "a string longer than the thirty-two bytes read eight at a time"}},
		{`"unterminated`, gjson.Result{}},
		{`"`, gjson.Result{}},
		{`12`, gjson.Result{Type: gjson.Number, Raw: `12`, Num: 12}},
		{`true`, gjson.Result{Type: gjson.True, Raw: `true`}},
		{`{"k":"v"}`, gjson.Result{Type: gjson.JSON, Raw: `{"k":"v"}`}},
		{``, gjson.Result{}},
	} {
		r := frame.NewReader(gjson.Result{Type: gjson.JSON, Raw: tt.in})
		if got := r.Value(); got.Type != tt.want.Type || got.Raw != tt.want.Raw || got.Str != tt.want.Str || got.Num != tt.want.Num {
			t.Errorf("%s: Value() = %#v, want %#v", tt.in, got, tt.want)
		}
		if r.Peek() != 0 {
			t.Errorf("%s: the reader is not at the end after Value()", tt.in)
		}
	}
}
