package opencode

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MessageEvent reads an agent message or thought chunk into a message
// event, which the Conn asks for only in a subagent's child session and
// nests under the task card the child is linked to. A chunk whose content
// is not text gives nil.
func MessageEvent(u gjson.Result) *acpdialect.Event {
	var kind, text string
	var hasText bool
	var seen uint8
	frame.Members(u, func(k string, v gjson.Result) bool {
		switch {
		case k == "sessionUpdate" && once(&seen, 1):
			kind = frame.View(v)
		case k == "content" && once(&seen, 2):
			var seen uint8
			frame.Members(v, func(k string, v gjson.Result) bool {
				if k == "text" && once(&seen, 1) && v.Type == gjson.String {
					text, hasText = v.Str, true
				}
				return true
			})
		}
		return true
	})
	if !hasText || text == "" {
		return nil
	}
	role := acpdialect.RoleAssistant
	if kind == "agent_thought_chunk" {
		role = acpdialect.RoleThought
	}
	return &acpdialect.Event{Type: acpdialect.EventMessage, Object: &acpdialect.Message{Role: role, Text: strings.Clone(text)}}
}
