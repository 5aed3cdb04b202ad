package acpdialect

import (
	"strings"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// ChunkMessage reads an agent message or thought chunk (the update
// object) into a message event: an Update.Event for the dialects whose
// subagents run in child sessions (Dialect.ChildSessions), where the Conn
// asks for it only in a child session and nests it under the card the
// child is linked to. A chunk whose content is not text, or whose text is
// empty, gives nil. Of two equal keys the first counts, as the Conn's own
// reading does. The text is a copy.
func ChunkMessage(u gjson.Result) *Event {
	var kind, text string
	var hasKind, hasContent, hasText bool
	frame.Members(u, func(k string, v gjson.Result) bool {
		switch {
		case k == "sessionUpdate" && !hasKind:
			kind, hasKind = frame.View(v), true
		case k == "content" && !hasContent:
			hasContent = true
			var seen bool
			frame.Members(v, func(k string, v gjson.Result) bool {
				if k == "text" && !seen {
					seen = true
					text, hasText = v.Str, v.Type == gjson.String
				}
				return true
			})
		}
		return true
	})
	if !hasText || text == "" {
		return nil
	}
	role := RoleAssistant
	if kind == "agent_thought_chunk" {
		role = RoleThought
	}
	return &Event{Type: EventMessage, Object: &Message{Role: role, Text: strings.Clone(text)}}
}
