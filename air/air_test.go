package air_test

import (
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// meta wraps a sessionFailure value in the _meta object both agents send.
func meta(failure string) string {
	return `{"jetbrains":{"air":{"version":1,"sessionFailure":` + failure + `}}}`
}

func perr(sev, code, title, msg, action, id string, rev int64) *acpdialect.ProviderError {
	return &acpdialect.ProviderError{Severity: sev, Code: code, Title: title, Message: msg, Action: action, ID: id, Revision: rev}
}

const (
	errS  = acpdialect.SeverityError
	warnS = acpdialect.SeverityWarning
)

// Every category and actions pair the two agents' policy tables produce
// (codex-acp's SESSION_FAILURE_POLICY, claude-agent-acp's
// AIR_FAILURE_POLICY), as an error and as the warning a retry sends.
func TestFailurePolicyTables(t *testing.T) {
	tests := []struct {
		name, category, actions string
		severity                string
		want                    *acpdialect.ProviderError
	}{
		// Both agents.
		{"auth_required", "access", `["login"]`, "error", perr(errS, "auth_required", "T", "", "login", "i", 1)},
		{"rate_limited", "limit", `["retry"]`, "error", perr(errS, "rate_limited", "T", "", "retry", "i", 1)},
		{"quota_exhausted", "limit", `[]`, "error", perr(errS, "quota_exhausted", "T", "", "", "i", 1)},
		{"context or budget exhausted", "limit", `["new_session"]`, "error", perr(errS, "limit_reached", "T", "", "new_session", "i", 1)},
		{"overloaded, provider_error", "service", `["retry"]`, "error", perr(errS, "provider_error", "T", "", "retry", "i", 1)},
		{"internal_error", "service", `["retry","new_session"]`, "error", perr(errS, "provider_error", "T", "", "retry", "i", 1)},
		{"bad_request, policy_denied", "request", `[]`, "error", perr(errS, "bad_request", "T", "", "", "i", 1)},
		{"advisory, notice", "unknown", `[]`, "warning", perr(warnS, "notice", "T", "", "", "i", 1)},
		// codex-acp's transport_lost; claude-agent-acp's transport_lost
		// and worker_shutdown.
		{"codex transport_lost", "connection", `["retry","new_session"]`, "error", perr(errS, "transport_lost", "T", "", "retry", "i", 1)},
		{"claude transport_lost", "connection", `["new_session"]`, "error", perr(errS, "transport_lost", "T", "", "new_session", "i", 1)},
		// Retry warnings: any kind, always without actions.
		{"limit warning", "limit", `[]`, "warning", perr(warnS, "limit_reached", "T", "", "", "i", 1)},
		{"connection warning", "connection", `[]`, "warning", perr(warnS, "transport_lost", "T", "", "", "i", 1)},
		{"service warning", "service", `[]`, "warning", perr(warnS, "provider_error", "T", "", "", "i", 1)},
		{"access warning", "access", `[]`, "warning", perr(warnS, "auth_required", "T", "", "", "i", 1)},
		{"request warning", "request", `[]`, "warning", perr(warnS, "bad_request", "T", "", "", "i", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := `{"id":"i","revision":1,"category":"` + tt.category + `","severity":"` + tt.severity + `","title":"T","actions":` + tt.actions + `}`
			ev := air.Failure(gjson.Parse(meta(f)))
			if ev == nil || ev.Type != acpdialect.EventProviderError {
				t.Fatalf("Failure(%s) = %+v; want a provider_error", f, ev)
			}
			if d := cmp.Diff(tt.want, ev.ProviderError()); d != "" {
				t.Errorf("Failure(%s) (-want +got):\n%s", f, d)
			}
		})
	}
}

// What a record that is not as the agents send it gives: nothing without
// an object, an id and a title; absent fields where they have the wrong
// type; a provider_error for a category no agent sends yet.
func TestFailureDegrades(t *testing.T) {
	long := strings.Repeat("é", 600) // 1200 bytes
	tests := []struct {
		name, meta string
		want       *acpdialect.ProviderError
	}{
		{"no _meta", ``, nil},
		{"_meta not an object", `[1]`, nil},
		{"no jetbrains", `{"air":{"sessionFailure":{"id":"i","title":"T"}}}`, nil},
		{"air not an object", `{"jetbrains":{"air":"x"}}`, nil},
		{"failure null", meta(`null`), nil},
		{"failure a string", meta(`"rate limited"`), nil},
		{"failure a list", meta(`[{"id":"i","title":"T"}]`), nil},
		{"no id", meta(`{"title":"T","category":"limit"}`), nil},
		{"empty id", meta(`{"id":"","title":"T"}`), nil},
		{"id a number", meta(`{"id":7,"title":"T"}`), nil},
		{"no title", meta(`{"id":"i","details":"D"}`), nil},
		{"blank title", meta(`{"id":"i","title":"  "}`), nil},
		{"title a list", meta(`{"id":"i","title":["T"]}`), nil},
		{"only id and title", meta(`{"id":"i","title":"T"}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"unknown category", meta(`{"id":"i","title":"T","category":"billing","actions":["retry"]}`), perr(errS, "provider_error", "T", "", "retry", "i", 0)},
		{"category a number", meta(`{"id":"i","title":"T","category":3}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"unknown severity", meta(`{"id":"i","title":"T","severity":"info","category":"unknown"}`), perr(errS, "notice", "T", "", "", "i", 0)},
		{"severity a bool", meta(`{"id":"i","title":"T","severity":true}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"unknown action skipped", meta(`{"id":"i","title":"T","category":"limit","actions":["upgrade","retry"]}`), perr(errS, "rate_limited", "T", "", "retry", "i", 0)},
		{"actions not strings", meta(`{"id":"i","title":"T","category":"access","actions":[1,null,"login"]}`), perr(errS, "auth_required", "T", "", "login", "i", 0)},
		{"actions not a list", meta(`{"id":"i","title":"T","category":"limit","actions":"retry"}`), perr(errS, "quota_exhausted", "T", "", "", "i", 0)},
		{"action repeated", meta(`{"id":"i","title":"T","category":"limit","actions":["retry","retry"]}`), perr(errS, "rate_limited", "T", "", "retry", "i", 0)},
		{"limit actions no agent sends", meta(`{"id":"i","title":"T","category":"limit","actions":["login"]}`), perr(errS, "limit_reached", "T", "", "login", "i", 0)},
		{"revision zero", meta(`{"id":"i","title":"T","revision":0}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"revision negative", meta(`{"id":"i","title":"T","revision":-2}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"revision a fraction", meta(`{"id":"i","title":"T","revision":1.5}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"revision a string", meta(`{"id":"i","title":"T","revision":"2"}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"revision written 3e0", meta(`{"id":"i","title":"T","revision":3e0}`), perr(errS, "provider_error", "T", "", "", "i", 3)},
		{"details", meta(`{"id":"i","title":"T","details":"D"}`), perr(errS, "provider_error", "T", "D", "", "i", 0)},
		{"details a number", meta(`{"id":"i","title":"T","details":5}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"details blank", meta(`{"id":"i","title":"T","details":" "}`), perr(errS, "provider_error", "T", "", "", "i", 0)},
		{"first of a repeated key", meta(`{"id":"a","id":"b","title":"T","revision":2,"revision":9}`), perr(errS, "provider_error", "T", "", "", "a", 2)},
		{"long title and details cut", meta(`{"id":"i","title":"` + long + `","details":"` + long + `"}`),
			perr(errS, "provider_error", strings.Repeat("é", 512), strings.Repeat("é", 512), "", "i", 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := air.Failure(gjson.Parse(tt.meta))
			var got *acpdialect.ProviderError
			if ev != nil {
				got = ev.ProviderError()
				if got == nil || ev.Type != acpdialect.EventProviderError {
					t.Fatalf("Failure = %+v; want a provider_error", ev)
				}
				if !utf8.ValidString(got.Title) || !utf8.ValidString(got.Message) {
					t.Errorf("title or message cut inside a character")
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Failure(%s) (-want +got):\n%s", tt.meta, d)
			}
		})
	}
}

// The two places the record comes: a session_info_update's _meta, and a
// session/prompt result's _meta beside the quota; other _meta is no event.
func TestUpdateAndPromptEvents(t *testing.T) {
	f := `{"id":"turn-1:error","revision":2,"category":"limit","severity":"error","title":"Rate limited","actions":["retry"]}`
	want := perr(errS, "rate_limited", "Rate limited", "", "retry", "turn-1:error", 2)
	tests := []struct {
		name string
		read func(gjson.Result) *acpdialect.Event
		obj  string
		want *acpdialect.ProviderError
	}{
		{"update", air.UpdateEvent, `{"sessionUpdate":"session_info_update","_meta":` + meta(f) + `}`, want},
		{"update with a title", air.UpdateEvent, `{"sessionUpdate":"session_info_update","title":"x","_meta":` + meta(f) + `}`, want},
		{"update without a failure", air.UpdateEvent, `{"sessionUpdate":"session_info_update","title":"x","_meta":{"codex":{"archived":true}}}`, nil},
		{"failure outside _meta", air.UpdateEvent, `{"sessionUpdate":"session_info_update","jetbrains":{"air":{"sessionFailure":` + f + `}}}`, nil},
		{"prompt result", air.PromptEvent, `{"stopReason":"end_turn","usage":{"inputTokens":1},"_meta":{"quota":{"token_count":null},"jetbrains":{"air":{"version":1,"sessionFailure":` + f + `}}}}`, want},
		{"prompt result without a failure", air.PromptEvent, `{"stopReason":"end_turn","_meta":{"quota":{}}}`, nil},
		{"prompt result not an object", air.PromptEvent, `"sessionFailure"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := tt.read(gjson.Parse(tt.obj))
			var got *acpdialect.ProviderError
			if ev != nil {
				got = ev.ProviderError()
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// The event keeps no view of the frame: overwriting the bytes it was read
// from changes nothing.
func TestFailureOwnsItsStrings(t *testing.T) {
	b := []byte(meta(`{"id":"turn-1:error","revision":1,"category":"service","severity":"error","title":"Overloaded","details":"try later","actions":["retry"]}`))
	ev := air.Failure(gjson.Parse(unsafe.String(&b[0], len(b)))) // a view, as the Conn passes
	before := *ev.ProviderError()
	for i := range b {
		b[i] = 'x'
	}
	if d := cmp.Diff(before, *ev.ProviderError()); d != "" || before.ID != "turn-1:error" {
		t.Errorf("event changed with the frame (-before +after):\n%s", d)
	}
}
