package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// TestViewWholeTurn: an agent without a dialect still shows its whole
// turn: the prompt, each message and thought once (chunks joined), the
// plan, the permission request with its options and the answer, usage
// and the end of the turn.
func TestViewWholeTurn(t *testing.T) {
	chunk := func(kind, text string) []byte {
		return tw.SessionUpdate("s1", map[string]any{"sessionUpdate": kind, "content": map[string]any{"type": "text", "text": text}})
	}
	req, resp := tw.Initialize(0, "some-agent")
	nreq, nresp := tw.SessionNew(1, "s1")
	frames := [][]byte{req, resp, nreq, nresp,
		tw.Prompt(2, "s1", "Fix the parser"),
		chunk("agent_thought_chunk", "Where is "), chunk("agent_thought_chunk", "the parser?"),
		chunk("agent_message_chunk", "Looking "), chunk("agent_message_chunk", "for "), chunk("agent_message_chunk", "it."),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "plan", "entries": []any{
			map[string]any{"content": "Read parser.go", "status": "completed"}, map[string]any{"content": "Fix it", "status": "pending"}}}),
		tw.Request(90, "session/request_permission", map[string]any{"sessionId": "s1",
			"toolCall": map[string]any{"toolCallId": "t1", "title": "Edit parser.go"},
			"options":  []any{map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"}, map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"}}}),
		tw.Response(90, map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "yes"}}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "usage_update", "used": 2500, "size": 128000}),
		chunk("agent_message_chunk", "Done."),
		tw.PromptResponse(2, "end_turn"),
	}
	out := replayFrames(t, frames)
	want := []string{
		`2 agent - name=some-agent`,
		`5 prompt s1 "Fix the parser"`,
		`6 thought s1 "Where is the parser?"`,
		`8 assistant s1 "Looking for it."`,
		`11 plan s1 entries=2 [completed] "Read parser.go" [pending] "Fix it"`,
		`12 permission s1 id=90 t1 "Edit parser.go" [Allow(allow_once)|Reject(reject_once)]`,
		`13 answer s1 id=90 selected Allow`,
		`14 usage s1 size=128000 used=2500`,
		`15 assistant s1 "Done."`,
		`16 end_turn s1 stop_reason=end_turn`,
	}
	got := squash(out)
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("view lacks %q:\n%s", w, out)
		}
	}
	if n := strings.Count(out, "assistant"); n != 2 {
		t.Errorf("%d assistant lines, want 2 (chunks joined per message):\n%s", n, out)
	}
}

// TestViewV2Kinds: ACP v2's whole plans and whole messages show as rows:
// a plan by id with what its type holds (entries, a text, a file), a
// message by id with its blocks' text (none when it is emptied). A status
// cannot forge an entry, a long plan shows its first maxItems entries,
// and a missing id, uri or a content that is not a list shows nothing.
// Any other kind's keys are words and its numbers are cut.
func TestViewV2Kinds(t *testing.T) {
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	entry := func(status, content string) map[string]any {
		return map[string]any{"status": status, "content": content}
	}
	plan := func(p map[string]any) []byte {
		return tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "plan_update", "plan": p})
	}
	many := make([]any, maxItems+5)
	for i := range many {
		many[i] = entry("pending", "step")
	}
	req, resp := tw.Initialize(0, "some-agent")
	nreq, nresp := tw.SessionNew(1, "s1")
	frames := [][]byte{req, resp, nreq, nresp,
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "user_message", "messageId": "u1", "content": []any{text("Fix "), text("the parser")}}),
		plan(map[string]any{"planId": "p1", "type": "items", "entries": []any{entry("completed", "Read it"), map[string]any{"content": "Fix it"}}}),
		plan(map[string]any{"planId": "p2", "type": "markdown", "content": "# Plan\n1. Read"}),
		plan(map[string]any{"planId": "p3", "type": "file", "uri": "file:///w/PLAN.md"}),
		plan(map[string]any{"planId": "p4", "type": "diagram"}),
		plan(map[string]any{"planId": "p5", "type": "items", "entries": []any{entry(`done] "Deploy" [completed`, "Test")}}),
		plan(map[string]any{"planId": "p6", "type": "items", "entries": many}),
		plan(map[string]any{"type": "items", "entries": map[string]any{"status": "x"}}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "agent_thought", "messageId": "m1", "content": []any{text("Hmm.")}}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "agent_message", "messageId": "m2", "content": []any{}}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "agent_message", "content": map[string]any{"type": "text", "text": "x"}}),
		plan(map[string]any{"planId": "p7", "type": "file"}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "usage_update", "used": 5, "size": 100, "x used": 99999,
			"big": json.RawMessage(strings.Repeat("9", 100))}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "user_message", "messageId": "u2", "content": []any{
			map[string]any{"type": "image"}, map[string]any{"type": "resource_link", "uri": "file:///a.go"}}}),
	}
	got := strings.Split(squash(replayFrames(t, frames)), "\n")
	steps := strings.TrimSpace(strings.Repeat(`[pending] "step" `, maxItems))
	for _, w := range []string{
		`5 user_message s1 message_id=u1 "Fix the parser"`,
		`6 plan s1 plan_id=p1 entries=2 [completed] "Read it" [-] "Fix it"`,
		`7 plan s1 plan_id=p2 type=markdown "# Plan\n1. Read"`,
		`8 plan s1 plan_id=p3 type=file uri=file:///w/PLAN.md`,
		`9 plan s1 plan_id=p4 type=diagram`,
		`10 plan s1 plan_id=p5 entries=1 ["done] \"Deploy\" [completed"] "Test"`,
		`11 plan s1 plan_id=p6 entries=25 ` + steps + ` …`,
		`12 plan s1 entries=0`,
		`13 agent_thought s1 message_id=m1 "Hmm."`,
		`14 agent_message s1 message_id=m2`,
		`15 agent_message s1`,
		`16 plan s1 plan_id=p7 type=file`,
		`17 usage s1 big=` + strings.Repeat("9", maxText-1) + `… size=100 used=5 "x used"=99999`,
		`18 user_message s1 message_id=u2 "[image][resource_link file:///a.go]"`,
	} {
		if !slices.Contains(got, w) {
			t.Errorf("view lacks the row\n%s\ngot:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// TestViewNested: a child session's tool call is indented under its
// parent card.
func TestViewNested(t *testing.T) {
	code, out, _ := cli(t, "", "replay", filepath.Join("..", "..", "cursor", "testdata", "mixed-legacy-and-native.jsonl"))
	if code != 0 || !strings.Contains(out, `└ tool-1 generic completed "Grep export" parent=sub-7`) {
		t.Fatalf("exit %d, no nested card:\n%s", code, out)
	}
}

// TestViewDialectMessages: a dialect's message event replaces the chunk it
// reads, so each message shows once: a Claude subagent's under its card
// only, Codex's phases as two messages, not one joined twice.
func TestViewDialectMessages(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
		n    int // "assistant" and "thought" rows in all
	}{
		{[]string{filepath.Join("..", "..", "claude", "testdata", "nesting-child-first.jsonl")},
			[]string{`7 assistant sess-1 └ "Grandchild speaking."`, `9 thought sess-1 └ "Child thinking."`, `17 assistant sess-1 "Top-level answer."`}, 3},
		{[]string{"--agent", "codex", filepath.Join("..", "..", "codex", "testdata", "agent-message-phases.jsonl")},
			[]string{`1 assistant …ssion-id "Checking the relevant event mapping." phase=commentary`,
				`2 assistant …ssion-id "Yes, here is the answer." phase=final_answer`}, 2},
	} {
		code, out, errs := cli(t, "", append([]string{"replay"}, tt.args...)...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d, stderr %q", tt.args, code, errs)
		}
		got := squash(out)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: view lacks %q:\n%s", tt.args, w, out)
			}
		}
		if n := strings.Count(out, "assistant ") + strings.Count(out, "thought "); n != tt.n {
			t.Errorf("%v: %d message rows, want %d:\n%s", tt.args, n, tt.n, out)
		}
	}
}

// TestViewGenericEvent: an event type the view does not special-case
// (another team's, say) shows with its object's fields.
func TestViewGenericEvent(t *testing.T) {
	used, size := int64(2500), int64(128000)
	for _, tt := range []struct {
		ev   acpdialect.Event
		want string
	}{
		{acpdialect.Event{Type: acpdialect.EventUsage, SessionID: "s1", Object: &acpdialect.Usage{Used: &used, Size: &size, Model: "m"}},
			`7 usage s1 used=2500 size=128000 model=m`},
		{acpdialect.Event{Type: acpdialect.EventPermission, SessionID: "s1", ToolCallID: "t1", ID: []byte("4"),
			Object: &acpdialect.Permission{ToolName: "Bash", Options: []acpdialect.PermissionOption{{ID: "a", Name: "Allow", Kind: "allow_once"}, {ID: "r"}}}},
			`7 permission s1 t1 id=4 tool_name=Bash [Allow(allow_once)|r]`},
		{acpdialect.Event{Type: "brand_new", SessionID: "s1", Object: &acpdialect.SessionInfo{Title: "Fix it"}},
			`7 brand_new s1 title="Fix it"`},
	} {
		if got := viewLine(tt.ev); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

// TestViewColor: colour only when asked (a terminal without NO_COLOR).
func TestViewColor(t *testing.T) {
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		v := newView(w, color)
		v.write(row{line: 1, what: "prompt", session: "s1", text: `"hi"`})
		w.Flush()
		if got := strings.Contains(b.String(), "\x1b["); got != color {
			t.Errorf("color %v: escapes %v in %q", color, got, b.String())
		}
	}
	t.Setenv("NO_COLOR", "1")
	if useColor(nil) {
		t.Error("NO_COLOR ignored")
	}
}

// TestViewUnmatchedError: an "id":null error (a parse error) is shown,
// not dropped; the client's answers to agent requests still show only
// through their reply events.
func TestViewUnmatchedError(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","id":77,"error":{"code":-32603,"message":"lost"}}`,
		`{"jsonrpc":"2.0","id":78,"result":{}}`,
	}, "\n") + "\n"
	code, out, errs := cli(t, in, "replay", "-")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	got := squash(out)
	for _, w := range []string{`2 error - id=null -> -32700 "Parse error"`} {
		if !strings.Contains(got, w) {
			t.Errorf("view lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(got, "\n3 ") || strings.Contains(got, "\n4 ") {
		t.Errorf("an unmatched answer is shown:\n%s", out)
	}
}

// TestViewMemoryIsBounded: the view remembers no id over maxKey bytes, no
// more than maxOptions options of a permission request and only the
// shown start of a method, so an agent's huge ids cannot grow it.
func TestViewMemoryIsBounded(t *testing.T) {
	ts := newTurnState()
	huge := `"` + strings.Repeat("x", 1<<20) + `"`
	ts.rows(replay.Frame{Line: 1, Dir: replay.ClientToAgent, Method: "session/prompt", ID: huge, Params: `{}`}, nil)
	ts.rows(replay.Frame{Line: 2, Dir: replay.ClientToAgent, Method: strings.Repeat("m", 1<<20), ID: "3", Params: `{}`}, nil)
	var opts []string
	for i := range 1000 {
		opts = append(opts, `{"optionId":"o`+strconv.Itoa(i)+`","name":"n","kind":"allow_once"}`)
	}
	ts.rows(replay.Frame{Line: 3, Dir: replay.AgentToClient, Method: "session/request_permission", ID: "4",
		Params: `{"sessionId":"s1","toolCall":{"toolCallId":"t"},"options":[` + strings.Join(opts, ",") + `]}`}, nil)
	ts.depth("s1", strings.Repeat("t", 1<<20), "")

	if _, ok := ts.requests[huge]; ok || len(ts.depths) != 0 {
		t.Errorf("an id of 1 MB is remembered (%d requests, %d depths)", len(ts.requests), len(ts.depths))
	}
	if m := ts.requests["3"].method; len(m) > 4*maxText {
		t.Errorf("a method of %d bytes is remembered", len(m))
	}
	if n := len(ts.permissions["4"].options); n != maxOptions {
		t.Errorf("%d options remembered, want %d", n, maxOptions)
	}
}

// TestViewEscapedIDs: a response answers the request whose string id has
// the same value, escaped or not, as the Conn matches them: the view
// shows the session it made, the permission's answer and the method an
// error answers.
func TestViewEscapedIDs(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":"n\u0031","method":"session/new","params":{"cwd":"/x","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":"n1","result":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`,
		`{"jsonrpc":"2.0","id":"r\u0031","method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1","title":"x"},"options":[{"optionId":"a","name":"Allow","kind":"allow_once"}]}}`,
		`{"jsonrpc":"2.0","id":"r1","result":{"outcome":{"outcome":"selected","optionId":"a"}}}`,
		`{"jsonrpc":"2.0","id":"p\u0031","error":{"code":-32000,"message":"boom"}}`,
	}, "\n") + "\n"
	code, out, errs := cli(t, in, "replay", "-")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	got := squash(out)
	for _, w := range []string{"4 session s1", `7 answer s1 id="r1" selected Allow`, `8 error s1 id="p\u0031" session/prompt -> -32000 "boom"`} {
		if !strings.Contains(got, w) {
			t.Errorf("view lacks %q:\n%s", w, out)
		}
	}
}

// TestViewPlanColors: on a terminal the agent's own plan update is not
// painted as the dialect's plan that waits for the user (Cursor's
// cursor/create_plan): both are "plan" lines, the colour tells them apart.
func TestViewPlanColors(t *testing.T) {
	capture, err := os.ReadFile(filepath.Join("..", "..", "cursor", "testdata", "plan-accepted.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	update := tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "plan", "entries": []any{
		map[string]any{"content": "Read parser.go", "status": "pending"}}})
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	o, _ := newOutput(replayFlags{}, w, true)
	stream, err := replay.NewStream(replay.Builtins(), replay.Options{}, o.sink(stdio{err: io.Discard}), o.final)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Feed(strings.NewReader(string(capture) + string(update) + "\n")); err != nil {
		t.Fatal(err)
	}
	o.finish(stream.Finish())
	want := map[string]string{"entries=": colorOther, "tool-p1": colorAsk} // the update, the request
	for l := range strings.Lines(b.String()) {
		for marker, color := range want {
			if strings.Contains(l, marker) && strings.Contains(l, "plan") {
				if painted := "\x1b[" + color + "mplan\x1b[0m"; !strings.Contains(l, painted) {
					t.Errorf("%q: want plan painted %q", l, color)
				}
				delete(want, marker)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no plan line for %v in\n%s", want, b.String())
	}
}

// TestViewTurnFramesWithEvents: the agent's identity, a new or loaded
// session and the end of the turn are shown when a dialect also makes events of the
// same frame (Claude's capabilities of the initialize result, its usage of
// the prompt result): no event says them.
func TestViewTurnFramesWithEvents(t *testing.T) {
	req, resp := tw.Initialize(0, "claude-agent-acp")
	nreq, nresp := tw.SessionNew(1, "s1")
	frames := [][]byte{req, resp, nreq, nresp, tw.Prompt(2, "s1", "hi"),
		tw.Response(2, map[string]any{"stopReason": "end_turn", "usage": map[string]any{"inputTokens": 120, "outputTokens": 45, "totalTokens": 165}}),
		tw.Request(3, "session/load", map[string]any{"sessionId": "s2", "cwd": "/work/project", "mcpServers": []any{}}),
		tw.Response(3, nil), // a load's result has no sessionId: the request's
	}
	out := replayFrames(t, frames)
	got := squash(out)
	for _, want := range []string{
		"\n2 capabilities - ", // the dialect's events are still there
		"\n2 agent - name=claude-agent-acp",
		"\n4 session s1\n",
		"\n6 usage s1 id=2 turn=true",
		"\n6 end_turn s1 stop_reason=end_turn inputTokens=120 outputTokens=45 totalTokens=165\n",
		"\n8 session s2\n",
	} {
		if !strings.Contains("\n"+got, want) {
			t.Errorf("no %q in\n%s", strings.TrimSpace(want), out)
		}
	}
}

// TestViewUnfinishedTurn: a transcript that ends inside a turn (the agent
// crashed, or the recording stopped) says so at its end, for each turn
// left open, in the order they started; an ended turn says nothing.
func TestViewUnfinishedTurn(t *testing.T) {
	req, resp := tw.Initialize(0, "claude-agent-acp")
	frames := [][]byte{req, resp, tw.Prompt(2, "s1", "hi"), tw.Prompt(3, "s2", "there"),
		tw.Prompt(4, "s3", "ended"), tw.PromptResponse(4, "end_turn")}
	got := squash(replayFrames(t, frames))
	want := "\n3 unfinished s1 the transcript ends before this turn's end\n4 unfinished s2 the transcript ends before this turn's end\nagent="
	if !strings.Contains("\n"+got, want) || strings.Contains(got, "unfinished s3") {
		t.Errorf("got\n%s\nwant the turns of s1 and s2, and only those, unfinished", got)
	}
}

// replayFrames runs replay on frames, one a line, and returns its output;
// any other exit than 0 or anything on stderr fails the test.
func replayFrames(t *testing.T, frames [][]byte) string {
	t.Helper()
	var in bytes.Buffer
	for _, f := range frames {
		in.Write(append(f, '\n'))
	}
	code, out, errs := cli(t, in.String(), "replay", "-")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	return out
}

// TestViewV2Turn: an ACP v2 agent names itself in info, answers a prompt
// when it accepts it, and ends the turn with its idle state, whose
// background list the state rows show.
func TestViewV2Turn(t *testing.T) {
	update := func(u string) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`)
	}
	frames := [][]byte{
		[]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}`),
		[]byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"some-agent","version":"2.0.0"}}}`),
		tw.Prompt(1, "s1", "Watch the log"),
		update(`{"sessionUpdate":"state_update","state":"running","background":[{"type":"tool_call","toolCallId":"t1"}]}`),
		[]byte(`{"jsonrpc":"2.0","id":1,"result":{"messageId":"u1"}}`),
		update(`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn","background":[]}`),
		update(`{"sessionUpdate":"state_update","state":"requires_action"}`),
	}
	out := replayFrames(t, frames)
	got := squash(out)
	for _, w := range []string{
		`2 agent - name=some-agent version=2.0.0`,
		`4 state s1 state=running background=1 tool_call:t1`,
		`5 accepted s1 messageId=u1`,
		`6 state s1 state=idle stop_reason=end_turn background=0`,
		`7 state s1 state=requires_action`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("view lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "end_turn s1") {
		t.Errorf("an acceptance shown as the turn's end:\n%s", out)
	}
	// A v1 agent's answer ends its turn, whatever it holds.
	req, resp := tw.Initialize(0, "some-agent")
	v1 := squash(replayFrames(t, [][]byte{req, resp, tw.Prompt(1, "s1", "go"), []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)}))
	if !strings.Contains(v1, "4 end_turn s1") {
		t.Errorf("a v1 answer without a stop reason is not the turn's end:\n%s", v1)
	}
}

// TestTodosTextBounds: a to-do list's row shows its first maxItems items
// after the count, and a status cannot close its tag to forge an item.
func TestTodosTextBounds(t *testing.T) {
	items := make([]acpdialect.Todo, maxItems+3)
	for i := range items {
		items[i] = acpdialect.Todo{ID: strconv.Itoa(i), Content: "step", Status: "pending"}
	}
	items[0].Status = `done] "x" [completed`
	got := todosText(items)
	if len(got) != 1+2*maxItems+1 || got[0] != "todos=23" || got[len(got)-1] != "…" {
		t.Errorf("todosText = %q, want the count, %d items and …", got, maxItems)
	}
	if got[1] != `["done] \"x\" [completed"]` {
		t.Errorf("status tag %q, want it quoted inside the brackets", got[1])
	}
}
