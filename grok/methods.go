package grok

import (
	"encoding/json"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Bounds of a question: questions and options past them are dropped.
const (
	MaxQuestions = 32
	MaxOptions   = 32
)

// Unwrap returns the inner method and params of an _x.ai/... envelope
// ({method, params} as the params), or method and params as they are.
func Unwrap(method string, params gjson.Result) (string, gjson.Result) {
	m, p := params.Get("method"), params.Get("params")
	if m.Type == gjson.String && strings.Contains(m.Str, "x.ai/") && p.IsObject() {
		return strings.TrimPrefix(m.Str, "_"), p
	}
	return strings.TrimPrefix(method, "_"), params
}

// HandleNotification reads one of Grok's allowlisted notifications, sent
// as method: nothing to answer; a subagent's start or end on
// x.ai/session_notification, in an envelope or not, is what it says of the
// subagent's card (SubagentChild). What changes a session (a model
// switch) is read by Notification, with the session's state.
func HandleNotification(method string, params gjson.Result) acpdialect.Action {
	method, params = Unwrap(method, params)
	if method != MethodSessionNotification {
		return acpdialect.Action{}
	}
	u := params.Get("update")
	if !u.IsObject() {
		u = params
	}
	if c, ok := SubagentChild(params.Get("sessionId").Str, u); ok {
		return acpdialect.Action{Children: []acpdialect.Child{c}}
	}
	return acpdialect.Action{}
}

// Notification reads the notifications that change a session's catalog:
// x.ai/session_notification's model_changed {model_id, reasoning_effort},
// in an envelope or not. It returns the session and a config event with
// the new selection; a model the catalog does not have changes nothing.
func Notification(method string, params gjson.Result, state func(string) any) (string, acpdialect.Step) {
	method, params = Unwrap(method, params)
	if method != MethodSessionNotification {
		return "", acpdialect.Step{}
	}
	sid := params.Get("sessionId")
	u := params.Get("update")
	if !u.IsObject() {
		u = params
	}
	if sid.Type != gjson.String || u.Get("sessionUpdate").String() != "model_changed" {
		return "", acpdialect.Step{}
	}
	c, _ := state(sid.Str).(*Catalog)
	id := u.Get("model_id")
	if c == nil || c.AgentOptions || id.Type != gjson.String || c.find(id.Str) == nil {
		return "", acpdialect.Step{}
	}
	selected := c.Effort
	if e := u.Get("reasoning_effort"); e.Type == gjson.String {
		selected = e.Str
	}
	next := c.with(c.find(id.Str).ID, c.resolveEffort(id.Str, selected))
	if next.Current == c.Current && next.Effort == c.Effort {
		return "", acpdialect.Step{}
	}
	return sid.Str, acpdialect.Step{State: next, Events: configEvents(next.ConfigOptions())}
}

// HandleQuestion reads x.ai/ask_user_question (or its envelope) into a
// question event. The client answers with Answered; the default, when it
// has no handler or is late, is Declined: Grok fails the tool on -32601,
// on a result without an outcome and on an outcome it does not know. Each question's id is its text, the
// key Grok's answers use; each option's id is its label.
func HandleQuestion(params gjson.Result) acpdialect.Action {
	_, params = Unwrap(MethodAskUserQuestion, params)
	if !params.IsObject() {
		return acpdialect.Action{Result: declined}
	}
	q := ParseQuestion(params)
	return acpdialect.Action{
		Result: declined,
		Event:  &acpdialect.Event{Type: acpdialect.EventQuestion, ToolCallID: q.ToolCallID, Object: &q},
		Await:  true,
	}
}

// ParseQuestion reads x.ai/ask_user_question params: {sessionId,
// toolCallId, questions:[{question, options:[{label} or a string],
// multiSelect}]}. Questions without text and options without a label are
// skipped; Questions and each Options are never nil. Strings are copies.
func ParseQuestion(params gjson.Result) acpdialect.Question {
	q := acpdialect.Question{ToolCallID: frame.Str(params.Get("toolCallId")), Questions: []acpdialect.QuestionItem{}}
	params.Get("questions").ForEach(func(_, it gjson.Result) bool {
		// A question's id is its text exactly as sent: Grok keys the
		// answers by it. Only the prompt shown is trimmed.
		raw := it.Get("question").String()
		text := strings.TrimSpace(raw)
		if it.Get("question").Type != gjson.String || text == "" {
			return true
		}
		item := acpdialect.QuestionItem{ID: strings.Clone(raw), Prompt: strings.Clone(text),
			Options: []acpdialect.QuestionOption{}, AllowMultiple: it.Get("multiSelect").Type == gjson.True}
		it.Get("options").ForEach(func(_, o gjson.Result) bool {
			label := o
			if o.IsObject() {
				label = o.Get("label")
			}
			if l := strings.TrimSpace(label.String()); label.Type == gjson.String && l != "" {
				l = strings.Clone(l)
				item.Options = append(item.Options, acpdialect.QuestionOption{ID: l, Label: l})
			}
			return len(item.Options) < MaxOptions
		})
		q.Questions = append(q.Questions, item)
		return len(q.Questions) < MaxQuestions
	})
	return q
}

// Answer is the user's answer to one question: the labels picked (one for
// a single-select question), or free text.
type Answer struct {
	Question string // the question's text: its id in the question event
	Labels   []string
}

// Answered is the reply to x.ai/ask_user_question with the user's answers:
// {"outcome":"accepted","answers":{"<question>":"<label>"}}, several
// labels joined with ", ". Answers without a question or a label are
// skipped; with none left it is Declined. Grok 1.0.41 reads no other
// outcome for answers: it fails the tool on "answered".
func Answered(answers ...Answer) json.RawMessage {
	m := map[string]string{}
	for _, a := range answers {
		var labels []string
		for _, l := range a.Labels {
			if l = strings.TrimSpace(l); l != "" {
				labels = append(labels, l)
			}
		}
		if a.Question != "" && len(labels) > 0 {
			m[a.Question] = strings.Join(labels, ", ")
		}
	}
	if len(m) == 0 {
		return Declined()
	}
	b, err := json.Marshal(struct {
		Outcome string            `json:"outcome"`
		Answers map[string]string `json:"answers"`
	}{"accepted", m})
	if err != nil {
		return Declined()
	}
	return b
}

// Declined is the reply when the user (or a client without a handler)
// does not answer, and the default: {"outcome":"cancelled"}, which Grok
// tells its model as "User declined to answer the questions". Grok 1.0.41
// knows no "declined" outcome and fails the tool on it.
func Declined() json.RawMessage { return json.RawMessage(`{"outcome":"cancelled"}`) }

// Cancelled is the reply when the question is cancelled with its turn:
// {"outcome":"cancelled"}, the same reply as Declined.
func Cancelled() json.RawMessage { return json.RawMessage(`{"outcome":"cancelled"}`) }

// declined is the handlers' default, shared: the Conn copies it.
var declined = Declined()
