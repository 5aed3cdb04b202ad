package acpdialect_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// background is a dialect with a background card: a tool call whose
// rawInput names a task becomes a monitor, an update "ping" names the task
// (by alias) with one event, and EndBackground ends it.
func background() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID: "bg",
		ToolCall: func(u frame.ToolUpdate, p acpdialect.Payload) acpdialect.Payload {
			if task := frame.Str(u.RawInput.Get("task")); task != "" {
				p.Kind, p.Monitor = acpdialect.KindMonitor, &acpdialect.Monitor{TaskID: task}
			}
			if out := frame.Str(u.RawOutput); out != "" {
				p.Kind, p.Shell = acpdialect.KindShell, &acpdialect.Shell{Output: out}
			}
			return p
		},
		Updates: []acpdialect.Update{
			{Kind: "ping", Handle: func(u gjson.Result) acpdialect.Late {
				return acpdialect.Late{Alias: frame.Str(u.Get("task")), Payload: acpdialect.Payload{Kind: acpdialect.KindMonitor,
					Monitor: &acpdialect.Monitor{EventCount: 1}}}
			}},
			{Kind: "tool_call", Standard: true, Event: func(u gjson.Result) *acpdialect.Event {
				return &acpdialect.Event{Type: acpdialect.EventMessage, Object: &acpdialect.Message{Role: "assistant", Text: "beside"}}
			}},
		},
		MergeLate: func(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
			if late.Monitor == nil {
				return cur, false
			}
			var m acpdialect.Monitor
			if cur.Monitor != nil {
				m = *cur.Monitor
			}
			m.EventCount += late.Monitor.EventCount
			cur.Monitor = &m
			return cur, true
		},
		EndBackground: func(p acpdialect.Payload, reason string) acpdialect.Payload {
			if p.Monitor == nil || p.Monitor.Ended {
				return p
			}
			m := *p.Monitor
			m.Ended, m.EndReason = true, reason
			p.Monitor, p.Status = &m, acpdialect.StatusCompleted
			return p
		},
	}
}

func feedFrames(t *testing.T, c *acpdialect.Conn, frames ...string) []string {
	t.Helper()
	var got []string
	for _, f := range frames {
		var res acpdialect.Result
		var err error
		if f[0] == '>' {
			res, err = c.Outbound([]byte(f[1:]))
		} else {
			res, err = c.Inbound([]byte(f[1:]))
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range res.Events {
			b, _ := json.Marshal(ev)
			got = append(got, string(b))
		}
	}
	return got
}

func TestBackgroundAliasAndEnd(t *testing.T) {
	c := acpdialect.NewRegistry(background()).NewConn(acpdialect.Options{Agent: "bg"})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","status":"completed","rawInput":{"task":"m1"}}}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"ping","task":"m1"}}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"ping","task":"m9"}}}`,
		`<{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`,
		`>{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1"}}`,
		`<{"jsonrpc":"2.0","id":2,"result":{}}`,
	)
	want := []string{
		`{"type":"tool_call","agent":"bg","session_id":"s1","tool_call_id":"t1","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"m1","event_count":0}}}`,
		`{"type":"message","agent":"bg","session_id":"s1","message":{"role":"assistant","text":"beside"}}`,
		`{"type":"tool_call_update","agent":"bg","session_id":"s1","tool_call_id":"t1","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"m1","event_count":1}}}`,
		// An alias no card goes by keys a card of its own.
		`{"type":"tool_call","agent":"bg","session_id":"s1","tool_call_id":"m9","payload":{"kind":"monitor","monitor":{"event_count":1}}}`,
		`{"type":"tool_call_update","agent":"bg","session_id":"s1","tool_call_id":"t1","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"m1","event_count":1,"ended":true,"end_reason":"exited"}}}`,
		`{"type":"tool_call_update","agent":"bg","session_id":"s1","tool_call_id":"m9","payload":{"kind":"monitor","status":"completed","monitor":{"event_count":1,"ended":true,"end_reason":"exited"}}}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestSessionRestartEndsBackground(t *testing.T) {
	c := acpdialect.NewRegistry(background()).NewConn(acpdialect.Options{Agent: "bg"})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","rawInput":{"task":"m1"}}}}`,
		`>{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1"}}`,
		`<{"jsonrpc":"2.0","id":2,"result":{}}`,
	)
	if len(got) != 3 || !strings.Contains(got[2], `"end_reason":"session_restart"`) {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}
}

// TestMaxOutput: a card's output keeps the tail within Options.MaxOutput.
func TestMaxOutput(t *testing.T) {
	c := acpdialect.NewRegistry(background()).NewConn(acpdialect.Options{Agent: "bg", MaxOutput: 8})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","rawOutput":"0123456789abcdé"}}}`,
	)
	if len(got) != 2 || !strings.Contains(got[0], `"shell":{"output":"89abcdé","output_truncated":true}`) {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}
}

// TestEventNamesSession: a vendor notification's event that names a
// session is attributed to it, not to the busy one, even when the Conn does
// not track it (a session ended, evicted or never seen): moving it to
// another would bill one session's usage to another's turn.
func TestEventNamesSession(t *testing.T) {
	d := &acpdialect.Dialect{ID: "n", Methods: []acpdialect.Method{{Name: "_n/usage", Kind: acpdialect.Notification,
		Handle: func(p gjson.Result) acpdialect.Action {
			return acpdialect.Action{Event: &acpdialect.Event{Type: acpdialect.EventUsage, SessionID: frame.Str(p.Get("sessionId")), Object: &acpdialect.Usage{}}}
		}}}}
	c := acpdialect.NewRegistry(d).NewConn(acpdialect.Options{Agent: "n"})
	got := feedFrames(t, c,
		`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"idle","prompt":[]}}`,
		`<{"jsonrpc":"2.0","id":1,"result":{}}`,
		`>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"busy","prompt":[]}}`,
		`<{"jsonrpc":"2.0","method":"_n/usage","params":{"sessionId":"idle"}}`,
		`<{"jsonrpc":"2.0","method":"_n/usage","params":{"sessionId":"gone"}}`,
	)
	want := []string{`{"type":"usage","agent":"n","session_id":"idle","usage":{}}`, `{"type":"usage","agent":"n","session_id":"gone","usage":{}}`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestMessageHiddenRoundTrip(t *testing.T) {
	in := acpdialect.Event{Type: acpdialect.EventMessage, SessionID: "s1", Object: &acpdialect.Message{Role: "user", Text: "x <n/> y",
		Hidden: []acpdialect.TextSpan{{Start: 2, End: 6, TaskID: "m1"}}}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out acpdialect.Event
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, out); d != "" {
		t.Errorf("%s (-in +out):\n%s", b, d)
	}
}
