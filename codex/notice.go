package codex

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// UpdateNotice is the notice codex-acp 2.x sends to a client that declares
// session.notices: {severity, title, description?}, for app-server
// configuration warnings and deprecation notices (other clients get them
// as message text, AIR clients as typed failures).
const UpdateNotice = "notice"

// NoticeEvent reads a notice into a provider_error event of code notice,
// as AIR's notices read: severity error as sent, any other (codex-acp
// sends warning) a warning; title and description (message) at most
// air.MaxText bytes, cut at a character's start. A notice without a
// string title gives nil.
func NoticeEvent(u gjson.Result) *acpdialect.Event {
	var severity, title, desc gjson.Result
	frame.Members(u, func(k string, v gjson.Result) bool {
		switch {
		case k == "severity" && !severity.Exists():
			severity = v
		case k == "title" && !title.Exists():
			title = v
		case k == "description" && !desc.Exists():
			desc = v
		}
		return true
	})
	if title.Type != gjson.String || title.Str == "" {
		return nil
	}
	p := &acpdialect.ProviderError{Severity: acpdialect.SeverityWarning, Code: air.CodeNotice,
		Title: frame.Head(title.Str, air.MaxText)}
	if severity.Type == gjson.String && severity.Str == acpdialect.SeverityError {
		p.Severity = acpdialect.SeverityError
	}
	if desc.Type == gjson.String {
		p.Message = frame.Head(desc.Str, air.MaxText)
	}
	return &acpdialect.Event{Type: acpdialect.EventProviderError, Object: p}
}
