package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/google/go-cmp/cmp"
)

// TestTodoIDs: a todo without an id is keyed by its text, the nth of a
// text in one list with "#n", and marked FromText; an agent's own id is
// kept as it is; a todo with neither is to be skipped.
func TestTodoIDs(t *testing.T) {
	in := []acpdialect.Todo{
		{Content: "a"}, {ID: "7", Content: "a"}, {Content: "a"}, {Content: "b"}, {}, {ID: "content:a"},
	}
	want := []acpdialect.Todo{
		{ID: "content:a", Content: "a", FromText: true},
		{ID: "7", Content: "a"},
		{ID: "content:a#2", Content: "a", FromText: true},
		{ID: "content:b", Content: "b", FromText: true},
		{ID: "content:a"},
	}
	var ids acpdialect.TodoIDs
	var got []acpdialect.Todo
	for _, td := range in {
		if ids.Key(&td) {
			got = append(got, td)
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
	if id := acpdialect.TextTodoID("x", 3); id != "content:x#3" {
		t.Errorf("TextTodoID(x, 3) = %q", id)
	}
}

func TestTodoStatus(t *testing.T) {
	for in, want := range map[string]string{"pending": "pending", "in_progress": "in_progress", "completed": "completed",
		"cancelled": "cancelled", "inProgress": "", "done": "", "": "", "Pending": ""} {
		if got := acpdialect.TodoStatus(in); got != want {
			t.Errorf("TodoStatus(%q) = %q, want %q", in, got, want)
		}
	}
}
