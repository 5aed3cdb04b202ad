package cursor

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MethodUpdateTodos is Cursor's todo list method: a notification in most
// builds, a request in some (answered {}).
const MethodUpdateTodos = "cursor/update_todos"

// HandleTodos reads cursor/update_todos params into a todos event. The Conn
// keeps the session's list: Merge says to merge the items into it by id
// instead of replacing it. Params that are not an object, or that carry no
// todos array, change nothing: a malformed frame must not blank the list.
// A request's reply is always {}.
func HandleTodos(params gjson.Result) acpdialect.Action {
	p := parseTodosParams(params)
	if !p.hasList {
		return acpdialect.Action{}
	}
	t := acpdialect.Todos{ToolCallID: p.toolCallID, Items: p.items}
	ev := eventWith(acpdialect.EventTodos, p.toolCallID, t)
	return acpdialect.Action{Event: ev, Merge: p.merge}
}

// ParseTodos reads cursor/update_todos params in one pass: the todos (never
// nil), whether to merge them into the session's list, and the tool call
// they belong to. A todo without an id is keyed by its text (its ID is
// "content:" and the text, "#n" added for the nth of that text in the list,
// and FromText is set), and one with neither is skipped. A status other
// than pending, in_progress (or inProgress), completed or cancelled is
// dropped (empty). Fields of the wrong type are absent; of a key that
// appears twice the first counts.
func ParseTodos(params gjson.Result) (items []acpdialect.Todo, merge bool, toolCallID string) {
	p := parseTodosParams(params)
	return p.items, p.merge, p.toolCallID
}

type todosParams struct {
	items      []acpdialect.Todo
	merge      bool
	toolCallID string
	hasList    bool // todos was an array
}

func parseTodosParams(params gjson.Result) todosParams {
	var p todosParams
	r := frame.NewReader(params)
	var seen uint8
	r.Object(func(k string) {
		switch {
		case k == "toolCallId" && once(&seen, 1):
			p.toolCallID = r.String()
		case k == "todos" && once(&seen, 2):
			p.items, p.hasList = readTodos(r)
		case k == "merge" && once(&seen, 4):
			p.merge = r.True()
		}
	})
	if p.items == nil {
		p.items = []acpdialect.Todo{}
	}
	var buf [32]*string
	frame.Own(ownTodos(append(buf[:0], &p.toolCallID), p.items)...)
	return p
}

// readTodos reads an array of todos (never nil) and reports whether the
// value was an array. A todo's text is its content, else its title; one
// without an id is keyed by its text (acpdialect.TextTodoID: t3code's
// CursorTodo makes the id optional), and one with neither is skipped. The strings view the frame until Own'd (see ownTodos).
func readTodos(r *frame.Reader) ([]acpdialect.Todo, bool) {
	items := make([]acpdialect.Todo, 0, 8)
	var ids acpdialect.TodoIDs
	ok := r.Array(func() {
		var t acpdialect.Todo
		var title string
		var seen uint8
		r.Object(func(k string) {
			switch {
			case k == "id" && once(&seen, 1):
				t.ID = r.String()
			case k == "content" && once(&seen, 2):
				t.Content = r.String()
			case k == "status" && once(&seen, 4):
				t.Status = todoStatus(r.String())
			case k == "title" && once(&seen, 8):
				title = r.String()
			}
		})
		// Cursor's todo schema has title beside content (t3code's CursorTodo
		// reads content, else title): a todo written with a title alone
		// keeps its text.
		if t.Content == "" {
			t.Content = title
		}
		if ids.Key(&t) {
			items = append(items, t)
		}
	})
	return items, ok
}

// todoStatus returns s when it is one of Cursor's four todo statuses, as a
// constant (so it needs no copy), else "". inProgress is taken for
// in_progress: no Cursor frame is known to spell it so, but t3code's
// extractTodosAsPlan reads both, and the alias cannot be mistaken.
func todoStatus(s string) string {
	if s == "inProgress" {
		return acpdialect.StatusInProgress
	}
	return acpdialect.TodoStatus(s)
}

// ownTodos appends the todos' frame-viewing strings to ptrs, for one Own
// call. Status is always a constant.
func ownTodos(ptrs []*string, items []acpdialect.Todo) []*string {
	for i := range items {
		ptrs = append(ptrs, &items[i].ID, &items[i].Content)
	}
	return ptrs
}

// once reports whether bit is not yet set in *seen, and sets it: of a key
// that appears twice the first value counts, as with gjson's Get.
func once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}
