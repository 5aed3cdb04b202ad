package frame_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

func TestFirst(t *testing.T) {
	tests := []struct{ obj, key, alt, want string }{
		{`{"agentInfo":{"name":"a"}}`, "agentInfo", "info", `{"name":"a"}`},
		{`{"info":{"name":"old"}}`, "agentInfo", "info", `{"name":"old"}`},
		{`{"info":1,"agentInfo":2}`, "agentInfo", "info", `2`},
		{`{"info":1,"info":2}`, "agentInfo", "info", `1`},
		{`{"agentInfo":null}`, "agentInfo", "info", `null`},
		{`{"_meta":{"agentInfo":1}}`, "agentInfo", "", ``},
		{`[{"agentInfo":1}]`, "agentInfo", "", ``},
		{`{"a\u0062":"x"}`, "ab", "", `"x"`},
		{`{"agentInfo":`, "agentInfo", "", ``},
	}
	for _, tt := range tests {
		if got := frame.First(gjson.Parse(tt.obj), tt.key, tt.alt); got.Raw != tt.want {
			t.Errorf("First(%s, %q, %q) = %q; want %q", tt.obj, tt.key, tt.alt, got.Raw, tt.want)
		}
	}
}

// FuzzGet: Get and First read what gjson's paths read, for keys without
// path characters, on every valid object.
func FuzzGet(f *testing.F) {
	f.Add(`{"_meta":{"x":[1,{"agentInfo":2}]},"info":{"name":"old"},"agentInfo":{"name":"a"},"agentInfo":3}`, "agentInfo", "info")
	f.Add(`{"info":1,"info":2}`, "agentInfo", "info")
	f.Add(`{"a\u0062":"x","ab":"y"}`, "ab", "")
	f.Fuzz(func(t *testing.T, obj, key, alt string) {
		if !json.Valid([]byte(obj)) || !plainKey(key) || (alt != "" && !plainKey(alt)) {
			return
		}
		o := gjson.Parse(obj)
		want := o.Get(key)
		if !want.Exists() && alt != "" {
			want = o.Get(alt)
		}
		if !o.IsObject() {
			want = gjson.Result{}
		}
		got := frame.First(o, key, alt)
		if got.Raw != want.Raw || got.Type != want.Type || got.Str != want.Str {
			t.Fatalf("First(%s, %q, %q) = %q; gjson reads %q", obj, key, alt, got.Raw, want.Raw)
		}
		if alt == "" && frame.Get(o, key).Raw != want.Raw {
			t.Fatalf("Get(%s, %q) = %q; gjson reads %q", obj, key, frame.Get(o, key).Raw, want.Raw)
		}
	})
}

// plainKey reports whether key has none of gjson's path characters.
func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for _, c := range []byte(key) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// FuzzPath: Path reads what gjson's dotted paths read, for keys without
// path characters, on every valid object (gjson looks in each member of a
// path's name in turn).
func FuzzPath(f *testing.F) {
	f.Add(`{"codex":1,"codex":{"x":1},"codex":{"kind":"plan_review"}}`, "codex", "kind", "")
	f.Add(`{"a":{"b":{"x":1}},"a":{"b":{"c":3}}}`, "a", "b", "c")
	f.Add(`{"a":{"b":1,"c":5}}`, "a", "c", "")
	f.Fuzz(func(t *testing.T, obj, a, b, c string) {
		keys := []string{a, b, c}
		if c == "" {
			keys = keys[:2]
		}
		for _, k := range keys {
			if !plainKey(k) {
				return
			}
		}
		if !json.Valid([]byte(obj)) {
			return
		}
		o := gjson.Parse(obj)
		want := o.Get(strings.Join(keys, "."))
		if !o.IsObject() {
			want = gjson.Result{}
		}
		if got := frame.Path(o, keys...); got.Raw != want.Raw || got.Str != want.Str {
			t.Fatalf("Path(%s, %q) = %q; gjson reads %q", obj, keys, got.Raw, want.Raw)
		}
	})
}
