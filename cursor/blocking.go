package cursor

import (
	"encoding/json"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Cursor's blocking requests: the agent's turn waits for the answer, so
// every one gets an answer (a -32601 stalls the turn as well). When the
// client answers them itself the Conn waits for it (Action.Await) and
// sends the Result here only as the default.
const (
	MethodAskQuestion = "cursor/ask_question"
	MethodCreatePlan  = "cursor/create_plan"
)

// HandleQuestion reads cursor/ask_question params into a question event,
// with "cancelled" as the default answer. Params that are not an object
// ask nothing: they are answered "cancelled" at once, with no event.
func HandleQuestion(params gjson.Result) acpdialect.Action {
	if !params.IsObject() {
		return acpdialect.Action{Result: cancelled}
	}
	q := ParseQuestion(params)
	ev := eventWith(acpdialect.EventQuestion, q.ToolCallID, q)
	return acpdialect.Action{Result: cancelled, Event: ev, Await: true}
}

// eventWith returns an event of type typ and its object in one
// allocation: a vendor frame's event costs one allocation, not two.
func eventWith[T any, P interface {
	*T
	acpdialect.Object
}](typ, toolCallID string, obj T) *acpdialect.Event {
	o := &struct {
		ev  acpdialect.Event
		obj T
	}{obj: obj}
	o.ev = acpdialect.Event{Type: typ, ToolCallID: toolCallID, Object: P(&o.obj)}
	return &o.ev
}

// cancelled is the handlers' default answer, shared: the Conn copies a
// result into the reply frame and never changes it.
var cancelled = Cancelled()

// ParseQuestion reads cursor/ask_question params in one pass. Fields of
// the wrong type are absent; of a key that appears twice the first counts.
// Questions and options without an id (nothing to answer with) are
// skipped. Questions and each Options are never nil, so the JSON has [].
// The strings are copies: nothing views the frame.
func ParseQuestion(params gjson.Result) acpdialect.Question {
	q := acpdialect.Question{Questions: make([]acpdialect.QuestionItem, 0, 4)}
	r := frame.NewReader(params)
	var seen uint8
	r.Object(func(k string) {
		switch {
		case k == "toolCallId" && once(&seen, 1):
			q.ToolCallID = r.String()
		case k == "title" && once(&seen, 2):
			q.Title = r.String()
		case k == "questions" && once(&seen, 4):
			r.Array(func() {
				if it := readQuestionItem(r); it.ID != "" {
					q.Questions = append(q.Questions, it)
				}
			})
		}
	})
	// All strings are owned at once (one allocation), after the slices
	// stopped growing so that the pointers stay valid.
	var buf [48]*string
	ptrs := append(buf[:0], &q.ToolCallID, &q.Title)
	for i := range q.Questions {
		it := &q.Questions[i]
		ptrs = append(ptrs, &it.ID, &it.Prompt)
		for j := range it.Options {
			ptrs = append(ptrs, &it.Options[j].ID, &it.Options[j].Label)
		}
	}
	frame.Own(ptrs...)
	return q
}

func readQuestionItem(r *frame.Reader) acpdialect.QuestionItem {
	it := acpdialect.QuestionItem{Options: []acpdialect.QuestionOption{}}
	var seen uint8
	r.Object(func(k string) {
		switch {
		case k == "id" && once(&seen, 1):
			it.ID = r.String()
		case k == "prompt" && once(&seen, 2):
			it.Prompt = r.String()
		case k == "allowMultiple" && once(&seen, 4):
			it.AllowMultiple = r.True()
		case k == "options" && once(&seen, 8):
			it.Options = readOptions(r)
		}
	})
	return it
}

func readOptions(r *frame.Reader) []acpdialect.QuestionOption {
	opts := make([]acpdialect.QuestionOption, 0, 4)
	r.Array(func() {
		var o acpdialect.QuestionOption
		var seen uint8
		r.Object(func(k string) {
			switch {
			case k == "id" && once(&seen, 1):
				o.ID = r.String()
			case k == "label" && once(&seen, 2):
				o.Label = r.String()
			}
		})
		if o.ID != "" {
			opts = append(opts, o)
		}
	})
	return opts
}

// HandlePlan reads cursor/create_plan params into a plan event, with
// "cancelled" as the default answer. Params that are not an object propose
// nothing: they are answered "cancelled" at once, with no event.
func HandlePlan(params gjson.Result) acpdialect.Action {
	if !params.IsObject() {
		return acpdialect.Action{Result: cancelled}
	}
	p := ParsePlan(params)
	ev := eventWith(acpdialect.EventPlan, p.ToolCallID, p)
	return acpdialect.Action{Result: cancelled, Event: ev, Await: true}
}

// ParsePlan reads cursor/create_plan params in one pass: the plan's
// markdown (plan), name, overview, todos (never nil; read as ParseTodos
// reads them) and whether it is a project plan (only a JSON true). Fields of
// the wrong type are absent; of a key that appears twice the first counts.
func ParsePlan(params gjson.Result) acpdialect.Plan {
	var p acpdialect.Plan
	r := frame.NewReader(params)
	var seen uint8
	r.Object(func(k string) {
		switch {
		case k == "toolCallId" && once(&seen, 1):
			p.ToolCallID = r.String()
		case k == "name" && once(&seen, 2):
			p.Name = r.String()
		case k == "overview" && once(&seen, 4):
			p.Overview = r.String()
		case k == "plan" && once(&seen, 8):
			p.Markdown = r.String()
		case k == "todos" && once(&seen, 16):
			p.Todos, _ = readTodos(r)
		case k == "isProject" && once(&seen, 32):
			p.IsProject = r.True()
		}
	})
	if p.Todos == nil {
		p.Todos = []acpdialect.Todo{}
	}
	frame.Own(ownTodos([]*string{&p.ToolCallID, &p.Name, &p.Overview, &p.Markdown}, p.Todos)...)
	return p
}

// Answer is the user's choice for one question.
type Answer struct {
	QuestionID string
	OptionIDs  []string
}

// The outcome objects Cursor reads, in the field order they are written.
type (
	answerJSON struct {
		QuestionID        string   `json:"questionId"`
		SelectedOptionIDs []string `json:"selectedOptionIds"`
	}
	answeredJSON struct {
		Outcome string       `json:"outcome"`
		Answers []answerJSON `json:"answers"`
	}
	outcomeJSON struct {
		Outcome string `json:"outcome"`
		PlanURI string `json:"planUri,omitempty"`
		Reason  string `json:"reason,omitempty"`
	}
)

// Answered is the reply to cursor/ask_question with the user's answers:
// {"outcome":{"outcome":"answered","answers":[{"questionId":..,
// "selectedOptionIds":[..]}]}}. No answers or no option ids are written as
// [], never null.
func Answered(answers ...Answer) json.RawMessage {
	out := answeredJSON{Outcome: "answered", Answers: make([]answerJSON, len(answers))}
	for i, a := range answers {
		ids := a.OptionIDs
		if ids == nil {
			ids = []string{}
		}
		out.Answers[i] = answerJSON{QuestionID: a.QuestionID, SelectedOptionIDs: ids}
	}
	return wrap(out)
}

// Skipped is the reply to cursor/ask_question when the user skips it; the
// reason is written only when not empty.
func Skipped(reason string) json.RawMessage {
	return wrap(outcomeJSON{Outcome: "skipped", Reason: reason})
}

// Cancelled is the reply to a blocking request that the user (or a client
// without a handler) cancels: {"outcome":{"outcome":"cancelled"}}.
func Cancelled() json.RawMessage {
	return json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`)
}

// Accepted is the reply to cursor/create_plan when the user accepts the
// plan; planUri is written only when not empty.
func Accepted(planURI string) json.RawMessage {
	return wrap(outcomeJSON{Outcome: "accepted", PlanURI: planURI})
}

// Rejected is the reply to cursor/create_plan (and cursor/generate_image)
// when the client declines; the reason is written only when not empty.
func Rejected(reason string) json.RawMessage {
	return wrap(outcomeJSON{Outcome: "rejected", Reason: reason})
}

// wrap writes {"outcome":<v>}. encoding/json escapes the strings (invalid
// UTF-8 becomes U+FFFD), so the bytes are always valid JSON. It cannot
// fail on these types; were it to, the agent still gets an answer.
func wrap(v any) json.RawMessage {
	b, err := json.Marshal(struct {
		Outcome any `json:"outcome"`
	}{v})
	if err != nil {
		return Cancelled()
	}
	return b
}
