package acpdialect_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/tidwall/gjson"
)

// The ids of the agent's requests, as the agent writes them, and the same
// ids as a client's JSON library may write them back: the Conn matches
// them by value (scan.IDKey; README: "`20.0` is `20`").
var (
	// Eight: more than twice MaxRequests, so that answered requests are
	// forgotten (pruneAnswered) and a second answer is then not refused.
	reqIDs    = []string{`7`, `8`, `9`, `10`, `"q"`, `"r"`, `"s"`, `"t"`}
	reqIDsAlt = []string{`7.0`, `8e0`, `0.9e1`, `1e1`, `"\u0071"`, `"\u0072"`, `"\u0073"`, `"\u0074"`}
	// The client's own request ids (prompts, loads, closes): a few, so
	// that responses meet their requests, stale ones and reused ones.
	reqClientIDs = []string{`100`, `101`, `102`, `103`}
	reqSessions  = []string{"s1", "s2", "s3", "s4"}
)

// reqTimeout is the fuzz Conn's AnswerTimeout; clock steps are fractions
// of it, so that some requests expire and others are answered in time.
const reqTimeout = 8 * time.Second

var reqOpts = acpdialect.Options{
	Agent:         "cursor",
	MaxBytes:      correlate.MinBudget,
	Pending:       correlate.Limits{PerSession: 2, Total: 4},
	Tools:         correlate.Limits{PerSession: 3, Total: 6},
	MaxSessions:   3,
	MaxRequests:   3,
	AnswerTimeout: reqTimeout,
}

// reqMaxFrames bounds the steps of one execution, as seqMaxFrames does
// FuzzSubagentFrames': the bounds of reqOpts are met within a few.
const reqMaxFrames = 48

// The kinds of an agent request, as the client sees the latest request
// under an id.
const (
	reqNone       = iota
	reqAwaited    // the Conn said Awaiting: the client answers it, once
	reqConnAnswer // the Conn replied at once (cursor/task, a default)
	reqPermission // a standard request: the client owes the reply
)

// reqSeeds are hand-written sequences; the first byte's bit 0 turns
// Options.ClientAnswers on. Each step is three bytes: op, a, b (see step).
var reqSeeds = [][]byte{
	// A prompt in s1, a question, the client's answer by Answer, the turn's
	// end; then a plan with no turn in flight, which expires.
	{1, 7, 0x00, 0x00, 0, 0x00, 0x00, 5, 0x00, 0x00, 7, 0x00, 0x02, 1, 0x01, 0x00, 6, 0x00, 0xff},
	// The same without ClientAnswers: every default goes at once, Answer
	// gets ErrNoClientAnswers, a response to a replied request is stray.
	{0, 7, 0x00, 0x00, 0, 0x00, 0x00, 5, 0x00, 0x00, 1, 0x01, 0x00, 4, 0x01, 0x00},
	// A question answered on the wire under an escaped id, then a second
	// (error) response; a permission request the client answers.
	{1, 7, 0x00, 0x00, 0, 0x02, 0x00, 4, 0x02, 0x01, 4, 0x02, 0x02, 2, 0x01, 0x00, 4, 0x01, 0x00},
	// Four questions over MaxRequests (the oldest gets its default), one
	// reusing a waiting id, a cancel that makes the rest due, Expire.
	{1, 7, 0x00, 0x00, 0, 0x00, 0x00, 0, 0x01, 0x00, 0, 0x02, 0x00, 0, 0x03, 0x00, 0, 0x03, 0x00, 7, 0x00, 0x03, 6, 0x00, 0x00},
	// A tool call, the cursor/task and update_todos requests the dialect
	// answers itself, a load in s2 and its response, prompts in s3 and s4
	// (over MaxSessions), a question left to Close.
	{1, 3, 0x00, 0x02, 3, 0x01, 0x00, 3, 0x02, 0x01, 7, 0x20, 0x04, 7, 0x20, 0x05, 7, 0x40, 0x00, 7, 0x60, 0x00, 0, 0x00, 0x00},
	// A question, then a permission request under its id while it waits
	// (the question gets its default), the client's response to the
	// permission request; a plan, then a cursor/task under its id.
	{1, 7, 0x00, 0x00, 0, 0x00, 0x00, 2, 0x00, 0x00, 4, 0x00, 0x00, 1, 0x01, 0x00, 3, 0x01, 0x00, 4, 0x01, 0x00},
}

// FuzzRequestFrames feeds a random sequence of agent requests, client
// responses, answers, expiries and turn frames (each three bytes a step;
// the first byte's bit 0 sets Options.ClientAnswers) to a Cursor
// connection with small bounds and a fake clock, and checks after every
// step, as a client on the wire sees it, that no agent request gets a
// second reply, that a request reusing the id of a waiting one (blocking or
// not, a permission request too) gives that one its default first and
// then has the id (the client's response to a permission request under it
// passes through), that every reply the Conn writes has its reply event,
// that Answer's accepted answer is the frame the agent gets, that the
// deadlines agree with what waits, that defaults at MaxRequests and from
// Expire go in the order the requests arrived, and the bounds; at the end, after
// Close and Expire, that every request the client does not owe got its
// reply.
func FuzzRequestFrames(f *testing.F) {
	for _, s := range reqSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) == 0 {
			return
		}
		w := newReqWire(t, prog[0]&1 != 0)
		ops := prog[1:]
		if len(ops) > 3*reqMaxFrames {
			ops = ops[:3*reqMaxFrames]
		}
		for ; len(ops) >= 3; ops = ops[3:] {
			w.step(ops[0], ops[1], ops[2])
			w.check()
		}
		w.finish()
	})
}

// reqWire is the client's view of one connection: what the agent asked
// and what went back on the wire, by the id as the agent wrote it.
type reqWire struct {
	t       *testing.T
	c       *acpdialect.Conn
	answers bool // Options.ClientAnswers
	now     time.Time
	log     []string // the steps so far, for a failure's message

	owed       map[string]int    // requests sent under an id and not yet replied to
	clientOwed map[string]int    // of those, standard requests the client answers itself
	latest     map[string]int    // the kind of the latest request under an id
	waiting    map[string]bool   // the Conn waits for the client's answer
	waitSess   map[string]string // the session its event named
	// evictedAt is Stats.AnswersEvicted when an awaited request got its
	// reply: once it grows, the Conn may have forgotten the request, and a
	// second answer is "then not refused" (Stats.AnswersEvicted's doc).
	evictedAt map[string]uint64
	// endedAt is Stats.SessionsEvicted when a blocking request began to
	// wait: once it grows the session the request was attributed to may
	// have ended, which forgets its answered requests (Conn.Outbound's
	// doc), before the reply or after. The program closes no session but
	// at its end.
	endedAt map[string]uint64
	// early counts the requests answered their default early, at
	// MaxRequests, which Stats.AnswersEvicted counts too: forgetting an
	// answered request is the rest of it.
	early uint64
	// order is the waiting requests' ids, oldest first: "the oldest"
	// gets its default at MaxRequests (Options.MaxBytes, README's
	// bounds table), and Expire answers "in the order they arrived".
	order []string
}

func newReqWire(t *testing.T, answers bool) *reqWire {
	w := &reqWire{t: t, answers: answers, now: time.Unix(1_000_000, 0),
		owed: map[string]int{}, clientOwed: map[string]int{}, latest: map[string]int{},
		waiting: map[string]bool{}, waitSess: map[string]string{}, evictedAt: map[string]uint64{}, endedAt: map[string]uint64{}}
	opts := reqOpts
	opts.ClientAnswers = answers
	opts.Now = func() time.Time { return w.now }
	w.c = dialects.Registry().NewConn(opts)
	return w
}

func (w *reqWire) fatalf(format string, args ...any) {
	w.t.Helper()
	w.t.Fatalf("after\n\t%s\n%s", strings.Join(w.log, "\n\t"), fmt.Sprintf(format, args...))
}

// step does what op names with parameters a and b.
func (w *reqWire) step(op, a, b byte) {
	w.t.Helper()
	x := int(a & 7)
	tool := pick(seqTools, a, 3)
	sid := pick(reqSessions, a, 5)
	switch op % 8 {
	case 0:
		w.request(x, b&1 != 0, fmt.Sprintf(`"method":"cursor/ask_question","params":{"toolCallId":%q,"title":"t","questions":[{"id":"q","prompt":"p","options":[{"id":"y","label":"Y"}]}]}`, tool))
	case 1:
		w.request(x, b&1 != 0, fmt.Sprintf(`"method":"cursor/create_plan","params":{"toolCallId":%q,"name":"n","plan":"# p","todos":[{"id":"a","content":"c","status":"pending"}]}`, tool))
	case 2:
		w.request(x, false, fmt.Sprintf(`"method":"session/request_permission","params":{"sessionId":%q,"toolCall":{"toolCallId":%q},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"}]}`, sid, tool))
	case 3:
		switch b % 4 {
		case 0:
			w.request(x, false, fmt.Sprintf(`"method":"cursor/task","params":{"toolCallId":%q,"agentId":"a","model":"m"}`, tool))
		case 1:
			w.request(x, b&4 != 0, fmt.Sprintf(`"method":"cursor/update_todos","params":{"toolCallId":%q,"todos":[{"id":"1","content":"a","status":"pending"}],"merge":%t}`, tool, b&8 != 0))
		default:
			w.inbound(seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"title":"Task: t","kind":"other","status":"in_progress","rawInput":{"_toolName":"task"}}`, tool)))
		}
	case 4:
		w.respond(x, b)
	case 5:
		w.answer(x, b)
	case 6:
		w.now = w.now.Add(time.Duration(b) * reqTimeout / 128)
		w.log = append(w.log, fmt.Sprintf("Expire(+%v)", w.now.Sub(time.Unix(1_000_000, 0))))
		w.expire(w.now)
	case 7:
		w.turn(a, b)
	}
}

// request sends an agent request under the id x picks, or a notification.
// An agent never reuses the id of a request it has not had its reply to,
// but for one case the Conn documents (Result.Reply: an agent request
// that "reuses the id of one still waiting" is preceded by that one's
// default reply, and the id is then the new request's): any request,
// blocking, answered by the Conn or by the client (a permission request),
// may take the id of a blocking request still waiting; else another free
// id is taken, else the frame is left out.
func (w *reqWire) request(x int, note bool, body string) {
	w.t.Helper()
	if note {
		w.inbound(fmt.Appendf(nil, `{"jsonrpc":"2.0",%s}`, body))
		return
	}
	blocking := strings.Contains(body, "ask_question") || strings.Contains(body, "create_plan")
	id := ""
	for i := range reqIDs {
		cand := reqIDs[(x+i)%len(reqIDs)]
		if w.owed[cand] == 0 || w.answers && w.waiting[cand] && w.owed[cand] == 1 {
			id = cand
			break
		}
	}
	if id == "" {
		return
	}
	reused := w.waiting[id]
	w.owed[id]++
	permission := strings.Contains(body, "request_permission")
	if permission {
		w.clientOwed[id]++
		w.latest[id] = reqPermission
	}
	fr := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,%s}`, id, body)
	older := append([]string(nil), w.order...)
	r := w.inbound(fr)
	if !r.Awaiting {
		w.defaultFirst(fr, reused, permission, r)
	}
	switch {
	case permission:
		if r.Awaiting {
			w.fatalf("a permission request awaits: the client answers it (README: \"the client answers it, never the library\")")
		}
	case r.Awaiting:
		if !blocking || !w.answers {
			w.fatalf("%s awaits the client", fr)
		}
		w.defaultsFirst(fr, id, older, r.Reply)
		w.latest[id] = reqAwaited
		w.waiting[id] = true
		w.endedAt[id] = w.c.Stats().SessionsEvicted
		w.order = append(w.order, id)
		w.waitSess[id] = ""
		for _, e := range r.Events {
			if e.Type == acpdialect.EventQuestion || e.Type == acpdialect.EventPlan {
				w.waitSess[id] = e.SessionID
			}
		}
	default:
		// Without ClientAnswers a blocking request gets its default at
		// once (Options.ClientAnswers); a vendor request the dialect
		// serves gets its reply at once.
		w.latest[id] = reqConnAnswer
		if w.owed[id] != 0 {
			w.fatalf("%s got no reply: %q", fr, r.Reply)
		}
	}
}

// defaultFirst checks the replies to a request that does not wait: when
// it reused the id of a blocking request still waiting, that one's default
// first (Result.Reply: "any agent request that reuses the id of one still
// waiting" is preceded by it), then its own reply unless the client owes
// it (a permission request's is the client's: "the client answers it,
// never the library"). connReplies checked each has its reply event.
func (w *reqWire) defaultFirst(fr []byte, reused, permission bool, r acpdialect.Result) {
	w.t.Helper()
	want := 1
	if permission {
		want = 0
	}
	if reused {
		want++
	}
	n := strings.Count(string(r.Reply), "\n")
	if n != want || reused && gjson.GetBytes(r.Reply, "result").Raw != string(cursor.Cancelled()) {
		w.fatalf("%s (reusing a waiting id: %v) got %q; want %d replies, the waiting one's default first", fr, reused, r.Reply, want)
	}
}

// inbound feeds an agent frame and puts the Conn's reply on the wire.
func (w *reqWire) inbound(fr []byte) acpdialect.Result {
	w.t.Helper()
	w.log = append(w.log, "agent: "+string(fr))
	r, err := w.c.Inbound(fr)
	if err != nil {
		w.fatalf("Inbound: %v", err)
	}
	w.connReplies(r, "Inbound")
	return r
}

// connReplies puts the reply frames of a Conn's Result on the wire: each
// must answer a request the agent still waits on, and be told by its
// reply event (Result.Reply; README: "Every request gets exactly one
// reply").
func (w *reqWire) connReplies(r acpdialect.Result, what string) {
	w.t.Helper()
	var evs []acpdialect.Event
	for _, e := range r.Events {
		roundTrip(w.t, e)
		if e.Type == acpdialect.EventReply {
			evs = append(evs, e)
		}
	}
	n := 0
	for line := range strings.Lines(string(r.Reply)) {
		if !strings.HasSuffix(line, "\n") || !json.Valid([]byte(line)) {
			w.fatalf("%s: reply %q is not one JSON line", what, line)
		}
		id := gjson.Get(line, "id").Raw
		if n >= len(evs) || string(evs[n].ID) != id || (evs[n].Error != nil) != gjson.Get(line, "error").Exists() ||
			evs[n].Error == nil && string(evs[n].Result) != gjson.Get(line, "result").Raw {
			w.fatalf("%s: reply %q without its reply event (events %+v)", what, line, evs)
		}
		n++
		w.delivered(id, what)
	}
	if n != len(evs) {
		w.fatalf("%s: %d reply events for %d reply frames %q", what, len(evs), n, r.Reply)
	}
}

// delivered counts a reply under id on the wire, from the Conn or the
// client.
func (w *reqWire) delivered(id, what string) {
	w.t.Helper()
	if w.owed[id] == 0 {
		w.fatalf("%s: a second reply to the request %s", what, id)
	}
	w.owed[id]--
	if w.waiting[id] {
		delete(w.waiting, id)
		w.order = slices.DeleteFunc(w.order, func(o string) bool { return o == id })
		w.evictedAt[id] = w.forgotten()
	}
}

// forgotten is how many answered requests the Conn has forgotten, by
// Stats.AnswersEvicted.
func (w *reqWire) forgotten() uint64 { return w.c.Stats().AnswersEvicted - w.early }

// defaultsFirst checks the replies before a blocking request that now
// waits: the oldest waiting requests' defaults while MaxRequests wait
// (awaitRequest: "Beyond MaxRequests waiting at once ... the oldest is
// answered its default now"), then, if its id still waits, that one's
// (Result.Reply: "reuses the id of one still waiting, is preceded by that
// one's default reply"). older is what waited before, oldest first.
func (w *reqWire) defaultsFirst(fr []byte, id string, older []string, reply []byte) {
	w.t.Helper()
	n := max(0, len(older)-reqOpts.MaxRequests+1)
	want := slices.Clone(older[:n])
	w.early += uint64(n)
	if slices.Contains(older[n:], id) {
		want = append(want, id)
	}
	var got []string
	for line := range strings.Lines(string(reply)) {
		got = append(got, gjson.Get(line, "id").Raw)
	}
	if !slices.Equal(got, want) {
		w.fatalf("%s waits, preceded by the defaults of %v; want %v (of %v waiting, oldest first)", fr, got, want, older)
	}
}

// respond sends the client's own response to the agent request under
// the id x picks (in the written form b's bit 0 picks): a result, an
// error, or a result spread over lines.
func (w *reqWire) respond(x int, b byte) {
	w.t.Helper()
	id, written := reqIDs[x], reqIDs[x]
	if b&1 != 0 {
		written = reqIDsAlt[x]
	}
	var fr []byte
	switch (b >> 1) % 3 {
	case 0:
		fr = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"outcome":{"outcome":"answered","answers":[{"questionId":"q","selectedOptionIds":["y"]}]}}}`, written)
	case 1:
		fr = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"no"}}`, written)
	default:
		fr = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{ "outcome" : {"outcome":"cancelled"} }}`, written)
	}
	w.log = append(w.log, "client: "+string(fr))
	r, err := w.c.Outbound(fr)
	if r.Reply != nil {
		w.fatalf("Outbound returned a reply %q", r.Reply)
	}
	for _, e := range r.Events {
		roundTrip(w.t, e)
	}
	switch {
	case w.waiting[id]:
		// Conn.Outbound: the client's response to a blocking request "is
		// the answer"; its reply event names the id as the agent wrote it.
		if err != nil || len(r.Events) != 1 || r.Events[0].Type != acpdialect.EventReply || string(r.Events[0].ID) != id {
			w.fatalf("the response to a waiting request: %v, events %+v", err, r.Events)
		}
		w.delivered(id, "client")
	case w.latest[id] == reqPermission && w.clientOwed[id] > 0:
		// A standard request is the client's business (README's
		// contract: "the client answers it, never the library").
		if err != nil || len(r.Events) != 0 {
			w.fatalf("the response to a permission request: %v, events %+v", err, r.Events)
		}
		w.clientOwed[id]--
		w.delivered(id, "client")
	default:
		// Nothing the client owes: a second answer or a wrong id. The Conn
		// refuses a second answer to a blocking request it still holds
		// (ErrNotPending, Conn.Outbound's doc), and the client, told so,
		// does not send it; any other response is the client's own
		// business (a mistake the agent ignores), never a reply event.
		if len(r.Events) != 0 {
			w.fatalf("a response to no waiting request made events %+v", r.Events)
		}
		if err != nil && !errors.Is(err, acpdialect.ErrNotPending) {
			w.fatalf("Outbound: %v", err)
		}
		if err == nil && w.latest[id] == reqAwaited && w.forgotten() == w.evictedAt[id] && w.c.Stats().SessionsEvicted == w.endedAt[id] {
			w.fatalf("a second response to the answered request %s was not refused, and the Conn forgot no answered request and ended no session", id)
		}
	}
}

// answer gives Conn.Answer to the request under the id x picks: a valid
// answer (spread over lines, which Answer compacts), or when b's bit 1 is
// set one that is not JSON.
func (w *reqWire) answer(x int, b byte) {
	w.t.Helper()
	id, written := reqIDs[x], reqIDs[x]
	if b&1 != 0 {
		written = reqIDsAlt[x]
	}
	result, compact := `{ "outcome":
 {"outcome":"skipped","reason":"r"} }`, `{"outcome":{"outcome":"skipped","reason":"r"}}`
	if b&2 != 0 {
		result = `{"outcome":`
	}
	w.log = append(w.log, fmt.Sprintf("Answer(%s, %q)", written, result))
	r, err := w.c.Answer(json.RawMessage(written), json.RawMessage(result))
	switch {
	case !w.answers:
		// Answer's doc: "on a Conn made without Options.ClientAnswers every
		// answer gets ErrNoClientAnswers".
		if !errors.Is(err, acpdialect.ErrNoClientAnswers) || r.Reply != nil || len(r.Events) != 0 {
			w.fatalf("Answer without ClientAnswers: %q, %v", r.Reply, err)
		}
	case !w.waiting[id]:
		if !errors.Is(err, acpdialect.ErrNotPending) || r.Reply != nil || len(r.Events) != 0 {
			w.fatalf("Answer to no waiting request: %q, %v", r.Reply, err)
		}
	case b&2 != 0:
		// ErrInvalidResult: "the request still awaits a valid one".
		if !errors.Is(err, acpdialect.ErrInvalidResult) || r.Reply != nil || len(r.Events) != 0 {
			w.fatalf("invalid answer: %q, %v", r.Reply, err)
		}
	default:
		// README: "An answer Answer accepts (nil error) is the one the
		// agent gets": exactly this frame, under the id the agent wrote.
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":` + compact + "}\n"
		if err != nil || string(r.Reply) != want {
			w.fatalf("Answer: %q, %v; want %q", r.Reply, err, want)
		}
		w.connReplies(r, "Answer")
	}
}

// expire runs Expire at now and puts its replies on the wire: one Result
// per request, each with one reply and its event (Expire's doc).
func (w *reqWire) expire(now time.Time) {
	w.t.Helper()
	at := -1
	for _, r := range w.c.Expire(now) {
		if i := slices.Index(w.order, gjson.GetBytes(r.Reply, "id").Raw); i <= at {
			w.fatalf("Expire answered %q out of the order the requests arrived: %v", r.Reply, w.order)
		} else {
			at = i - 1 // the next is after it, which delivered removes
		}
		if strings.Count(string(r.Reply), "\n") != 1 || len(r.Events) != 1 {
			w.fatalf("Expire: result %q with %d events", r.Reply, len(r.Events))
		}
		id := gjson.GetBytes(r.Reply, "id").Raw
		if !w.waiting[id] {
			w.fatalf("Expire answered %s, which does not wait", id)
		}
		w.connReplies(r, "Expire")
	}
	for id := range w.waiting {
		if d, ok := w.c.AnswerDeadline(json.RawMessage(id)); ok && !d.After(now) {
			w.fatalf("request %s is due at %v and still waits after Expire(%v)", id, d, now)
		}
	}
}

// turn is a client request of a session (prompt, cancel, load, close) or
// the agent's response to one of the client's requests.
func (w *reqWire) turn(a, b byte) {
	w.t.Helper()
	sid := pick(reqSessions, a, 5)
	cid := pick(reqClientIDs, a, 0)
	switch b % 6 {
	case 0, 1:
		w.outbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"method":"session/prompt","params":{"sessionId":%q,"prompt":[]}}`, cid, sid))
	case 2:
		w.inbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"stopReason":"end_turn"}}`, cid))
	case 3:
		w.outbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`, sid))
		w.dueIn(sid, "session/cancel")
	case 4:
		w.outbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"method":"session/load","params":{"sessionId":%q,"cwd":"/w","mcpServers":[]}}`, cid, sid))
	default:
		w.inbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{}}`, cid))
	}
}

// outbound feeds a client request.
func (w *reqWire) outbound(fr []byte) {
	w.t.Helper()
	w.log = append(w.log, "client: "+string(fr))
	r, err := w.c.Outbound(fr)
	if err != nil || r.Reply != nil {
		w.fatalf("Outbound: %q, %v", r.Reply, err)
	}
	for _, e := range r.Events {
		roundTrip(w.t, e)
	}
}

// dueIn checks that the requests waiting in session sid are due now:
// docs/cursor.md, "On session/cancel the agent stops waiting, so the
// default goes out at the cancel" (dueNow).
func (w *reqWire) dueIn(sid, why string) {
	w.t.Helper()
	for id := range w.waiting {
		if w.waitSess[id] != sid {
			continue
		}
		if d, ok := w.c.AnswerDeadline(json.RawMessage(id)); !ok || d.After(w.now) {
			w.fatalf("after %s of %s, request %s waits until %v (ok %v), past now %v", why, sid, id, d, ok, w.now)
		}
	}
}

// check is what holds after every step: the deadlines agree with what
// waits, and the Conn keeps within its bounds.
func (w *reqWire) check() {
	w.t.Helper()
	if len(w.waiting) > reqOpts.MaxRequests {
		// awaitRequest: "Beyond MaxRequests waiting at once ... the oldest
		// is answered its default now".
		w.fatalf("%d requests wait, over MaxRequests %d", len(w.waiting), reqOpts.MaxRequests)
	}
	var first time.Time
	for _, id := range reqIDs {
		d, ok := w.c.AnswerDeadline(json.RawMessage(id))
		if ok != w.waiting[id] {
			w.fatalf("AnswerDeadline(%s) ok %v, but the client's view says waiting %v", id, ok, w.waiting[id])
		}
		if ok && (first.IsZero() || d.Before(first)) {
			first = d
		}
	}
	if d, ok := w.c.Deadline(); ok != !first.IsZero() || ok && !d.Equal(first) {
		w.fatalf("Deadline() = %v, %v; the earliest waiting is %v", d, ok, first)
	}
	st := w.c.Stats()
	if st.Pending.Live > reqOpts.Pending.Total || st.Tools.Live > reqOpts.Tools.Total ||
		len(w.c.Sessions()) > reqOpts.MaxSessions || st.Budget.Used > st.Budget.Limit {
		w.fatalf("bounds broken: %+v, sessions %v", st, w.c.Sessions())
	}
}

// finish closes the Conn: Close makes every waiting request due at once
// (Close's doc: "the next Expire returns each one's default reply"), so
// Expire now answers them all; after it every request the client does
// not owe itself has had exactly one reply.
func (w *reqWire) finish() {
	w.t.Helper()
	w.log = append(w.log, "Close, Expire(now)")
	w.c.Close()
	w.expire(w.now)
	if len(w.waiting) != 0 {
		w.fatalf("after Close and Expire(now), requests still wait: %v", w.waiting)
	}
	w.expire(w.now.Add(1000 * reqTimeout))
	for _, id := range reqIDs {
		if w.owed[id] != w.clientOwed[id] {
			w.fatalf("request %s got no reply: %d owed, %d of them by the client", id, w.owed[id], w.clientOwed[id])
		}
		if _, err := w.c.Answer(json.RawMessage(id), json.RawMessage(`{}`)); !errors.Is(err, acpdialect.ErrNotPending) {
			w.fatalf("Answer(%s) after Close: %v", id, err)
		}
	}
	if st := w.c.Stats(); st.Tools.Live != 0 || len(w.c.Sessions()) != 0 {
		w.fatalf("after Close: %+v", st)
	}
}
