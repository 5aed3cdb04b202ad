package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/scan"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

func transcript(frames ...[]byte) *bytes.Reader {
	return bytes.NewReader(append(bytes.Join(frames, []byte("\n")), '\n'))
}

func cursorInit() [][]byte {
	req, resp := tw.Initialize(0, "cursor-agent")
	nreq, nresp := tw.SessionNew(1, "s1")
	return [][]byte{req, resp, nreq, nresp, tw.Prompt(2, "s1", "go")}
}

func task(id any) []byte {
	return tw.CursorTask(id, map[string]any{"toolCallId": "t1", "description": "d", "model": "m"})
}

func TestAgentServes(t *testing.T) {
	tests := []struct {
		method string
		want   bool
	}{
		{"initialize", true}, {"session/prompt", true}, {"session/cancel", true},
		{"session/set_config_option", true}, {"$/cancel_request", true},
		{"providers/list", true}, {"nes/suggest", true}, {"document/didOpen", true},
		{"cursor/list_available_models", true}, {"_session/goal", true}, {"_session/steering", true},
		{"_session/async_task/stop", true}, {"_session/list/subscribe", true}, {"_codex/hooks/trust", true},
		// Auggie's client-to-agent vendor methods
		{"completion/request", true}, {"completion/cancel", true}, {"augment/session/history", true},
		{"session/update", false}, {"session/request_permission", false},
		{"fs/read_text_file", false}, {"cursor/task", false}, {"_claude/x", false}, {"", false},
	}
	for _, tt := range tests {
		if got := agentServes(tt.method); got != tt.want {
			t.Errorf("agentServes(%q) = %v, want %v", tt.method, got, tt.want)
		}
	}
}

func TestResponseDirection(t *testing.T) {
	type step struct {
		sent Direction // request sent by this side...
		id   string    // ...with this id; or, with answer, a response
		ans  bool
		want Direction // for answers
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"answers the client", []step{{ClientToAgent, "1", false, 0}, {0, "1", true, AgentToClient}}},
		{"answers the agent", []step{{AgentToClient, "1", false, 0}, {0, "1", true, ClientToAgent}}},
		{"unknown id", []step{{0, "9", true, ClientToAgent}}},
		{"string and number ids differ", []step{{ClientToAgent, `"1"`, false, 0}, {0, "1", true, ClientToAgent}}},
		{"collision: inner (agent) request answered first", []step{
			{ClientToAgent, "2", false, 0}, {AgentToClient, "2", false, 0},
			{0, "2", true, ClientToAgent}, {0, "2", true, AgentToClient},
		}},
		{"collision: inner (client) request answered first", []step{
			{AgentToClient, "5", false, 0}, {ClientToAgent, "5", false, 0},
			{0, "5", true, AgentToClient}, {0, "5", true, ClientToAgent},
		}},
		{"answered once", []step{{ClientToAgent, "1", false, 0}, {0, "1", true, AgentToClient}, {0, "1", true, ClientToAgent}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequests(16)
			for i, s := range tt.steps {
				if !s.ans {
					r.sent(s.sent, s.id)
					continue
				}
				if got := r.answer(s.id); got != s.want {
					t.Fatalf("step %d: answer(%s) = %v, want %v", i, s.id, got, s.want)
				}
			}
		})
	}
}

// A colliding id must not end the turn early: the client's answer to the
// agent's permission request (id 2) is not the agent's prompt response.
// Nor when the permission request reuses the id of a question still
// waiting: the question's default is the Conn's reply in that frame, but
// the permission request is still the client's to answer.
func TestCollidingIDKeepsTurn(t *testing.T) {
	question := tw.Request(2, "cursor/ask_question", map[string]any{"toolCallId": "q1", "questions": []any{}})
	for _, tc := range []struct {
		name   string
		before [][]byte
	}{
		{"permission", nil},
		{"permission reusing a waiting question's id", [][]byte{question}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frames := append(append(cursorInit(), tc.before...),
				tw.Request(2, "session/request_permission", map[string]any{"sessionId": "s1"}),
				tw.Response(2, map[string]any{"outcome": map[string]any{"outcome": "selected"}}),
				task(7), // still in the turn: waits for its tool call
				tw.CursorTaskToolCall("s1", "t1"),
				tw.PromptResponse(2, ""),
			)
			r, err := Run(Builtins(), transcript(frames...), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Cards) != 1 || r.Cards[0].Payload.SubagentTask == nil || r.Cards[0].Payload.SubagentTask.Model != "m" {
				t.Fatalf("cursor/task did not enrich the card: %+v", r.Cards)
			}
		})
	}
}

func TestBadLines(t *testing.T) {
	in := strings.Join([]string{
		string(cursorInit()[0]), string(cursorInit()[1]),
		`{"jsonrpc":"2.0",`,      // 3: truncated
		`[1,2]`,                  // 4: array
		`42`,                     // 5
		``,                       // 6: blank, ignored
		`{"jsonrpc":"2.0"}`,      // 7: no method, no id
		`{"method":5,"id":1}`,    // 8: method not a string
		string(task(9)),          // 9: still replied to
		"\t ",                    // 10: blank
		`{"jsonrpc":"2.0","id":`, // 11: no newline at EOF
	}, "\n")
	r, err := Run(Builtins(), strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, b := range r.Bad {
		got = append(got, b.Line)
		if b.Reason == "" {
			t.Errorf("line %d: no reason", b.Line)
		}
	}
	if want := []int{3, 4, 5, 7, 8, 11}; !equalInts(got, want) {
		t.Errorf("bad lines %v, want %v", got, want)
	}
	if len(r.Replies) != 1 || r.Replies[0].Line != 9 || !json.Valid(r.Replies[0].Frame) {
		t.Errorf("replies %+v: want one valid reply for line 9", r.Replies)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestStrict(t *testing.T) {
	in := string(task(1)) + "\nnot json\n" + string(task(2)) + "\n"
	r, err := Run(Builtins(), strings.NewReader(in), Options{Agent: "cursor", Strict: true})
	var bad *BadLine
	if !errors.As(err, &bad) || bad.Line != 2 {
		t.Fatalf("err = %v, want a bad line 2", err)
	}
	if !strings.Contains(err.Error(), "line 2: invalid JSON") {
		t.Errorf("err = %q", err)
	}
	if r == nil || len(r.Replies) != 1 {
		t.Fatalf("replay before the bad line: %+v", r)
	}
}

func TestAgentOption(t *testing.T) {
	frames := append(cursorInit(), tw.CursorTaskToolCall("s1", "t1"), task(9))
	noInit := [][]byte{tw.Prompt(2, "s1", "go"), tw.CursorTaskToolCall("s1", "t1"), task(9)}
	tests := []struct {
		name      string
		agent     string
		frames    [][]byte
		wantAgent string
		wantErr   int // the cursor/task reply's error code, 0 for success
	}{
		{"identified", "", frames, "cursor", 0},
		{"by id", "cursor", noInit, "cursor", 0},
		{"by agent name", "Cursor Agent", noInit, "cursor", 0},
		{"none overrides initialize", "none", frames, "", -32601},
		{"unknown", "UNKNOWN", frames, "", -32601},
		{"no initialize", "", noInit, "", -32601},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Run(Builtins(), transcript(tt.frames...), Options{Agent: tt.agent})
			if err != nil {
				t.Fatal(err)
			}
			if r.Agent != tt.wantAgent {
				t.Errorf("agent %q, want %q", r.Agent, tt.wantAgent)
			}
			last := r.Events[len(r.Events)-1].Event
			code := 0
			if last.Error != nil {
				code = last.Error.Code
			}
			if last.Type != acpdialect.EventReply || code != tt.wantErr {
				t.Errorf("last event %+v, want a reply with error code %d", last, tt.wantErr)
			}
		})
	}
}

func TestUnknownAgent(t *testing.T) {
	_, err := Run(Builtins(), strings.NewReader(""), Options{Agent: "nope"})
	// Every built-in is listed, in registration order, then "unknown".
	want := `unknown agent "nope"; known: `
	for _, d := range Builtins().Dialects() {
		want += d.ID + ", "
	}
	if !errors.Is(err, ErrUnknownAgent) || err.Error() != want+"unknown" || !strings.HasPrefix(want, `unknown agent "nope"; known: cursor, claude, codex, grok, `) {
		t.Fatalf("err = %v", err)
	}
	for _, reg := range []*acpdialect.Registry{acpdialect.NewRegistry(), nil} {
		_, err = Run(reg, strings.NewReader(""), Options{Agent: "cursor"})
		if err == nil || !strings.HasSuffix(err.Error(), "known: unknown") {
			t.Fatalf("registry %v: err = %v", reg, err)
		}
	}
}

// A tool_call for an id already seen is a new card; updates go to the
// latest card of that id.
func TestCardsPerGeneration(t *testing.T) {
	frames := append(cursorInit(),
		tw.CursorTaskToolCall("s1", "t1"),
		tw.ToolCallCompleted("s1", "t1", nil),
		tw.PromptResponse(2, ""),
		tw.Prompt(3, "s1", "again"),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "kind": "read", "title": "Read"}),
		tw.SessionUpdate("s2", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "kind": "edit", "title": "Edit"}),
		tw.ToolCallCompleted("s1", "t1", nil),
	)
	r, err := Run(Builtins(), transcript(frames...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type card struct{ sid, kind, status, title string }
	want := []card{
		{"s1", acpdialect.KindSubagentTask, "completed", "Task: Subagent task"},
		{"s1", acpdialect.KindGeneric, "completed", "Read"},
		{"s2", acpdialect.KindGeneric, "", "Edit"},
	}
	if len(r.Cards) != len(want) {
		t.Fatalf("%d cards, want %d: %+v", len(r.Cards), len(want), r.Cards)
	}
	for i, w := range want {
		c := r.Cards[i]
		if got := (card{c.SessionID, c.Payload.Kind, c.Payload.Status, c.Payload.Title}); got != w {
			t.Errorf("card %d = %+v, want %+v", i, got, w)
		}
	}
	if got := strings.Join(r.Sessions, ","); got != "s1,s2" {
		t.Errorf("sessions %s, want s1,s2", got)
	}
}

func TestLongLine(t *testing.T) {
	long := strings.Repeat("x", 3<<20)
	frame := tw.SessionUpdate("s1", map[string]any{
		"sessionUpdate": "tool_call", "toolCallId": "t1", "title": long, "kind": "read",
	})
	r, err := Run(Builtins(), transcript(frame), Options{})
	if err != nil || len(r.Bad) != 0 || len(r.Cards) != 1 || len(r.Cards[0].Payload.Title) != len(long) {
		t.Fatalf("err %v, bad %v, cards %d", err, r.Bad, len(r.Cards))
	}
}

type failReader struct{}

func (failReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadError(t *testing.T) {
	r, err := Run(Builtins(), failReader{}, Options{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") || r == nil {
		t.Fatalf("r %v, err %v", r, err)
	}
}

// Final output: one tool_call line per card, one session line per session,
// one stats line; every line valid JSON.
func TestWriteFinal(t *testing.T) {
	frames := append(cursorInit(), tw.CursorTaskToolCall("s1", "t1"), task(9))
	r, err := Run(Builtins(), transcript(frames...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteFinal(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	wantTypes := []string{"tool_call", "session", "stats"}
	if len(lines) != len(wantTypes) {
		t.Fatalf("final:\n%s", b.String())
	}
	for i, l := range lines {
		var v struct {
			Type  string `json:"type"`
			Agent string `json:"agent"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil || v.Type != wantTypes[i] || v.Agent != "cursor" {
			t.Errorf("line %d %s: %+v %v", i, l, v, err)
		}
	}
	if !strings.Contains(lines[2], `"bad_lines":0`) {
		t.Errorf("stats line %s", lines[2])
	}
}

// A vendor method the identified dialect lists among the client's calls
// goes client -> agent: the Conn tracks it as the client's request (no
// -32601 from the library) and reads its result.
func TestDialectCallsGoToTheAgent(t *testing.T) {
	d := &acpdialect.Dialect{
		ID:    "callee",
		Match: func(name, _ string) bool { return name == "callee" },
		Calls: []acpdialect.Call{{Name: "_callee/steps", Result: func(gjson.Result) *acpdialect.Event {
			return &acpdialect.Event{Type: acpdialect.EventSessionInfo, Object: &acpdialect.SessionInfo{Title: "read"}}
		}}},
	}
	req, resp := tw.Initialize(0, "callee")
	frames := [][]byte{req, resp, tw.Request(5, "_callee/steps", map[string]any{"sessionId": "s1"}), tw.Response(5, map[string]any{"steps": []any{}})}
	r, err := Run(acpdialect.NewRegistry(d), transcript(frames...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Replies) != 0 || r.Stats.Declined != 0 {
		t.Errorf("the client's call was answered by the library: %+v", r.Replies)
	}
	if len(r.Events) != 1 || r.Events[0].Event.Type != acpdialect.EventSessionInfo || r.Events[0].Event.Method != "_callee/steps" {
		t.Errorf("events %+v, want the call's result read", r.Events)
	}
}

// TestRequestIDsOwnTheirKeys: an id seen again is looked up with a view
// of a line whose buffer is reused next; the table keeps its own copy, so
// that the id is still found once the buffer holds another line.
func TestRequestIDsOwnTheirKeys(t *testing.T) {
	r := newRequests(8)
	buf := []byte(`"a"`)
	view := func() string { return scan.UnsafeString(buf) }
	r.sent(ClientToAgent, view())
	r.sent(ClientToAgent, view()) // again: the map's key must not become the view
	copy(buf, `"z"`)
	if _, ok := r.client[`"a"`]; !ok {
		t.Fatalf("the id \"a\" is lost once the line's buffer is reused: %v", r.client)
	}
	for _, e := range r.order[ClientToAgent] {
		if e.id != `"a"` {
			t.Fatalf("the order holds %q", e.id)
		}
	}
}
