package replay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// Sink receives what a Stream produces, as it produces it. Every field
// may be nil.
type Sink struct {
	// Frame sees each valid line, with its inferred direction, before the
	// line's events. Its views are valid only during the call.
	Frame func(Frame)
	// Event gets each event; an error (a closed output) stops the replay
	// and is returned by Feed.
	Event func(Record) error
	// Bad gets each line that is skipped.
	Bad func(BadLine)
	// Reply gets each reply frame the client owes (the Conn's).
	Reply func(Reply)
	// LineDone is called after a valid line's events, with how many it
	// had: a view shows a frame itself when no event covered it.
	LineDone func(line, events int)
}

// Frame is one valid transcript line, for a view that shows more than the
// events (messages, prompts, permission requests): the raw views alias
// the line and are valid only during Sink.Frame.
type Frame struct {
	Line   int
	Dir    Direction
	Method string // "" for a response
	ID     string // raw, "" when absent or null
	Raw    []byte
	Params string // raw params, "" when absent
	Result string // raw result, "" when absent
	Error  string // raw error, "" when absent
}

// Summary is what a Stream ends with.
type Summary struct {
	Agent    string
	Stats    acpdialect.Stats
	BadLines int
}

// Stream replays a transcript line by line through one Conn. Its memory
// is the Conn's own stores, the direction table's bound and its Final's
// windows, whatever the transcript's length.
type Stream struct {
	conn     *acpdialect.Conn
	reqs     *requests
	sink     Sink
	final    *Final
	strict   bool
	last     int // the last line number with content
	bad      int
	lastSID  string // the session noted last: most lines name it again
	buf      []byte // a line longer than the reader's buffer, joined
	tail     tails  // the shape of the last chunk-like line
	finished bool
}

// NewStream starts a replay on a new Conn from reg. final, if not nil,
// gets the events and sessions for the final state.
func NewStream(reg *acpdialect.Registry, opts Options, sink Sink, final *Final) (*Stream, error) {
	if err := CheckAgent(reg, opts.Agent); err != nil {
		return nil, err
	}
	if standardOnly(opts.Agent) {
		// An empty registry identifies nothing: standard ACP whatever the
		// initialize response says.
		reg, opts.Agent = acpdialect.NewRegistry(), ""
	}
	s := &Stream{
		// The transcript holds the client's own answers to blocking
		// requests; one it leaves unanswered gets the default at the end.
		// Every line is checked before the Conn sees it (check, exact).
		conn:   reg.NewConn(acpdialect.Options{Agent: opts.Agent, ClientAnswers: true, Checked: true}),
		reqs:   newRequests(acpdialect.DefaultMaxRequests),
		sink:   sink,
		final:  final,
		strict: opts.Strict,
	}
	s.conn.LimitLine(opts.LimitLine)
	if final != nil {
		final.agent = s.conn.Agent
	}
	return s, nil
}

// CheckAgent returns an ErrUnknownAgent error, naming the known ones,
// when reg does not resolve agent (Options.Agent): a command checks it
// before it opens any input.
func CheckAgent(reg *acpdialect.Registry, agent string) error {
	if agent == "" || standardOnly(agent) || reg.ByID(agent) != nil || reg.ByAgent(agent, "") != nil {
		return nil
	}
	return fmt.Errorf("%w %q; known: %s", ErrUnknownAgent, agent, Known(reg))
}

// standardOnly reports whether agent asks for standard ACP only.
func standardOnly(agent string) bool {
	switch strings.ToLower(agent) {
	case "unknown", "none":
		return true
	}
	return false
}

// Known lists the names --agent accepts: the registry's dialect IDs, then
// "unknown" (standard ACP only).
func Known(reg *acpdialect.Registry) string {
	var ids []string
	for _, d := range reg.Dialects() {
		ids = append(ids, d.ID)
	}
	return strings.Join(append(ids, "unknown"), ", ")
}

// bom is the UTF-8 byte-order mark some editors write at a file's start.
var bom = []byte("\xef\xbb\xbf")

// Feed replays every line of r. It returns a *BadLine at the first bad
// line with Options.Strict, the sink's error, or a read error; io.EOF
// ends it without error. A last line without a newline counts; the part
// of a line that a read error cut is not a line, and is not replayed.
func (s *Stream) Feed(r io.Reader) error {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 256<<10)
	}
	for n := 1; ; n++ {
		line, rerr := s.readLine(br)
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return rerr
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		if err := s.Line(n, line); err != nil {
			return err
		}
		if rerr != nil {
			return nil
		}
	}
}

// readLine returns the next line, viewing the reader's buffer when it
// fits (valid until the next read), else joined in s.buf.
func (s *Stream) readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	s.buf = append(s.buf[:0], line...)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = br.ReadSlice('\n')
		s.buf = append(s.buf, line...)
	}
	if cap(s.buf) > 64<<20 {
		defer func() { s.buf = nil }() // keep no huge buffer for the lines after
	}
	return s.buf, err
}

// Line replays one raw line, numbered n. It returns a *BadLine with
// Options.Strict, or the sink's error.
func (s *Stream) Line(n int, raw []byte) error {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return nil
	}
	s.last = n
	var t top
	if reason := s.check(b, &t); reason != "" {
		bad := &BadLine{Line: n, Reason: reason}
		s.bad++
		if s.sink.Bad != nil {
			s.sink.Bad(*bad)
		}
		if s.strict {
			return bad
		}
		return nil
	}
	f := s.frame(n, b, &t)
	if s.sink.Frame != nil {
		s.sink.Frame(f)
	}
	var res acpdialect.Result
	if f.Dir == ClientToAgent {
		res, _ = s.conn.Outbound(b) // check already rejected what it would
		s.wire(n, "agent", res.Wire)
	} else {
		res, _ = s.conn.Inbound(b)
		s.wire(n, "client", res.Wire)
		if res.Reply != nil {
			s.reply(Reply{Line: n, Frame: res.Reply})
		}
		if repliedTo(res, f.Method) {
			s.reqs.forget(AgentToClient, f.ID) // answered here: a recorded answer is not the Conn's
		}
	}
	if err := s.events(n, res.Events); err != nil {
		return err
	}
	if s.sink.LineDone != nil {
		s.sink.LineDone(n, len(res.Events))
	}
	return s.expire(n, time.Time{})
}

// check says why b is not a JSON-RPC message, or "" when it is. A line
// shaped like the last chunk is validated by its text alone.
func (s *Stream) check(b []byte, t *top) string {
	if s.tail.match(b, t) {
		return ""
	}
	if reason := check(b, t); reason != "" {
		return reason
	}
	s.tail.remember(b, t)
	return ""
}

func check(b []byte, t *top) string {
	switch {
	case !validate(scan.UnsafeString(b), t):
		return "invalid JSON"
	case !t.object:
		return "not a JSON object"
	case t.method == "" && t.id == "":
		return "not a JSON-RPC message: no method and no id"
	case t.method != "" && t.method[0] != '"':
		return "not a JSON-RPC message: method is not a string"
	}
	return ""
}

// frame reads what the replay needs of a valid line, notes its sessions
// and infers its direction.
func (s *Stream) frame(n int, b []byte, t *top) Frame {
	f := Frame{Line: n, Raw: b, Params: t.params, Result: t.result}
	if t.method != "" {
		f.Method = str(t.method)
	}
	if t.id != "" && t.id != "null" {
		f.ID = t.id
	}
	if f.Method == "" {
		f.Error = scan.Member(scan.UnsafeString(b), "error")
	}
	s.session(sessionID(t.params))
	s.session(sessionID(t.result))
	f.Dir = s.direction(t.method != "", f.Method, f.ID)
	return f
}

// str reads a raw JSON string.
func str(raw string) string {
	if strings.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	return gjson.Parse(raw).Str
}

// sessionID returns the string member sessionId of the object obj, or "".
// The SDKs write it first: read there, as the first string quote after
// the key when no backslash comes before it (what member would find),
// it costs no walk of the members.
func sessionID(obj string) string {
	if rest, ok := strings.CutPrefix(obj, `{"sessionId":"`); ok {
		if j := strings.IndexByte(rest, '"'); j >= 0 && strings.IndexByte(rest[:j], '\\') < 0 {
			return rest[:j]
		}
	}
	return member(obj, "sessionId")
}

// member returns the string member key of the object obj, or "".
func member(obj, key string) string {
	if obj == "" || obj[0] != '{' {
		return ""
	}
	if v := scan.Result(scan.Member(obj, key)); v.Type == gjson.String {
		return v.Str
	}
	return ""
}

// direction infers which way a frame travels and tracks requests.
func (s *Stream) direction(hasMethod bool, method, id string) Direction {
	if !hasMethod {
		return s.reqs.answer(id)
	}
	d := AgentToClient
	if agentServes(method) || s.calls(method) {
		d = ClientToAgent
	}
	if id != "" {
		s.reqs.sent(d, id)
	}
	return d
}

// calls reports whether the identified dialect lists method among the
// client's calls to the agent (Dialect.Calls): a vendor method the client
// sends (Devin's _cognition.ai/revert/*, OpenCode's _opencode/subagents/list)
// that the fixed list of agentServes does not know, and that would
// otherwise be taken for an agent request and declined.
func (s *Stream) calls(method string) bool {
	d := s.conn.Dialect()
	if d == nil {
		return false
	}
	for _, c := range d.Calls {
		if c.Name == method {
			return true
		}
	}
	return false
}

func (s *Stream) session(sid string) {
	if sid == "" || sid == s.lastSID {
		return
	}
	s.lastSID = strings.Clone(sid)
	if s.final != nil {
		s.final.session(s.lastSID)
	}
}

// wire records what a frame's Result puts on the wire in its place: for
// the final state, which shows it (a dialect's rewrite, a dropped echo).
func (s *Stream) wire(n int, to string, w *acpdialect.Wire) {
	if w == nil || s.final == nil {
		return
	}
	if w.Echo {
		s.final.wire(Wire{Line: n, To: to, Echo: true})
		return
	}
	s.final.wire(Wire{Line: n, To: to, Frame: bytes.Clone(bytes.TrimSpace(w.Frame))})
	if w.Deliver != nil {
		s.final.wire(Wire{Line: n, To: "client", Frame: bytes.Clone(bytes.TrimSpace(w.Deliver))})
	}
}

func (s *Stream) reply(r Reply) {
	if s.sink.Reply != nil {
		s.sink.Reply(r)
	}
}

func (s *Stream) events(n int, evs []acpdialect.Event) error {
	for _, ev := range evs {
		rec := Record{Line: n, Event: ev}
		if s.final != nil {
			s.final.event(rec)
		}
		if s.sink.Event != nil {
			if err := s.sink.Event(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// expire hands out the defaults of blocking requests that are due: the
// client cancelled their turn, or (at the end) the transcript left them
// unanswered. A zero now is the clock's.
func (s *Stream) expire(n int, now time.Time) error {
	d, ok := s.conn.Deadline()
	if !ok {
		return nil
	}
	if now.IsZero() {
		now = time.Now()
	}
	if d.After(now) {
		return nil
	}
	for _, r := range s.conn.Expire(now) {
		s.reply(Reply{Line: n, Frame: r.Reply})
		if err := s.events(n, r.Events); err != nil {
			return err
		}
	}
	return nil
}

// Finish ends the replay: what the transcript left unanswered is past any
// deadline once it ends, so the Conn answers the defaults, after the last
// line; then it takes the final counters and closes the connection. Its
// events still go to the sink; an error from it is dropped.
func (s *Stream) Finish() Summary {
	if !s.finished {
		s.finished = true
		_ = s.expire(s.last, time.Unix(1<<62, 0))
	}
	sum := Summary{Agent: s.conn.Agent(), Stats: s.conn.Stats(), BadLines: s.bad}
	s.conn.Close()
	return sum
}

// repliedTo reports whether the Conn's reply answers the agent request
// itself. Its Reply may hold only the defaults of other requests: one
// pushed out at MaxRequests, or one whose id this request reuses (a
// permission request under a waiting question's id), and the request
// itself is then still the client's to answer. Its own reply comes last,
// its event naming the request's method (an alias's without the '_').
func repliedTo(res acpdialect.Result, method string) bool {
	if res.Awaiting || res.Reply == nil {
		return false
	}
	for i := len(res.Events) - 1; i >= 0; i-- {
		if ev := res.Events[i]; ev.Type == acpdialect.EventReply {
			return strings.TrimPrefix(ev.Method, "_") == strings.TrimPrefix(method, "_")
		}
	}
	return false
}
