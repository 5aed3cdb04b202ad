package opencode

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// TodosEvent reads the todo list OpenCode's todowrite tool wrote into a
// todos event: OpenCode sends no ACP plan update (1.18.33), so the list
// travels only in the tool call. It is read from the completed update's
// rawOutput.metadata.todos, the list the tool wrote ([{content, status,
// priority}], an id where a todo has one), not from rawInput.todos, which
// the tool may still refuse: one event per todowrite, the session's whole
// list. Other updates give nil. See ParseTodos.
func TodosEvent(u frame.ToolUpdate) *acpdialect.Event {
	if u.Status.Str != acpdialect.StatusCompleted || !strings.Contains(u.RawOutput.Raw, `"todos"`) {
		return nil // the usual tool call: one byte search
	}
	list := frame.Get(frame.Get(u.RawOutput, "metadata"), "todos")
	if !list.IsArray() {
		return nil
	}
	t := &acpdialect.Todos{Items: ParseTodos(list)}
	return &acpdialect.Event{Type: acpdialect.EventTodos, Object: t}
}

// ParseTodos reads an array of OpenCode todos: a todo's text is its
// content, its id its id, else made up from its text
// (acpdialect.TextTodoID, marked FromText); one without text or id is
// skipped, and those past acpdialect.MaxTodos are not read. Of a key
// that appears twice the first counts; a value of the wrong type is
// absent. A status other
// than pending, in_progress, completed or cancelled is dropped (empty).
// The priority is not read: the contract's todo has none. The strings are
// copies; the list is never nil.
func ParseTodos(list gjson.Result) []acpdialect.Todo {
	items := []acpdialect.Todo{}
	var ids acpdialect.TodoIDs
	list.ForEach(func(_, v gjson.Result) bool {
		var t acpdialect.Todo
		var seen uint8
		frame.Members(v, func(k string, v gjson.Result) bool {
			switch {
			case k == "id" && once(&seen, 1):
				t.ID = strings.Clone(v.Str)
			case k == "content" && once(&seen, 2):
				t.Content = strings.Clone(v.Str)
			case k == "status" && once(&seen, 4):
				t.Status = acpdialect.TodoStatus(v.Str)
			}
			return true
		})
		if ids.Key(&t) {
			items = append(items, t)
		}
		return len(items) < acpdialect.MaxTodos
	})
	return items
}
