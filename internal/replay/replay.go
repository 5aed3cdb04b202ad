// Package replay feeds a recorded ACP transcript through a Conn, as a client
// would have seen it live, and collects what the Conn produced: the events,
// the replies, and the final state of every tool call and session.
//
// A transcript is JSONL: one JSON-RPC 2.0 message per line, in wire order,
// both directions mixed. Direction is inferred (see agentServes and
// requests.answer). It is the engine of `acpdialect replay` and of the
// golden suites.
//
// A replay keeps everything it produced in memory: it is a batch tool for
// transcripts, not a live path.
package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// Options configures a replay.
type Options struct {
	// Agent names the dialect (an ID such as "cursor", or an agent name)
	// instead of identifying it from the initialize response. "unknown"
	// and "none" mean standard ACP behaviour. Any other name the registry
	// does not resolve is an error.
	Agent string
	// Strict stops at the first bad line and returns it as the error.
	Strict bool
}

// Replay is what a transcript produced.
type Replay struct {
	// Agent is the dialect the connection ended up identified as, "" for
	// an unknown agent.
	Agent   string
	Events  []Record  // every event, in order
	Replies []Reply   // every reply frame the client owes, in order
	Bad     []BadLine // lines skipped
	// Cards is the final state of every tool call surfaced, in first-seen
	// order. A tool_call for an id already seen starts a new card.
	Cards []Card
	// Sessions are the session ids seen in frames or events, in first-seen
	// order.
	Sessions []string
	// Stats are the Conn's counters at the end of the transcript, before
	// the connection is closed: Live shows what was still held, and Swept
	// counts only the turn and session ends the transcript itself shows.
	Stats acpdialect.Stats
	// Requests are the blocking and fire-and-forget vendor requests that
	// produced an event (a question, a plan, an image), in order, each
	// with the answer it got.
	Requests []Request
	// Todos is each session's final todo list, for sessions that had one.
	Todos map[string][]acpdialect.Todo
	// Wire is what the connection puts on the wire instead of a
	// transcript line (a dialect's Rewrite, a dropped echo), in order. A
	// transcript holds each side's own frames: the client's requests as
	// the client wrote them, the agent's responses as the agent wrote
	// them; these records show what each side received instead.
	Wire []Wire
}

// Wire is one frame a dialect put on the wire in place of the frame on
// Line, or beside it.
type Wire struct {
	Line int
	// To is who receives Frame: "agent" or "client".
	To string
	// Frame is the frame sent instead (one JSON object); nil when nothing
	// goes on: a refused request (never sent to the agent) or a dropped
	// echo.
	Frame []byte
	// Echo marks a dropped echo of the user's prompt.
	Echo bool
}

// Request is a vendor request's event and the reply it got: the client's
// recorded answer, the dialect's default, or (for one the transcript
// leaves unanswered) the default sent at its deadline, after the last
// line.
type Request struct {
	Line  int
	Event acpdialect.Event
	Reply *acpdialect.Event // nil for a notification
}

// Record is one event and the transcript line that caused it.
type Record struct {
	Line  int
	Event acpdialect.Event
}

// Reply is a response frame the client sends for the request on Line.
type Reply struct {
	Line  int
	Frame []byte // ends in '\n'
}

// Card is one tool call's final state.
type Card struct {
	Line       int // where it was first surfaced
	Agent      string
	SessionID  string
	ToolCallID string
	Payload    acpdialect.Payload
}

// BadLine is a transcript line that is not a JSON-RPC message.
type BadLine struct {
	Line   int
	Reason string
}

func (b *BadLine) Error() string { return fmt.Sprintf("line %d: %s", b.Line, b.Reason) }

// ErrUnknownAgent is wrapped by the error for an Options.Agent that names
// no registered dialect.
var ErrUnknownAgent = errors.New("unknown agent")

// Run replays the transcript in r through a new Conn from reg. Bad lines are
// recorded and skipped, or with Strict returned as a *BadLine error (the
// Replay then holds what came before). A read error is returned with what
// was replayed so far.
func Run(reg *acpdialect.Registry, r io.Reader, opts Options) (*Replay, error) {
	s, err := newState(reg, opts.Agent)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if bad := s.line(n, line); bad != nil && opts.Strict {
			return s.finish(), bad
		}
		if errors.Is(rerr, io.EOF) {
			return s.finish(), nil
		}
		if rerr != nil {
			return s.finish(), rerr
		}
	}
}

// state is one replay in progress.
type state struct {
	conn     *acpdialect.Conn
	reqs     *requests
	out      Replay
	cards    map[cardKey]int // current card of a tool call, index in out.Cards
	sessions map[string]bool
	requests map[string]int // unanswered request by raw id, index in out.Requests
	last     int            // the last line number read
}

type cardKey struct{ session, id string }

func newState(reg *acpdialect.Registry, agent string) (*state, error) {
	switch strings.ToLower(agent) {
	case "unknown", "none":
		// An empty registry identifies nothing: standard ACP whatever the
		// initialize response says.
		reg, agent = acpdialect.NewRegistry(), ""
	case "":
	default:
		if reg.ByID(agent) == nil && reg.ByAgent(agent, "") == nil {
			return nil, fmt.Errorf("%w %q; known: %s", ErrUnknownAgent, agent, known(reg))
		}
	}
	return &state{
		// The transcript holds the client's own answers to blocking
		// requests; one it leaves unanswered gets the default at the end.
		conn:     reg.NewConn(acpdialect.Options{Agent: agent, ClientAnswers: true}),
		requests: map[string]int{},
		reqs:     newRequests(),
		cards:    map[cardKey]int{},
		sessions: map[string]bool{},
	}, nil
}

func known(reg *acpdialect.Registry) string {
	var ids []string
	if reg == nil {
		return "none"
	}
	for _, d := range reg.Dialects() {
		ids = append(ids, d.ID)
	}
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// line replays one raw line; it returns the bad line it recorded, if any.
func (s *state) line(n int, raw []byte) *BadLine {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return nil
	}
	s.last = n
	f, reason := parse(b)
	if reason != "" {
		bad := &BadLine{Line: n, Reason: reason}
		s.out.Bad = append(s.out.Bad, *bad)
		return bad
	}
	s.noteSessions(f.v)
	dir := s.direction(f)
	var events []acpdialect.Event
	if dir == ClientToAgent {
		res, _ := s.conn.Outbound(b) // parse already rejected what it would
		events = res.Events
		s.wire(n, "agent", res)
	} else {
		res, _ := s.conn.Inbound(b)
		events = res.Events
		s.wire(n, "client", res)
		if res.Reply != nil {
			s.out.Replies = append(s.out.Replies, Reply{Line: n, Frame: res.Reply})
			s.reqs.forget(AgentToClient, f.id) // answered here: a recorded answer is not the Conn's
		}
	}
	for _, ev := range events {
		s.event(n, ev)
	}
	s.expire(n, time.Now())
	return nil
}

// wire records what a frame's Result puts on the wire in its place.
func (s *state) wire(n int, to string, res acpdialect.Result) {
	w := res.Wire
	switch {
	case w == nil:
		return
	case w.Echo:
		s.out.Wire = append(s.out.Wire, Wire{Line: n, To: to, Echo: true})
		return
	}
	s.out.Wire = append(s.out.Wire, Wire{Line: n, To: to, Frame: bytes.TrimSpace(w.Frame)})
	if w.Deliver != nil {
		s.out.Wire = append(s.out.Wire, Wire{Line: n, To: "client", Frame: bytes.TrimSpace(w.Deliver)})
	}
}

// expire records the defaults of blocking requests that are due: the
// client cancelled their turn, or (at the end) the transcript left them
// unanswered.
func (s *state) expire(n int, now time.Time) {
	if d, ok := s.conn.Deadline(); !ok || d.After(now) {
		return
	}
	for _, r := range s.conn.Expire(now) {
		s.out.Replies = append(s.out.Replies, Reply{Line: n, Frame: r.Reply})
		for _, ev := range r.Events {
			s.event(n, ev)
		}
	}
}

// parsed is the top level of a valid line.
type parsed struct {
	v      gjson.Result
	method string
	hasMet bool
	id     string // raw id bytes; "" when absent or null
}

// parse checks that b is a JSON-RPC message: a JSON object with a string
// method or an id (a response). reason is empty when it is.
func parse(b []byte) (parsed, string) {
	if !json.Valid(b) {
		return parsed{}, "invalid JSON"
	}
	v := gjson.ParseBytes(b)
	if !v.IsObject() {
		return parsed{}, "not a JSON object"
	}
	m, id := v.Get("method"), v.Get("id")
	if !m.Exists() && !id.Exists() {
		return parsed{}, "not a JSON-RPC message: no method and no id"
	}
	if m.Exists() && m.Type != gjson.String {
		return parsed{}, "not a JSON-RPC message: method is not a string"
	}
	p := parsed{v: v, method: m.Str, hasMet: m.Exists()}
	if id.Exists() && id.Type != gjson.Null {
		p.id = id.Raw
	}
	return p, ""
}

// direction infers which way a frame travels and tracks requests.
func (s *state) direction(f parsed) Direction {
	if !f.hasMet {
		return s.reqs.answer(f.id)
	}
	d := AgentToClient
	if agentServes(f.method) {
		d = ClientToAgent
	}
	if f.id != "" {
		s.reqs.sent(d, f.id)
	}
	return d
}

// noteSessions records the session ids a frame names (params.sessionId,
// result.sessionId) in first-seen order.
func (s *state) noteSessions(v gjson.Result) {
	for _, p := range [...]string{"params.sessionId", "result.sessionId"} {
		if sid := v.Get(p); sid.Type == gjson.String {
			s.session(sid.Str)
		}
	}
}

func (s *state) session(sid string) {
	if sid != "" && !s.sessions[sid] {
		s.sessions[sid] = true
		s.out.Sessions = append(s.out.Sessions, sid)
	}
}

// event records one event and folds tool call events into their card.
func (s *state) event(n int, ev acpdialect.Event) {
	s.out.Events = append(s.out.Events, Record{Line: n, Event: ev})
	s.session(ev.SessionID)
	s.request(n, ev)
	if t := ev.Todos(); ev.Type == acpdialect.EventTodos && t != nil && ev.SessionID != "" {
		if s.out.Todos == nil {
			s.out.Todos = map[string][]acpdialect.Todo{}
		}
		s.out.Todos[ev.SessionID] = t.Items
	}
	if ev.Payload == nil || (ev.Type != acpdialect.EventToolCall && ev.Type != acpdialect.EventToolCallUpdate) {
		return
	}
	k := cardKey{ev.SessionID, ev.ToolCallID}
	i, ok := s.cards[k]
	if !ok || ev.Type == acpdialect.EventToolCall {
		i = len(s.out.Cards)
		s.cards[k] = i
		s.out.Cards = append(s.out.Cards, Card{Line: n, SessionID: ev.SessionID, ToolCallID: ev.ToolCallID})
	}
	c := &s.out.Cards[i]
	c.Agent, c.Payload = ev.Agent, ev.Payload.Clone()
}

// request records the event of a vendor request, and pairs a reply event
// with the request it answers.
func (s *state) request(n int, ev acpdialect.Event) {
	switch ev.Type {
	case acpdialect.EventQuestion, acpdialect.EventPlan, acpdialect.EventImage:
		s.out.Requests = append(s.out.Requests, Request{Line: n, Event: ev})
		if ev.ID != nil {
			s.requests[string(ev.ID)] = len(s.out.Requests) - 1
		}
	case acpdialect.EventReply:
		if i, ok := s.requests[string(ev.ID)]; ok {
			r := ev
			s.out.Requests[i].Reply = &r
			delete(s.requests, string(ev.ID))
		}
	}
}

// finish takes the final counters and closes the connection. The final
// state is built from events, so closing loses nothing.
func (s *state) finish() *Replay {
	// What the transcript leaves unanswered is past any deadline once it
	// ends: the Conn answers the defaults, after the last line.
	s.expire(s.last, time.Unix(1<<62, 0))
	s.out.Agent = s.conn.Agent()
	s.out.Stats = s.conn.Stats()
	s.conn.Close()
	return &s.out
}

// File replays the transcript at path strictly (the first bad line is an
// error) and returns its --final and --json outputs: what golden files pin.
func File(reg *acpdialect.Registry, path string) (final, events []byte, err error) {
	return FileAs(reg, path, "")
}

// FileAs is File with Options.Agent: the transcript replays as agent ("" to
// identify it from the initialize response).
func FileAs(reg *acpdialect.Registry, path, agent string) (final, events []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r, err := Run(reg, f, Options{Agent: agent, Strict: true})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var fb, eb bytes.Buffer
	if err := r.WriteFinal(&fb); err != nil {
		return nil, nil, err
	}
	if err := r.WriteEvents(&eb); err != nil {
		return nil, nil, err
	}
	return fb.Bytes(), eb.Bytes(), nil
}
