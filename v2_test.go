package acpdialect_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// v2Frames are the frames that open a connection as ACP v2 (initialize
// answered with info), then frames; v1Frames open it as v1.
func v2Frames(frames ...string) []string {
	return append([]string{
		`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}`,
		`<{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"some-agent"}}}`,
	}, frames...)
}

func v1Frames(frames ...string) []string {
	return append([]string{
		`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`<{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"some-agent"}}}`,
	}, frames...)
}

// update is a session/update notification of session s1.
func update(u string) string {
	return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
}

// eventTypes are the type and tool call id of each event, "type id".
func eventTypes(t *testing.T, lines []string) []string {
	t.Helper()
	var got []string
	for _, l := range lines {
		var ev acpdialect.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.TrimSpace(ev.Type+" "+ev.ToolCallID))
	}
	return got
}

// TestV2UpdateCreatesToolCall: ACP v2 has no tool_call; the first
// tool_call_update of an id creates the tool call, so a card the agent's
// dialect does not recognize surfaces at once. On v1 the same frames are
// updates of a tool call never announced, which stay hidden until a
// dialect recognizes them.
func TestV2UpdateCreatesToolCall(t *testing.T) {
	read := update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read a.go","kind":"read","status":"pending"}`)
	done := update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`)
	same := update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`)
	for _, c := range []struct {
		name   string
		frames []string
		want   []string
	}{
		{"v2: created, then updated, then unchanged", v2Frames(read, done, same), []string{"tool_call t1", "tool_call_update t1"}},
		{"v1: an update for a tool call never announced", v1Frames(read, done), nil},
		{"no initialize seen: v1", []string{read, done}, nil},
		{"v2: a tool_call still creates", v2Frames(update(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"x"}`), done),
			[]string{"tool_call t1", "tool_call_update t1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := acpdialect.NewRegistry().NewConn(acpdialect.Options{})
			got := eventTypes(t, feedFrames(t, conn, c.frames...))
			if !cmp.Equal(got, c.want) {
				t.Errorf("events %q, want %q", got, c.want)
			}
		})
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// TestReadTerminalUpdate: what each shape of ACP v2's terminal_update and
// terminal_output_chunk says.
func TestReadTerminalUpdate(t *testing.T) {
	code := func(n int64) *int64 { return &n }
	const all = acpdialect.TerminalCommand | acpdialect.TerminalCwd | acpdialect.TerminalExitStatus
	for _, c := range []struct {
		name, kind, update string
		want               acpdialect.TerminalUpdate
		ok                 bool
	}{
		{"everything", acpdialect.UpdateTerminal,
			`{"terminalId":"t1","command":"make","cwd":"/src","output":{"data":"` + b64("a\nb") + `"},"exitStatus":{"exitCode":2,"signal":"SIGTERM"},"capabilities":{"cancel":{}}}`,
			acpdialect.TerminalUpdate{TerminalID: "t1", Set: all, Command: "make", Cwd: "/src", Output: "a\nb", Snapshot: true, Exited: true, ExitCode: code(2), Signal: "SIGTERM", Cancel: 1}, true},
		{"the id alone", acpdialect.UpdateTerminal, `{"terminalId":"t1"}`, acpdialect.TerminalUpdate{TerminalID: "t1"}, true},
		{"an exit with nothing known", acpdialect.UpdateTerminal, `{"terminalId":"t1","exitStatus":{}}`, acpdialect.TerminalUpdate{TerminalID: "t1", Set: acpdialect.TerminalExitStatus, Exited: true}, true},
		{"a null exit clears it", acpdialect.UpdateTerminal, `{"terminalId":"t1","exitStatus":null}`, acpdialect.TerminalUpdate{TerminalID: "t1", Set: acpdialect.TerminalExitStatus}, true},
		{"an exit of the wrong type is absent", acpdialect.UpdateTerminal, `{"terminalId":"t1","exitStatus":0}`, acpdialect.TerminalUpdate{TerminalID: "t1"}, true},
		{"null command and cwd clear them", acpdialect.UpdateTerminal, `{"terminalId":"t1","command":null,"cwd":null}`,
			acpdialect.TerminalUpdate{TerminalID: "t1", Set: acpdialect.TerminalCommand | acpdialect.TerminalCwd}, true},
		{"an empty command replaces it", acpdialect.UpdateTerminal, `{"terminalId":"t1","command":""}`, acpdialect.TerminalUpdate{TerminalID: "t1", Set: acpdialect.TerminalCommand}, true},
		{"a command and cwd of the wrong type are absent", acpdialect.UpdateTerminal, `{"terminalId":"t1","command":["make"],"cwd":7}`, acpdialect.TerminalUpdate{TerminalID: "t1"}, true},
		{"a negative exit code, a null signal", acpdialect.UpdateTerminal, `{"terminalId":"t1","exitStatus":{"exitCode":-1073741510,"signal":null}}`,
			acpdialect.TerminalUpdate{TerminalID: "t1", Set: acpdialect.TerminalExitStatus, Exited: true, ExitCode: code(-1073741510)}, true},
		{"an exit code of the wrong type", acpdialect.UpdateTerminal, `{"terminalId":"t1","exitStatus":{"exitCode":"2"}}`,
			acpdialect.TerminalUpdate{TerminalID: "t1", Set: acpdialect.TerminalExitStatus, Exited: true}, true},
		{"capabilities null withdraw cancel", acpdialect.UpdateTerminal, `{"terminalId":"t1","capabilities":null}`, acpdialect.TerminalUpdate{TerminalID: "t1", Cancel: -1}, true},
		{"capabilities without cancel withdraw it", acpdialect.UpdateTerminal, `{"terminalId":"t1","capabilities":{}}`, acpdialect.TerminalUpdate{TerminalID: "t1", Cancel: -1}, true},
		{"a null cancel is none", acpdialect.UpdateTerminal, `{"terminalId":"t1","capabilities":{"cancel":null}}`, acpdialect.TerminalUpdate{TerminalID: "t1", Cancel: -1}, true},
		{"malformed capabilities grant nothing", acpdialect.UpdateTerminal, `{"terminalId":"t1","capabilities":"cancel"}`, acpdialect.TerminalUpdate{TerminalID: "t1", Cancel: -1}, true},
		{"output that is not base64 is none", acpdialect.UpdateTerminal, `{"terminalId":"t1","output":{"data":"not base64!"}}`, acpdialect.TerminalUpdate{TerminalID: "t1"}, true},
		{"an empty snapshot clears the output", acpdialect.UpdateTerminal, `{"terminalId":"t1","output":{"data":""}}`, acpdialect.TerminalUpdate{TerminalID: "t1", Snapshot: true}, true},
		{"a null output clears it", acpdialect.UpdateTerminal, `{"terminalId":"t1","output":null}`, acpdialect.TerminalUpdate{TerminalID: "t1", Snapshot: true}, true},
		{"an output of the wrong type is absent", acpdialect.UpdateTerminal, `{"terminalId":"t1","output":"b2s="}`, acpdialect.TerminalUpdate{TerminalID: "t1"}, true},
		{"output data of the wrong type is absent", acpdialect.UpdateTerminal, `{"terminalId":"t1","output":{"data":null}}`, acpdialect.TerminalUpdate{TerminalID: "t1"}, true},
		{"a cancel that is not an object grants nothing", acpdialect.UpdateTerminal, `{"terminalId":"t1","capabilities":{"cancel":true}}`, acpdialect.TerminalUpdate{TerminalID: "t1", Cancel: -1}, true},
		{"the first of a repeated key inside output, exitStatus and capabilities", acpdialect.UpdateTerminal,
			`{"terminalId":"t1","output":{"data":"!!","data":"` + b64("x") + `"},"exitStatus":{"exitCode":null,"exitCode":3,"signal":"A","signal":"B"},"capabilities":{"cancel":null,"cancel":{}}}`,
			acpdialect.TerminalUpdate{TerminalID: "t1", Set: acpdialect.TerminalExitStatus, Exited: true, Signal: "A", Cancel: -1}, true},
		{"a chunk", acpdialect.UpdateTerminalOutput, `{"terminalId":"t1","data":"` + b64("more") + `"}`, acpdialect.TerminalUpdate{TerminalID: "t1", Output: "more"}, true},
		{"a chunk's data only", acpdialect.UpdateTerminalOutput, `{"terminalId":"t1","data":"` + b64("x") + `","command":"rm","exitStatus":{"exitCode":1}}`,
			acpdialect.TerminalUpdate{TerminalID: "t1", Output: "x"}, true},
		{"an update's data is no output", acpdialect.UpdateTerminal, `{"terminalId":"t1","data":"` + b64("x") + `"}`, acpdialect.TerminalUpdate{TerminalID: "t1"}, true},
		{"the first of a repeated key", acpdialect.UpdateTerminal, `{"terminalId":"t1","terminalId":"t2","command":"a","command":"b"}`,
			acpdialect.TerminalUpdate{TerminalID: "t1", Set: acpdialect.TerminalCommand, Command: "a"}, true},
		{"no terminal", acpdialect.UpdateTerminal, `{"command":"make"}`, acpdialect.TerminalUpdate{Set: acpdialect.TerminalCommand, Command: "make"}, false},
		{"a terminal id of the wrong type", acpdialect.UpdateTerminalOutput, `{"terminalId":7,"data":""}`, acpdialect.TerminalUpdate{}, false},
		{"not an object", acpdialect.UpdateTerminal, `["t1"]`, acpdialect.TerminalUpdate{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := acpdialect.ReadTerminalUpdate(gjson.Parse(c.update), c.kind)
			if ok != c.ok || !cmp.Equal(got, c.want) {
				t.Errorf("got %v %+v, want %v %+v", ok, got, c.ok, c.want)
			}
		})
	}
}

// TestTerminalUpdatesFoldIntoShell: a v2 terminal's updates reach the
// shell card of the tool call named after it, in the orders
// claude-agent-acp and codex-acp send them, and on every connection.
func TestTerminalUpdatesFoldIntoShell(t *testing.T) {
	term := func(fields string) string {
		return update(`{"sessionUpdate":"terminal_update","terminalId":"t1"` + fields + `}`)
	}
	chunk := func(s string) string {
		return update(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"` + b64(s) + `"}`)
	}
	call := update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"make","kind":"execute","status":"in_progress"}`)
	done := update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`)
	code := func(n int64) *int64 { return &n }
	for _, c := range []struct {
		name   string
		frames []string
		max    int
		events int // tool call events
		want   *acpdialect.Shell
	}{
		{"claude: the terminal first, its command, output and exit after the tool call",
			v2Frames(term(``), call, term(`,"command":"make","capabilities":{"cancel":{}}`), term(`,"output":{"data":"`+b64("ok\n")+`"}`),
				term(`,"exitStatus":{"exitCode":0},"capabilities":null`), done),
			0, 5, &acpdialect.Shell{Command: "make", TerminalID: "t1", Output: "ok\n", ExitCode: code(0)}},
		{"codex: the terminal's command and cwd before the tool call, chunks, the exit with the last output",
			v2Frames(term(`,"command":"make","cwd":"/src"`), call, chunk("a"), chunk("b"), term(`,"output":{"data":"`+b64("abc")+`"},"exitStatus":{"exitCode":2,"signal":null}`), done),
			0, 5, &acpdialect.Shell{Command: "make", Cwd: "/src", TerminalID: "t1", Output: "abc", ExitCode: code(2)}},
		{"a snapshot replaces the chunks; a chunk appends to it",
			v2Frames(call, chunk("x"), term(`,"output":{"data":"`+b64("snap")+`"}`), chunk("!")),
			0, 4, &acpdialect.Shell{TerminalID: "t1", Output: "snap!"}},
		{"a repeated update changes nothing",
			v2Frames(call, term(`,"command":"make"`), term(`,"command":"make"`)),
			0, 2, &acpdialect.Shell{Command: "make", TerminalID: "t1"}},
		{"output past MaxOutput keeps its tail",
			v2Frames(call, chunk("0123456789"), chunk("abc")),
			8, 3, &acpdialect.Shell{TerminalID: "t1", Output: "56789abc", OutputTruncated: true}},
		{"... until a short snapshot replaces it",
			v2Frames(call, chunk("0123456789"), term(`,"output":{"data":"`+b64("ok")+`"}`)),
			8, 3, &acpdialect.Shell{TerminalID: "t1", Output: "ok"}},
		{"a terminal whose tool call never comes shows nothing", v2Frames(term(`,"command":"make"`), chunk("a")), 0, 0, nil},
		{"... unless the client may cancel it: a resumed session's running command",
			v2Frames(term(`,"command":"sleep 60","capabilities":{"cancel":{}}`), chunk("a"), term(`,"exitStatus":{"exitCode":0},"capabilities":null`)),
			0, 3, &acpdialect.Shell{Command: "sleep 60", TerminalID: "t1", Output: "a", ExitCode: code(0)}},
		{"nulls clear the command, cwd and output; an update without them leaves them",
			v2Frames(call, term(`,"command":"make","cwd":"/src","output":{"data":"`+b64("x")+`"}`), term(`,"command":null,"cwd":null,"output":null`), term(``)),
			0, 3, &acpdialect.Shell{TerminalID: "t1"}},
		{"an exit status replaces the one before: code and signal both",
			v2Frames(call, term(`,"exitStatus":{"exitCode":1,"signal":"SIGTERM"}`), term(`,"exitStatus":{"exitCode":0}`)),
			0, 3, &acpdialect.Shell{TerminalID: "t1", ExitCode: code(0)}},
		{"... and a null one clears it",
			v2Frames(call, term(`,"exitStatus":{"exitCode":1,"signal":"SIGTERM"}`), term(`,"exitStatus":null`)),
			0, 3, &acpdialect.Shell{TerminalID: "t1"}},
		{"output data of the wrong type leaves the output",
			v2Frames(call, term(`,"output":{"data":"`+b64("keep")+`"}`), term(`,"output":{"data":7}`)),
			0, 2, &acpdialect.Shell{TerminalID: "t1", Output: "keep"}},
		{"a grant after the exit is void",
			v2Frames(call, term(`,"exitStatus":{"exitCode":0}`), term(`,"capabilities":{"cancel":{}}`)),
			0, 2, &acpdialect.Shell{TerminalID: "t1", ExitCode: code(0)}},
		{"an exit withdraws the grant, even one in the same update",
			v2Frames(call, term(`,"capabilities":{"cancel":{}}`), term(`,"exitStatus":{"exitCode":0},"capabilities":{"cancel":{}}`)),
			0, 3, &acpdialect.Shell{TerminalID: "t1", ExitCode: code(0)}},
		{"a command for an exited terminal starts a new run: the old output and exit go, a grant holds",
			v2Frames(call, term(`,"command":"echo A","output":{"data":"`+b64("A")+`"}`), term(`,"exitStatus":{"exitCode":0}`), done,
				call, term(`,"command":"sleep 9","capabilities":{"cancel":{}}`), chunk("B")),
			0, 7, &acpdialect.Shell{Command: "sleep 9", TerminalID: "t1", Output: "B", Cancellable: true}},
		{"... a killed one too, and its new exit is its own",
			v2Frames(call, chunk("A"), term(`,"exitStatus":{"signal":"SIGKILL"}`), term(`,"command":"make"`), term(`,"exitStatus":{"exitCode":3}`)),
			0, 5, &acpdialect.Shell{Command: "make", TerminalID: "t1", ExitCode: code(3)}},
		{"... the same command too: a reused id's new run, whose grant holds",
			v2Frames(call, term(`,"command":"make"`), chunk("A"), term(`,"exitStatus":{"exitCode":2}`), done,
				call, term(`,"command":"make","capabilities":{"cancel":{}}`), chunk("B")),
			0, 8, &acpdialect.Shell{Command: "make", TerminalID: "t1", Output: "B", Cancellable: true}},
		{"... but not a command that comes with an exit: a state sent again whole keeps the output",
			v2Frames(call, chunk("A"), term(`,"exitStatus":{"exitCode":0}`), term(`,"command":"make","exitStatus":{"exitCode":0}`)),
			0, 4, &acpdialect.Shell{Command: "make", TerminalID: "t1", Output: "A", ExitCode: code(0)}},
		{"... nor one that comes with the first exit, nor a null one after it",
			v2Frames(call, chunk("A"), term(`,"command":"make","exitStatus":{"exitCode":1}`), chunk("B"), term(`,"command":null`)),
			0, 5, &acpdialect.Shell{TerminalID: "t1", Output: "AB", ExitCode: code(1)}},
		{"v1: the same updates, read the same", v1Frames(update(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"make","kind":"execute"}`), chunk("a"),
			term(`,"exitStatus":{"exitCode":1}`)),
			0, 3, &acpdialect.Shell{TerminalID: "t1", Output: "a", ExitCode: code(1)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := acpdialect.NewRegistry().NewConn(acpdialect.Options{MaxOutput: c.max})
			var n int
			var last *acpdialect.Payload
			for _, f := range c.frames {
				res, err := conn.Inbound([]byte(f[1:]))
				if f[0] == '>' {
					res, err = conn.Outbound([]byte(f[1:]))
				}
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(f, `"terminal_`) && !res.Quarantine {
					t.Errorf("%s: not quarantined", f)
				}
				for _, ev := range res.Events {
					if ev.Payload != nil {
						n++
						last = ev.Payload
					}
				}
			}
			if n != c.events {
				t.Errorf("%d tool call events, want %d", n, c.events)
			}
			var got *acpdialect.Shell
			if last != nil {
				got = last.Shell
			}
			if !cmp.Equal(got, c.want) {
				t.Errorf("shell %s", cmp.Diff(c.want, got))
			}
			if last != nil && (last.Kind != acpdialect.KindShell || last.Generic != nil) {
				t.Errorf("payload %+v, want a shell", last)
			}
		})
	}
}

// TestToolCallCancelGrant: ACP v2's capabilities.cancel on a tool call
// sets the card's Cancellable as the draft reads it (omitted leaves it,
// null or anything but a cancel object withdraws it, an object replaces
// the whole previous value), a final status ends it, and a reused id's
// new tool call starts without one. The stream of cancellable values is
// that of every card event.
func TestToolCallCancelGrant(t *testing.T) {
	tc := func(fields string) string {
		return update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1"` + fields + `}`)
	}
	start := tc(`,"title":"Build","kind":"execute","status":"in_progress"`)
	grant := tc(`,"capabilities":{"cancel":{}}`)
	for _, c := range []struct {
		name   string
		frames []string
		want   []bool
	}{
		{"granted, kept by an update without capabilities, withdrawn by null",
			v2Frames(start, grant, tc(`,"title":"Build all"`), tc(`,"capabilities":null`)), []bool{false, true, true, false}},
		{"granted with the update that creates the tool call",
			v2Frames(tc(`,"title":"Build","status":"in_progress","capabilities":{"cancel":{}}`)), []bool{true}},
		{"capabilities without cancel withdraw it: an object replaces the whole value",
			v2Frames(start, grant, tc(`,"capabilities":{}`)), []bool{false, true, false}},
		{"a null cancel withdraws it", v2Frames(start, grant, tc(`,"capabilities":{"cancel":null}`)), []bool{false, true, false}},
		{"malformed values grant nothing and withdraw a grant",
			v2Frames(start, grant, tc(`,"capabilities":{"cancel":true}`), grant, tc(`,"capabilities":true`), grant, tc(`,"capabilities":"cancel"`)),
			[]bool{false, true, false, true, false, true, false}},
		{"of a repeated cancel key the first counts",
			v2Frames(start, tc(`,"capabilities":{"cancel":{},"cancel":null}`)), []bool{false, true}},
		{"a final status ends the grant the agent forgot to withdraw",
			v2Frames(start, grant, tc(`,"status":"completed"`)), []bool{false, true, false}},
		{"a grant with a final status is void",
			v2Frames(start, tc(`,"status":"failed","capabilities":{"cancel":{}}`)), []bool{false, false}},
		{"... and after one, while the card stays ended",
			v2Frames(start, tc(`,"status":"cancelled"`), grant), []bool{false, false}},
		{"a paused tool call keeps its grant",
			v2Frames(start, grant, tc(`,"status":"paused"`), tc(`,"status":"in_progress"`)), []bool{false, true, true, true}},
		{"v1: a tool_call's grant is read the same, and a reused id's new tool call starts without one",
			v1Frames(update(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Build","capabilities":{"cancel":{}}}`),
				update(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Build again"}`)),
			[]bool{true, false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := acpdialect.NewRegistry().NewConn(acpdialect.Options{})
			var got []bool
			for _, l := range feedFrames(t, conn, c.frames...) {
				var ev acpdialect.Event
				if err := json.Unmarshal([]byte(l), &ev); err != nil {
					t.Fatal(err)
				}
				if ev.Payload != nil {
					got = append(got, ev.Payload.Cancellable)
				}
			}
			if !cmp.Equal(got, c.want) {
				t.Errorf("cancellable %v, want %v", got, c.want)
			}
		})
	}
}

// TestCancelGrantEndsWithTheCard: a card that ends by another way than
// its own frame (a vendor's late half that names its status, a turn's end
// that ends its background work) is not cancellable either.
func TestCancelGrantEndsWithTheCard(t *testing.T) {
	promptFrame := `>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`
	granted := update(`{"sessionUpdate":"tool_call","toolCallId":"t1","status":"in_progress","rawInput":{"task":"m1"},"capabilities":{"cancel":{}}}`)
	for _, c := range []struct {
		name string
		end  string
	}{
		{"a late half", update(`{"sessionUpdate":"ping","task":"m1","status":"failed"}`)},
		{"the turn's end", `<{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := background()
			merge := d.MergeLate
			d.MergeLate = func(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
				m, ok := merge(cur, late)
				if late.Status != "" {
					m.Status = late.Status // as Claude's and AIR's halves do
				}
				return m, ok
			}
			conn := acpdialect.NewRegistry(d).NewConn(acpdialect.Options{Agent: "bg"})
			var got []string
			for _, l := range feedFrames(t, conn, promptFrame, granted, c.end) {
				var ev acpdialect.Event
				if err := json.Unmarshal([]byte(l), &ev); err != nil {
					t.Fatal(err)
				}
				if p := ev.Payload; p != nil {
					got = append(got, fmt.Sprintf("%s %v", p.Status, p.Cancellable))
				}
			}
			if len(got) != 2 || got[0] != "in_progress true" || !strings.HasSuffix(got[1], " false") {
				t.Errorf("cards %q, want in_progress and cancellable, then ended and not", got)
			}
		})
	}
}

// TestCancelGrantKeptWhenAVendorUpdateChangesTheKind: Cursor's
// subagent_spawned makes a granted tool call a subagent_task card; the
// grant, which the agent never withdrew, stays.
func TestCancelGrantKeptWhenAVendorUpdateChangesTheKind(t *testing.T) {
	conn := acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{Agent: "cursor"})
	var got []string
	for _, l := range feedFrames(t, conn,
		update(`{"sessionUpdate":"tool_call","toolCallId":"tool-1","kind":"other","title":"Task","status":"in_progress","capabilities":{"cancel":{}}}`),
		update(`{"sessionUpdate":"subagent_spawned","subagentSessionId":"sub-1","task":"Find dead CSS","name":"explore","_meta":{"cursor":{"toolCallId":"tool-1"}}}`)) {
		var ev acpdialect.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		if p := ev.Payload; p != nil {
			got = append(got, fmt.Sprintf("%s %v", p.Kind, p.Cancellable))
		}
	}
	if want := []string{"generic true", "subagent_task true"}; !cmp.Equal(got, want) {
		t.Errorf("cards %q, want %q", got, want)
	}
}

// TestTerminalUpdateLeavesOtherCards: a terminal named after a card of
// another kind than shell or generic changes nothing; one without a
// terminal id is malformed.
func TestTerminalUpdateLeavesOtherCards(t *testing.T) {
	conn := acpdialect.NewRegistry().NewConn(acpdialect.Options{})
	got := feedFrames(t, conn, v2Frames(
		update(`{"sessionUpdate":"subagent_update","sessionId":"child-1","title":"Fix","state":{"state":"running"}}`),
		update(`{"sessionUpdate":"terminal_update","terminalId":"child-1","command":"make"}`),
		update(`{"sessionUpdate":"terminal_output_chunk","data":"`+b64("x")+`"}`),
	)...)
	if len(got) != 1 || strings.Contains(got[0], "shell") {
		t.Errorf("events %q, want the subagent's card alone", got)
	}
	if st := conn.Stats(); st.Malformed != 1 {
		t.Errorf("malformed %d, want 1", st.Malformed)
	}
}

// FuzzTerminalUpdate: any update reads without a panic, and what it
// reads folds into a card whose JSON round-trips.
func FuzzTerminalUpdate(f *testing.F) {
	f.Add(`{"terminalId":"t1","command":"make","output":{"data":"`+b64("ok")+`"},"exitStatus":{"exitCode":0},"capabilities":{"cancel":{}}}`, false)
	f.Add(`{"terminalId":"t1","data":"`+b64("\xff\xfe")+`"}`, true)
	f.Add(`{"terminalId":"t1","exitStatus":{},"capabilities":null}`, false)
	// And every terminal update of the recorded v2 captures.
	paths, _ := filepath.Glob(filepath.Join("claude", "testdata", "v2*.jsonl"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			u := gjson.Get(l, "params.update")
			if k := u.Get("sessionUpdate").Str; k == acpdialect.UpdateTerminal || k == acpdialect.UpdateTerminalOutput {
				f.Add(u.Raw, k == acpdialect.UpdateTerminalOutput)
			}
		}
	}
	f.Fuzz(func(t *testing.T, u string, chunk bool) {
		kind := acpdialect.UpdateTerminal
		if chunk {
			kind = acpdialect.UpdateTerminalOutput
		}
		acpdialect.ReadTerminalUpdate(gjson.Parse(u), kind)
		if !gjson.Valid(u) {
			return
		}
		conn := acpdialect.NewRegistry().NewConn(acpdialect.Options{MaxOutput: 16})
		tagged := `{"sessionUpdate":"` + kind + `",` + strings.TrimPrefix(strings.TrimSpace(u), "{")
		for _, fr := range v2Frames(update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"pending"}`), update(tagged)) {
			if !gjson.Valid(fr[1:]) {
				continue
			}
			res, _ := conn.Inbound([]byte(fr[1:]))
			if fr[0] == '>' {
				res, _ = conn.Outbound([]byte(fr[1:]))
			}
			for _, ev := range res.Events {
				if p := ev.Payload; p != nil && p.Shell != nil && len(p.Shell.Output) > 16 {
					t.Fatalf("output %d bytes past MaxOutput", len(p.Shell.Output))
				}
				b, err := json.Marshal(ev)
				if err != nil {
					t.Fatal(err)
				}
				var back acpdialect.Event
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatalf("%s: %v", b, err)
				}
			}
		}
	})
}
