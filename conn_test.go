package acpdialect_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// claude is a stand-in for another vendor's dialect: it matches Claude's
// agentInfo and allows no vendor methods, so every Cursor rule must stay
// out of a connection identified as it.
func claude() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID: "claude",
		Match: func(name, _ string) bool {
			return acpdialect.MatchName(name, "@agentclientprotocol/claude-agent-acp", "claude-code", "claude-agent")
		},
	}
}

// registry is what a client supporting Cursor and Claude builds.
func registry() *acpdialect.Registry { return acpdialect.NewRegistry(cursor.Dialect(), claude()) }

// harness feeds frames to one Conn and fails the test on surprises.
type harness struct {
	t testing.TB
	c *acpdialect.Conn
}

func newHarness(t testing.TB, reg *acpdialect.Registry, opts acpdialect.Options) *harness {
	return &harness{t: t, c: reg.NewConn(opts)}
}

// in feeds one agent -> client frame.
func (h *harness) in(frame []byte) acpdialect.Result {
	h.t.Helper()
	r, err := h.c.Inbound(frame)
	if err != nil {
		h.t.Fatalf("Inbound(%s): %v", frame, err)
	}
	return r
}

// quiet feeds a frame that must produce no reply and no event.
func (h *harness) quiet(frame []byte) {
	h.t.Helper()
	if r := h.in(frame); r.Reply != nil || len(r.Events) != 0 {
		h.t.Fatalf("Inbound(%s) = reply %q, events %s; want nothing", frame, r.Reply, eventLines(h.t, r.Events))
	}
}

// out feeds one client -> agent frame, which never produces an event.
func (h *harness) out(frame []byte) {
	h.t.Helper()
	ev, err := outbound(h.c, frame)
	if err != nil || len(ev) != 0 {
		h.t.Fatalf("Outbound(%s) = %v, %v", frame, ev, err)
	}
}

// initialize runs the handshake with an agent that names itself agentName.
func (h *harness) initialize(agentName string) {
	h.t.Helper()
	req, resp := testwire.Initialize(1, agentName)
	h.out(req)
	h.quiet(resp)
}

// session opens a session with the request id given.
func (h *harness) session(id int, sid string) {
	h.t.Helper()
	req, resp := testwire.SessionNew(id, sid)
	h.out(req)
	h.quiet(resp)
}

// cursorConn is a Cursor connection with session s1 open and a turn (the
// prompt with id 3) in flight.
func cursorConn(t testing.TB, opts acpdialect.Options) *harness {
	h := newHarness(t, registry(), opts)
	h.initialize("cursor-agent")
	h.session(2, "s1")
	h.out(testwire.Prompt(3, "s1", "summarize"))
	return h
}

// eventLines is the events' JSON encoding, one object per line: the
// output contract the tests pin.
func eventLines(t testing.TB, events []acpdialect.Event) []string {
	t.Helper()
	out := make([]string, 0, len(events))
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("marshal %+v: %v", e, err)
		}
		out = append(out, string(b))
	}
	return out
}

// transcript renders what a frame produced as text lines: the reply frame
// (if any) then each event.
func transcript(t testing.TB, r acpdialect.Result) []string {
	var out []string
	if r.Reply != nil {
		out = append(out, "reply "+string(r.Reply))
	}
	return append(out, eventLines(t, r.Events)...)
}

func wantEvents(t *testing.T, got []acpdialect.Event, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if d := cmp.Diff(want, eventLines(t, got)); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
}

func TestIdentify(t *testing.T) {
	tests := []struct {
		name   string
		opts   acpdialect.Options
		result string // the initialize result; "" means no initialize at all
		want   string
	}{
		{"agentInfo name", acpdialect.Options{}, `{"agentInfo":{"name":"cursor-agent","version":"1"}}`, "cursor"},
		{"agentInfo title", acpdialect.Options{}, `{"agentInfo":{"name":"agent","title":"Cursor"}}`, "cursor"},
		{"v2 info", acpdialect.Options{}, `{"info":{"name":"Cursor Agent","version":"1"},"protocolVersion":2}`, "cursor"},
		{"claude", acpdialect.Options{}, `{"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp","title":"Claude Agent"}}`, "claude"},
		{"unknown agent", acpdialect.Options{}, `{"agentInfo":{"name":"codex-acp","title":"Codex"}}`, ""},
		{"no agentInfo", acpdialect.Options{}, `{"protocolVersion":1}`, ""},
		{"agentInfo of the wrong type", acpdialect.Options{}, `{"agentInfo":"cursor"}`, ""},
		{"no initialize", acpdialect.Options{}, "", ""},
		{"explicit ID wins", acpdialect.Options{Agent: "cursor"}, `{"agentInfo":{"name":"claude-code"}}`, "cursor"},
		{"explicit ID any case", acpdialect.Options{Agent: "CURSOR"}, "", "cursor"},
		{"explicit agent name", acpdialect.Options{Agent: "Cursor Agent"}, "", "cursor"},
		{"explicit unknown agent stays unknown", acpdialect.Options{Agent: "mystery"}, `{"agentInfo":{"name":"cursor-agent"}}`, ""},
		{"a name containing cursor", acpdialect.Options{}, `{"agentInfo":{"name":"precursor","title":"Precursor"}}`, ""},
		{"another agent naming cursor", acpdialect.Options{}, `{"agentInfo":{"name":"claude-code (cursor-compatible)"}}`, ""},
		{"explicit name containing cursor", acpdialect.Options{Agent: "precursor"}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, registry(), tc.opts)
			if tc.result != "" {
				h.out([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`))
				h.quiet([]byte(`{"jsonrpc":"2.0","id":1,"result":` + tc.result + `}`))
			}
			if got := h.c.Agent(); got != tc.want {
				t.Errorf("Agent() = %q; want %q", got, tc.want)
			}
			if (h.c.Dialect() != nil) != (tc.want != "") {
				t.Errorf("Dialect() = %v for agent %q", h.c.Dialect(), tc.want)
			}
			if got := h.c.Allows(cursor.MethodTask); got != (tc.want == "cursor") {
				t.Errorf("Allows(cursor/task) = %v", got)
			}
		})
	}
}

// An agent that names itself only by a mark in its initialize result
// (Grok's CLI sends no agentInfo) is identified by the dialect's
// MatchResult, asked only when no name matches.
func TestIdentifyByResult(t *testing.T) {
	marked := &acpdialect.Dialect{ID: "marked", MatchResult: func(r gjson.Result) bool {
		return r.Get("_meta.mark").Type == gjson.True
	}}
	reg := acpdialect.NewRegistry(cursor.Dialect(), marked)
	tests := []struct {
		name   string
		opts   acpdialect.Options
		result string
		want   string
	}{
		{"the mark alone", acpdialect.Options{}, `{"protocolVersion":1,"_meta":{"mark":true}}`, "marked"},
		{"a name that matches wins", acpdialect.Options{}, `{"agentInfo":{"name":"cursor-agent"},"_meta":{"mark":true}}`, "cursor"},
		{"an unknown name, then the mark", acpdialect.Options{}, `{"agentInfo":{"name":"other"},"_meta":{"mark":true}}`, "marked"},
		{"another value is no mark", acpdialect.Options{}, `{"_meta":{"mark":"yes"}}`, ""},
		{"the mark nested elsewhere", acpdialect.Options{}, `{"x":{"_meta":{"mark":true}}}`, ""},
		{"a result that is not an object", acpdialect.Options{}, `[{"_meta":{"mark":true}}]`, ""},
		{"an explicit dialect wins", acpdialect.Options{Agent: "cursor"}, `{"_meta":{"mark":true}}`, "cursor"},
	}
	for _, tc := range tests {
		for _, checked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/checked=%v", tc.name, checked), func(t *testing.T) {
				tc.opts.Checked = checked
				h := newHarness(t, reg, tc.opts)
				h.out([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`))
				h.quiet([]byte(`{"jsonrpc":"2.0","id":1,"result":` + tc.result + `}`))
				if got := h.c.Agent(); got != tc.want {
					t.Errorf("Agent() = %q; want %q", got, tc.want)
				}
			})
		}
	}
	// Each initialize identifies again: one without the mark is unknown.
	h := newHarness(t, reg, acpdialect.Options{})
	h.out([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`))
	h.quiet([]byte(`{"jsonrpc":"2.0","id":1,"result":{"_meta":{"mark":true}}}`))
	h.out([]byte(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}`))
	h.quiet([]byte(`{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":1}}`))
	if got := h.c.Agent(); got != "" {
		t.Errorf("after an unmarked initialize Agent() = %q; want none", got)
	}
	if reg.ByResult(gjson.Parse(`{"_meta":{"mark":true}}`)) != marked || reg.ByResult(gjson.Parse(`{}`)) != nil {
		t.Error("ByResult did not pick the marked dialect alone")
	}
	var none *acpdialect.Registry
	if none.ByResult(gjson.Parse(`{"_meta":{"mark":true}}`)) != nil {
		t.Error("a nil registry found a dialect")
	}
}

// The fields a response is read for (the agent's info, the new session's
// id) are read in the walk that checks the frame, and as before that walk
// when the caller checked the frame (Options.Checked): both read what
// gjson's path reads.
func TestResultFields(t *testing.T) {
	tests := []struct {
		name, result string
		agent, sid   string
	}{
		{"agentInfo", `{"protocolVersion":1,"agentInfo":{"name":"cursor-agent"},"sessionId":"s1"}`, "cursor", "s1"},
		{"info after agentInfo", `{"agentInfo":{"name":"cursor-agent"},"info":{"name":"claude-code"}}`, "cursor", ""},
		{"agentInfo after info", `{"info":{"name":"claude-code"},"agentInfo":{"name":"cursor-agent"}}`, "cursor", ""},
		{"v2 info only", `{"info":{"name":"Cursor Agent"}}`, "cursor", ""},
		{"the first agentInfo", `{"agentInfo":{"name":"claude-code"},"agentInfo":{"name":"cursor-agent"}}`, "claude", ""},
		{"nested, not read", `{"x":{"agentInfo":{"name":"cursor-agent"},"sessionId":"deep"}}`, "", ""},
		{"last member", `{"modes":[{"id":"a","options":[{"x":{"y":1}}]}],"sessionId":"s9"}`, "", "s9"},
		{"the first sessionId", `{"sessionId":"s1","sessionId":"s2"}`, "", "s1"},
		{"escaped", `{"sessionId":"s\u0031","agentInfo":{"name":"cursor\u002dagent"}}`, "cursor", "s1"},
		{"not an object", `[{"sessionId":"s1"}]`, "", ""},
	}
	for _, tc := range tests {
		for _, checked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/checked=%v", tc.name, checked), func(t *testing.T) {
				h := newHarness(t, registry(), acpdialect.Options{Checked: checked})
				h.out([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`))
				h.in([]byte(`{"jsonrpc":"2.0","id":1,"result":` + tc.result + `}`))
				if got := h.c.Agent(); got != tc.agent {
					t.Errorf("Agent() = %q; want %q", got, tc.agent)
				}
				h.out([]byte(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/"}}`))
				h.in([]byte(`{"jsonrpc":"2.0","id":2,"result":` + tc.result + `}`))
				want := []string{}
				if tc.sid != "" {
					want = append(want, tc.sid)
				}
				if d := cmp.Diff(want, h.c.Sessions()); d != "" {
					t.Errorf("Sessions() (-want +got):\n%s", d)
				}
			})
		}
	}
}

// Only the response to the client's own initialize identifies the agent.
func TestIdentifyNeedsTheRequest(t *testing.T) {
	tests := []struct {
		name   string
		frames []string // "> " client -> agent, "< " agent -> client
	}{
		{"response without a request", []string{
			`< {"jsonrpc":"2.0","id":1,"result":{"agentInfo":{"name":"cursor-agent"}}}`}},
		{"response to another request", []string{
			`> {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/"}}`,
			`< {"jsonrpc":"2.0","id":1,"result":{"agentInfo":{"name":"cursor-agent"}}}`}},
		{"error response", []string{
			`> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
			`< {"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Cursor failed"}}`}},
		{"different id", []string{
			`> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
			`< {"jsonrpc":"2.0","id":"1","result":{"agentInfo":{"name":"cursor-agent"}}}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, registry(), acpdialect.Options{})
			for _, f := range tc.frames {
				if strings.HasPrefix(f, "> ") {
					h.out([]byte(f[2:]))
				} else {
					h.quiet([]byte(f[2:]))
				}
			}
			if a := h.c.Agent(); a != "" {
				t.Errorf("Agent() = %q; want unknown", a)
			}
		})
	}
}

// Vendor requests get exactly one reply with the id bytes echoed exactly;
// notifications get none; standard client methods are the client's own.
func TestVendorMethods(t *testing.T) {
	const ok, notFound = `{"jsonrpc":"2.0","id":%s,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}` + "\n"
	type counts struct{ replies, declined, ignored uint64 }
	tests := []struct {
		name   string
		frame  string
		reply  string // "" for none
		event  string // the reply event, "" for none
		counts counts
	}{
		{"cursor/task numeric id", `{"jsonrpc":"2.0","id":7,"method":"cursor/task","params":{"toolCallId":"x"}}`,
			fmt.Sprintf(ok, `7`), `{"type":"reply","agent":"cursor","method":"cursor/task","id":7,"result":{}}`, counts{replies: 1}},
		{"cursor/task string id", `{"jsonrpc":"2.0","id":"req-7","method":"cursor/task","params":{}}`,
			fmt.Sprintf(ok, `"req-7"`), `{"type":"reply","agent":"cursor","method":"cursor/task","id":"req-7","result":{}}`, counts{replies: 1}},
		{"float id kept byte-exact", `{"jsonrpc":"2.0","id":1.50,"method":"cursor/task","params":{}}`,
			fmt.Sprintf(ok, `1.50`), `{"type":"reply","agent":"cursor","method":"cursor/task","id":1.50,"result":{}}`, counts{replies: 1}},
		{"exponent id", `{"jsonrpc":"2.0","id":-1E3,"method":"cursor/task"}`,
			fmt.Sprintf(ok, `-1E3`), `{"type":"reply","agent":"cursor","method":"cursor/task","id":-1E3,"result":{}}`, counts{replies: 1}},
		{"escaped string id", `{"jsonrpc":"2.0","id":"a\"b\u00e9","method":"cursor/task"}`,
			fmt.Sprintf(ok, `"a\"b\u00e9"`), `{"type":"reply","agent":"cursor","method":"cursor/task","id":"a\"b\u00e9","result":{}}`, counts{replies: 1}},
		{"id after params", `{"jsonrpc":"2.0","method":"cursor/task","params":{"id":1},"id":44}`,
			fmt.Sprintf(ok, `44`), `{"type":"reply","agent":"cursor","method":"cursor/task","id":44,"result":{}}`, counts{replies: 1}},
		{"spaces around the id", `{ "id" : 12 , "method" : "cursor/task" }`,
			fmt.Sprintf(ok, `12`), `{"type":"reply","agent":"cursor","method":"cursor/task","id":12,"result":{}}`, counts{replies: 1}},
		{"cursor/task notification", `{"jsonrpc":"2.0","method":"cursor/task","params":{"toolCallId":"x"}}`, "", "", counts{}},
		// A null id is no id: there is nothing to answer to.
		{"null id is a notification", `{"jsonrpc":"2.0","id":null,"method":"cursor/task"}`, "", "", counts{}},
		{"unknown vendor request", `{"jsonrpc":"2.0","id":8,"method":"cursor/not_a_method","params":{}}`,
			fmt.Sprintf(notFound, `8`), `{"type":"reply","agent":"cursor","method":"cursor/not_a_method","id":8,"error":{"code":-32601,"message":"Method not found"}}`,
			counts{replies: 1, declined: 1}},
		{"unknown underscore request", `{"jsonrpc":"2.0","id":"u","method":"_claude/x"}`,
			fmt.Sprintf(notFound, `"u"`), `{"type":"reply","agent":"cursor","method":"_claude/x","id":"u","error":{"code":-32601,"message":"Method not found"}}`,
			counts{replies: 1, declined: 1}},
		{"method case matters", `{"jsonrpc":"2.0","id":9,"method":"Cursor/Task"}`,
			fmt.Sprintf(notFound, `9`), `{"type":"reply","agent":"cursor","method":"Cursor/Task","id":9,"error":{"code":-32601,"message":"Method not found"}}`,
			counts{replies: 1, declined: 1}},
		{"unknown vendor notification", `{"jsonrpc":"2.0","method":"cursor/not_a_notification","params":{"todos":[]}}`, "", "", counts{ignored: 1}},
		{"unknown underscore notification", `{"jsonrpc":"2.0","method":"_x/y"}`, "", "", counts{ignored: 1}},
	}
	for _, m := range []string{"session/request_permission", "fs/read_text_file", "fs/write_text_file",
		"terminal/create", "terminal/output", "terminal/release", "terminal/wait_for_exit", "terminal/kill"} {
		tests = append(tests, struct {
			name   string
			frame  string
			reply  string
			event  string
			counts counts
		}{"standard " + m, `{"jsonrpc":"2.0","id":1000,"method":"` + m + `","params":{"sessionId":"s1"}}`, "", "", counts{}})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := cursorConn(t, acpdialect.Options{})
			r := h.in([]byte(tc.frame))
			if string(r.Reply) != tc.reply {
				t.Errorf("reply = %q; want %q", r.Reply, tc.reply)
			}
			var want []string
			if tc.event != "" {
				want = append(want, tc.event)
			}
			wantEvents(t, r.Events, want...)
			st := h.c.Stats()
			if got := (counts{st.Replies, st.Declined, st.IgnoredNotifications}); got != tc.counts {
				t.Errorf("counts = %+v; want %+v", got, tc.counts)
			}
		})
	}
}

// The reply event's ID is the raw id bytes, unchanged even where the JSON
// encoding of the event would escape them.
func TestReplyEventIDIsRaw(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	const id = `"<a&b>"`
	r := h.in([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"cursor/task","params":{}}`))
	if len(r.Events) != 1 || string(r.Events[0].ID) != id {
		t.Fatalf("events %+v; want one reply event with ID %s", r.Events, id)
	}
	if want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}` + "\n"; string(r.Reply) != want {
		t.Errorf("reply %q; want %q", r.Reply, want)
	}
}

// Frames the Conn is given are only borrowed: results never alias them.
func TestInboundDoesNotKeepTheFrame(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	frame := []byte(`{"jsonrpc":"2.0","id":"abc","method":"cursor/task","params":{"toolCallId":"tool-1","prompt":"p"}}`)
	r := h.in(frame)
	tc := []byte(toolCallFrame("s1", "tool-1", `{"_toolName":"task"}`))
	r2 := h.in(tc)
	for i := range frame {
		frame[i] = 'X'
	}
	for i := range tc {
		tc[i] = 'X'
	}
	wantEvents(t, append(r.Events, r2.Events...),
		`{"type":"reply","agent":"cursor","method":"cursor/task","id":"abc","result":{}}`,
		`{"type":"tool_call","agent":"cursor","session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task: Subagent task","subagent_task":{"prompt":"p"}}}`)
	if want := `{"jsonrpc":"2.0","id":"abc","result":{}}` + "\n"; string(r.Reply) != want {
		t.Errorf("reply %q", r.Reply)
	}
}

func TestNotAnObject(t *testing.T) {
	h := cursorConn(t, acpdialect.Options{})
	for _, f := range []string{``, ` `, `[1]`, `"x"`, `null`, `garbage`, `7`} {
		r, err := h.c.Inbound([]byte(f))
		if err == nil || r.Reply != nil || r.Events != nil {
			t.Errorf("Inbound(%q) = %+v, %v; want ErrNotObject", f, r, err)
		}
		if _, err := outbound(h.c, []byte(f)); err == nil {
			t.Errorf("Outbound(%q): no error", f)
		}
	}
	if st := h.c.Stats(); st.Malformed != 14 {
		t.Errorf("Malformed = %d; want 14", st.Malformed)
	}
}

// MCP-over-ACP requests are the client's, like fs/ and terminal/; methods a
// client declares it serves (its own extensions) get no reply either.
func TestClientServedMethodsGetNoReply(t *testing.T) {
	for _, tt := range []struct {
		method string
		opts   acpdialect.Options
		reply  bool
	}{
		{"mcp/connect", acpdialect.Options{}, false},
		{"mcp/message", acpdialect.Options{}, false},
		{"mcp/disconnect", acpdialect.Options{}, false},
		{"_zed.dev/workspace/buffers", acpdialect.Options{}, true},
		{"_zed.dev/workspace/buffers", acpdialect.Options{ClientMethods: []string{"_zed.dev/workspace/buffers"}}, false},
	} {
		c := registry().NewConn(tt.opts)
		r, err := c.Inbound([]byte(`{"jsonrpc":"2.0","id":9,"method":"` + tt.method + `","params":{"sessionId":"s1"}}`))
		if err != nil || (r.Reply != nil) != tt.reply {
			t.Errorf("%s with %+v: reply %q, err %v; want a reply: %v", tt.method, tt.opts.ClientMethods, r.Reply, err, tt.reply)
		}
	}
}

// The agent's response names the client's id by its value, a string
// escaped or not, a number written another way (a JavaScript agent echoes
// 1.0 as 1), as the ACP SDK matches it: the Conn reads it as the response
// to that request.
func TestResponseToEscapedID(t *testing.T) {
	tests := []struct {
		name, sent, echoed string
		want               string // the agent identified, or "" if the response matched nothing
	}{
		{"same bytes", `"a<1>"`, `"a<1>"`, "cursor"},
		{"escaped by the agent", `"a<1>"`, `"a\u003c1\u003e"`, "cursor"},
		{"escaped by the client", `"p\u0031"`, `"p1"`, "cursor"},
		{"escaped backslash", `"a\\b"`, `"a\u005cb"`, "cursor"},
		{"another string", `"p1"`, `"p2"`, ""},
		{"a number is not its string", `1`, `"1"`, ""},
		{"a number written another way", `1.0`, `1`, "cursor"},
		{"an exponent", `2e1`, `20`, "cursor"},
		{"another number", `1.5`, `15`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, registry(), acpdialect.Options{})
			h.out([]byte(`{"jsonrpc":"2.0","id":` + tc.sent + `,"method":"initialize","params":{"protocolVersion":1}}`))
			h.quiet([]byte(`{"jsonrpc":"2.0","id":` + tc.echoed + `,"result":{"agentInfo":{"name":"cursor-agent"}}}`))
			if got := h.c.Agent(); got != tc.want {
				t.Errorf("Agent() = %q; want %q", got, tc.want)
			}
		})
	}
}
