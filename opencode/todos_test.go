package opencode_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/opencode"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// TestTodosEvent pins which todowrite updates give a todos event: the
// completed one, from the list the tool wrote, in the shape OpenCode
// 1.18.33 sends (testdata/live-1.18.33-stub.jsonl, lines 30 to 32).
func TestTodosEvent(t *testing.T) {
	const list = `[{"content":"Write the parser","status":"in_progress","priority":"high"},{"content":"Test it","status":"pending","priority":"medium"}]`
	want := []acpdialect.Todo{
		{ID: "content:Write the parser", Content: "Write the parser", Status: "in_progress", FromText: true},
		{ID: "content:Test it", Content: "Test it", Status: "pending", FromText: true},
	}
	tests := []struct {
		name   string
		update string
		want   []acpdialect.Todo
	}{
		{"completed: the list written", `{"toolCallId":"c","status":"completed","title":"2 todos","rawOutput":{"output":"[]","metadata":{"todos":` + list + `,"truncated":false}}}`, want},
		{"completed, empty: the list is empty", `{"toolCallId":"c","status":"completed","rawOutput":{"metadata":{"todos":[]}}}`, []acpdialect.Todo{}},
		{"running: the input is no list yet", `{"toolCallId":"c","status":"in_progress","rawInput":{"todos":` + list + `}}`, nil},
		{"failed: nothing was written", `{"toolCallId":"c","status":"failed","rawOutput":{"metadata":{"todos":` + list + `}}}`, nil},
		{"completed without the metadata", `{"toolCallId":"c","status":"completed","rawInput":{"todos":` + list + `},"rawOutput":{"output":"todos"}}`, nil},
		{"todos not an array", `{"toolCallId":"c","status":"completed","rawOutput":{"metadata":{"todos":{"a":1}}}}`, nil},
		{"another tool", `{"toolCallId":"c","status":"completed","rawOutput":{"output":"x"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := opencode.TodosEvent(frame.ReadToolUpdate(gjson.Parse(tt.update)))
			if tt.want == nil {
				if ev != nil {
					t.Fatalf("got %+v, want no event", ev)
				}
				return
			}
			if ev == nil || ev.Type != acpdialect.EventTodos || ev.Todos() == nil {
				t.Fatalf("got %+v, want a todos event", ev)
			}
			if d := cmp.Diff(tt.want, ev.Todos().Items); d != "" {
				t.Error(d)
			}
		})
	}
}

func TestParseTodos(t *testing.T) {
	tests := []struct {
		in   string
		want []acpdialect.Todo
	}{
		{`[{"id":"1","content":"a","status":"completed"},{"content":"a"},{"content":"a","status":"cancelled"}]`, []acpdialect.Todo{
			{ID: "1", Content: "a", Status: "completed"},
			{ID: "content:a", Content: "a", FromText: true},
			{ID: "content:a#2", Content: "a", Status: "cancelled", FromText: true}}},
		// Statuses OpenCode does not write are dropped; wrong types are
		// absent; a todo with neither text nor id is skipped; the first of
		// two equal keys counts.
		{`[{"content":"b","status":"done"},{"content":5,"id":7},{"status":"pending"},{"content":"c","content":"d","status":"pending","status":"completed"}, {"content":5,"content":"e"}, 3, "x"]`, []acpdialect.Todo{
			{ID: "content:b", Content: "b", FromText: true},
			{ID: "content:c", Content: "c", Status: "pending", FromText: true}}},
		{`[]`, []acpdialect.Todo{}},
		{`{}`, []acpdialect.Todo{}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, opencode.ParseTodos(gjson.Parse(tt.in))); d != "" {
			t.Errorf("ParseTodos(%s): %s", tt.in, d)
		}
	}
	// The list is bounded by acpdialect.MaxTodos.
	var items []string
	for i := range acpdialect.MaxTodos + 5 {
		items = append(items, fmt.Sprintf(`{"content":"t%d"}`, i))
	}
	if n := len(opencode.ParseTodos(gjson.Parse("[" + strings.Join(items, ",") + "]"))); n != acpdialect.MaxTodos {
		t.Errorf("read %d todos, want the bound %d", n, acpdialect.MaxTodos)
	}
}

// TestTodosReplace: through the Conn, each todowrite's list replaces the
// session's (todowrite writes the whole list), and the event names the
// session and the tool call.
func TestTodosReplace(t *testing.T) {
	c := conn(t, acpdialect.Options{})
	write := func(id, todos string) string {
		feed(t, c, tw.SessionUpdate("root", map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "todowrite", "kind": "other", "status": "pending", "rawInput": map[string]any{}}), false)
		var list any
		if err := json.Unmarshal([]byte(todos), &list); err != nil {
			t.Fatal(err)
		}
		return feed(t, c, tw.SessionUpdate("root", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
			"title": "todos", "rawOutput": map[string]any{"output": todos, "metadata": map[string]any{"todos": list, "truncated": false}}}), false)
	}
	out := write("w1", `[{"content":"a","status":"pending"},{"content":"b","status":"pending"}]`)
	if !strings.Contains(out, `{"type":"todos","agent":"opencode","session_id":"root","tool_call_id":"w1","todos":{"items":[{"id":"content:a","content":"a","status":"pending"},{"id":"content:b","content":"b","status":"pending"}]}}`) {
		t.Errorf("first list:\n%s", out)
	}
	out = write("w2", `[{"content":"b","status":"completed"}]`)
	if !strings.Contains(out, `"tool_call_id":"w2","todos":{"items":[{"id":"content:b","content":"b","status":"completed"}]}}`) {
		t.Errorf("second list, replacing the first:\n%s", out)
	}
}
