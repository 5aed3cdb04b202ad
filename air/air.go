// Package air reads the records of the JetBrains AIR ACP extension that
// claude-agent-acp and codex-acp both send, for their dialects: the typed
// session failures, into provider_error events, and the async tasks,
// into late halves for background cards. The two agents build the same
// records, so the reading is shared, as package terminal's is; what one
// agent alone sends stays in its dialect.
//
// A client that lists "sessionFailure" in the capabilities of
// clientCapabilities._meta.jetbrains.air (version 1 or later) on initialize
// gets the agent's provider failures, retry warnings and notices in typed
// form only, and no error text at all:
//
//	_meta.jetbrains.air = {version: 1, sessionFailure: {
//	    id, revision, category, severity, title, details?, actions}}
//
// category is connection, access, limit, request, service or unknown;
// severity warning or error; actions a list of retry, login and
// new_session (empty on a warning). One incident keeps its id: a retry
// warning and the error that ends the retries share it, each with a higher
// revision, and a client replaces what it showed. The record comes in a
// session_info_update's _meta (often with nothing else: [UpdateEvent]) and
// in a session/prompt result's _meta, the turn's terminal failure on a
// response whose stopReason is end_turn ([PromptEvent]).
//
// [Failure] maps a record to acpdialect.ProviderError: the code from the
// category (and, for a limit error, the actions), the title and details,
// the first action, and the id and revision as sent. A record that is not
// an object, or has no id or no title, gives no event; a field of the
// wrong type is absent; an unknown category is a provider_error, an
// unknown action is skipped. The functions are pure and keep no view of
// the frame.
//
// A client that lists "asyncTasks" gets the agent's background work as
// three session/update kinds the SDKs do not know (so a dialect lists
// them in its Updates, and the tap quarantines them):
//
//	async_task_spawned {asyncTaskId, name, taskType, description?, toolCallId?}
//	async_task_progress {asyncTaskId, summary?, usage?, toolCallId?}
//	async_task_state_update {asyncTaskId, state, toolCallId?}
//
// [ReadTask] reads one into a [Task], and [Task.Late] makes the late half
// for the task's card, named by the task id and, once known, the tool
// call that started it: a shell task is a background shell, a monitor
// task a monitor, any other a card titled by its name; a spawn is
// running, a state ends the card (stopped is cancelled). Whether a state
// ends a card a tool call made is the dialect's merge's to say
// ([MergeShell] merges a task's shell). Claude's dialect drops the task
// of an autonomous turn before Late; Codex's titles a shell by the task's
// name. The wire facts, with their sources, are in the module's
// docs/codex.md and docs/claude.md.
package air

import (
	"slices"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MaxText bounds the title and the message an event repeats, in bytes:
// the agents' titles are a sentence (codex-acp moves a notice longer than
// 240 characters to its details); a longer text is cut at a character's
// start.
const MaxText = 1024

// Codes a failure's category gives (see Code). The names are those the
// dialects already use for the same class of failure.
const (
	CodeAuthRequired   = "auth_required"
	CodeTransportLost  = "transport_lost"
	CodeBadRequest     = "bad_request"
	CodeQuotaExhausted = "quota_exhausted"
	CodeRateLimited    = "rate_limited"
	// CodeLimitReached is a limit the user gets past in a new session:
	// the context window or the session's budget (the record does not say
	// which), or a limit warning.
	CodeLimitReached  = "limit_reached"
	CodeProviderError = "provider_error"
	// CodeNotice is an advisory (category unknown): a warning the agent
	// used to print as text, such as a config or deprecation warning.
	CodeNotice = "notice"
)

// Actions a failure may offer.
const (
	ActionRetry      = "retry"
	ActionLogin      = "login"
	ActionNewSession = "new_session"
)

// UpdateEvent reads the failure in a session_info_update's _meta, or
// returns nil: an Update.Event hook.
func UpdateEvent(update gjson.Result) *acpdialect.Event {
	return metaEvent(update)
}

// PromptEvent reads the failure in a session/prompt result's _meta, or
// returns nil: a Call.Result hook, beside the turn's usage.
func PromptEvent(result gjson.Result) *acpdialect.Event {
	return metaEvent(result)
}

// metaEvent reads obj._meta's failure. Most objects carry none: one byte
// search over the object (or the rest of the frame, which only costs a
// needless walk when it names a failure) says so.
func metaEvent(obj gjson.Result) *acpdialect.Event {
	if !strings.Contains(obj.Raw, "sessionFailure") {
		return nil
	}
	return Failure(frame.Get(obj, "_meta"))
}

// Failure reads _meta.jetbrains.air.sessionFailure from a _meta object
// into a provider_error event, or returns nil when there is none or it
// has no id or no title.
func Failure(meta gjson.Result) *acpdialect.Event {
	f := frame.Path(meta, "jetbrains", "air", "sessionFailure")
	if !f.IsObject() {
		return nil
	}
	var id, title, details, category, severity gjson.Result
	var actions []string
	var revision int64
	var seen uint8
	// first says whether the key's bit is new: of a key sent twice the
	// first counts, as gjson reads it.
	first := func(bit uint8) bool {
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}
	frame.Members(f, func(k string, v gjson.Result) bool {
		switch {
		case k == "id" && first(1):
			id = v
		case k == "title" && first(2):
			title = v
		case k == "details" && first(4):
			details = v
		case k == "category" && first(8):
			category = v
		case k == "severity" && first(16):
			severity = v
		case k == "actions" && first(32):
			actions = knownActions(v)
		case k == "revision" && first(64):
			if n, ok := frame.Int64(v); ok && n > 0 {
				revision = n
			}
		}
		return true
	})
	if !nonEmpty(id) || !nonEmpty(title) {
		return nil
	}
	p := &acpdialect.ProviderError{
		Severity: Severity(frame.View(severity)),
		Title:    frame.Head(title.Str, MaxText),
		ID:       strings.Clone(id.Str),
		Revision: revision,
	}
	p.Code = Code(frame.View(category), p.Severity, actions)
	if details.Type == gjson.String && strings.TrimSpace(details.Str) != "" {
		p.Message = frame.Head(details.Str, MaxText)
	}
	if len(actions) > 0 {
		p.Action = actions[0]
	}
	return &acpdialect.Event{Type: acpdialect.EventProviderError, Object: p}
}

// nonEmpty reports whether v is a string with more than spaces.
func nonEmpty(v gjson.Result) bool {
	return v.Type == gjson.String && strings.TrimSpace(v.Str) != ""
}

// Severity is the event's severity: warning or error as sent, else error
// (codex-acp: an absent severity means error, for clients older than
// warnings).
func Severity(s string) string {
	if s == acpdialect.SeverityWarning {
		return acpdialect.SeverityWarning
	}
	return acpdialect.SeverityError
}

// Code classes a failure by its category, as both agents' policy tables
// assign them: access asks to sign in, connection is a lost transport,
// request a request the provider refused, service an error of the provider
// (overloaded, internal or other: the record no longer says which),
// unknown an advisory. A limit error is told apart by its actions: none is
// an exhausted quota, retry a rate limit, new_session a context or budget
// limit; a limit warning (a retry in progress, sent without actions), or
// actions no agent sends for a limit, are a limit reached. Any other
// category is a provider error: a newer agent may add categories.
// actions are the known actions, in the agent's order.
func Code(category, severity string, actions []string) string {
	switch category {
	case "access":
		return CodeAuthRequired
	case "connection":
		return CodeTransportLost
	case "request":
		return CodeBadRequest
	case "service":
		return CodeProviderError
	case "unknown":
		return CodeNotice
	case "limit":
		if severity == acpdialect.SeverityWarning {
			return CodeLimitReached
		}
		switch {
		case len(actions) == 0:
			return CodeQuotaExhausted
		case len(actions) == 1 && actions[0] == ActionRetry:
			return CodeRateLimited
		}
		return CodeLimitReached
	}
	return CodeProviderError
}

// knownActions returns the actions of v that are retry, login or
// new_session, in order, each once: an action a newer agent adds is
// skipped, and anything but a list is none.
func knownActions(v gjson.Result) []string {
	var out []string
	if !v.IsArray() {
		return nil
	}
	v.ForEach(func(_, a gjson.Result) bool {
		var name string
		switch {
		case a.Type != gjson.String:
		case a.Str == ActionRetry:
			name = ActionRetry
		case a.Str == ActionLogin:
			name = ActionLogin
		case a.Str == ActionNewSession:
			name = ActionNewSession
		}
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
		return len(out) < 3
	})
	return out
}

// UpdateNotice is ACP's notice update (the session-notices RFD):
// {severity: info|warning|error, title, description?}, sent to a client
// that declares session.notices (codex-acp 2.x: configuration warnings
// and deprecation notices; claude-agent-acp 0.101.0: Claude Code's
// informational messages). The SDK does not know it: the tap quarantines
// it as every dialect's own kind.
const UpdateNotice = "notice"

// NoticeEvent reads a notice into a provider_error event of code notice,
// as AIR's advisories read: its severity as sent when it is info, warning
// or error, else warning; title and description (message) at most MaxText
// bytes, cut at a character's start. A notice without a string title
// gives nil.
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
	p := &acpdialect.ProviderError{Severity: NoticeSeverity(severity.Str), Code: CodeNotice,
		Title: frame.Head(title.Str, MaxText)}
	if desc.Type == gjson.String {
		p.Message = frame.Head(desc.Str, MaxText)
	}
	return &acpdialect.Event{Type: acpdialect.EventProviderError, Object: p}
}

// NoticeSeverity returns a notice's severity as the contract writes it:
// info, warning or error as sent (a constant), anything else warning.
func NoticeSeverity(s string) string {
	switch s {
	case acpdialect.SeverityInfo:
		return acpdialect.SeverityInfo
	case acpdialect.SeverityError:
		return acpdialect.SeverityError
	}
	return acpdialect.SeverityWarning
}
