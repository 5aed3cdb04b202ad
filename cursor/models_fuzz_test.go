package cursor_test

import (
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect/cursor"
	"github.com/tidwall/gjson"
)

func FuzzParseModelID(f *testing.F) {
	for _, s := range []string{
		"claude-opus-4-8[effort=max]", "grok-4.5[effort=high,fast=true]", "default[]",
		"gpt-5", "[a=1]", "m[a=1,,b=2]", "m[=v]", "m[k=]", "m[a=1,a=2]", "x[a=[1]]",
		"a[b][k=v]", "x[a=b=c]", "modèle[速度=快]", "m[a=1]x", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := cursor.ParseModelID(s)
		if !ok {
			if id.Base != s || id.Params != nil {
				t.Fatalf("not-ok parse of %q changed it: %#v", s, id)
			}
			return
		}
		if got := id.String(); got != s {
			t.Fatalf("round trip %q -> %q", s, got)
		}
		if len(id.Params) == 0 || id.Base == "" {
			t.Fatalf("ok parse of %q without base or params: %#v", s, id)
		}
	})
}

func FuzzParseModels(f *testing.F) {
	for _, s := range []string{
		`{"models":[{"value":"default[]","name":"Auto"},{"value":"o[effort=max]","name":"Opus","configOptions":[{"id":"effort"}]}]}`,
		`{"availableModels":[{"modelId":"gpt-5","name":"GPT-5"},{"id":"b","displayName":"B"}]}`,
		`{"modelIds":["a","b"]}`,
		`{"models":[],"modelIds":["z"]}`,
		`{"models":[{"value":"a","configOptions":[1,}]}`,
		`{"models":["a",1,null,{"value":5}]}`,
		`{"models":[{"value":"a"`,
		`[]`, `null`, ``, `"x"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := cursor.ParseModels(gjson.Parse(s))
		if m.Items == nil {
			t.Fatal("Items is nil")
		}
		for _, it := range m.Items {
			if it.ID == "" {
				t.Fatalf("item without id from %q: %#v", s, it)
			}
		}
		// A normalized event must always marshal, whatever came in.
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("marshal of models from %q: %v", s, err)
		}
	})
}
