package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func stateUpdate(fields string) string {
	return `{"sessionUpdate":"state_update"` + fields + `}`
}

// StateEvent reads the draft's state, the stop reason of an idle state,
// and the background list: nil when not reported or malformed, empty when
// nothing runs.
func TestStateEvent(t *testing.T) {
	tool := acpdialect.BackgroundWork{Type: "tool_call", ID: "toolu_1"}
	for _, c := range []struct {
		name, update string
		want         *acpdialect.State // nil: no event
	}{
		{"running, no list", `,"state":"running"`, &acpdialect.State{State: "running"}},
		{"idle with its stop reason and usage", `,"state":"idle","stopReason":"end_turn","usage":{"inputTokens":3}`,
			&acpdialect.State{State: "idle", StopReason: "end_turn"}},
		{"a stop reason beside another state is not read", `,"state":"running","stopReason":"end_turn"`, &acpdialect.State{State: "running"}},
		{"requires action", `,"state":"requires_action","background":null`, &acpdialect.State{State: "requires_action"}},
		{"an empty list: nothing runs", `,"state":"idle","background":[]`, &acpdialect.State{State: "idle", Background: []acpdialect.BackgroundWork{}}},
		{"every kind of item", `,"state":"idle","background":[{"type":"terminal","terminalId":"toolu_b"},{"type":"tool_call","toolCallId":"toolu_1","_meta":{"x":1}},{"type":"subagent","sessionId":"c1"},{"type":"_claude/task","taskId":"t9","description":"Watch the logs"}]`,
			&acpdialect.State{State: "idle", Background: []acpdialect.BackgroundWork{
				{Type: "terminal", ID: "toolu_b"}, tool, {Type: "subagent", ID: "c1"},
				{Type: "_claude/task", ID: "t9", Description: "Watch the logs"},
			}}},
		{"an item of the agent's own without ids", `,"state":"unknown","background":[{"type":"_acme/job"}]`,
			&acpdialect.State{State: "unknown", Background: []acpdialect.BackgroundWork{{Type: "_acme/job"}}}},
		{"a standard item's description is not read", `,"state":"running","background":[{"type":"tool_call","toolCallId":"toolu_1","description":"x"}]`,
			&acpdialect.State{State: "running", Background: []acpdialect.BackgroundWork{tool}}},
		{"the first of a repeated key counts", `,"state":"idle","state":"running","background":[{"type":"tool_call","toolCallId":"toolu_1","toolCallId":"x"}],"background":[]`,
			&acpdialect.State{State: "idle", Background: []acpdialect.BackgroundWork{tool}}},
		{"escaped strings are decoded", `,"state":"idle","background":[{"type":"_claude/task","taskId":"t\u0031","description":"a \"b\""}]`,
			&acpdialect.State{State: "idle", Background: []acpdialect.BackgroundWork{{Type: "_claude/task", ID: "t1", Description: `a "b"`}}}},
		{"a list that is not an array", `,"state":"running","background":{"type":"terminal"}`, &acpdialect.State{State: "running"}},
		{"an item that is not an object", `,"state":"running","background":[{"type":"tool_call","toolCallId":"toolu_1"},"t2"]`, &acpdialect.State{State: "running"}},
		{"an item without a type", `,"state":"running","background":[{"toolCallId":"toolu_1"}]`, &acpdialect.State{State: "running"}},
		{"an item with an empty type", `,"state":"running","background":[{"type":"","taskId":"t"}]`, &acpdialect.State{State: "running"}},
		{"an item with a type that is no string", `,"state":"running","background":[{"type":7}]`, &acpdialect.State{State: "running"}},
		{"a tool call item without its id", `,"state":"running","background":[{"type":"tool_call","terminalId":"b"}]`, &acpdialect.State{State: "running"}},
		{"a subagent item whose id is no string", `,"state":"running","background":[{"type":"subagent","sessionId":3}]`, &acpdialect.State{State: "running"}},
		{"a list beside a state of the agent's own", `,"state":"_acme/busy","background":[]`, &acpdialect.State{State: "_acme/busy"}},
		{"no state", `,"stopReason":"end_turn"`, nil},
		{"a state that is no string", `,"state":{"state":"idle"}`, nil},
		{"an empty state", `,"state":""`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := acpdialect.StateEvent(gjson.Parse(stateUpdate(c.update)))
			if c.want == nil {
				if ev != nil {
					t.Fatalf("got %+v, want no event", ev)
				}
				return
			}
			if ev == nil || ev.Type != acpdialect.EventState {
				t.Fatalf("got %+v, want a state event", ev)
			}
			if d := cmp.Diff(c.want, ev.State()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if (c.want.Background == nil) != (ev.State().Background == nil) {
				t.Errorf("background nil %v, want %v", ev.State().Background == nil, c.want.Background == nil)
			}
		})
	}
}

// In the JSON, a list not reported is absent and an empty one is [].
func TestStateJSON(t *testing.T) {
	for _, c := range []struct {
		st   acpdialect.State
		want string
	}{
		{acpdialect.State{State: "running"}, `{"type":"state","state":{"state":"running"}}`},
		{acpdialect.State{State: "idle", StopReason: "end_turn", Background: []acpdialect.BackgroundWork{}},
			`{"type":"state","state":{"state":"idle","stop_reason":"end_turn","background":[]}}`},
		{acpdialect.State{State: "idle", Background: []acpdialect.BackgroundWork{{Type: "_claude/task", ID: "t1", Description: "d"}}},
			`{"type":"state","state":{"state":"idle","background":[{"type":"_claude/task","id":"t1","description":"d"}]}}`},
	} {
		st := c.st
		b, err := json.Marshal(acpdialect.Event{Type: acpdialect.EventState, Object: &st})
		if err != nil || string(b) != c.want {
			t.Errorf("got %s, %v, want %s", b, err, c.want)
		}
		var back acpdialect.Event
		if err := json.Unmarshal(b, &back); err != nil || !cmp.Equal(back.State(), &st) || (back.State().Background == nil) != (st.Background == nil) {
			t.Errorf("%s read back as %+v, %v", b, back.State(), err)
		}
	}
}

// Every connection reads state_update, in either frame layout; a
// dialect's own entries for the kind add their events after the state
// (Claude's turn summary from an idle state's usage).
func TestStateUpdateConn(t *testing.T) {
	idle := stateUpdate(`,"state":"idle","stopReason":"end_turn","usage":{"inputTokens":3,"outputTokens":4,"totalTokens":7},"background":[{"type":"tool_call","toolCallId":"w1"}]`)
	state := `"session_id":"s1","state":{"state":"idle","stop_reason":"end_turn","background":[{"type":"tool_call","id":"w1"}]}}`
	late := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"update":` + idle + `,"sessionId":"s1"}}`)
	const claudeAgent = "@agentclientprotocol/claude-agent-acp"
	for _, c := range []struct {
		name, agent string
		frame       []byte
		types       []string
		want        string // the state event
	}{
		{"unknown agent", "some-agent", draftUpdate("s1", idle), []string{"state"}, `{"type":"state",` + state},
		{"unknown agent, update before the session id", "some-agent", late, []string{"state"}, `{"type":"state",` + state},
		{"claude", claudeAgent, draftUpdate("s1", idle), []string{"state", "usage"}, `{"type":"state","agent":"claude",` + state},
		{"claude, update before the session id", claudeAgent, late, []string{"state", "usage"}, `{"type":"state","agent":"claude",` + state},
		{"grok, whose dialect keeps session state", "grok", draftUpdate("s1", idle), []string{"state"}, `{"type":"state","agent":"grok",` + state},
		{"cursor", "cursor-agent", late, []string{"state"}, `{"type":"state","agent":"cursor",` + state},
	} {
		t.Run(c.name, func(t *testing.T) {
			// draftConn, with the capabilities event Claude's initialize gives.
			h := newHarness(t, dialects.Registry(), acpdialect.Options{})
			req, resp := testwire.Initialize(1, c.agent)
			h.out(req)
			h.in(resp)
			h.session(2, "s1")
			h.out(testwire.Prompt(3, "s1", "go"))
			r := h.in(c.frame)
			var types []string
			for _, e := range r.Events {
				types = append(types, e.Type)
			}
			if d := cmp.Diff(c.types, types); d != "" {
				t.Fatalf("event types (-want +got):\n%s", d)
			}
			if got := eventLines(t, r.Events)[0]; got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if !r.Quarantine {
				t.Error("not quarantined: an SDK before v2 reads it as a session_info_update")
			}
		})
	}
}

func FuzzStateEvent(f *testing.F) {
	for _, s := range []string{
		stateUpdate(`,"state":"running"`),
		stateUpdate(`,"state":"idle","stopReason":"end_turn","usage":{"inputTokens":3},"background":[]`),
		stateUpdate(`,"state":"idle","background":[{"type":"terminal","terminalId":"b"},{"type":"tool_call","toolCallId":"t"},{"type":"subagent","sessionId":"c"},{"type":"_claude/task","taskId":"k","description":"d"}]`),
		stateUpdate(`,"state":"requires_action","background":[{"type":"tool_call"}]`),
		stateUpdate(`,"state":"_x","background":[1]`),
		stateUpdate(`,"state":"idle","background":[{"type":"_a","taskId":"t\u0031"}`),
		`[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		// As FuzzReadSubagentUpdate: the input views itself, so that a
		// string the event keeps of it shows once it is overwritten.
		in := append([]byte(nil), b...)
		got := acpdialect.StateEvent(gjson.Parse(unsafe.String(&in[0], len(in))))
		again := acpdialect.StateEvent(gjson.ParseBytes(b))
		if (got == nil) != (again == nil) || got != nil && !cmp.Equal(got.State(), again.State()) {
			t.Fatalf("not pure: %+v then %+v", got, again)
		}
		if got == nil {
			return
		}
		want, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		for i := range in {
			in[i] = 'Z'
		}
		if now, _ := json.Marshal(got); !bytes.Equal(now, want) {
			t.Fatalf("the event views the frame:\n%s\n%s", want, now)
		}
		st := got.State()
		if st.State == "" {
			t.Fatal("a state event without a state")
		}
		for _, w := range st.Background {
			if w.Type == "" || (w.Type == "terminal" || w.Type == "tool_call" || w.Type == "subagent") && (w.ID == "" || w.Description != "") {
				t.Fatalf("an item that should have made the list malformed: %+v", w)
			}
		}
	})
}

// An ACP v2 agent answers a prompt when it accepts it ({messageId}); the
// turn ends when the session's state changes to idle (a repeated idle is
// no new end). Its background cards end then, unless a state reported the
// session's background list: the agent then ends each piece itself. A v1
// agent's answer ends the turn, as does a v2 answer with a stop reason, a
// refusal, or an acceptance after the idle that ended the prompt's work.
// Work that began before a prompt went out (Claude's own cycles, a resumed
// session's) is not the prompt's. The orders are claude-agent-acp's and
// codex-acp's, and the draft's others.
//
// Known limits, none of which these agents show: an agent that accepts a
// queued prompt at once and goes idle between the two prompts' work ends
// both turns at that idle; one that sends no running leaves each turn
// after the first to the next change to idle; and a connection whose
// initialize the Conn did not see is taken as v1.
func TestStateIdleEndsAcceptedTurn(t *testing.T) {
	upd := func(sid, u string) string {
		return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":` + u + `}}`
	}
	prompt := func(id string) string {
		return `>{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
	}
	accept := func(id string) string {
		return `<{"jsonrpc":"2.0","id":` + id + `,"result":{"messageId":"u` + id + `"}}`
	}
	empty := func(id string) string { return `<{"jsonrpc":"2.0","id":` + id + `,"result":{}}` }
	stopped := func(id string) string { return `<{"jsonrpc":"2.0","id":` + id + `,"result":{"stopReason":"end_turn"}}` }
	refuse := func(id string) string {
		return `<{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32800,"message":"cancelled"}}`
	}
	monitor := func(id string) string {
		return upd("s1", `{"sessionUpdate":"tool_call","toolCallId":"`+id+`","status":"completed","rawInput":{"task":"m-`+id+`"}}`)
	}
	st := func(sid, s string) string { return upd(sid, `{"sessionUpdate":"state_update","state":"`+s+`"}`) }
	const (
		init    = `>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}`
		v1init  = `<{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"bg"}}}`
		v2init  = `<{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"bg"}}}`
		cancel  = `>{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`
		setMode = `>{"jsonrpc":"2.0","id":90,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"a"}}`
	)
	var (
		running, action, unknown = st("s1", "running"), st("s1", "requires_action"), st("s1", "unknown")
		idle                     = upd("s1", `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`)
		again                    = st("s1", "idle")
		listed                   = upd("s1", `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn","background":[{"type":"tool_call","toolCallId":"t1"}]}`)
	)
	v1 := func(frames ...string) []string { return append([]string{init, v1init}, frames...) }
	v2 := func(frames ...string) []string { return append([]string{init, v2init}, frames...) }
	for _, c := range []struct {
		name   string
		frames []string
		ends   []int // the frames whose events end a monitor, one entry per card
		turns  int   // the turns going on at the end
		max    int   // Options.MaxRequests, if set
	}{
		{"claude's order: running, the acceptance, idle, a repeated idle", v2(prompt("1"), running, accept("1"), monitor("t1"), idle, again), []int{6}, 0, 0},
		{"idle after the work, before the acceptance", v2(prompt("1"), monitor("t1"), running, idle, accept("1")), []int{6}, 0, 0},
		{"an idle with no work since the prompt is a snapshot", v2(prompt("1"), again, accept("1"), monitor("t1"), running, idle), []int{7}, 0, 0},
		{"unknown is work, not idle", v2(prompt("1"), again, unknown, accept("1"), monitor("t1"), idle), []int{7}, 0, 0},
		{"an answer with a stop reason", v2(prompt("1"), monitor("t1"), stopped("1"), running, idle), []int{4}, 0, 0},
		{"a reported list leaves the ends to the agent", v2(prompt("1"), monitor("t1"), accept("1"), running, listed), nil, 0, 0},
		{"a queued prompt accepted before its work", v2(prompt("1"), running, accept("1"), monitor("t1"), prompt("2"), idle, accept("2"), running, monitor("t2"), idle),
			[]int{11, 11}, 0, 0},
		{"two prompts taken in while the first runs, one idle for both", v2(prompt("1"), running, accept("1"), monitor("t1"), prompt("2"), prompt("3"), accept("2"), accept("3"), idle),
			[]int{10}, 0, 0},
		{"a repeated idle between a prompt and its acceptance", v2(prompt("1"), accept("1"), running, idle, prompt("2"), again, accept("2"), running, monitor("t2"), idle),
			[]int{11}, 0, 0},
		{"a repeated idle after an acceptance", v2(prompt("1"), running, accept("1"), idle, prompt("2"), accept("2"), again, running, monitor("t2"), idle),
			[]int{11}, 0, 0},
		{"the agent's own work before the prompt is not the prompt's", v2(running, prompt("1"), action, running, idle, running, accept("1"), monitor("t1"), idle),
			[]int{10}, 0, 0},
		{"... and its monitor ends with the prompt's turn", v2(running, monitor("t0"), prompt("1"), action, running, idle, running, accept("1"), monitor("t1"), idle),
			[]int{11, 11}, 0, 0},
		{"a prompt refused after its idle leaves nothing for the next", v2(prompt("1"), running, idle, refuse("1"), prompt("2"), running, accept("2"), monitor("t2"), idle),
			[]int{10}, 0, 0},
		{"a cancelled prompt queued behind the agent's own work", v2(running, prompt("1"), action, cancel, idle, refuse("1"), prompt("2"), running, accept("2"), monitor("t2"), idle),
			[]int{12}, 0, 0},
		{"a prompt refused while work runs: that work's idle ends nothing", v2(prompt("1"), running, refuse("1"), idle, prompt("2"), running, accept("2"), monitor("t2"), idle),
			[]int{10}, 0, 0},
		{"an accepted turn, a queued prompt refused", v2(prompt("1"), running, accept("1"), monitor("t1"), prompt("2"), refuse("2"), idle), []int{8}, 0, 0},
		{"a fast turn whose idle comes after the next prompt went out", v2(prompt("1"), running, monitor("t1"), prompt("2"), idle, accept("1"), running, accept("2"), idle),
			[]int{10}, 0, 0},
		{"a child session's states are its own", v2(prompt("1"), running, accept("1"), monitor("t1"), st("c1", "running"), st("c1", "idle"), idle), []int{8}, 0, 0},
		{"prompts no longer tracked end with the next acceptance's turn", v2(prompt("1"), running, accept("1"), monitor("t1"), prompt("2"), prompt("3"), setMode, accept("3"), idle),
			[]int{10}, 0, 2},
		{"a prompt no longer tracked ends at the idle after its work", v2(prompt("1"), running, accept("1"), monitor("t1"), prompt("2"),
			`>{"jsonrpc":"2.0","id":10,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"a"}}`,
			`>{"jsonrpc":"2.0","id":11,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"b"}}`,
			idle, running, accept("2"), monitor("t2"), idle), []int{13, 13}, 0, 2},
		{"a prompt forgotten between its idle and its acceptance", v2(prompt("1"), running, idle, prompt("2"), setMode, accept("1"), running, accept("2"), monitor("t2"), idle),
			[]int{11}, 0, 2},
		{"v1: an answer without a stop reason still ends the turn", v1(prompt("1"), monitor("t1"), empty("1")), []int{4}, 0, 0},
		{"v1: states change nothing", v1(prompt("1"), running, monitor("t1"), idle, stopped("1"), prompt("2"), running, monitor("t2"), idle, empty("2")), []int{6, 11}, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := acpdialect.NewRegistry(background()).NewConn(acpdialect.Options{Agent: "bg", MaxRequests: c.max})
			var ends []int
			for i, f := range c.frames {
				for _, line := range feedFrames(t, conn, f) {
					if strings.Contains(line, `"end_reason":"exited"`) {
						ends = append(ends, i)
					}
				}
			}
			if !cmp.Equal(ends, c.ends) {
				t.Errorf("frames %v ended a card, want %v", ends, c.ends)
			}
			if n := conn.Turns("s1"); n != c.turns {
				t.Errorf("%d turns go on, want %d", n, c.turns)
			}
		})
	}
}
