package dialecttest_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// good is a small dialect that keeps every rule: a vendor request that
// names a tool call and a model, merged into the tool call's card.
func good() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "acme",
		Match: func(name, _ string) bool { return name == "acme-agent" },
		Methods: []acpdialect.Method{{
			Name: "acme/task", Kind: acpdialect.RequestOrNotification,
			Handle: func(params gjson.Result) acpdialect.Action {
				return acpdialect.Action{Late: acpdialect.Late{
					ToolCallID: frame.Str(params.Get("toolCallId")),
					Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
						SubagentTask: &acpdialect.SubagentTask{Model: frame.Str(params.Get("model"))}},
				}}
			},
		}},
		MergeLate: func(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
			if late.SubagentTask == nil {
				return cur, false
			}
			cur.Kind, cur.Generic, cur.SubagentTask = acpdialect.KindSubagentTask, nil, late.SubagentTask
			return cur, true
		},
	}
}

var goodFrames = [][]byte{
	dialecttest.Request(7, "acme/task", map[string]any{"toolCallId": "t1", "model": "m1"}),
	dialecttest.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "Task"}),
}

func TestGoodDialectPasses(t *testing.T) {
	if err := dialecttest.Check(good(), dialecttest.Options{Agents: []string{"acme-agent"}, Frames: goodFrames}); err != nil {
		t.Fatal(err)
	}
}

// A method the client serves itself (Options.Conn.ClientMethods) gets no
// reply from the Conn, and the kit wants none.
func TestClientMethods(t *testing.T) {
	opts := dialecttest.Options{Frames: goodFrames}
	opts.Conn.ClientMethods = []string{"acme/task", "_acme/other"}
	if err := dialecttest.Check(good(), opts); err != nil {
		t.Error(err)
	}
}

// The kit tells frames by their shape: a response among Options.Frames is
// fed as the agent's answer to each of the dialect's Calls, never as a
// request due a reply.
func TestResponseFrames(t *testing.T) {
	resp := dialecttest.Response(5, map[string]any{"models": []any{"m1"}})
	withCall := func(read func(gjson.Result) *acpdialect.Event) *acpdialect.Dialect {
		d := good()
		d.Calls = []acpdialect.Call{{Name: "acme/models", Result: read}}
		return d
	}
	count := func(r gjson.Result) *acpdialect.Event {
		return &acpdialect.Event{Type: "acme_models", Result: json.RawMessage(fmt.Sprint(len(r.Get("models").Array())))}
	}
	if err := dialecttest.Check(good(), dialecttest.Options{Frames: append([][]byte{resp}, goodFrames...)}); err != nil {
		t.Errorf("a response, no Calls: %v", err)
	}
	if err := dialecttest.Check(withCall(count), dialecttest.Options{Frames: append([][]byte{resp}, goodFrames...)}); err != nil {
		t.Errorf("a response to a Call: %v", err)
	}
	panicky := withCall(func(r gjson.Result) *acpdialect.Event {
		_ = r.Get("models").Value().([]any) // null, a string...: panic
		return nil
	})
	err := dialecttest.Check(panicky, dialecttest.Options{Frames: append([][]byte{resp}, goodFrames...)})
	if err == nil || !strings.Contains(err.Error(), "fail_closed: Options.Frames[0], result") || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("a Call reader that panics on a hostile result: %v", err)
	}
}

// Each broken dialect must fail the rule it breaks, with a message that
// says what it did.
func TestBrokenDialectsFail(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(d *acpdialect.Dialect)
		agents []string
		frames [][]byte // goodFrames when nil
		rule   string   // the "rule:" prefix of the failure
		says   string   // part of the message
	}{
		{
			name: "keeps a view of the frame in one of several late halves",
			break_: func(d *acpdialect.Dialect) {
				d.Updates = append(d.Updates, acpdialect.Update{Kind: "acme_progress",
					HandleAll: func(u gjson.Result) []acpdialect.Late {
						return []acpdialect.Late{{ToolCallID: frame.Str(u.Get("toolCallId"))}, {ToolCallID: frame.View(u.Get("other"))}}
					}})
			},
			frames: append([][]byte{dialecttest.SessionUpdate("s1", map[string]any{"sessionUpdate": "acme_progress", "toolCallId": "t1", "other": "t2"})}, goodFrames...),
			rule:   "pure", says: "Updates[acme_progress].HandleAll returned a value that views the frame",
		},
		{
			name: "keeps a view of the frame in a \"_\" extension method",
			break_: func(d *acpdialect.Dialect) {
				d.Methods = append(d.Methods, acpdialect.Method{Name: "_acme/notice", Kind: acpdialect.Notification,
					Handle: func(params gjson.Result) acpdialect.Action {
						return acpdialect.Action{Late: acpdialect.Late{ToolCallID: frame.View(params.Get("toolCallId"))}}
					}})
			},
			frames: append([][]byte{dialecttest.Notify("_acme/notice", map[string]any{"toolCallId": "t1"})}, goodFrames...),
			rule:   "pure", says: "Options.Frames[0]: Methods[_acme/notice].Handle returned a value that views the frame",
		},
		{
			name: "keeps a view of the frame",
			break_: func(d *acpdialect.Dialect) {
				d.Methods[0].Handle = func(params gjson.Result) acpdialect.Action {
					return acpdialect.Action{Late: acpdialect.Late{ToolCallID: frame.View(params.Get("toolCallId")),
						Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{}}}}
				}
			},
			rule: "pure", says: "views the frame",
		},
		{
			name: "answers each time with another result",
			break_: func(d *acpdialect.Dialect) {
				n := 0
				d.Methods[0].Handle = func(gjson.Result) acpdialect.Action {
					n++
					return acpdialect.Action{Result: json.RawMessage(fmt.Sprintf(`{"model":"m%d"}`, n))}
				}
			},
			// The diff shows the JSON text, not hex bytes.
			rule: "pure", says: "`{\"model\":\"m1\"}`",
		},
		{
			name: "hands out one kind object on every call",
			break_: func(d *acpdialect.Dialect) {
				task := &acpdialect.SubagentTask{Model: "m1"}
				d.Methods[0].Handle = func(params gjson.Result) acpdialect.Action {
					return acpdialect.Action{Late: acpdialect.Late{ToolCallID: frame.Str(params.Get("toolCallId")),
						Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: task}}}
				}
			},
			rule: "pure", says: "Methods[acme/task].Handle returned the same *acpdialect.SubagentTask from two calls",
		},
		{
			name: "hands out one event on every call",
			break_: func(d *acpdialect.Dialect) {
				ev := &acpdialect.Event{Type: "acme_task"}
				d.Methods[0].Handle = func(gjson.Result) acpdialect.Action { return acpdialect.Action{Event: ev} }
			},
			rule: "pure", says: "Methods[acme/task].Handle returned the same *acpdialect.Event from two calls",
		},
		{
			name: "is not deterministic",
			break_: func(d *acpdialect.Dialect) {
				n := 0
				d.Methods[0].Handle = func(gjson.Result) acpdialect.Action {
					n++
					return acpdialect.Action{Result: json.RawMessage(strings.Repeat("[", 1) + string(rune('0'+n%10)) + "]")}
				}
			},
			rule: "pure", says: "two results",
		},
		{
			name: "changes the card in place",
			break_: func(d *acpdialect.Dialect) {
				d.ToolCall = func(_ frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
					if prev.Generic != nil {
						prev.Generic.ACPKind = "mutated"
					}
					return prev
				}
			},
			rule: "pure", says: "in place",
		},
		{
			name: "changes the late half it does not merge",
			break_: func(d *acpdialect.Dialect) {
				d.MergeLate = func(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
					if late.SubagentTask != nil {
						late.SubagentTask.Model = "spoilt" // then says it did not merge
					}
					return cur, false
				}
			},
			rule: "pure", says: "MergeLate (late half for \"t1\", card of kind \"subagent_task\") changed the late half in place though it did not merge it",
		},
		{
			name: "makes a card of a kind of its own",
			break_: func(d *acpdialect.Dialect) {
				d.ToolCall = func(_ frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
					prev.Kind, prev.Generic = "acme_deploy", nil // no object a client could render
					return prev
				}
			},
			rule: "pure", says: `ToolCall returned a card of kind "acme_deploy" carrying the kind objects []`,
		},
		{
			name: "names one kind and fills another",
			break_: func(d *acpdialect.Dialect) {
				d.ToolCall = func(_ frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
					prev.Kind, prev.Shell = acpdialect.KindSubagentTask, &acpdialect.Shell{}
					return prev
				}
			},
			rule: "pure", says: `ToolCall returned a card of kind "subagent_task" carrying the kind objects ["shell"]`,
		},
		{
			name: "panics on a wrong type",
			break_: func(d *acpdialect.Dialect) {
				d.Methods[0].Handle = func(params gjson.Result) acpdialect.Action {
					_ = params.Get("model").Value().(string) // a number, an array...: panic
					return acpdialect.Action{}
				}
			},
			rule: "fail_closed", says: "panicked",
		},
		{
			name: "answers with what is not JSON",
			break_: func(d *acpdialect.Dialect) {
				d.Methods[0].Handle = func(gjson.Result) acpdialect.Action {
					// A result that would smuggle a second response frame:
					// the Conn refuses it, and the kit names the bug.
					return acpdialect.Action{Result: json.RawMessage("{}}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}")}
				}
			},
			rule: "fail_closed", says: "the acme dialect's result for acme/task is not one JSON value",
		},
		{
			name: "answers with invalid UTF-8",
			break_: func(d *acpdialect.Dialect) {
				d.Methods[0].Handle = func(gjson.Result) acpdialect.Action {
					// Valid to json.Valid, but the agent's decoder
					// would read another string.
					return acpdialect.Action{Result: json.RawMessage("{\"model\":\"\xff\"}")}
				}
			},
			rule: "fail_closed", says: "the acme dialect's result for acme/task is not valid UTF-8",
		},
		{
			name: "keeps what it reads",
			break_: func(d *acpdialect.Dialect) {
				var kept []string // state outside the Conn: unbounded
				d.Methods[0].Handle = func(params gjson.Result) acpdialect.Action {
					kept = append(kept, params.Raw)
					return acpdialect.Action{}
				}
			},
			rule: "bounded", says: "grew the heap",
		},
		{
			name: "gives two answers to one name",
			break_: func(d *acpdialect.Dialect) {
				n := 0
				d.Match = func(name, _ string) bool { n++; return name == "acme-agent" && n%2 == 1 }
			},
			agents: []string{"acme-agent"},
			rule:   "pure", says: `Match("acme-agent", "") gave two answers: true then false`,
		},
		{
			name: "gives two descriptions to one command",
			break_: func(d *acpdialect.Dialect) {
				n := 0
				d.CommandDescription = func(s string) string { n++; return fmt.Sprint(s, n) }
			},
			rule: "pure", says: `CommandDescription("") gave two answers: "1" then "2"`,
		},
		{
			name: "claims every agent",
			break_: func(d *acpdialect.Dialect) {
				d.Match = func(string, string) bool { return true }
			},
			rule: "isolation", says: "changed the output of a connection identified as unknown-agent",
		},
		{
			name: "claims every initialize result",
			break_: func(d *acpdialect.Dialect) {
				d.MatchResult = func(gjson.Result) bool { return true }
			},
			rule: "isolation", says: `MatchResult accepts {}, an initialize result without the agent's mark`,
		},
		{
			name: "gives two answers to one initialize result",
			break_: func(d *acpdialect.Dialect) {
				n := 0
				d.MatchResult = func(r gjson.Result) bool { n++; return r.Type == gjson.Null && n%2 == 1 }
			},
			rule: "pure", says: `MatchResult(null) gave two answers`,
		},
		{
			name: "matches by substring",
			break_: func(d *acpdialect.Dialect) {
				d.Match = func(name, _ string) bool { return strings.Contains(name, "acme") }
			},
			agents: []string{"acme-agent"},
			rule:   "isolation", says: `Match accepts "preacme-agent"`,
		},
		{
			name: "gives a later entry of a kind a Handle, which the Conn ignores",
			break_: func(d *acpdialect.Dialect) {
				ev := func(gjson.Result) *acpdialect.Event { return nil }
				d.Updates = append(d.Updates, acpdialect.Update{Kind: "acme_note", Standard: true, Event: ev},
					acpdialect.Update{Kind: "acme_note", Standard: true, Event: ev, Handle: func(gjson.Result) acpdialect.Late { return acpdialect.Late{} }})
			},
			rule: "table", says: "Updates[1] (acme_note, listed first at 0): sets Handle",
		},
		{
			name: "lists a kind again as another Standard",
			break_: func(d *acpdialect.Dialect) {
				ev := func(gjson.Result) *acpdialect.Event { return nil }
				d.Updates = append(d.Updates, acpdialect.Update{Kind: "acme_note", Standard: true, Event: ev},
					acpdialect.Update{Kind: "acme_note", Event: ev})
			},
			rule: "table", says: "Standard differs",
		},
		{
			name: "lists a tool call kind twice",
			break_: func(d *acpdialect.Dialect) {
				ev := func(gjson.Result) *acpdialect.Event { return nil }
				d.Updates = append(d.Updates, acpdialect.Update{Kind: "tool_call", Standard: true, Event: ev},
					acpdialect.Update{Kind: "tool_call", Standard: true, Event: ev})
			},
			rule: "table", says: "a tool call kind is listed once",
		},
		{
			name:   "does not know its own agent",
			break_: func(d *acpdialect.Dialect) { d.Match = func(name, _ string) bool { return name == "acme" } },
			agents: []string{"acme-agent"},
			rule:   "isolation", says: "does not identify its own agent",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := good()
			tc.break_(d)
			frames := tc.frames
			if frames == nil {
				frames = goodFrames
			}
			err := dialecttest.Check(d, dialecttest.Options{Agents: tc.agents, Frames: frames})
			if err == nil {
				t.Fatalf("Check passed a dialect that %s", tc.name)
			}
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				if msg := e.Error(); strings.HasPrefix(msg, tc.rule+": ") && strings.Contains(msg, tc.says) {
					return
				}
			}
			t.Errorf("want a %q failure saying %q; got:\n%v", tc.rule, tc.says, err)
		})
	}
}

// neighbour is memory a test running in parallel keeps.
var neighbour []byte

// The bounded rule reads the process's heap: memory another test takes
// during one flood is not the dialect's. Here the dialect stands in for
// that test, once, on the flood's first frame (its strings are the
// flood's, 8 KiB of x).
func TestBoundedIgnoresOneNeighbour(t *testing.T) {
	var once sync.Once
	d := good()
	read := d.Methods[0].Handle
	d.Methods[0].Handle = func(params gjson.Result) acpdialect.Action {
		if strings.Contains(params.Get("toolCallId").Str, strings.Repeat("x", 1024)) {
			once.Do(func() { neighbour = make([]byte, 8<<20) })
		}
		return read(params)
	}
	t.Cleanup(func() { neighbour = nil })
	if err := dialecttest.Check(d, dialecttest.Options{Frames: goodFrames}); err != nil {
		t.Error(err)
	}
}

// A frame that makes the dialect panic as it is, is reported once, as
// itself, not once per hostile value.
func TestFailClosedBlamesThePlainFrame(t *testing.T) {
	d := good()
	d.Methods[0].Handle = func(gjson.Result) acpdialect.Action { panic("always") }
	err := dialecttest.Check(d, dialecttest.Options{Frames: goodFrames})
	if err == nil {
		t.Fatal("Check passed a handler that always panics")
	}
	var failClosed []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if msg := e.Error(); strings.HasPrefix(msg, "fail_closed: ") {
			failClosed = append(failClosed, msg)
		}
	}
	// One per frame of acme/task: the request and the notification the
	// method table makes, and Options.Frames[0].
	if len(failClosed) != 3 {
		t.Fatalf("%d fail_closed failures, want 3:\n%s", len(failClosed), strings.Join(failClosed, "\n"))
	}
	for _, msg := range failClosed {
		if !strings.Contains(msg, ", unchanged (ClientAnswers false): panicked in ") || !strings.Contains(msg, ": always") {
			t.Errorf("failure does not blame the unchanged frame: %s", msg)
		}
	}
}

// pure feeds every hook a dialect can set: each of these, giving another
// answer on each call, is caught and named.
func TestPureCoversEveryHook(t *testing.T) {
	tests := []struct {
		hook string
		set  func(d *acpdialect.Dialect, n func() int)
	}{
		{"Updates[acme_progress].Event", func(d *acpdialect.Dialect, n func() int) {
			d.Updates = []acpdialect.Update{{Kind: "acme_progress", Event: func(gjson.Result) *acpdialect.Event {
				return &acpdialect.Event{Type: fmt.Sprint(n())}
			}}}
		}},
		{"Updates[acme_progress].Mark", func(d *acpdialect.Dialect, n func() int) {
			d.Updates = []acpdialect.Update{{Kind: "acme_progress", Mark: func(gjson.Result) (bool, bool) { return n()%2 == 0, true }}}
		}},
		{"Updates[acme_progress].Marked", func(d *acpdialect.Dialect, n func() int) {
			d.Updates = []acpdialect.Update{{Kind: "acme_progress", Marked: func(gjson.Result) *acpdialect.Event {
				return &acpdialect.Event{Type: fmt.Sprint(n())}
			}}}
		}},
		{"ToolEvent", func(d *acpdialect.Dialect, n func() int) {
			d.ToolEvent = func(frame.ToolUpdate) *acpdialect.Event { return &acpdialect.Event{Type: fmt.Sprint(n())} }
		}},
		{"Runs", func(d *acpdialect.Dialect, n func() int) {
			d.Runs = func(frame.ToolUpdate) []acpdialect.Run { return []acpdialect.Run{{Child: fmt.Sprint(n())}} }
		}},
		{"Calls[acme/tree].Children", func(d *acpdialect.Dialect, n func() int) {
			d.Calls = []acpdialect.Call{{Name: "acme/tree", Children: func(gjson.Result) []acpdialect.Child {
				return []acpdialect.Child{{Session: fmt.Sprint(n())}}
			}}}
		}},
		{"EndBackground", func(d *acpdialect.Dialect, n func() int) {
			d.EndBackground = func(p acpdialect.Payload, _ string) acpdialect.Payload {
				p.Title = fmt.Sprint(n())
				return p
			}
		}},
		{"Session.Notification", func(d *acpdialect.Dialect, n func() int) {
			d.Session = &acpdialect.SessionHooks{Notification: func(string, gjson.Result, func(string) any) (string, acpdialect.Step) {
				return fmt.Sprint(n()), acpdialect.Step{}
			}}
		}},
		{"Session.ContextWindow", func(d *acpdialect.Dialect, n func() int) {
			d.Session = &acpdialect.SessionHooks{ContextWindow: func(gjson.Result, any) (acpdialect.ContextWindow, bool) {
				return acpdialect.ContextWindow{Used: int64(n())}, true
			}}
		}},
		{"Session.Result", func(d *acpdialect.Dialect, n func() int) {
			d.Session = &acpdialect.SessionHooks{Result: func(string, gjson.Result, any) acpdialect.Step {
				return acpdialect.Step{State: n()}
			}}
		}},
		{"Rewrites[session/set_mode].Request", func(d *acpdialect.Dialect, n func() int) {
			d.Rewrites = []acpdialect.Rewrite{{Method: "session/set_mode", Request: func(gjson.Result, any) acpdialect.Redirect {
				return acpdialect.Redirect{Method: fmt.Sprint("acme/mode", n())}
			}}}
		}},
		{"Rewrites[session/set_mode].Response", func(d *acpdialect.Dialect, n func() int) {
			d.Rewrites = []acpdialect.Rewrite{{Method: "session/set_mode", Response: func(acpdialect.AgentResponse, any, any) acpdialect.Step {
				return acpdialect.Step{Result: json.RawMessage(fmt.Sprint(n()))}
			}}}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.hook, func(t *testing.T) {
			d := good()
			calls := 0
			tc.set(d, func() int { calls++; return calls })
			err := dialecttest.Check(d, dialecttest.Options{Frames: goodFrames})
			if err == nil || !strings.Contains(err.Error(), "pure: ") || !strings.Contains(err.Error(), tc.hook) || !strings.Contains(err.Error(), "returned two results") {
				t.Errorf("want a pure failure naming %s; got:\n%v", tc.hook, err)
			}
		})
	}
}

// writeTranscript writes lines as a transcript task.jsonl in a new folder.
func writeTranscript(t *testing.T, lines ...[]byte) string {
	t.Helper()
	dir := t.TempDir()
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "task.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A hook that panics where the kit replays transcripts (goldens,
// isolation) fails the rule, naming the hook and the line, instead of
// crashing the test binary.
func TestReplayPanicsAreFailures(t *testing.T) {
	req, resp := dialecttest.Initialize(0, "acme-agent")
	snew, sresp := dialecttest.SessionNew(1, "s1")
	tests := []struct {
		name   string
		break_ func(d *acpdialect.Dialect)
		lines  [][]byte
		says   []string
	}{
		{
			name: "Calls.Children in a golden's transcript",
			break_: func(d *acpdialect.Dialect) {
				d.Calls = []acpdialect.Call{{Name: "acme/tree", Children: panickyChildren}}
			},
			lines: [][]byte{req, resp, snew, sresp,
				dialecttest.Request(3, "acme/tree", map[string]any{"sessionId": "s1"}),
				dialecttest.Response(3, map[string]any{"children": []any{}})},
			says: []string{"goldens: ", "task.jsonl: line 6: replaying it panicked in ", "panickyChildren", "a broken tree"},
		},
		{
			name: "Match on another agent's name",
			break_: func(d *acpdialect.Dialect) {
				d.Match = func(name, _ string) bool {
					if name != "acme-agent" {
						panic("a name it did not expect")
					}
					return true
				}
			},
			says: []string{"isolation: replay as unknown-agent, with the dialect registered: line 2: replaying it panicked in ", "a name it did not expect"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := good()
			tc.break_(d)
			opts := dialecttest.Options{Frames: goodFrames}
			if tc.lines != nil {
				opts.Dir = writeTranscript(t, tc.lines...)
			}
			err := dialecttest.Check(d, opts)
			if err == nil {
				t.Fatal("Check passed")
			}
			for _, part := range tc.says {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("the failure does not say %q:\n%v", part, err)
				}
			}
		})
	}
}

func panickyChildren(gjson.Result) []acpdialect.Child { panic("a broken tree") }

// The goldens rule compares, reports a difference with a diff, and
// rewrites with Update.
func TestGoldens(t *testing.T) {
	// The rule is tested with Options.Update alone: under go test
	// -update the flag would rewrite what the test expects to differ.
	defer func(was bool) { *testwire.Update = was }(*testwire.Update)
	*testwire.Update = false
	dir := t.TempDir()
	req, resp := dialecttest.Initialize(0, "acme-agent")
	snew, sresp := dialecttest.SessionNew(1, "s1")
	lines := [][]byte{req, resp, snew, sresp, dialecttest.Prompt(2, "s1", "go")}
	lines = append(lines, goodFrames[1], goodFrames[0], dialecttest.PromptResponse(2, ""))
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "task.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := dialecttest.Options{Dir: dir}
	if err := dialecttest.Check(good(), opts); err == nil || !strings.Contains(err.Error(), "goldens: ") {
		t.Fatalf("missing goldens: %v", err)
	}
	opts.Update = true
	if err := dialecttest.Check(good(), opts); err != nil {
		t.Fatalf("update: %v", err)
	}
	golden, _ := os.ReadFile(filepath.Join(dir, "task.final.golden"))
	if !strings.Contains(string(golden), `"subagent_task":{"model":"m1"}`) {
		t.Errorf("final golden lacks the merged card:\n%s", golden)
	}
	opts.Update = false
	if err := dialecttest.Check(good(), opts); err != nil {
		t.Fatalf("after update: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "task.final.golden"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := dialecttest.Check(good(), opts); err == nil || !strings.Contains(err.Error(), "-want +got") {
		t.Errorf("a changed golden: %v", err)
	}
}

// A transcript without an initialize exchange is never identified: its
// goldens would pin standard ACP, not the dialect, so the goldens rule
// says so instead of writing them, unless Options.Agent names the agent.
func TestGoldensNeedIdentification(t *testing.T) {
	snew, sresp := dialecttest.SessionNew(1, "s1")
	dir := writeTranscript(t, snew, sresp, dialecttest.Prompt(2, "s1", "go"),
		goodFrames[1], goodFrames[0], dialecttest.PromptResponse(2, ""))
	err := dialecttest.Check(good(), dialecttest.Options{Dir: dir, Update: true})
	if err == nil || !strings.Contains(err.Error(), "no initialize exchange") || !strings.Contains(err.Error(), "Options.Agent") {
		t.Fatalf("a transcript nothing identifies: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "task.final.golden")); err == nil {
		t.Error("its goldens were written")
	}
	if err := dialecttest.Check(good(), dialecttest.Options{Dir: dir, Update: true, Agent: "acme"}); err != nil {
		t.Fatalf("with Options.Agent: %v", err)
	}
	golden, _ := os.ReadFile(filepath.Join(dir, "task.final.golden"))
	if !strings.Contains(string(golden), `"subagent_task":{"model":"m1"}`) {
		t.Errorf("replayed as acme, the final golden lacks the merged card:\n%s", golden)
	}
}

// Replay gives an outside dialect's transcript the outputs its goldens
// hold, as the acpdialect replay command does for the built-ins.
func TestReplay(t *testing.T) {
	req, resp := dialecttest.Initialize(0, "acme-agent")
	snew, sresp := dialecttest.SessionNew(1, "s1")
	dir := writeTranscript(t, req, resp, snew, sresp, dialecttest.Prompt(2, "s1", "go"),
		goodFrames[1], goodFrames[0], dialecttest.PromptResponse(2, ""))
	if err := dialecttest.Check(good(), dialecttest.Options{Dir: dir, Update: true}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "task.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	final, events, err := dialecttest.Replay(acpdialect.NewRegistry(good()), f, "")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"task.final.golden": final, "task.events.golden": events} {
		want, _ := os.ReadFile(filepath.Join(dir, name))
		if string(got) != string(want) || len(got) == 0 {
			t.Errorf("Replay's output is not %s:\ngot:\n%s\nwant:\n%s", name, got, want)
		}
	}
	if _, _, err := dialecttest.Replay(acpdialect.NewRegistry(good()), strings.NewReader("not json\n"), ""); err == nil {
		t.Error("a line that is not JSON-RPC: no error")
	}
}

// Golden rewrites its file under the kit's -update flag as Run does, so a
// test that calls it alone needs no flag of its own.
func TestGoldenHonoursUpdateFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	was := flag.Lookup("update").Value.String()
	t.Cleanup(func() { flag.Set("update", was) })
	if err := flag.Set("update", "true"); err != nil {
		t.Fatal(err)
	}
	dialecttest.Golden(t, path, []byte("line\n"), false)
	if b, err := os.ReadFile(path); err != nil || string(b) != "line\n" {
		t.Fatalf("with -update the golden is %q, %v", b, err)
	}
	flag.Set("update", "false")
	dialecttest.Golden(t, path, []byte("line\n"), false) // equal: passes without rewriting
}

// withVersions is good with a variant for releases 2.x: the same dialect
// with the Methods hook v2 gives, built once.
func withVersions(v2 func(*acpdialect.Dialect)) *acpdialect.Dialect {
	d := good()
	variant := *good()
	if v2 != nil {
		v2(&variant)
	}
	d.ForVersion = func(version string) *acpdialect.Dialect {
		if v, ok := acpdialect.ParseVersion(version); ok && v.AtLeast(2, 0, 0) {
			return &variant
		}
		return nil
	}
	return d
}

// The versions rule asks ForVersion about Options.Versions and odd
// versions, and the variants it returns keep the rules about hooks too:
// each failure is reported as the variant's, under the first version that
// gave it.
func TestVersions(t *testing.T) {
	tests := []struct {
		name     string
		d        *acpdialect.Dialect
		versions []string
		fails    []string // parts of the failures, each in one; none when nil
	}{
		{"a good variant", withVersions(nil), []string{"1.0.0", "2.0.0", "2.6.0", "v3.0.0-beta.1"}, nil},
		{"no variant asked about", withVersions(nil), nil, nil},
		{"no ForVersion", good(), nil, nil},
		{"versions but no ForVersion", good(), []string{"2.0.0"}, []string{"versions: Options.Versions names releases, but the dialect has no ForVersion"}},
		{"a variant that is not pure", withVersions(func(d *acpdialect.Dialect) {
			n := 0
			d.Methods[0].Handle = func(gjson.Result) acpdialect.Action {
				n++
				return acpdialect.Action{Event: &acpdialect.Event{Type: fmt.Sprint(n)}}
			}
		}), []string{"1.0.0", "2.6.0", "2.7.0"}, []string{"version 2.6.0: pure: ", "Methods[acme/task].Handle returned two results"}},
		{"a variant of another ID", func() *acpdialect.Dialect {
			d, other := good(), &acpdialect.Dialect{ID: "other"}
			d.ForVersion = func(string) *acpdialect.Dialect { return other }
			return d
		}(), []string{"2.0.0"}, []string{`versions: ForVersion("2.0.0") returned a variant with the ID "other"`}},
		{"a variant built per call", func() *acpdialect.Dialect {
			d := good()
			d.ForVersion = func(string) *acpdialect.Dialect { return good() }
			return d
		}(), nil, []string{`versions: ForVersion("") returned two dialects for one version`}},
		{"a ForVersion that panics on odd versions", func() *acpdialect.Dialect {
			d := withVersions(nil)
			read := d.ForVersion
			d.ForVersion = func(version string) *acpdialect.Dialect {
				if version == "" {
					panic("no version")
				}
				return read(version)
			}
			return d
		}(), []string{"2.0.0"}, []string{`versions: ForVersion("") panicked`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := dialecttest.Check(tc.d, dialecttest.Options{Frames: goodFrames, Versions: tc.versions})
			if tc.fails == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Check passed; want failures saying %q", tc.fails)
			}
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				found := true
				for _, part := range tc.fails {
					found = found && strings.Contains(e.Error(), part)
				}
				if found {
					return
				}
			}
			t.Errorf("want a failure saying %q; got:\n%v", tc.fails, err)
		})
	}
}
