package acpdialect_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// asker is a test dialect with one blocking method, vendor/ask: its event
// is a question and its default answer {"d":1}; and vendor/todo, a todos
// update (merge when params.merge is true).
func asker() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "asker",
		Match: func(name, _ string) bool { return name == "asker" },
		Methods: []acpdialect.Method{
			{Name: "vendor/ask", Kind: acpdialect.RequestOrNotification, Handle: func(p gjson.Result) acpdialect.Action {
				q := &acpdialect.Question{ToolCallID: p.Get("toolCallId").String(), Questions: []acpdialect.QuestionItem{}}
				return acpdialect.Action{Result: json.RawMessage(`{"d":1}`), Await: true,
					Event: &acpdialect.Event{Type: acpdialect.EventQuestion, SessionID: p.Get("sessionId").String(), ToolCallID: q.ToolCallID, Object: q}}
			}},
			{Name: "vendor/todo", Kind: acpdialect.RequestOrNotification, Handle: func(p gjson.Result) acpdialect.Action {
				t := &acpdialect.Todos{} // nil Items for no todos: the Conn writes []
				for _, it := range p.Get("todos").Array() {
					t.Items = append(t.Items, acpdialect.Todo{ID: it.Get("id").String(), Content: it.Get("content").String(), Status: it.Get("status").String()})
				}
				return acpdialect.Action{Merge: p.Get("merge").Bool(), Event: &acpdialect.Event{Type: acpdialect.EventTodos, Object: t}}
			}},
		},
	}
}

// clock is a settable Options.Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func askConn(t *testing.T, answers bool, clk *clock) *harness {
	opts := acpdialect.Options{ClientAnswers: answers, AnswerTimeout: time.Minute}
	if clk != nil {
		opts.Now = clk.now
	}
	h := newHarness(t, acpdialect.NewRegistry(asker()), opts)
	h.initialize("asker")
	h.session(2, "s1")
	h.out(testwire.Prompt(3, "s1", "go"))
	return h
}

func ask(id string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"vendor/ask","params":{"toolCallId":"q1"}}`)
}

const (
	questionEvent = `{"type":"question","agent":"asker","session_id":"s1","tool_call_id":"q1","method":"vendor/ask","id":%s,"question":{"questions":[]}}`
	replyEvent    = `{"type":"reply","agent":"asker","method":"vendor/ask","id":%s,"result":%s}`
)

func TestBlockingRequestWithoutHandlerGetsDefault(t *testing.T) {
	h := askConn(t, false, nil)
	r := h.in(ask("7"))
	want := []string{
		`reply {"jsonrpc":"2.0","id":7,"result":{"d":1}}` + "\n",
		fmt.Sprintf(questionEvent, "7"),
		fmt.Sprintf(replyEvent, "7", `{"d":1}`),
	}
	if d := cmp.Diff(want, transcript(t, r)); d != "" || r.Awaiting {
		t.Errorf("awaiting %v; (-want +got):\n%s", r.Awaiting, d)
	}
	// The error names the option a client that means to answer forgot,
	// and is still an ErrNotPending.
	_, err := h.c.Answer(json.RawMessage("7"), json.RawMessage(`{}`))
	if !errors.Is(err, acpdialect.ErrNotPending) || !errors.Is(err, acpdialect.ErrNoClientAnswers) || !strings.Contains(err.Error(), "ClientAnswers") {
		t.Errorf("Answer after the default: %v, want ErrNoClientAnswers", err)
	}
	if h.c.ClientAnswers() {
		t.Error("ClientAnswers() true on a Conn made without it")
	}
}

func TestBlockingRequestAnsweredOnce(t *testing.T) {
	h := askConn(t, true, nil)
	r := h.in(ask(`"a"`))
	if !r.Awaiting || r.Reply != nil {
		t.Fatalf("awaiting %v, reply %q; want awaiting, no reply", r.Awaiting, r.Reply)
	}
	wantEvents(t, r.Events, fmt.Sprintf(questionEvent, `"a"`))
	// Not JSON, or not valid UTF-8 (which json.Compact passes, and the
	// agent's decoder replaces or rejects): refused, the request waits on.
	for _, bad := range []string{`{"x":`, "{\"x\":\"\xff\"}"} {
		if r, err := h.c.Answer(json.RawMessage(`"a"`), json.RawMessage(bad)); !errors.Is(err, acpdialect.ErrInvalidResult) || r.Reply != nil {
			t.Fatalf("invalid answer %q: %q, %v; want ErrInvalidResult", bad, r.Reply, err)
		}
	}
	got, err := h.c.Answer(json.RawMessage(`"a"`), json.RawMessage("{ \"x\" :\n 1 }"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`reply {"jsonrpc":"2.0","id":"a","result":{"x":1}}` + "\n",
		fmt.Sprintf(replyEvent, `"a"`, `{"x":1}`),
	}
	if d := cmp.Diff(want, transcript(t, got)); d != "" {
		t.Errorf("answer (-want +got):\n%s", d)
	}
	for _, id := range []string{`"a"`, `"b"`} {
		r, err := h.c.Answer(json.RawMessage(id), json.RawMessage(`{}`))
		if !errors.Is(err, acpdialect.ErrNotPending) || errors.Is(err, acpdialect.ErrNoClientAnswers) || r.Reply != nil {
			t.Errorf("Answer(%s) again: %q, %v; want ErrNotPending alone", id, r.Reply, err)
		}
	}
	if !h.c.ClientAnswers() {
		t.Error("ClientAnswers() false on a Conn made with it")
	}
	if _, ok := h.c.Deadline(); ok {
		t.Error("a deadline is left after the answer")
	}
}

func TestBlockingRequestDeadline(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	h := askConn(t, true, clk)
	h.in(ask("1"))
	clk.t = clk.t.Add(30 * time.Second)
	h.in(ask("2"))
	if d, ok := h.c.Deadline(); !ok || !d.Equal(time.Unix(1060, 0)) {
		t.Fatalf("Deadline = %v, %v; want the first request's", d, ok)
	}
	if r := expireAll(h.c, time.Unix(1059, 0)); r.Reply != nil || len(r.Events) != 0 {
		t.Fatalf("Expire before the deadline answered %q", r.Reply)
	}
	r := expireAll(h.c, time.Unix(1060, 0))
	want := []string{
		`reply {"jsonrpc":"2.0","id":1,"result":{"d":1}}` + "\n",
		fmt.Sprintf(replyEvent, "1", `{"d":1}`),
	}
	if d := cmp.Diff(want, transcript(t, r)); d != "" {
		t.Errorf("expire (-want +got):\n%s", d)
	}
	if _, err := h.c.Answer(json.RawMessage("1"), json.RawMessage(`{}`)); !errors.Is(err, acpdialect.ErrNotPending) {
		t.Errorf("late answer: %v", err)
	}
	if r := expireAll(h.c, time.Unix(1_000_000, 0)); string(r.Reply) != `{"jsonrpc":"2.0","id":2,"result":{"d":1}}`+"\n" {
		t.Errorf("second expiry: %q", r.Reply)
	}
}

// The client's own response, fed through Outbound, is the answer: its
// reply event is reported, and a second response is refused.
func TestBlockingRequestAnsweredOnTheWire(t *testing.T) {
	h := askConn(t, true, nil)
	h.in(ask("5"))
	ev, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":5,"result":{"outcome":"ok"}}`))
	if err != nil {
		t.Fatal(err)
	}
	wantEvents(t, ev, fmt.Sprintf(replyEvent, "5", `{"outcome":"ok"}`))
	if _, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":5,"result":{}}`)); !errors.Is(err, acpdialect.ErrNotPending) {
		t.Errorf("second response: %v, want ErrNotPending", err)
	}
	// A response to a request nobody awaits is the client's business.
	if ev, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":99,"result":{}}`)); err != nil || ev != nil {
		t.Errorf("unrelated response: %v, %v", ev, err)
	}
	h.in(ask("6"))
	ev, err = outbound(h.c, []byte(`{"jsonrpc":"2.0","id":6,"error":{"code":-32000,"message":"no"}}`))
	if err != nil {
		t.Fatal(err)
	}
	wantEvents(t, ev, `{"type":"reply","agent":"asker","method":"vendor/ask","id":6,"error":{"code":-32000,"message":"no"}}`)
}

// An agent flooding blocking requests cannot grow the table: beyond the
// bound the oldest gets its default at once, so each still gets one reply.
func TestBlockingRequestsBounded(t *testing.T) {
	opts := acpdialect.Options{ClientAnswers: true, MaxRequests: 4}
	h := newHarness(t, acpdialect.NewRegistry(asker()), opts)
	h.initialize("asker")
	h.session(2, "s1")
	replies := map[string]int{}
	for i := range 100 {
		r := h.in(ask(fmt.Sprint(100 + i)))
		for l := range strings.Lines(string(r.Reply)) {
			replies[gjson.Get(l, "id").Raw]++
		}
	}
	r := expireAll(h.c, time.Now().Add(time.Hour))
	for l := range strings.Lines(string(r.Reply)) {
		replies[gjson.Get(l, "id").Raw]++
	}
	if len(replies) != 100 {
		t.Fatalf("%d requests replied, want 100", len(replies))
	}
	for id, n := range replies {
		if n != 1 {
			t.Errorf("request %s replied %d times", id, n)
		}
	}
	// Answered ids are remembered only within a bound too.
	if _, err := h.c.Answer(json.RawMessage("100"), json.RawMessage(`{}`)); !errors.Is(err, acpdialect.ErrNotPending) {
		t.Errorf("answer to an evicted request: %v", err)
	}
}

// An agent reusing the id of a request still waiting: the first gets its
// default, the second waits.
func TestBlockingRequestIDReused(t *testing.T) {
	h := askConn(t, true, nil)
	h.in(ask("9"))
	r := h.in(ask("9"))
	if !r.Awaiting || string(r.Reply) != `{"jsonrpc":"2.0","id":9,"result":{"d":1}}`+"\n" {
		t.Fatalf("reused id: awaiting %v, reply %q", r.Awaiting, r.Reply)
	}
	if _, err := h.c.Answer(json.RawMessage("9"), json.RawMessage(`{"n":2}`)); err != nil {
		t.Fatal(err)
	}
}

// A request that reuses an id is a new request: it takes its place at the
// end of the order, behind the requests that arrived before it. It kept
// the place of the first request under its id, so Expire answered it
// before them, and at MaxRequests it got the default as "the oldest"
// while an older question went on waiting (FuzzRequestFrames).
func TestBlockingRequestIDReusedIsNewest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ids    []string // the requests, in order
		expire bool     // Close and Expire; else one more request past MaxRequests
		want   []string // the ids of the default replies, in order, after the reuse's own
	}{
		{"expire order", []string{"8", "7", "8"}, true, []string{"7", "8"}},
		{"oldest at the bound", []string{"1", "2", "1", "3"}, false, []string{"2"}},
		{"answered id reused", []string{"1", "2", "1"}, true, []string{"2", "1"}}, // 1 answered before 2 came
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(1000, 0)}
			h := newHarness(t, acpdialect.NewRegistry(asker()), acpdialect.Options{ClientAnswers: true, MaxRequests: 2, Now: clk.now})
			h.initialize("asker")
			var got []string
			for i, id := range tc.ids {
				r := h.in(ask(id))
				if tc.name == "answered id reused" && i == 0 {
					if _, err := h.c.Answer(json.RawMessage(id), json.RawMessage(`{}`)); err != nil {
						t.Fatal(err)
					}
				}
				if i == len(tc.ids)-1 && !tc.expire {
					for l := range strings.Lines(string(r.Reply)) {
						got = append(got, gjson.Get(l, "id").Raw)
					}
				}
			}
			if tc.expire {
				h.c.Close()
				for _, r := range h.c.Expire(clk.t) {
					got = append(got, gjson.GetBytes(r.Reply, "id").Raw)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("defaults (-want +got):\n%s", d)
			}
		})
	}
}

func todo(merge bool, items string) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"vendor/todo","params":{"merge":%v,"todos":[%s]}}`, merge, items))
}

func TestTodosMergeAndReplace(t *testing.T) {
	h := askConn(t, false, nil)
	steps := []struct {
		frame []byte
		want  string
	}{
		{todo(false, `{"id":"1","content":"read","status":"pending"},{"id":"2","content":"write","status":"pending"}`),
			`[{"id":"1","content":"read","status":"pending"},{"id":"2","content":"write","status":"pending"}]`},
		{todo(true, `{"id":"2","status":"in_progress"},{"id":"3","content":"test","status":"pending"}`),
			`[{"id":"1","content":"read","status":"pending"},{"id":"2","content":"write","status":"in_progress"},{"id":"3","content":"test","status":"pending"}]`},
		{todo(false, `{"id":"9","content":"new plan"}`), `[{"id":"9","content":"new plan"}]`},
		{todo(true, ``), `[{"id":"9","content":"new plan"}]`},
		{todo(false, ``), `[]`},
		{todo(true, ``), `[]`},
		{todo(true, `{"id":"4","content":"new"}`), `[{"id":"4","content":"new"}]`},
	}
	var results []acpdialect.Result
	for i, s := range steps {
		r := h.in(s.frame)
		results = append(results, r)
		wantEvents(t, r.Events, `{"type":"todos","agent":"asker","session_id":"s1","todos":{"items":`+s.want+`}}`)
		if t.Failed() {
			t.Fatalf("step %d", i)
		}
	}
	// Each event is a snapshot: later merges and replacements (which share
	// and copy the list) never change one already handed out.
	for i, s := range steps {
		wantEvents(t, results[i].Events, `{"type":"todos","agent":"asker","session_id":"s1","todos":{"items":`+s.want+`}}`)
		if t.Failed() {
			t.Fatalf("step %d changed later", i)
		}
	}
}

// Each session keeps its own list; a frame goes to the session with the
// turn in flight.
func TestTodosPerSession(t *testing.T) {
	h := askConn(t, false, nil)
	h.in(todo(false, `{"id":"1","content":"s1 work"}`))
	h.in([]byte(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`))
	h.session(4, "s2")
	h.out(testwire.Prompt(5, "s2", "go"))
	r := h.in(todo(true, `{"id":"2","content":"s2 work"}`))
	wantEvents(t, r.Events, `{"type":"todos","agent":"asker","session_id":"s2","todos":{"items":[{"id":"2","content":"s2 work"}]}}`)
}

// When the client cancels the turn, or the turn or session ends, the agent
// no longer waits: the session's waiting requests are due at once (like
// ACP's permission requests at session/cancel), and only that session's.
func TestBlockingRequestDueWhenTheTurnStops(t *testing.T) {
	for _, stop := range []struct {
		name, frame string
		fromAgent   bool
	}{
		{"cancel", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`, false},
		{"turn end", `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"cancelled"}}`, true},
		{"session close", `{"jsonrpc":"2.0","id":50,"method":"session/close","params":{"sessionId":"s1"}}`, false},
	} {
		t.Run(stop.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(1000, 0)}
			h := askConn(t, true, clk)
			h.session(4, "s2")
			h.in(ask("1"))                        // s1's turn is the one in flight
			h.out(testwire.Prompt(5, "s2", "go")) // now s2's
			h.in(ask("2"))                        // goes to s2
			clk.t = clk.t.Add(time.Second)
			if stop.fromAgent {
				h.in([]byte(stop.frame))
			} else if _, err := outbound(h.c, []byte(stop.frame)); err != nil {
				t.Fatal(err)
			}
			if d, ok := h.c.Deadline(); !ok || !d.Equal(clk.t) {
				t.Fatalf("Deadline = %v, %v; want now", d, ok)
			}
			r := expireAll(h.c, clk.t)
			if string(r.Reply) != `{"jsonrpc":"2.0","id":1,"result":{"d":1}}`+"\n" {
				t.Fatalf("Expire = %q; want only s1's request", r.Reply)
			}
			if _, err := h.c.Answer(json.RawMessage("2"), json.RawMessage(`{"ok":1}`)); err != nil {
				t.Fatalf("s2's request: %v", err)
			}
		})
	}
}

// Close makes every waiting request due, so that Expire gives each its
// default reply; the tracked sessions are gone, listed sorted before.
func TestBlockingRequestDueAtClose(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	h := askConn(t, true, clk)
	h.session(4, "s0")
	h.in(ask("1"))
	h.out(testwire.Prompt(5, "s0", "go"))
	h.in(ask("2"))
	if d := cmp.Diff([]string{"s0", "s1"}, h.c.Sessions()); d != "" {
		t.Errorf("Sessions (-want +got):\n%s", d)
	}
	h.c.Close()
	if d, ok := h.c.Deadline(); !ok || !d.Equal(clk.t) || len(h.c.Sessions()) != 0 {
		t.Fatalf("after Close: Deadline = %v, %v; sessions %v", d, ok, h.c.Sessions())
	}
	if r := h.c.Expire(clk.t); len(r) != 2 || gjson.GetBytes(r[0].Reply, "id").Raw != "1" || gjson.GetBytes(r[1].Reply, "id").Raw != "2" {
		t.Errorf("Expire after Close: %d results", len(r))
	}
}

// Close makes due the requests of no tracked session too: one that came
// before any session was known, and one that named a session the Conn
// does not track. Each got no reply from Expire after Close, and the
// agent waited on it for good (FuzzRequestFrames). Once answered it is
// forgotten, as a session's are at its end.
func TestBlockingRequestOfNoSessionDueAtClose(t *testing.T) {
	for _, tc := range []struct{ name, frame string }{
		{"no session known", `{"jsonrpc":"2.0","id":1,"method":"vendor/ask","params":{"toolCallId":"q1"}}`},
		{"untracked session", `{"jsonrpc":"2.0","id":1,"method":"vendor/ask","params":{"sessionId":"gone","toolCallId":"q1"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(1000, 0)}
			h := newHarness(t, acpdialect.NewRegistry(asker()), acpdialect.Options{ClientAnswers: true, Now: clk.now})
			h.initialize("asker")
			if r := h.in([]byte(tc.frame)); !r.Awaiting {
				t.Fatalf("not awaiting: %q", r.Reply)
			}
			h.c.Close()
			if d, ok := h.c.Deadline(); !ok || !d.Equal(clk.t) {
				t.Errorf("after Close: Deadline = %v, %v; want now", d, ok)
			}
			if r := h.c.Expire(clk.t); len(r) != 1 || string(r[0].Reply) != `{"jsonrpc":"2.0","id":1,"result":{"d":1}}`+"\n" {
				t.Errorf("Expire after Close: %d results, want the default", len(r))
			}
			// Answered after Close, it is forgotten: no session holds it.
			if table, order := h.c.AwaitHeld(); table != 0 || order != 0 {
				t.Errorf("after Close and Expire: %d requests kept, %d in their order", table, order)
			}
		})
	}
}

// An agent flooding a merge cannot make it slow or grow the list past
// MaxTodos; a replacing list is cut at the bound too.
func TestTodosBounded(t *testing.T) {
	h := askConn(t, false, nil)
	items := manyTodos(60000, `,"content":"c"`)
	// A merge quadratic in the list would take minutes; a linear one takes
	// under a second, and some seconds under the race detector on a busy machine.
	limit := 2 * time.Second
	if raceEnabled {
		limit = 15 * time.Second
	}
	for _, merge := range []bool{true, false} {
		start := time.Now()
		r := h.in(todo(merge, items))
		if d := time.Since(start); d > limit {
			t.Errorf("merge %v of 60,000 todos took %v", merge, d)
		}
		if n := len(r.Events[0].Todos().Items); n != acpdialect.MaxTodos {
			t.Errorf("merge %v: list of %d, want the bound %d", merge, n, acpdialect.MaxTodos)
		}
	}
	// A known id still merges at the bound; a new one is dropped.
	r := h.in(todo(true, `{"id":"5","status":"completed"},{"id":"new"}`))
	list := r.Events[0].Todos().Items
	if len(list) != acpdialect.MaxTodos || list[5].Status != "completed" {
		t.Errorf("merge at the bound: %d items, item 5 %+v", len(list), list[5])
	}
}

// manyTodos is n todos with ids 0..n-1 and the given extra members.
func manyTodos(n int, extra string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%d"%s}`, i, extra)
	}
	return b.String()
}

// A replacing list of 200,000 todos leaves the session the bound's 1,024,
// not the frame's whole parsed array (9 MB).
func TestTodosReplaceKeepsOnlyTheBound(t *testing.T) {
	h := askConn(t, false, nil)
	frame := todo(false, manyTodos(200000, ""))
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	h.in(frame)
	frame = nil
	// The frame (2.2 MB) was live before and is not after.
	if grown := int64(heap()) - int64(before); grown > 2<<20 {
		t.Errorf("the session keeps %d KiB after the frame", grown>>10)
	}
	runtime.KeepAlive(h)
}

// A string id that the client's JSON library writes back escaped
// differently (encoding/json writes "<" as \u003c) is the same request.
func TestBlockingRequestEscapedID(t *testing.T) {
	h := askConn(t, true, nil)
	h.in(ask(`"q<1>"`))
	ev, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":"q\u003c1\u003e","result":{"x":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) != 1 || string(ev[0].ID) != `"q<1>"` || string(ev[0].Result) != `{"x":1}` {
		t.Fatalf("reply event %+v; want id \"q<1>\" as the agent sent it", ev)
	}
	if _, ok := h.c.Deadline(); ok {
		t.Error("the request still waits")
	}
}

// The client's error response is the answer; its message is the event's
// own copy; "error":null beside a result is no error.
func TestBlockingRequestErrorResponse(t *testing.T) {
	h := askConn(t, true, nil)
	h.in(ask(`"e1"`))
	frame := []byte(`{"jsonrpc":"2.0","id":"e1","error":{"code":-1,"message":"nope"}}`)
	ev, err := outbound(h.c, frame)
	if err != nil {
		t.Fatal(err)
	}
	for i := range frame {
		frame[i] = 'X'
	}
	wantEvents(t, ev, `{"type":"reply","agent":"asker","method":"vendor/ask","id":"e1","error":{"code":-1,"message":"nope"}}`)
	h.in(ask("5"))
	ev, err = outbound(h.c, []byte(`{"jsonrpc":"2.0","id":5,"result":{"ok":true},"error":null}`))
	if err != nil {
		t.Fatal(err)
	}
	wantEvents(t, ev, fmt.Sprintf(replyEvent, "5", `{"ok":true}`))
}

// An answered question's id reused by the agent for a request the client
// serves itself (a permission request): the client's response to it is not
// refused as a second answer.
func TestAnsweredIDReusedForClientRequest(t *testing.T) {
	h := askConn(t, true, nil)
	h.in(ask("9"))
	if _, err := h.c.Answer(json.RawMessage("9"), json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	h.quiet([]byte(`{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1"}}`))
	if ev, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":9,"result":{"outcome":{"outcome":"selected","optionId":"allow-once"}}}`)); err != nil || ev != nil {
		t.Errorf("response to the permission request: %v, %v", ev, err)
	}
}

// A request that is not blocking-tracked but reuses the id of a question
// still waiting: the question gets its default at once, and the id is the
// new request's. The client's response to a request it serves passed for
// the question's answer, so the permission request never got its reply;
// one the Conn answers at once left the question waiting under an id the
// agent had given to another request, to get a second reply later.
func TestWaitingIDReusedByOtherRequest(t *testing.T) {
	const def = `{"jsonrpc":"2.0","id":9,"result":{"d":1}}` + "\n"
	for _, tc := range []struct {
		name    string
		frame   string // the request under the waiting id 9
		reply   string // the Conn's reply to it, after the question's default
		clients bool   // the client serves it: its response passes through
	}{
		{"permission", `{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1"}}`, "", true},
		{"fs read", `{"jsonrpc":"2.0","id":9.0,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/a"}}`, "", true},
		{"client's own method", `{"jsonrpc":"2.0","id":9,"method":"_my/thing","params":{}}`, "", true},
		{"answered by the dialect", `{"jsonrpc":"2.0","id":9,"method":"vendor/todo","params":{"todos":[]}}`,
			`{"jsonrpc":"2.0","id":9,"result":{}}` + "\n", false},
		{"declined", `{"jsonrpc":"2.0","id":9,"method":"vendor/unknown"}`,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found"}}` + "\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(1000, 0)}
			h := newHarness(t, acpdialect.NewRegistry(asker()), acpdialect.Options{ClientAnswers: true, Now: clk.now, ClientMethods: []string{"_my/thing"}})
			h.initialize("asker")
			h.session(2, "s1")
			h.in(ask("9"))
			r := h.in([]byte(tc.frame))
			if string(r.Reply) != def+tc.reply || r.Awaiting {
				t.Fatalf("reply %q, awaiting %v; want %q", r.Reply, r.Awaiting, def+tc.reply)
			}
			if len(r.Events) == 0 || r.Events[0].Type != acpdialect.EventReply || string(r.Events[0].ID) != "9" || r.Events[0].Method != "vendor/ask" {
				t.Fatalf("the default's reply event is not first: %s", eventLines(t, r.Events))
			}
			if _, ok := h.c.AnswerDeadline(json.RawMessage("9")); ok {
				t.Error("the question still waits")
			}
			if _, err := h.c.Answer(json.RawMessage("9"), json.RawMessage(`{}`)); !errors.Is(err, acpdialect.ErrNotPending) {
				t.Errorf("Answer to the question: %v", err)
			}
			ev, err := outbound(h.c, []byte(`{"jsonrpc":"2.0","id":9,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`))
			switch {
			case len(ev) != 0:
				t.Errorf("the client's response made events %s", eventLines(t, ev))
			case tc.clients && err != nil:
				t.Errorf("the client's response to its own request: %v", err)
			case !tc.clients && !errors.Is(err, acpdialect.ErrNotPending):
				t.Errorf("a response to the replied request: %v; want ErrNotPending", err)
			}
			h.c.Close()
			if rs := h.c.Expire(clk.t); len(rs) != 0 {
				t.Errorf("Expire after Close: %q", rs[0].Reply)
			}
		})
	}
}

// outbound feeds a client frame and returns its events.
func outbound(c *acpdialect.Conn, frame []byte) ([]acpdialect.Event, error) {
	res, err := c.Outbound(frame)
	if res.Reply != nil {
		panic("Outbound returned a reply")
	}
	return res.Events, err
}

// expireAll runs Expire and joins its results in order, checking that each
// holds exactly one reply frame.
func expireAll(c *acpdialect.Conn, now time.Time) acpdialect.Result {
	var out acpdialect.Result
	for _, r := range c.Expire(now) {
		if strings.Count(string(r.Reply), "\n") != 1 || len(r.Events) != 1 {
			panic(fmt.Sprintf("Expire result %q with %d events", r.Reply, len(r.Events)))
		}
		out.Reply = append(out.Reply, r.Reply...)
		out.Events = append(out.Events, r.Events...)
	}
	return out
}

// The table of waiting requests keeps its own copy of each id: a client
// that reuses its read buffer for the next frame must still be able to
// answer.
func TestAwaitedIDOutlivesTheFrame(t *testing.T) {
	h := askConn(t, true, nil)
	buf := []byte(ask("20"))
	if _, err := h.c.Inbound(buf); err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = 'x'
	}
	if _, err := h.c.Answer(json.RawMessage(`20`), json.RawMessage(`{"ok":true}`)); err != nil {
		t.Fatalf("Answer after the frame's buffer was reused: %v", err)
	}
}
