package acpdialect

import (
	"encoding/json"
	"strconv"
)

// Session-level event types: each event carries one object named after its
// type.
const (
	// EventQuestion is a blocking question the agent asks the user (Cursor's
	// cursor/ask_question). The event names the request (Method, ID); the
	// client answers it with Conn.Answer, or the Conn answers the dialect's
	// default.
	EventQuestion = "question"
	// EventPlan is a plan the agent asks the user to accept (Cursor's
	// cursor/create_plan), a blocking request like a question.
	EventPlan = "plan"
	// EventTodos is the session's todo list after a change, whole.
	EventTodos = "todos"
	// EventImage is an image the agent asks the client to generate.
	EventImage = "image"
	// EventModels is the agent's answer to a request for its models.
	EventModels = "models"
	// EventCommands is the session's slash commands after a change, whole.
	EventCommands = "commands"
)

// Question is one blocking question request: one or more questions, each
// with its options.
type Question struct {
	ToolCallID string         `json:"-"` // the event's tool_call_id
	Title      string         `json:"title,omitempty"`
	Questions  []QuestionItem `json:"questions"`
}

// QuestionItem is one question and the options the user picks from.
type QuestionItem struct {
	ID            string           `json:"id"`
	Prompt        string           `json:"prompt,omitempty"`
	Options       []QuestionOption `json:"options"`
	AllowMultiple bool             `json:"allow_multiple,omitempty"`
}

// QuestionOption is one answer a question offers.
type QuestionOption struct {
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
}

// Plan is a plan the agent proposes.
type Plan struct {
	ToolCallID string `json:"-"` // the event's tool_call_id
	Name       string `json:"name,omitempty"`
	Overview   string `json:"overview,omitempty"`
	// Markdown is the plan itself.
	Markdown  string `json:"markdown,omitempty"`
	Todos     []Todo `json:"todos"`
	IsProject bool   `json:"is_project,omitempty"`
}

// Todo is one item of a todo list or plan.
type Todo struct {
	ID      string `json:"id"`
	Content string `json:"content,omitempty"`
	// Status is pending, in_progress, completed or cancelled.
	Status string `json:"status,omitempty"`
	// FromText says the dialect made ID up from the todo's text, the agent
	// having sent none (Cursor's "content:" ids). A merge matches such a
	// todo only with another one made up so, never with an agent's own id
	// that reads the same: the agent's ids are any strings, so no made-up
	// form could keep clear of them. It is not written out: the client
	// sees both ids as they are.
	FromText bool `json:"-"`
}

// TextTodoID is the id a dialect makes up for a todo the agent sent
// without one (Todo.FromText): "content:" and its text, then "#n" for the
// nth todo of that text in one list. Positions would not do: a merge
// sends only the todos that changed, and matches them by id.
func TextTodoID(text string, n int) string {
	if n <= 1 {
		return "content:" + text
	}
	return "content:" + text + "#" + strconv.Itoa(n)
}

// TodoStatus returns s when it is one of a todo's four statuses (pending,
// in_progress, completed, cancelled), as a constant (so that a todo kept
// does not pin the frame it was read from), else "".
func TodoStatus(s string) string {
	switch s {
	case StatusPending:
		return StatusPending
	case StatusInProgress:
		return StatusInProgress
	case StatusCompleted:
		return StatusCompleted
	case StatusCancelled:
		return StatusCancelled
	}
	return ""
}

// TodoIDs keys the todos of one list that came without an id
// (TextTodoID), counting their texts. The zero value is ready to use.
type TodoIDs struct{ repeats map[string]int }

// Key gives t an id made from its text when it has none, and reports
// whether it has one now: a todo with neither id nor text is to be
// skipped.
func (k *TodoIDs) Key(t *Todo) bool {
	if t.ID == "" && t.Content != "" {
		if k.repeats == nil {
			k.repeats = map[string]int{}
		}
		k.repeats[t.Content]++
		t.ID, t.FromText = TextTodoID(t.Content, k.repeats[t.Content]), true
	}
	return t.ID != ""
}

// Todos is a session's todo list.
type Todos struct {
	ToolCallID string `json:"-"` // the event's tool_call_id
	Items      []Todo `json:"items"`
}

// Image is a request to generate an image.
type Image struct {
	ToolCallID          string   `json:"-"` // the event's tool_call_id
	Description         string   `json:"description,omitempty"`
	FilePath            string   `json:"file_path,omitempty"`
	ReferenceImagePaths []string `json:"reference_image_paths,omitempty"`
}

// Models is the list of models an agent offers.
type Models struct {
	Items []Model `json:"items"`
}

// Model is one model an agent offers.
type Model struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// ConfigOptions are the model's own options (effort, fast, ...) as the
	// agent sent them.
	ConfigOptions json.RawMessage `json:"config_options,omitempty"`
}

// Commands is a session's slash commands.
type Commands struct {
	Items []Command `json:"items"`
}

// Command is one slash command.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	InputHint   string `json:"input_hint,omitempty"`
}
