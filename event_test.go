package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/google/go-cmp/cmp"
)

// An event's object is written under its name, after the other members,
// and read back into Object; the accessors return it only for its own type.
func TestEventObjectJSON(t *testing.T) {
	tests := []struct {
		name string
		ev   acpdialect.Event
		want string
	}{
		{"question", acpdialect.Event{Type: acpdialect.EventQuestion, SessionID: "s1", Method: "cursor/ask_question", ID: json.RawMessage(`7`),
			Object: &acpdialect.Question{Title: "Pick", Questions: []acpdialect.QuestionItem{{ID: "q", Options: []acpdialect.QuestionOption{}}}}},
			`{"type":"question","session_id":"s1","method":"cursor/ask_question","id":7,"question":{"title":"Pick","questions":[{"id":"q","options":[]}]}}`},
		{"plan", acpdialect.Event{Type: acpdialect.EventPlan, Object: &acpdialect.Plan{Name: "p", Todos: []acpdialect.Todo{}}},
			`{"type":"plan","plan":{"name":"p","todos":[]}}`},
		{"todos", acpdialect.Event{Type: acpdialect.EventTodos, ToolCallID: "t", Object: &acpdialect.Todos{ToolCallID: "t", Items: []acpdialect.Todo{{ID: "1", Status: "pending"}}}},
			`{"type":"todos","tool_call_id":"t","todos":{"items":[{"id":"1","status":"pending"}]}}`},
		{"image", acpdialect.Event{Type: acpdialect.EventImage, Object: &acpdialect.Image{FilePath: "/a.png"}},
			`{"type":"image","image":{"file_path":"/a.png"}}`},
		{"models", acpdialect.Event{Type: acpdialect.EventModels, Object: &acpdialect.Models{Items: []acpdialect.Model{{ID: "m"}}}},
			`{"type":"models","models":{"items":[{"id":"m"}]}}`},
		{"commands", acpdialect.Event{Type: acpdialect.EventCommands, Object: &acpdialect.Commands{Items: []acpdialect.Command{{Name: "review"}}}},
			`{"type":"commands","commands":{"items":[{"name":"review"}]}}`},
		{"no object", acpdialect.Event{Type: acpdialect.EventReply, Method: "cursor/task", ID: json.RawMessage(`"a"`), Result: json.RawMessage(`{}`)},
			`{"type":"reply","method":"cursor/task","id":"a","result":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.ev)
			if err != nil || string(b) != tt.want {
				t.Fatalf("Marshal = %s, %v; want %s", b, err, tt.want)
			}
			var back acpdialect.Event
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.ev, back); d != "" {
				t.Errorf("round trip (-want +got):\n%s", d)
			}
			n := 0
			for _, set := range []bool{back.Question() != nil, back.Plan() != nil, back.Todos() != nil,
				back.Image() != nil, back.Models() != nil, back.Commands() != nil} {
				if set {
					n++
				}
			}
			want := 0
			if tt.ev.Object != nil {
				want = 1
			}
			if n != want {
				t.Errorf("%d accessors return an object; want %d", n, want)
			}
		})
	}
}

// The object's strings are escaped for HTML exactly as the caller's
// encoder says, like the event's own.
func TestEventJSONFollowsTheEncodersHTMLSetting(t *testing.T) {
	ev := acpdialect.Event{Type: acpdialect.EventPlan, Method: "a<b", Object: &acpdialect.Plan{Markdown: "x < y && z", Todos: []acpdialect.Todo{}}}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"plan","method":"a\u003cb","plan":{"markdown":"x \u003c y \u0026\u0026 z","todos":[]}}`; string(b) != want {
		t.Errorf("json.Marshal = %s; want %s", b, want)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ev); err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"plan","method":"a<b","plan":{"markdown":"x < y && z","todos":[]}}` + "\n"; buf.String() != want {
		t.Errorf("Encode without HTML escaping = %s; want %s", buf.String(), want)
	}
}

// A newer version's members are ignored, not an error.
func TestEventUnmarshalIgnoresUnknownMembers(t *testing.T) {
	var ev acpdialect.Event
	if err := json.Unmarshal([]byte(`{"type":"usage","session_id":"s1","usage":{"used":1}}`), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Type != "usage" || ev.SessionID != "s1" || ev.Object != nil {
		t.Errorf("got %+v", ev)
	}
}
