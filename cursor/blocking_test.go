package cursor_test

import (
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// questionParams is cursor/ask_question as the research notes give it.
const questionParams = `{"toolCallId":"tc-1","title":"Pick a stack","questions":[` +
	`{"id":"q1","prompt":"Language?","options":[{"id":"go","label":"Go"},{"id":"rs","label":"Rust"}],"allowMultiple":false},` +
	`{"id":"q2","prompt":"Extras?","options":[{"id":"ci","label":"CI"}],"allowMultiple":true}]}`

func TestParseQuestion(t *testing.T) {
	full := acpdialect.Question{ToolCallID: "tc-1", Title: "Pick a stack", Questions: []acpdialect.QuestionItem{
		{ID: "q1", Prompt: "Language?", Options: []acpdialect.QuestionOption{{ID: "go", Label: "Go"}, {ID: "rs", Label: "Rust"}}},
		{ID: "q2", Prompt: "Extras?", Options: []acpdialect.QuestionOption{{ID: "ci", Label: "CI"}}, AllowMultiple: true},
	}}
	empty := acpdialect.Question{Questions: []acpdialect.QuestionItem{}}
	noOpts := []acpdialect.QuestionOption{}
	tests := []struct {
		name, params string
		want         acpdialect.Question
	}{
		{"well-formed", questionParams, full},
		{"extra fields are ignored", `{"x":{"y":[1]},"toolCallId":"tc-1","title":"Pick a stack","questions":[` +
			`{"id":"q1","prompt":"Language?","kind":"single","options":[{"id":"go","label":"Go","icon":"g"},{"id":"rs","label":"Rust"}]},` +
			`{"id":"q2","prompt":"Extras?","options":[{"id":"ci","label":"CI"}],"allowMultiple":true}],"z":null}`, full},
		{"only toolCallId", `{"toolCallId":"t"}`, acpdialect.Question{ToolCallID: "t", Questions: []acpdialect.QuestionItem{}}},
		{"empty object", `{}`, empty},
		{"questions empty", `{"questions":[]}`, empty},
		{"question without id is skipped", `{"questions":[{"prompt":"p","options":[{"id":"a"}]},{"id":"q","prompt":"p2"}]}`,
			acpdialect.Question{Questions: []acpdialect.QuestionItem{{ID: "q", Prompt: "p2", Options: noOpts}}}},
		{"question with an empty or non-string id is skipped", `{"questions":[{"id":"","prompt":"p"},{"id":5},{"id":null},{"id":"k"}]}`,
			acpdialect.Question{Questions: []acpdialect.QuestionItem{{ID: "k", Options: noOpts}}}},
		{"question not an object is skipped", `{"questions":["q1",3,null,[],{"id":"q"}]}`,
			acpdialect.Question{Questions: []acpdialect.QuestionItem{{ID: "q", Options: noOpts}}}},
		{"option without id is skipped", `{"questions":[{"id":"q","options":[{"label":"L"},{"id":"","label":"E"},{"id":1},"a",{"id":"b"}]}]}`,
			acpdialect.Question{Questions: []acpdialect.QuestionItem{{ID: "q", Options: []acpdialect.QuestionOption{{ID: "b"}}}}}},
		{"wrong types are absent", `{"toolCallId":1,"title":["t"],"questions":[{"id":"q","prompt":7,"options":{"id":"a"},"allowMultiple":"true"}]}`,
			acpdialect.Question{Questions: []acpdialect.QuestionItem{{ID: "q", Options: noOpts}}}},
		{"allowMultiple only for true", `{"questions":[{"id":"a","allowMultiple":1},{"id":"b","allowMultiple":false},{"id":"c","allowMultiple":true}]}`,
			acpdialect.Question{Questions: []acpdialect.QuestionItem{{ID: "a", Options: noOpts}, {ID: "b", Options: noOpts}, {ID: "c", Options: noOpts, AllowMultiple: true}}}},
		{"questions not an array", `{"questions":{"id":"q"}}`, empty},
		{"duplicate keys: first wins", `{"toolCallId":"a","toolCallId":"b","title":"t1","title":"t2","questions":[{"id":"q","id":"r","prompt":"p","prompt":"x",` +
			`"allowMultiple":true,"allowMultiple":false,"options":[{"id":"o","id":"p","label":"l","label":"m"}],"options":[]}],"questions":[]}`,
			acpdialect.Question{ToolCallID: "a", Title: "t1", Questions: []acpdialect.QuestionItem{
				{ID: "q", Prompt: "p", AllowMultiple: true, Options: []acpdialect.QuestionOption{{ID: "o", Label: "l"}}}}}},
		{"duplicate key of the wrong type first still wins", `{"title":5,"title":"late"}`, empty},
		{"unicode and escapes", `{"title":"caf\u00e9 \"q\"\n","questions":[{"id":"q\u0031","prompt":"日本語 ✓","options":[{"id":"a\\b","label":"\ud83d\ude00"}]}]}`,
			acpdialect.Question{Title: "café \"q\"\n", Questions: []acpdialect.QuestionItem{
				{ID: "q1", Prompt: "日本語 ✓", Options: []acpdialect.QuestionOption{{ID: `a\b`, Label: "😀"}}}}}},
		{"params array", `[` + questionParams + `]`, empty},
		{"params string", `"x"`, empty},
		{"params null", `null`, empty},
		{"params missing", ``, empty},
		// Broken JSON degrades to what was present.
		{"truncated", `{"toolCallId":"t","questions":[{"id":"q"`, acpdialect.Question{ToolCallID: "t",
			Questions: []acpdialect.QuestionItem{{ID: "q", Options: noOpts}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := cursor.ParseQuestion(gjson.Parse(tc.params))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Question (-want +got):\n%s", d)
			}
			assertQuestionSlices(t, got)
		})
	}
}

// assertQuestionSlices checks that no slice would encode as null.
func assertQuestionSlices(t *testing.T, q acpdialect.Question) {
	t.Helper()
	if q.Questions == nil {
		t.Fatal("Questions is nil")
	}
	for _, it := range q.Questions {
		if it.Options == nil {
			t.Fatalf("Options of %q is nil", it.ID)
		}
	}
}

func TestQuestionJSON(t *testing.T) {
	b, err := json.Marshal(cursor.ParseQuestion(gjson.Parse(`{"questions":[{"id":"q"}]}`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"questions":[{"id":"q","options":[]}]}`; string(b) != want {
		t.Errorf("JSON = %s; want %s", b, want)
	}
}

func TestHandleQuestion(t *testing.T) {
	act := cursor.HandleQuestion(gjson.Parse(questionParams))
	q := cursor.ParseQuestion(gjson.Parse(questionParams))
	want := acpdialect.Action{
		Result: cursor.Cancelled(),
		Event:  &acpdialect.Event{Type: acpdialect.EventQuestion, ToolCallID: "tc-1", Object: &q},
		Await:  true,
	}
	if d := cmp.Diff(want, act); d != "" {
		t.Errorf("Action (-want +got):\n%s", d)
	}
	for _, bad := range []string{`null`, `[]`, `"x"`, ``} {
		act := cursor.HandleQuestion(gjson.Parse(bad))
		if d := cmp.Diff(acpdialect.Action{Result: cursor.Cancelled()}, act); d != "" {
			t.Errorf("params %q: Action (-want +got):\n%s", bad, d)
		}
	}
}

// planParams is cursor/create_plan as the research notes give it.
const planParams = `{"toolCallId":"tc-2","name":"Refactor","overview":"Split the parser","plan":"# Plan\n\n1. Split\n2. Test",` +
	`"todos":[{"id":"t1","content":"Split","status":"pending"},{"id":"t2","content":"Test","status":"in_progress"}],"isProject":true}`

func TestParsePlan(t *testing.T) {
	todos := []acpdialect.Todo{{ID: "t1", Content: "Split", Status: "pending"}, {ID: "t2", Content: "Test", Status: "in_progress"}}
	full := acpdialect.Plan{ToolCallID: "tc-2", Name: "Refactor", Overview: "Split the parser",
		Markdown: "# Plan\n\n1. Split\n2. Test", Todos: todos, IsProject: true}
	empty := acpdialect.Plan{Todos: []acpdialect.Todo{}}
	tests := []struct {
		name, params string
		want         acpdialect.Plan
	}{
		{"well-formed", planParams, full},
		{"only plan", `{"plan":"do it"}`, acpdialect.Plan{Markdown: "do it", Todos: []acpdialect.Todo{}}},
		{"empty object", `{}`, empty},
		{"isProject only when true", `{"isProject":"true"}`, empty},
		{"isProject false", `{"isProject":false}`, empty},
		{"wrong types are absent", `{"toolCallId":1,"name":true,"overview":[],"plan":{"md":"x"},"todos":"t1","isProject":1}`, empty},
		{"todos without id and bad status", `{"todos":[{"content":"no id"},{"status":"pending"},{"id":"a","status":"done"},{"id":"b","status":5},"x"]}`,
			acpdialect.Plan{Todos: []acpdialect.Todo{{ID: "content:no id", Content: "no id", FromText: true}, {ID: "a"}, {ID: "b"}}}},
		{"extra fields", `{"plan":"p","mode":"plan","todos":[{"id":"a","priority":"high"}]}`,
			acpdialect.Plan{Markdown: "p", Todos: []acpdialect.Todo{{ID: "a"}}}},
		{"duplicate keys: first wins", `{"plan":"one","plan":"two","isProject":false,"isProject":true,"todos":[{"id":"a"}],"todos":[{"id":"b"}]}`,
			acpdialect.Plan{Markdown: "one", Todos: []acpdialect.Todo{{ID: "a"}}}},
		{"unicode and escapes", `{"name":"\u00e9t\u00e9","plan":"line1\nline2\t\"q\" \\ ✓"}`,
			acpdialect.Plan{Name: "été", Markdown: "line1\nline2\t\"q\" \\ ✓", Todos: []acpdialect.Todo{}}},
		{"params array", `[` + planParams + `]`, empty},
		{"params null", `null`, empty},
		{"params missing", ``, empty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := cursor.ParsePlan(gjson.Parse(tc.params))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Plan (-want +got):\n%s", d)
			}
			if got.Todos == nil {
				t.Error("Todos is nil")
			}
		})
	}
}

func TestHandlePlan(t *testing.T) {
	act := cursor.HandlePlan(gjson.Parse(planParams))
	p := cursor.ParsePlan(gjson.Parse(planParams))
	want := acpdialect.Action{
		Result: cursor.Cancelled(),
		Event:  &acpdialect.Event{Type: acpdialect.EventPlan, ToolCallID: "tc-2", Object: &p},
		Await:  true,
	}
	if d := cmp.Diff(want, act); d != "" {
		t.Errorf("Action (-want +got):\n%s", d)
	}
	for _, bad := range []string{`null`, `[]`, `7`, ``} {
		act := cursor.HandlePlan(gjson.Parse(bad))
		if d := cmp.Diff(acpdialect.Action{Result: cursor.Cancelled()}, act); d != "" {
			t.Errorf("params %q: Action (-want +got):\n%s", bad, d)
		}
	}
}

func TestBuilders(t *testing.T) {
	tests := []struct {
		name string
		got  json.RawMessage
		want string
	}{
		{"answered one", cursor.Answered(cursor.Answer{QuestionID: "q1", OptionIDs: []string{"a"}}),
			`{"outcome":{"outcome":"answered","answers":[{"questionId":"q1","selectedOptionIds":["a"]}]}}`},
		{"answered several", cursor.Answered(cursor.Answer{QuestionID: "q1", OptionIDs: []string{"a", "b"}}, cursor.Answer{QuestionID: "q2", OptionIDs: []string{"c"}}),
			`{"outcome":{"outcome":"answered","answers":[{"questionId":"q1","selectedOptionIds":["a","b"]},{"questionId":"q2","selectedOptionIds":["c"]}]}}`},
		{"answered nil options", cursor.Answered(cursor.Answer{QuestionID: "q1"}),
			`{"outcome":{"outcome":"answered","answers":[{"questionId":"q1","selectedOptionIds":[]}]}}`},
		{"answered empty options", cursor.Answered(cursor.Answer{QuestionID: "q1", OptionIDs: []string{}}),
			`{"outcome":{"outcome":"answered","answers":[{"questionId":"q1","selectedOptionIds":[]}]}}`},
		{"answered nothing", cursor.Answered(), `{"outcome":{"outcome":"answered","answers":[]}}`},
		{"answered escapes", cursor.Answered(cursor.Answer{QuestionID: "q\"1\n", OptionIDs: []string{`a\b`, "é✓"}}),
			`{"outcome":{"outcome":"answered","answers":[{"questionId":"q\"1\n","selectedOptionIds":["a\\b","é✓"]}]}}`},
		{"skipped", cursor.Skipped(""), `{"outcome":{"outcome":"skipped"}}`},
		{"skipped with reason", cursor.Skipped("not now"), `{"outcome":{"outcome":"skipped","reason":"not now"}}`},
		{"skipped escapes", cursor.Skipped("say \"no\"\t\x01"), `{"outcome":{"outcome":"skipped","reason":"say \"no\"\t\u0001"}}`},
		{"skipped invalid utf-8", cursor.Skipped("a\xffb"), `{"outcome":{"outcome":"skipped","reason":"a\ufffdb"}}`},
		{"cancelled", cursor.Cancelled(), `{"outcome":{"outcome":"cancelled"}}`},
		{"accepted", cursor.Accepted(""), `{"outcome":{"outcome":"accepted"}}`},
		{"accepted with uri", cursor.Accepted("file:///tmp/plan.md"), `{"outcome":{"outcome":"accepted","planUri":"file:///tmp/plan.md"}}`},
		{"rejected", cursor.Rejected(""), `{"outcome":{"outcome":"rejected"}}`},
		{"rejected with reason", cursor.Rejected("too big"), `{"outcome":{"outcome":"rejected","reason":"too big"}}`},
		{"image default", cursor.Rejected(cursor.ImageRejectReason),
			`{"outcome":{"outcome":"rejected","reason":"image generation is not supported by this client"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if string(tc.got) != tc.want {
				t.Errorf("got  %s\nwant %s", tc.got, tc.want)
			}
			if !json.Valid(tc.got) {
				t.Errorf("not valid JSON: %s", tc.got)
			}
		})
	}
}

// The answer Cursor reads back is the answer given: a round trip through
// the wire shape.
func TestAnsweredRoundTrip(t *testing.T) {
	in := []cursor.Answer{{QuestionID: "q<1>&", OptionIDs: []string{"a", "\u2028"}}, {QuestionID: "q2", OptionIDs: []string{}}}
	var out struct {
		Outcome struct {
			Outcome string `json:"outcome"`
			Answers []struct {
				QuestionID string   `json:"questionId"`
				Selected   []string `json:"selectedOptionIds"`
			} `json:"answers"`
		} `json:"outcome"`
	}
	if err := json.Unmarshal(cursor.Answered(in...), &out); err != nil {
		t.Fatal(err)
	}
	if out.Outcome.Outcome != "answered" || len(out.Outcome.Answers) != 2 {
		t.Fatalf("decoded %+v", out)
	}
	for i, a := range out.Outcome.Answers {
		if a.QuestionID != in[i].QuestionID || !cmp.Equal(a.Selected, in[i].OptionIDs) {
			t.Errorf("answer %d = %+v; want %+v", i, a, in[i])
		}
	}
}

// Each builder returns a fresh slice: a caller that changes one reply
// must not change the next.
func TestBuildersFresh(t *testing.T) {
	a := cursor.Cancelled()
	a[0] = 'x'
	if b := cursor.Cancelled(); b[0] != '{' {
		t.Errorf("Cancelled shares its bytes: %s", b)
	}
}
