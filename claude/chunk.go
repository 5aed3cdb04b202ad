package claude

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Chunk is what the dialect reads of a message or thought chunk. Strings
// view the frame.
type Chunk struct {
	Kind string // agent_message_chunk, agent_thought_chunk, user_message_chunk
	// Parent is _meta.claudeCode.parentToolUseId: the chunk is a
	// subagent's.
	Parent string
	// Content is the raw content object; Text reads its text.
	Content gjson.Result
	// Level is _meta.claudeCode.level when _meta.claudeCode.kind is
	// "informational": the chunk is a notice of Claude Code's, not the
	// model's text (warning, notice, suggestion or info).
	Level string
	// Informational says _meta.claudeCode.kind is "informational".
	Informational bool
	// MessageID is the chunk's messageId.
	MessageID string
}

// ReadChunk reads a chunk update in one pass without decoding its text.
func ReadChunk(update gjson.Result) Chunk {
	var c Chunk
	var seen uint8
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch {
		case k == "sessionUpdate" && once(&seen, 1):
			c.Kind = r.String()
		case k == "_meta" && once(&seen, 2):
			r.Object(func(k string) {
				if k == "claudeCode" {
					c.readClaudeCode(r)
				}
			})
		case k == "content" && once(&seen, 4):
			c.Content = r.Value()
		case k == "messageId" && once(&seen, 8):
			c.MessageID = r.String()
		}
	})
	return c
}

// readClaudeCode reads a chunk's _meta.claudeCode: the subagent tool call
// it was made inside, and whether it is one of Claude Code's notices.
func (c *Chunk) readClaudeCode(r *frame.Reader) {
	var seen uint8
	r.Object(func(k string) {
		switch {
		case k == "parentToolUseId" && once(&seen, 1):
			c.Parent = r.String()
		case k == "kind" && once(&seen, 2):
			c.Informational = r.String() == "informational"
		case k == "level" && once(&seen, 4):
			c.Level = r.String()
		}
	})
}

// Text returns the chunk's text (content.text), decoded; "" for content
// that is not text.
func (c Chunk) Text() string {
	var text string
	r := frame.NewReader(c.Content)
	r.Object(func(k string) {
		if k == "text" && text == "" {
			text = r.String()
		}
	})
	return text
}

// mayNotify reports, without decoding, whether the chunk's content may
// hold a task notification.
func (c Chunk) mayNotify() bool {
	raw := c.Content.Raw
	return strings.Contains(raw, "<task-notification>") || escaped(raw) && strings.Contains(c.Text(), "<task-notification>")
}

// escaped reports whether raw JSON holds a \u escape of a printable ASCII
// character (\u0020 to \u007f), which may spell what the byte searches of
// this package look for: a frame that went through Go's encoding/json has
// '<' as \u003c, and a member name may be escaped too. Such a frame takes
// the path that decodes. Other escapes (non-ASCII text from an ASCII-only
// encoder, a terminal's \u001b) spell none of it: those chunks keep the
// pass that does not allocate.
func escaped(raw string) bool {
	for {
		i := strings.Index(raw, `\u00`)
		if i < 0 || i+4 >= len(raw) {
			return false
		}
		if d := raw[i+4]; d >= '2' && d <= '7' {
			return true
		}
		raw = raw[i+4:]
	}
}

// Legacy compaction: before the compaction tool call, the adapter wrote
// these two texts as agent message chunks, the second after a blank line
// ("\n\nCompacting completed.", so that a client joining the chunks shows
// it under the first); the newlines before either are not compared.
const (
	CompactingText = "Compacting..."
	CompactedText  = "Compacting completed."
)

// ChunkEvent reads a message, thought or user chunk into a message event
// when the client needs more than the standard chunk: a subagent's chunk
// (parentToolUseId) nested under its card, or a chunk holding task
// notifications, with the spans to hide. The legacy compaction texts
// become compaction events, and Claude Code's own notices (NoticeChunk) a
// provider_error of code notice. Any other chunk gives nil, without
// allocating: it is the stream's bulk.
func ChunkEvent(update gjson.Result) *acpdialect.Event {
	if !strings.Contains(update.Raw, "claudeCode") && !strings.Contains(update.Raw, "<task-notification>") &&
		!strings.Contains(update.Raw, "Compacting") && !escaped(update.Raw) {
		return nil // the bulk of the stream: four byte searches, no walk
	}
	c := ReadChunk(update)
	if c.Informational && c.Parent == "" && c.Kind == "agent_message_chunk" {
		return NoticeChunk(c)
	}
	notify := c.mayNotify()
	if c.Parent == "" && !notify {
		return legacyCompaction(c)
	}
	text := c.Text()
	msg := &acpdialect.Message{Role: role(c.Kind), Text: strings.Clone(text), ParentToolCallID: strings.Clone(c.Parent)}
	if notify {
		for _, n := range ParseTaskNotifications(text) {
			msg.Hidden = append(msg.Hidden, acpdialect.TextSpan{Start: n.Start, End: n.End, TaskID: strings.Clone(n.TaskID)})
		}
		if c.Parent == "" && len(msg.Hidden) == 0 {
			return nil
		}
	}
	return &acpdialect.Event{Type: acpdialect.EventMessage, Object: msg}
}

func role(kind string) string {
	switch kind {
	case "agent_thought_chunk":
		return acpdialect.RoleThought
	case "user_message_chunk":
		return acpdialect.RoleUser
	}
	return acpdialect.RoleAssistant
}

// legacyCompaction reads a top-level agent message that is one of the
// legacy compaction texts, after any newlines; nil for any other chunk.
// The raw content is tested first: the texts hold nothing JSON escapes.
func legacyCompaction(c Chunk) *acpdialect.Event {
	if c.Kind != "agent_message_chunk" || len(c.Content.Raw) > 64 || !strings.Contains(c.Content.Raw, "Compacting") {
		return nil
	}
	var status string
	switch strings.TrimLeft(c.Text(), "\n") {
	case CompactingText:
		status = acpdialect.CompactionInProgress
	case CompactedText:
		status = acpdialect.CompactionCompleted
	default:
		return nil
	}
	return &acpdialect.Event{Type: acpdialect.EventCompaction, Object: &acpdialect.Compaction{Status: status}}
}

// HandleChunk reads the monitor events in a chunk's task notifications
// into late halves, one for each monitor named (the Conn finds each card
// by its task id, an alias); none for any other chunk.
func HandleChunk(update gjson.Result) []acpdialect.Late {
	if !strings.Contains(update.Raw, "<task-notification>") && !escaped(update.Raw) {
		return nil
	}
	c := ReadChunk(update)
	if !c.mayNotify() {
		return nil
	}
	return monitorLates(ParseTaskNotifications(c.Text()))
}

// maxReplacedText bounds the text a notice event names for a client to
// hide (ProviderError.ReplacesText): its last 1 KiB.
const maxReplacedText = 1 << 10

// NoticeChunk reads an agent message chunk that claude-agent-acp sends in
// place of a notice to a client without session.notices (0.101.0): Claude
// Code's informational message, marked _meta.claudeCode {kind:
// "informational", level}, as text "**<Level>:** <message>" ("info" plain).
// It becomes a provider_error of code notice, as the notice update reads
// (air.NoticeEvent): severity warning for the level warning, else info;
// the title and the message as the adapter splits a notice (the first
// line, when at most 256 characters, and the rest; else "Claude reported
// a warning" or "Claude reported a notice" and the whole text), each at
// most air.MaxText bytes; and the chunk to hide (its text's last 1 KiB,
// its messageId). A chunk whose content is not text gives nil.
func NoticeChunk(c Chunk) *acpdialect.Event {
	text := c.Text()
	body := strings.TrimSpace(text)
	if c.Level != "" && c.Level != "info" {
		body = strings.TrimSpace(strings.TrimPrefix(body, "**"+sentenceCase(c.Level)+":**"))
	}
	if body == "" {
		return nil
	}
	severity := acpdialect.SeverityInfo
	fallback := "Claude reported a notice"
	if c.Level == acpdialect.SeverityWarning {
		severity, fallback = acpdialect.SeverityWarning, "Claude reported a warning"
	}
	title, message := splitNotice(body, fallback)
	p := &acpdialect.ProviderError{Severity: severity, Code: air.CodeNotice,
		Title: frame.Head(title, air.MaxText), Message: frame.Head(message, air.MaxText),
		ReplacesMessageID: strings.Clone(c.MessageID)}
	p.ReplacesText = strings.Clone(frame.TailView(text, maxReplacedText))
	return &acpdialect.Event{Type: acpdialect.EventProviderError, Object: p}
}

// maxNoticeTitle is the longest first line the adapter takes as a
// notice's title (MAX_NOTICE_TITLE_LENGTH).
const maxNoticeTitle = 256

// splitNotice splits a notice's text as claude-agent-acp does
// (splitNoticeText): its first line is the title and the rest the
// message, unless the first line is too long, when the title is fallback
// and the whole text the message.
func splitNotice(text, fallback string) (title, message string) {
	first, rest, _ := strings.Cut(text, "\n")
	first = strings.TrimRight(first, " \t\r")
	if utf8.RuneCountInString(first) > maxNoticeTitle {
		return fallback, text
	}
	return first, strings.TrimSpace(rest)
}

// sentenceCase upper-cases s's first letter, as the adapter writes a
// level in its label ("warning" -> "Warning").
func sentenceCase(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
