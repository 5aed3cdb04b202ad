package claude

import (
	"strings"

	"github.com/acpdialect/acpdialect"
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
					var code Code
					code.readClaudeCode(r)
					c.Parent = code.Parent
				}
			})
		case k == "content" && once(&seen, 4):
			c.Content = r.Value()
		}
	})
	return c
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
// become compaction events. Any other chunk gives nil, without allocating:
// it is the stream's bulk.
func ChunkEvent(update gjson.Result) *acpdialect.Event {
	if !strings.Contains(update.Raw, "parentToolUseId") && !strings.Contains(update.Raw, "<task-notification>") &&
		!strings.Contains(update.Raw, "Compacting") && !escaped(update.Raw) {
		return nil // the bulk of the stream: four byte searches, no walk
	}
	c := ReadChunk(update)
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
