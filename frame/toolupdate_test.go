package frame_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// FuzzReadToolUpdate: each field of the view is the first value of its
// key in the update object, as gjson's Get reads it, and the checked read
// of a valid object gives the same view.
func FuzzReadToolUpdate(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Task","kind":"think","status":"pending","name":"task","rawInput":{"a":1},"rawOutput":"x","_meta":{"m":true},"capabilities":{"cancel":{}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"t1","capabilities":null,"capabilities":{"cancel":{}}}`,
		`{"toolCallId":7,"status":null}`,
		`[1]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !gjson.Valid(s) {
			return
		}
		obj := gjson.Parse(s)
		u := frame.ReadToolUpdate(obj)
		for _, c := range []struct {
			key string
			got gjson.Result
		}{
			{"toolCallId", u.ID}, {"status", u.Status}, {"title", u.Title}, {"kind", u.ACPKind}, {"name", u.Name},
			{"rawInput", u.RawInput}, {"rawOutput", u.RawOutput}, {"_meta", u.Meta}, {"capabilities", u.Capabilities},
		} {
			want := gjson.Result{}
			if obj.IsObject() {
				want = obj.Get(c.key)
			}
			if c.got.Raw != want.Raw {
				t.Errorf("%s: %q, want %q", c.key, c.got.Raw, want.Raw)
			}
		}
		var checked frame.ToolUpdate
		if frame.ReadToolUpdateChecked(&checked, obj) && checked.Capabilities.Raw != u.Capabilities.Raw {
			t.Errorf("checked read: capabilities %q, want %q", checked.Capabilities.Raw, u.Capabilities.Raw)
		}
	})
}
