package codex

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// maxErrorMessage bounds the message a turn error's event repeats: codex's
// messages are a sentence; a longer one is cut at a character's start.
const maxErrorMessage = 1024

// errorClass is what codex-acp makes of an error's codexErrorInfo in its
// typed session failures: the class (the provider_error's code), a short
// title and the action it offers first.
type errorClass struct{ code, title, action string }

var (
	classProvider  = errorClass{"provider_error", "Provider error", "retry"}
	classAuth      = errorClass{"auth_required", "Sign-in required", "login"}
	classRate      = errorClass{"rate_limited", "Rate limited", "retry"}
	classTransport = errorClass{"transport_lost", "Connection lost", "retry"}
)

// stringErrorClasses classes a codexErrorInfo given as a string.
var stringErrorClasses = map[string]errorClass{
	"contextWindowExceeded":       {"context_exhausted", "Context window full", "new_session"},
	"sessionBudgetExceeded":       {"budget_exhausted", "Session budget reached", "new_session"},
	"usageLimitExceeded":          {"quota_exhausted", "Usage limit reached", ""},
	"serverOverloaded":            {"overloaded", "Service overloaded", "retry"},
	"cyberPolicy":                 {"policy_denied", "Refused by policy", ""},
	"misalignmentPolicyViolation": {"policy_denied", "Refused by policy", ""},
	"internalServerError":         {"internal_error", "Internal error", "retry"},
	"unauthorized":                classAuth,
	"badRequest":                  {"bad_request", "Bad request", ""},
}

// structuredErrorClasses classes a codexErrorInfo given as an object by
// its key; every other key is a provider error.
var structuredErrorClasses = map[string]errorClass{
	"httpConnectionFailed":           classTransport,
	"responseStreamConnectionFailed": classTransport,
	"responseStreamDisconnected":     classTransport,
	"responseTooManyFailedAttempts":  classTransport,
}

// turnError reads codex-acp's _meta.codex.error {message, codexErrorInfo,
// additionalDetails, turnId, willRetry}, sent on a session_info_update for
// an error Codex retries, or for one of a turn other than the prompt's: a
// provider_error, a warning while Codex retries (with no action: it acts
// itself), else an error. additionalDetails is left out, as codex-acp
// leaves it out of its own typed failures: raw details, not for the user.
// Anything but an object with a string message gives nil.
func turnError(e gjson.Result) *acpdialect.Event {
	if !e.IsObject() {
		return nil
	}
	msg := e.Get("message")
	if msg.Type != gjson.String || strings.TrimSpace(msg.Str) == "" {
		return nil
	}
	class := classify(e.Get("codexErrorInfo"))
	p := &acpdialect.ProviderError{
		Severity: acpdialect.SeverityError,
		Code:     class.code,
		Title:    class.title,
		Message:  frame.Head(msg.Str, maxErrorMessage),
		Action:   class.action,
	}
	if e.Get("willRetry").Type == gjson.True {
		p.Severity, p.Action = acpdialect.SeverityWarning, ""
	}
	return &acpdialect.Event{Type: acpdialect.EventProviderError, Object: p}
}

// classify classes a codexErrorInfo as codex-acp does: an HTTP status of
// 401 asks to sign in, 429 is a rate limit, and an unknown or missing kind
// is a provider error (a newer Codex may add kinds).
func classify(info gjson.Result) errorClass {
	if info.Type == gjson.String {
		if c, ok := stringErrorClasses[info.Str]; ok {
			return c
		}
		return classProvider
	}
	if !info.IsObject() {
		return classProvider
	}
	// The first member, as codex-acp reads it: the kind and its details.
	var kind, details gjson.Result
	info.ForEach(func(k, v gjson.Result) bool {
		kind, details = k, v
		return false
	})
	switch details.Get("httpStatusCode").Int() {
	case 401:
		return classAuth
	case 429:
		return classRate
	}
	if c, ok := structuredErrorClasses[kind.Str]; ok {
		return c
	}
	return classProvider
}
