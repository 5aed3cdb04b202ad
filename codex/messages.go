package codex

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Message phases.
const (
	PhaseCommentary  = "commentary"
	PhaseFinalAnswer = "final_answer"
)

// Chunk is what a message chunk holds that the dialect reads. Its strings
// view the frame.
type Chunk struct {
	Kind      string // agent_message_chunk, user_message_chunk
	MessageID string
	Text      string // content.text
	Phase     string // _meta.codex.phase, else _meta.jetbrains.air.phase
}

// ParseChunk reads a message chunk in one pass over its top level.
func ParseChunk(u gjson.Result) Chunk {
	// One walk: each content and _meta object is read where it stands, not
	// skipped and then looked up again (a chunk's text may be long).
	var c Chunk
	r := frame.NewReader(u)
	r.Object(func(k string) {
		switch k {
		case "sessionUpdate":
			c.Kind = or(c.Kind, r.String())
		case "messageId":
			c.MessageID = or(c.MessageID, r.String())
		case "content":
			if c.Text == "" {
				c.Text = frame.View(firstMember(r, "text"))
			}
		case "_meta":
			if c.Phase == "" {
				c.Phase = frame.View(readPhase(r))
			}
		}
	})
	return c
}

// readPhase reads the phase in the _meta object at r: the first under
// codex (codex-acp 1.x, to every client), else the first under
// jetbrains.air (2.x, to AIR clients only), each as frame.Get reads it.
func readPhase(r *frame.Reader) gjson.Result {
	var codex, air gjson.Result
	r.Object(func(k string) {
		switch {
		case k == "codex" && !codex.Exists():
			codex = firstMember(r, "phase")
		case k == "jetbrains" && !air.Exists():
			r.Object(func(k string) {
				if k == "air" && !air.Exists() {
					air = firstMember(r, "phase")
				}
			})
		}
	})
	if codex.Exists() {
		return codex
	}
	return air
}

// firstMember reads the first member named key of the object at r, as
// frame.Get reads it; anything else reads as absent.
func firstMember(r *frame.Reader, key string) (v gjson.Result) {
	r.Object(func(k string) {
		if k == key && !v.Exists() {
			v = r.Value()
		}
	})
	return v
}

// PhaseEvent reads a message chunk with a phase (_meta.codex.phase, or
// AIR's _meta.jetbrains.air.phase) into a message event (role, text,
// phase), so that a client can fold commentary. A chunk
// without a phase costs one byte search and gives nil: it stays a
// standard chunk.
func PhaseEvent(u gjson.Result) *acpdialect.Event {
	if !strings.Contains(u.Raw, `phase"`) {
		return nil
	}
	c := ParseChunk(u)
	if c.Phase == "" {
		return nil
	}
	m := &acpdialect.Message{Role: acpdialect.RoleAssistant, Text: c.Text, Phase: c.Phase}
	if c.Kind == "user_message_chunk" {
		m.Role = acpdialect.RoleUser
	}
	frame.Own(&m.Text, &m.Phase)
	return &acpdialect.Event{Type: acpdialect.EventMessage, Object: m}
}

// SystemError is the session mark of a session_info_update: set by a
// thread status of type systemError (_meta.codex.threadStatus, else
// _meta.threadStatus), cleared by any other thread status, untouched by an
// update without one.
func SystemError(u gjson.Result) (mark, ok bool) {
	// One walk reads both paths as gjson reads them: the first type found,
	// in the order of the frame, under each; the first path wins.
	var inCodex, direct gjson.Result
	r := frame.NewReader(u)
	r.Object(func(k string) {
		if k != "_meta" || inCodex.Exists() {
			return
		}
		r.Object(func(k string) {
			switch {
			case k == "codex" && !inCodex.Exists():
				r.Object(func(k string) {
					if k == "threadStatus" && !inCodex.Exists() {
						inCodex = firstMember(r, "type")
					}
				})
			case k == "threadStatus" && !direct.Exists():
				direct = firstMember(r, "type")
			}
		})
	})
	t := inCodex
	if !t.Exists() {
		t = direct
	}
	if !t.Exists() {
		return false, false
	}
	return t.Type == gjson.String && t.Str == "systemError", true
}

// Capacity error texts: the phrase looked for (in lower case, spaces
// collapsed) and the message given instead.
const (
	capacityPhrase  = "model is at capacity"
	CapacityMessage = "Selected model is at capacity. Please try a different model."
	// maxReplacedText bounds the chunk text a provider error repeats.
	maxReplacedText = 1024
)

// CapacityError reads an assistant chunk after a systemError thread
// status: text saying the model is at capacity becomes one provider_error
// event (model_at_capacity, action switch_model) naming the chunk to hide:
// its text (its last 1 KiB) and the messageId of the message that holds
// it. Any other chunk gives nil.
func CapacityError(u gjson.Result) *acpdialect.Event {
	c := ParseChunk(u)
	if c.Kind != "agent_message_chunk" || !IsCapacityText(c.Text) {
		return nil
	}
	e := &acpdialect.ProviderError{
		Severity: acpdialect.SeverityError,
		Code:     "model_at_capacity",
		Title:    "Model at capacity",
		Message:  CapacityMessage,
		Action:   "switch_model",
	}
	// The chunk's text, and the message that holds it: a client hides
	// that text, not the whole message, which may have said more before.
	e.ReplacesMessageID = strings.Clone(c.MessageID)
	e.ReplacesText, _ = tail(c.Text, maxReplacedText, false)
	return &acpdialect.Event{Type: acpdialect.EventProviderError, Object: e}
}

// IsCapacityText reports whether text says the model is at capacity, in
// any case and spacing.
func IsCapacityText(text string) bool {
	if len(text) > 64<<10 {
		return false // an answer, not an error notice
	}
	return strings.Contains(strings.Join(strings.Fields(strings.ToLower(text)), " "), capacityPhrase)
}

// SessionInfoEvent reads a session_info_update: the title (the AI title;
// a null title, with no string one, clears it: TitleCleared),
// _meta.codex.archived and closed. An update with none of them that
// carries _meta.codex.error gives that error's provider_error (turnError);
// codex-acp sends the error alone. Otherwise it returns nil.
func SessionInfoEvent(u gjson.Result) *acpdialect.Event {
	var x acpdialect.SessionInfo
	var turnErr gjson.Result
	null := false // a title written null: ACP's way to clear it
	r := frame.NewReader(u)
	r.Object(func(k string) {
		switch k {
		case "title":
			null = null || r.Peek() == 'n'
			x.Title = or(x.Title, r.String())
		case "_meta":
			// Each _meta's first archived and closed, as gjson's path
			// reads them, in the walk that reads the update.
			var archived, closed gjson.Result
			r.Object(func(k string) {
				if k != "codex" {
					return
				}
				r.Object(func(k string) {
					switch {
					case k == "archived" && !archived.Exists():
						archived = r.Value()
					case k == "closed" && !closed.Exists():
						closed = r.Value()
					case k == "error" && !turnErr.Exists():
						turnErr = r.Value()
					}
				})
			})
			x.Archived = flag(x.Archived, archived)
			x.Closed = flag(x.Closed, closed)
		}
	})
	x.TitleCleared = null && x.Title == "" // a title given wins
	if x.Title == "" && !x.TitleCleared && x.Archived == nil && x.Closed == nil {
		return turnError(turnErr)
	}
	frame.Own(&x.Title)
	return &acpdialect.Event{Type: acpdialect.EventSessionInfo, Object: &x}
}

// flag returns p, or when p is nil and v a boolean, a new flag.
func flag(p *bool, v gjson.Result) *bool {
	if p != nil || (v.Type != gjson.True && v.Type != gjson.False) {
		return p
	}
	b := v.Type == gjson.True
	return &b
}
