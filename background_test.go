package acpdialect_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// background is a dialect with a background card: a tool call whose
// rawInput names a task becomes a monitor, an update "ping" names the task
// (by alias) with one event and the status it gives, and EndBackground
// ends it.
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
					Status: frame.Str(u.Get("status")), Monitor: &acpdialect.Monitor{EventCount: 1}}}
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
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"ping","task":"m9","status":"in_progress"}}}`,
		`<{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`,
		`>{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1"}}`,
		`<{"jsonrpc":"2.0","id":2,"result":{}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"ping","task":"m9","status":"in_progress"}}}`,
	)
	want := []string{
		`{"type":"tool_call","agent":"bg","session_id":"s1","tool_call_id":"t1","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"m1","event_count":0}}}`,
		`{"type":"message","agent":"bg","session_id":"s1","message":{"role":"assistant","text":"beside"}}`,
		`{"type":"tool_call_update","agent":"bg","session_id":"s1","tool_call_id":"t1","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"m1","event_count":1}}}`,
		// An alias no card goes by keys a card of its own, which takes its
		// status from the updates.
		`{"type":"tool_call","agent":"bg","session_id":"s1","tool_call_id":"m9","payload":{"kind":"monitor","status":"in_progress","monitor":{"event_count":1}}}`,
		`{"type":"tool_call_update","agent":"bg","session_id":"s1","tool_call_id":"t1","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"m1","event_count":1,"ended":true,"end_reason":"exited"}}}`,
		`{"type":"tool_call_update","agent":"bg","session_id":"s1","tool_call_id":"m9","payload":{"kind":"monitor","status":"completed","monitor":{"event_count":1,"ended":true,"end_reason":"exited"}}}`,
		// Once ended it keeps its status: a later update counts on it
		// without setting it running again.
		`{"type":"tool_call_update","agent":"bg","session_id":"s1","tool_call_id":"m9","payload":{"kind":"monitor","status":"completed","monitor":{"event_count":2,"ended":true,"end_reason":"exited"}}}`,
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

// An ACP v2 session/resume that replays the history (replayFrom) is v1's
// session/load: the process that ran the session's background work is
// gone. A resume without it is not.
func TestResumeWithReplayEndsBackground(t *testing.T) {
	for _, c := range []struct {
		params string
		ends   bool
	}{
		{`"sessionId":"s1","cwd":"/w","replayFrom":{"type":"start"}`, true},
		{`"sessionId":"s1","cwd":"/w"`, false},
		{`"sessionId":"s1","cwd":"/w","replayFrom":null`, false},
	} {
		conn := acpdialect.NewRegistry(background()).NewConn(acpdialect.Options{Agent: "bg"})
		got := feedFrames(t, conn,
			`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
			`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","rawInput":{"task":"m1"}}}}`,
			`>{"jsonrpc":"2.0","id":2,"method":"session/resume","params":{`+c.params+`}}`,
			`<{"jsonrpc":"2.0","id":2,"result":{}}`,
		)
		// The card and its beside message, then the end, if any.
		ended := len(got) == 3 && strings.Contains(got[2], `"end_reason":"session_restart"`)
		if ended != c.ends || len(got) != 2 && !ended {
			t.Errorf("session/resume {%s}: events\n%s", c.params, strings.Join(got, "\n"))
		}
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

// TestChildBackgroundEnds: a subagent's session takes its parent's turns
// (and its restarts) as its own, so its background cards end when its
// parent's turn ends or its parent is loaded again, down the tree; a child
// the client prompted itself has turns of its own and keeps its cards.
func TestChildBackgroundEnds(t *testing.T) {
	const (
		prompt  = `>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		end     = `<{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`
		load    = `>{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"s1"}}`
		loaded  = `<{"jsonrpc":"2.0","id":2,"result":{}}`
		spawn   = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"c1","title":"Fix","description":"Make it pass","capabilities":{}}}}`
		spawn2  = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"c1","update":{"sessionUpdate":"subagent_update","sessionId":"c2","title":"Look","description":"Find it","capabilities":{}}}}`
		monitor = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"c1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","status":"completed","rawInput":{"task":"m1"}}}}`
		deep    = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"c2","update":{"sessionUpdate":"tool_call","toolCallId":"t2","status":"completed","rawInput":{"task":"m2"}}}}`
		queued  = `>{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		mine    = `>{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"c1","prompt":[]}}`
		// A session first seen in s1's turn, held as its possible subagent.
		held = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"h1","update":{"sessionUpdate":"tool_call","toolCallId":"t3","status":"completed","rawInput":{"task":"m3"}}}}`

		ended1 = `{"type":"tool_call_update","agent":"bg","session_id":"c1","tool_call_id":"t1","payload":{"kind":"monitor","status":"completed","parent_tool_call_id":"c1","monitor":{"task_id":"m1","event_count":0,"ended":true,"end_reason":"%s"}}}`
		ended2 = `{"type":"tool_call_update","agent":"bg","session_id":"c2","tool_call_id":"t2","payload":{"kind":"monitor","status":"completed","parent_tool_call_id":"c2","monitor":{"task_id":"m2","event_count":0,"ended":true,"end_reason":"%s"}}}`
		ended3 = `{"type":"tool_call_update","agent":"bg","session_id":"h1","tool_call_id":"t3","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"m3","event_count":0,"ended":true,"end_reason":"%s"}}}`
	)
	tests := []struct {
		name     string
		children bool // Dialect.ChildSessions
		frames   []string
		last     string   // the frame whose events are checked
		want     []string // its events
	}{
		{"turn end", false, []string{prompt, spawn, monitor}, end,
			[]string{fmt.Sprintf(ended1, "exited")}},
		{"load", false, []string{prompt, spawn, monitor, load}, loaded,
			[]string{fmt.Sprintf(ended1, "session_restart")}},
		{"a subagent's subagent", false, []string{prompt, spawn, spawn2, deep, monitor}, end,
			[]string{fmt.Sprintf(ended1, "exited"), fmt.Sprintf(ended2, "exited")}},
		{"a subagent's subagent at load", false, []string{prompt, spawn, spawn2, deep, load}, loaded,
			[]string{fmt.Sprintf(ended2, "session_restart")}},
		{"a held possible subagent", true, []string{prompt, held}, end,
			[]string{fmt.Sprintf(ended3, "exited")}},
		{"a child with turns of its own", false, []string{prompt, spawn, monitor, mine}, end, nil},
		{"a queued prompt goes on", false, []string{prompt, queued, spawn, monitor}, end, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := background()
			d.ChildSessions = tt.children
			c := acpdialect.NewRegistry(d).NewConn(acpdialect.Options{Agent: "bg"})
			feedFrames(t, c, tt.frames...)
			got := feedFrames(t, c, tt.last)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestHeldBackgroundEndsWithHolder: the background card of a session held
// as a possible subagent takes its holder's turns as its own; when the
// holder ends, its held messages are dropped and so is that card (counted
// as swept), as the holder's own are, rather than showing running with no
// turn left to end it. A ping for the monitor then makes a card of its own.
// A held session the client prompted has turns of its own and keeps it.
func TestHeldBackgroundEndsWithHolder(t *testing.T) {
	const (
		prompt = `>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
		held   = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"h1","update":{"sessionUpdate":"tool_call","toolCallId":"t3","status":"in_progress","rawInput":{"task":"m3"}}}}`
		early  = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"h1","update":{"sessionUpdate":"ping","task":"m4"}}}`
		mine   = `>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"h1","prompt":[]}}`
		closed = `>{"jsonrpc":"2.0","id":3,"method":"session/close","params":{"sessionId":"s1"}}`
		ping   = `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"h1","update":{"sessionUpdate":"ping","task":"m3"}}}`
	)
	tests := []struct {
		name   string
		frames []string
		live   int    // cards left after the holder closed
		swept  uint64 // cards swept
		card   string // the card the ping reaches
	}{
		{"a held monitor", []string{prompt, held, closed}, 0, 1, "m3"},
		{"a card made by its alias alone too", []string{prompt, held, early, closed}, 0, 2, "m3"},
		{"a held session with turns of its own", []string{prompt, held, mine, closed}, 1, 0, "t3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := background()
			d.ChildSessions = true
			c := acpdialect.NewRegistry(d).NewConn(acpdialect.Options{Agent: "bg"})
			feedFrames(t, c, tt.frames...)
			if st := c.Stats(); st.Tools.Live != tt.live || st.Tools.Swept != tt.swept {
				t.Errorf("tools live %d, swept %d; want %d, %d", st.Tools.Live, st.Tools.Swept, tt.live, tt.swept)
			}
			got := feedFrames(t, c, ping)
			if len(got) != 1 || !strings.Contains(got[0], `"tool_call_id":"`+tt.card+`"`) {
				t.Errorf("ping reached %v, want card %s", got, tt.card)
			}
		})
	}
}

// TestWaitsNamesAChild: Update.Waits holds only a half that names a child
// session no card has yet; a half that names its card by alias alone
// (no child) is read as without Waits: an alias no card goes by keys a
// card of its own, at once, rather than waiting for a spawn that never
// comes.
func TestWaitsNamesAChild(t *testing.T) {
	frames := []string{
		`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"ping","task":"m9"}}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"ping","task":"m9"}}}`,
	}
	want := feedFrames(t, acpdialect.NewRegistry(background()).NewConn(acpdialect.Options{Agent: "bg"}), frames...)
	if len(want) != 2 {
		t.Fatalf("without Waits, events:\n%s", strings.Join(want, "\n"))
	}
	d := background()
	d.Updates[0].Waits = true
	got := feedFrames(t, acpdialect.NewRegistry(d).NewConn(acpdialect.Options{Agent: "bg"}), frames...)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("with Waits, (-as without +got):\n%s", diff)
	}
}
