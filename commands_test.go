package acpdialect

import (
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// readCommandGJSON is readCommand as it was, with gjson's Get: the
// one-pass reader must agree with it on every valid command.
func readCommandGJSON(v gjson.Result) (Command, bool) {
	if !v.IsObject() {
		return Command{}, false
	}
	name := v.Get("name")
	if name.Type != gjson.String || name.Str == "" {
		return Command{}, false
	}
	return Command{Name: name.Str, Description: frame.View(v.Get("description")), InputHint: frame.View(v.Get("input.hint"))}, true
}

func FuzzReadCommand(f *testing.F) {
	for _, s := range []string{
		`{"name":"init","description":"Create AGENTS.md","input":{"hint":"path"}}`,
		`{"name":1,"name":"x","description":null,"description":"d"}`,
		`{"name":"a","input":"x","input":{"a":1},"input":{"hint":"h","hint":"i"}}`,
		`{"input":{"hint":null},"name":"n\u0041","input":{"hint":"late"}}`,
		`["name"]`, `"x"`, `{"name":""}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		want, wok := readCommandGJSON(gjson.ParseBytes(b))
		got, ok := readCommand(frame.NewReader(gjson.ParseBytes(b)))
		if ok != wok || got != want {
			t.Fatalf("readCommand(%s) = %+v %v, gjson %+v %v", b, got, ok, want, wok)
		}
	})
}
