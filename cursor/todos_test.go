package cursor_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// todosParams is cursor/update_todos as the research notes give it.
const todosParams = `{"toolCallId":"tc-3","todos":[{"id":"1","content":"Read","status":"completed"},` +
	`{"id":"2","content":"Write","status":"in_progress"},{"id":"3","content":"Ship","status":"pending"},` +
	`{"id":"4","content":"Drop","status":"cancelled"}],"merge":true}`

func TestParseTodos(t *testing.T) {
	four := []acpdialect.Todo{{ID: "1", Content: "Read", Status: "completed"}, {ID: "2", Content: "Write", Status: "in_progress"},
		{ID: "3", Content: "Ship", Status: "pending"}, {ID: "4", Content: "Drop", Status: "cancelled"}}
	none := []acpdialect.Todo{}
	tests := []struct {
		name, params string
		items        []acpdialect.Todo
		merge        bool
		toolCallID   string
	}{
		{"well-formed", todosParams, four, true, "tc-3"},
		{"merge false", `{"toolCallId":"t","todos":[{"id":"a"}],"merge":false}`, []acpdialect.Todo{{ID: "a"}}, false, "t"},
		{"merge absent", `{"todos":[{"id":"a"}]}`, []acpdialect.Todo{{ID: "a"}}, false, ""},
		{"merge only when true", `{"todos":[],"merge":"true"}`, none, false, ""},
		{"merge 1 is not true", `{"todos":[],"merge":1}`, none, false, ""},
		// A todo without an id is keyed by its text; a repeat of the same
		// text in one list by its rank among them. One with no text either
		// has nothing to show or match: skipped.
		{"todo without id is keyed by its text", `{"todos":[{"content":"x","status":"pending"},{"id":"","content":"y"},{"id":7,"title":"t"},` +
			`{"id":"b","content":"z"},{"status":"pending"},{"id":""},{"content":"x"},{"content":"x","status":"completed"}]}`,
			[]acpdialect.Todo{{ID: "content:x", Content: "x", Status: "pending", FromText: true}, {ID: "content:y", Content: "y", FromText: true},
				{ID: "content:t", Content: "t", FromText: true}, {ID: "b", Content: "z"}, {ID: "content:x#2", Content: "x", FromText: true},
				{ID: "content:x#3", Content: "x", Status: "completed", FromText: true}}, false, ""},
		// An agent's own id that reads like a made-up one stays the agent's.
		{"own id like a text key", `{"todos":[{"id":"content:x","content":"mine"},{"content":"x"}]}`,
			[]acpdialect.Todo{{ID: "content:x", Content: "mine"}, {ID: "content:x", Content: "x", FromText: true}}, false, ""},
		{"unknown status is dropped", `{"todos":[{"id":"a","status":"done"},{"id":"b","status":"IN_PROGRESS"},{"id":"c","status":5},{"id":"d","status":"in-progress"},{"id":"e","status":"InProgress"}]}`,
			[]acpdialect.Todo{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}, false, ""},
		// t3code's extractTodosAsPlan reads inProgress beside in_progress.
		{"inProgress is in_progress", `{"todos":[{"id":"a","status":"inProgress"}]}`,
			[]acpdialect.Todo{{ID: "a", Status: "in_progress"}}, false, ""},
		{"todo not an object is skipped", `{"todos":["a",1,null,[{"id":"x"}],{"id":"a"}]}`, []acpdialect.Todo{{ID: "a"}}, false, ""},
		{"wrong types are absent", `{"toolCallId":5,"todos":{"id":"a"},"merge":null}`, none, false, ""},
		{"extra fields", `{"x":1,"todos":[{"id":"a","priority":"high","content":"c"}],"y":[]}`, []acpdialect.Todo{{ID: "a", Content: "c"}}, false, ""},
		{"duplicate keys: first wins", `{"toolCallId":"a","toolCallId":"b","merge":true,"merge":false,"todos":[{"id":"x","id":"y","status":"pending","status":"completed"}],"todos":[]}`,
			[]acpdialect.Todo{{ID: "x", Status: "pending"}}, true, "a"},
		{"unicode and escapes", `{"todos":[{"id":"\u0031","content":"fix \"bug\"\n✓ 😀"}]}`,
			[]acpdialect.Todo{{ID: "1", Content: "fix \"bug\"\n✓ 😀"}}, false, ""},
		// t3code's CursorTodo has title beside content: content wins, a
		// title alone is the text.
		{"title when no content", `{"todos":[{"id":"a","title":"T"},{"id":"b","content":"C","title":"T"},{"id":"c","content":"","title":"T"},{"id":"d","title":5}]}`,
			[]acpdialect.Todo{{ID: "a", Content: "T"}, {ID: "b", Content: "C"}, {ID: "c", Content: "T"}, {ID: "d"}}, false, ""},
		{"params array", `[` + todosParams + `]`, none, false, ""},
		{"params null", `null`, none, false, ""},
		{"params missing", ``, none, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items, merge, id := cursor.ParseTodos(gjson.Parse(tc.params))
			if d := cmp.Diff(tc.items, items); d != "" {
				t.Errorf("items (-want +got):\n%s", d)
			}
			if items == nil {
				t.Error("items is nil")
			}
			if merge != tc.merge || id != tc.toolCallID {
				t.Errorf("merge, toolCallID = %v, %q; want %v, %q", merge, id, tc.merge, tc.toolCallID)
			}
		})
	}
}

func TestHandleTodos(t *testing.T) {
	items, _, _ := cursor.ParseTodos(gjson.Parse(todosParams))
	tests := []struct {
		name, params string
		want         acpdialect.Action
	}{
		{"merge", todosParams, acpdialect.Action{
			Event: &acpdialect.Event{Type: acpdialect.EventTodos, ToolCallID: "tc-3", Object: &acpdialect.Todos{ToolCallID: "tc-3", Items: items}},
			Merge: true,
		}},
		// An empty list that replaces is a real change: it clears the list.
		{"replace with empty", `{"todos":[]}`, acpdialect.Action{
			Event: &acpdialect.Event{Type: acpdialect.EventTodos, Object: &acpdialect.Todos{Items: []acpdialect.Todo{}}},
		}},
		// No list at all must not blank the session's list.
		{"no todos", `{"toolCallId":"t","merge":false}`, acpdialect.Action{}},
		{"todos not an array", `{"todos":"x"}`, acpdialect.Action{}},
		{"params null", `null`, acpdialect.Action{}},
		{"params array", `[{"todos":[]}]`, acpdialect.Action{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := cursor.HandleTodos(gjson.Parse(tc.params))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Action (-want +got):\n%s", d)
			}
		})
	}
}
