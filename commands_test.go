package acpdialect

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
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
	for _, list := range testwire.CaptureSeeds(f, ".", "params.update.availableCommands") {
		gjson.Parse(list).ForEach(func(_, c gjson.Result) bool {
			f.Add([]byte(c.Raw))
			return true
		})
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

// readCommandsGJSON is the list reading as it was: the first
// availableCommands member (frame.Members, which skips it first), then
// gjson's ForEach over it.
func readCommandsGJSON(u gjson.Result) []Command {
	items := []Command{}
	frame.Members(u, func(k string, v gjson.Result) bool {
		if k != "availableCommands" {
			return true
		}
		v.ForEach(func(_, x gjson.Result) bool {
			if c, ok := readCommandGJSON(x); ok {
				items = append(items, c)
			}
			return true
		})
		return false
	})
	return items
}

func TestReadCommands(t *testing.T) {
	for _, tt := range []struct {
		name, update string
		want         []string
	}{
		{"array", `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"a"},{"description":"no name"},{"name":"b"}]}`, []string{"a", "b"}},
		{"sorted keys", `{"availableCommands":[{"name":"a"}],"sessionUpdate":"available_commands_update"}`, []string{"a"}},
		{"an object's values", `{"availableCommands":{"x":{"name":"a"},"y":{"name":"b"}}}`, []string{"a", "b"}},
		{"the first list counts", `{"availableCommands":[{"name":"a"}],"availableCommands":[{"name":"b"}]}`, []string{"a"}},
		{"a first list that is not one still counts", `{"availableCommands":"none","availableCommands":[{"name":"b"}]}`, []string{}},
		{"members after the list", `{"availableCommands":[{"name":"a"}],"_meta":{"availableCommands":[{"name":"x"}]}}`, []string{"a"}},
		{"no list", `{"sessionUpdate":"available_commands_update"}`, []string{}},
		{"not an object", `[{"availableCommands":[{"name":"a"}]}]`, []string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := gjson.Parse(tt.update)
			got := []string{}
			for _, c := range readCommands(u, nil) {
				got = append(got, c.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("names %q, want %q", got, tt.want)
			}
			if d := cmp.Diff(readCommandsGJSON(u), readCommands(u, nil)); d != "" {
				t.Errorf("against the two-pass reading (-old +new):\n%s", d)
			}
		})
	}
}

// FuzzReadCommands: the one-pass list reading agrees with the two-pass one
// it replaced on every valid update.
func FuzzReadCommands(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"init","description":"d","input":{"hint":"path"}},{"name":"x"}]}`,
		`{"availableCommands":{"a":{"name":"n"}},"availableCommands":[]}`,
		`{"availableCommands":null,"x":[{"availableCommands":1}]}`,
		`{"availableCommands":[1,"s",{"name":"\u0041"},[{"name":"deep"}]]}`,
		`[]`, `{}`,
	} {
		f.Add([]byte(s))
	}
	for _, u := range testwire.CaptureSeeds(f, ".", "params.update") {
		if gjson.Get(u, "sessionUpdate").Str == "available_commands_update" {
			f.Add([]byte(u))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		u := gjson.ParseBytes(b)
		if d := cmp.Diff(readCommandsGJSON(u), readCommands(u, nil)); d != "" {
			t.Fatalf("readCommands(%s) (-two-pass +one-pass):\n%s", b, d)
		}
	})
}
