package cursor_test

import (
	"testing"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// brokenSeeds are the malformed shapes every parser must survive.
var brokenSeeds = []string{`null`, `[]`, `"x"`, `7`, ``, `{`, `{"a":`, `{"a":[{"b":`, `{"\u00e9":1}`}

// owned checks that parse keeps nothing that views its input: it parses a
// buffer, overwrites the buffer, and compares with a parse of a fresh copy.
func owned[T any](t *testing.T, input string, parse func(gjson.Result) T) T {
	t.Helper()
	buf := []byte(input)
	got := parse(gjson.Parse(unsafe.String(unsafe.SliceData(buf), len(buf))))
	for i := range buf {
		buf[i] = 'x'
	}
	want := parse(gjson.Parse(string([]byte(input))))
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("result views its input (-fresh +after overwrite):\n%s", d)
	}
	return got
}

func FuzzParseQuestion(f *testing.F) {
	for _, s := range append([]string{questionParams,
		`{"toolCallId":"t","questions":[{"id":"q","options":[{"id":"a","label":"A"},{"label":"no id"}],"allowMultiple":true},{"prompt":"no id"}]}`,
		`{"title":"caf\u00e9","questions":[{"id":"q\"1","options":[{"id":"\ud83d\ude00"}]}],"questions":[]}`,
		`{"questions":{"id":"q"},"toolCallId":5}`,
	}, brokenSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		q := owned(t, params, cursor.ParseQuestion)
		if q.Questions == nil {
			t.Fatal("Questions is nil")
		}
		for _, it := range q.Questions {
			if it.ID == "" || it.Options == nil {
				t.Fatalf("question %+v: empty id or nil Options", it)
			}
			for _, o := range it.Options {
				if o.ID == "" {
					t.Fatalf("option without id kept: %+v", it)
				}
			}
		}
		act := cursor.HandleQuestion(gjson.Parse(params))
		if string(act.Result) != string(cursor.Cancelled()) || act.Await != (act.Event != nil) {
			t.Fatalf("Action %+v", act)
		}
	})
}

func FuzzParsePlan(f *testing.F) {
	for _, s := range append([]string{planParams,
		`{"plan":"# P\n","todos":[{"id":"a","status":"done"},{"content":"no id"}],"isProject":"true"}`,
		`{"name":1,"overview":null,"plan":["x"],"todos":"t"}`,
	}, brokenSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		p := owned(t, params, cursor.ParsePlan)
		if p.Todos == nil {
			t.Fatal("Todos is nil")
		}
		checkTodos(t, p.Todos)
		act := cursor.HandlePlan(gjson.Parse(params))
		if string(act.Result) != string(cursor.Cancelled()) || act.Await != (act.Event != nil) {
			t.Fatalf("Action %+v", act)
		}
	})
}

func checkTodos(t *testing.T, items []acpdialect.Todo) {
	t.Helper()
	for _, td := range items {
		if td.ID == "" {
			t.Fatalf("todo without id kept: %+v", td)
		}
		switch td.Status {
		case "", "pending", "in_progress", "completed", "cancelled":
		default:
			t.Fatalf("status %q kept", td.Status)
		}
	}
}

func FuzzParseTodos(f *testing.F) {
	for _, s := range append([]string{todosParams,
		`{"toolCallId":"t","todos":[{"id":"1","status":"IN_PROGRESS"},{"content":"x"}],"merge":false}`,
		`{"todos":[],"merge":"true","toolCallId":["t"]}`,
	}, brokenSeeds...) {
		f.Add(s)
	}
	type parsed struct {
		Items []acpdialect.Todo
		Merge bool
		ID    string
	}
	f.Fuzz(func(t *testing.T, params string) {
		p := owned(t, params, func(r gjson.Result) parsed {
			items, merge, id := cursor.ParseTodos(r)
			return parsed{items, merge, id}
		})
		if p.Items == nil {
			t.Fatal("items is nil")
		}
		checkTodos(t, p.Items)
		act := owned(t, params, cursor.HandleTodos)
		if act.Event != nil && (act.Event.Todos() == nil || act.Event.Todos().Items == nil) {
			t.Fatalf("todos event without a list: %+v", act.Event)
		}
		if act.Result != nil || act.Await {
			t.Fatalf("Action %+v", act)
		}
	})
}

func FuzzNativeUpdate(f *testing.F) {
	for _, s := range append([]string{spawnedUpdate, stateUpdate,
		`{"sessionUpdate":"subagent_state_update","subagentSessionId":"c1","state":"disconnected"}`,
		`{"subagentSessionId":"c1","_meta":{"cursor":"x"},"task":5}`,
		`{"subagentSessionId":"c\u0031","_meta":{"cursor":{"toolCallId":"t","toolCallId":"u"}}}`,
	}, brokenSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, update string) {
		for _, h := range []func(gjson.Result) acpdialect.Late{cursor.HandleSpawned, cursor.HandleSubagentState} {
			l := owned(t, update, h)
			if (l == acpdialect.Late{}) {
				continue
			}
			st := l.Payload.SubagentTask
			if l.Payload.Kind != acpdialect.KindSubagentTask || st == nil || st.ChildSessionID == "" {
				t.Fatalf("Late %+v", l)
			}
			// A half always merges into a subagent card, copy-on-write.
			cur := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{Description: "d"}}
			got, ok := cursor.MergeLate(cur, l.Payload)
			if !ok || got.SubagentTask.ChildSessionID != st.ChildSessionID || got.SubagentTask.Description != "d" ||
				cur.SubagentTask.ChildSessionID != "" {
				t.Fatalf("MergeLate(%+v) = %+v, %v", *st, *got.SubagentTask, ok)
			}
		}
	})
}
