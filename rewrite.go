package acpdialect

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// Rewrite is a client request that the agent does not serve as sent (Grok
// has no session/set_config_option). The Conn sends the agent another
// request in its place, under the client's id, and turns the agent's
// response back into the response the client asked for, so that the
// client speaks standard ACP and never learns the vendor's method.
//
// Both hooks are pure: they describe the frames, and the Conn keeps what
// the pairing needs (the Note, until the response) and the session's
// State. Outbound reports the request to send in Result.Wire, Inbound the
// response to deliver; wiretap puts them on the wire.
type Rewrite struct {
	// Method is the client's method ("session/set_config_option").
	Method string
	// Request says what to send instead, given the client's params and the
	// state of the session they name (nil when the dialect made none). A
	// Redirect with an Error refuses the request: the client gets the
	// error at once (Wire.Deliver) and nothing reaches the agent.
	Request func(params gjson.Result, state any) Redirect
	// Response turns the agent's response to the redirected request into
	// the client's: Step.Result or Step.Error (the agent's error as it is
	// when neither is set), events, and the session's new state.
	Response func(resp AgentResponse, state, note any) Step
}

// Redirect is the agent request a Rewrite sends instead of the client's,
// or its refusal.
type Redirect struct {
	// Method is the agent request's method, sent with the client's id.
	// Empty, it refuses the request with -32603 (unless Error or Pass is
	// set).
	Method string
	// Params are the agent request's params, sent as they are: empty (the
	// request has no params) or one JSON object or array in valid UTF-8
	// (compacted when it spans lines); anything else refuses the request
	// with -32603 (unless Error or Pass is set).
	Params json.RawMessage
	// Note is what Response needs to know about the request (the value the
	// client set, say). The Conn keeps it until the response; like a
	// state it is a value the dialect never changes once made, and it
	// counts towards the tracked request in the byte budget at its
	// SizeHint (else DefaultStateSize). A request whose note would cost
	// more than Options.MaxBytes/16 is refused with -32603.
	Note any
	// Error, if set, refuses the request without reaching the agent.
	Error *RPCError
	// Pass sends the client's request as it is, byte for byte (the agent
	// serves it after all: it advertised the method's data itself).
	Pass bool
}

// SizeHint is implemented by a dialect's session state (Step.State) or
// request note (Redirect.Note) that says what it keeps, for the Conn's
// byte budget (Options.MaxBytes). A state or note that does not implement
// it counts DefaultStateSize.
type SizeHint interface {
	// SizeHint returns the bytes the value keeps: its structs, the
	// lengths of its strings and the backing arrays of its slices. It
	// must not change while the Conn holds the value (a value never
	// changes once made).
	SizeHint() int
}

// DefaultStateSize is what a session state or request note that does not
// implement SizeHint counts in the byte budget: a small struct of a few
// short strings. A dialect whose state may be larger implements SizeHint.
const DefaultStateSize = 256

// hintSize is what a state or note counts in the budget.
func hintSize(v any) int64 {
	if v == nil {
		return 0
	}
	if h, ok := v.(SizeHint); ok {
		return max(int64(h.SizeHint()), 0)
	}
	return DefaultStateSize
}

// AgentResponse is the agent's response to a redirected request: its
// result, or its error object when it failed (read with Get; a member the
// agent did not send does not Exist, nor does an "error":null).
type AgentResponse struct {
	Result gjson.Result
	Error  gjson.Result
}

// Step is what a stateful hook returns: events, the session's new state,
// and the result or error the client gets in place of the agent's.
type Step struct {
	// Events are session-level events (Type and Object); the Conn fills in
	// Agent and SessionID, in place: the slice is the Conn's once the hook
	// returns it (a hook makes a new one each time). A context_window
	// event equal to the session's last one is dropped.
	Events []Event
	// State, unless nil, replaces the session's state. A state is a value:
	// hooks never change the one they are given, they return a new one.
	// Changing it also forgets the session's last context window sample.
	State any
	// Result, if set, is the result the client gets instead of the agent's
	// (Result.Wire). It must be one JSON value (compacted when it spans
	// lines); one that is not JSON, or not valid UTF-8, is ignored, as if
	// unset.
	Result json.RawMessage
	// Error, if set, is the error the client gets (Rewrite.Response only).
	Error *RPCError
}

// SessionHooks are a dialect's hooks that keep state per session: the
// Conn holds the state (a value the hooks made, ended with the session)
// and passes it back to them. The state counts towards the session in
// the Conn's byte budget, at its SizeHint (else DefaultStateSize): the
// sessions keep theirs within their share of Options.MaxBytes, ending the
// oldest other session to make room, and a state larger than MaxBytes/16
// is not kept (the session goes on with none, as if the dialect made
// none; Stats.Budget.Refused). A dialect bounds its own state's size.
type SessionHooks struct {
	// Result reads the agent's result to a client request (session/new,
	// session/load, session/set_model, ...) with the state of its session
	// (for session/new, the session the result names). A Step.Result
	// replaces the result the client sees.
	Result func(method string, result gjson.Result, state any) Step
	// ContextWindow reads the context window's fill from the _meta of a
	// session/update's params, beside the update (Grok's totalTokens),
	// with the session's state; ok false means the frame says nothing. It
	// is not called while session/load replays the session's history, and
	// a sample equal to the last one gives no event. It runs on message
	// chunks, so it should not allocate.
	ContextWindow func(meta gjson.Result, state any) (cw ContextWindow, ok bool)
	// Notification reads an allowlisted vendor notification that changes a
	// session's state (Grok's model_changed): it returns the session it
	// is about, read from the params, and the step. state returns the
	// state of a session, nil for one the Conn does not know.
	Notification func(method string, params gjson.Result, state func(sessionID string) any) (sessionID string, step Step)
	// EchoesPrompt says the agent echoes the user's prompt back as a
	// user_message_chunk during the turn: the Conn flags it (Wire.Echo),
	// but never while session/load replays history.
	EchoesPrompt bool
}

// Wire is what goes on the wire in place of a frame (Result.Wire).
type Wire struct {
	// Frame replaces the frame: on Outbound, the request to send the agent
	// instead of the client's; on Inbound, the response to deliver to the
	// client instead of the agent's, under the client's id. nil: nothing
	// goes on (a refused request; an echo). One whole line ending in '\n'.
	Frame []byte
	// Deliver (Outbound only) is a frame for the client as if the agent
	// had sent it: the response to a request refused without reaching
	// the agent. One whole line ending in '\n'.
	Deliver []byte
	// Echo says the frame is the agent's echo of the user's prompt (see
	// SessionHooks.EchoesPrompt): a client that shows the prompt itself
	// drops it; one that wants it passes the frame on as it is.
	Echo bool
}

// echo is the Wire of every echo: shared, read-only, so that flagging
// one costs nothing.
var echo = &Wire{Echo: true}

// newWire returns a Wire and room for a frame of n bytes, capped at n, in
// one allocation: the new frame is the only allocation a rewrite costs the
// Conn, whatever its length up to 1 MiB. The room is the smallest power of
// two from 256 bytes that holds the frame, so that a Wire is a plain
// struct (the frame, written once and read by the caller, wastes less
// than its length); a frame above 1 MiB gets its own allocation, which
// then dwarfs the Wire's.
func newWire(n int) (*Wire, []byte) {
	switch {
	case n <= 256:
		return wireRoom[[256]byte](n)
	case n <= 512:
		return wireRoom[[512]byte](n)
	case n <= 1<<10:
		return wireRoom[[1 << 10]byte](n)
	case n <= 2<<10:
		return wireRoom[[2 << 10]byte](n)
	case n <= 4<<10:
		return wireRoom[[4 << 10]byte](n)
	case n <= 8<<10:
		return wireRoom[[8 << 10]byte](n)
	case n <= 16<<10:
		return wireRoom[[16 << 10]byte](n)
	case n <= 32<<10:
		return wireRoom[[32 << 10]byte](n)
	case n <= 64<<10:
		return wireRoom[[64 << 10]byte](n)
	case n <= 128<<10:
		return wireRoom[[128 << 10]byte](n)
	case n <= 256<<10:
		return wireRoom[[256 << 10]byte](n)
	case n <= 512<<10:
		return wireRoom[[512 << 10]byte](n)
	case n <= 1<<20:
		return wireRoom[[1 << 20]byte](n)
	}
	return new(Wire), make([]byte, 0, n)
}

// wireRoom allocates a Wire and the byte array R after it together, and
// returns the array as a slice of length 0 and capacity n.
func wireRoom[R any](n int) (*Wire, []byte) {
	w := new(struct {
		Wire
		room R
	})
	b := unsafe.Slice((*byte)(unsafe.Pointer(&w.room)), unsafe.Sizeof(w.room))
	return &w.Wire, b[:0:n]
}

// replyWire returns a Wire whose Frame is the response with this result.
func replyWire(id string, result []byte) *Wire {
	w, b := newWire(replyLen(id, result))
	w.Frame = appendReply(b, id, result)
	return w
}

// errorWire returns a Wire whose Frame is the error response e.
func errorWire(id string, e RPCError) *Wire {
	w, b := newWire(errorLen(id, e))
	w.Frame = appendError(b, id, e)
	return w
}

// rewrite returns the dialect's rewrite of a client method, or nil.
func (d *Dialect) rewrite(method string) *Rewrite {
	if d == nil {
		return nil
	}
	for i := range d.Rewrites {
		if d.Rewrites[i].Method == method && d.Rewrites[i].Request != nil {
			return &d.Rewrites[i]
		}
	}
	return nil
}

// RewritesRequests reports whether the dialect rewrites client requests:
// its connections may answer a client request themselves (Wire.Deliver).
func (d *Dialect) RewritesRequests() bool { return d != nil && len(d.Rewrites) > 0 }

// rewriteRequest applies a Rewrite to a client request: the frame to send
// instead, or the refusal to deliver.
func (c *Conn) rewriteRequest(v frameView, rw *Rewrite, sid string) Result {
	s := c.touchSession(sid)
	red := rw.Request(scan.Result(scan.Member(v.s, "params")), s.hookState())
	if red.Pass && red.Error == nil {
		r := request{method: v.method.Str, session: sid}
		if s != nil {
			r.created = s.created
		}
		c.track(v.id.Raw, r, true)
		return Result{}
	}
	var fits bool
	if red.Params, fits = fitParams(red.Params); red.Error == nil && (red.Method == "" || !fits) {
		return c.refuse(v.id.Raw, RPCError{Code: -32603, Message: "acpdialect: the dialect built no request for " + rw.Method})
	}
	if red.Error != nil {
		return c.refuse(v.id.Raw, *red.Error)
	}
	// The method is the dialect's and the session's id the session's own:
	// the tracked request keeps them without copies.
	r := request{method: rw.Method, session: sid, note: red.Note}
	if s != nil {
		r.session, r.created = s.id, s.created
	} else {
		r.session = strings.Clone(sid)
	}
	if r.note == nil {
		r.note = noNote{}
	}
	key := awaitKey(v.id.Raw)
	if _, ok := c.requests[key]; ok {
		// The id already awaits a response: the agent's answer to this one
		// could not be told apart, so it goes as it is.
		return Result{}
	}
	size := requestSize(key, r) // as track sizes it
	if size > c.budget.MaxValue() {
		// Too large to keep until the response: refused, as the dialect
		// would have.
		c.budget.CountRefused()
		return c.refuse(v.id.Raw, RPCError{Code: -32603, Message: "acpdialect: the request is too large to keep until its response"})
	}
	if !c.roomForRewrite(size) {
		// Tracking it would forget a rewritten request (whose response
		// then could not be turned back) or leave no room for the others.
		return c.refuse(v.id.Raw, RPCError{Code: -32603, Message: "acpdialect: too many rewritten requests await their response"})
	}
	if !c.track(v.id.Raw, r, false) {
		return Result{} // not kept after all: it goes as it is
	}
	c.stats.Rewritten++
	w, b := newWire(requestLen(v.id.Raw, red.Method, red.Params))
	w.Frame = appendRequest(b, v.id.Raw, red.Method, red.Params)
	return Result{Wire: w}
}

// refuse answers a client request with an error without reaching the
// agent.
func (c *Conn) refuse(id string, e RPCError) Result {
	c.stats.Refused++
	w := errorWire(id, e)
	if c.overLine(w.Frame) {
		// A dialect's error (its data) the client could not read: a
		// longer line would end the client's connection.
		w = errorWire(id, RPCError{Code: -32603, Message: "acpdialect: the error for the request is " +
			strconv.Itoa(len(w.Frame)-1) + " bytes, longer than the client reads"})
	}
	w.Frame, w.Deliver = nil, w.Frame
	return Result{Wire: w}
}

// noNote is the note of a redirected request whose Redirect has none: a
// request's note is never nil once redirected, so that it says so.
type noNote struct{}

func (noNote) SizeHint() int { return 0 }

// fitParams returns a request's params fit for the wire: absent, or one
// JSON object or array (compacted when it spans lines, see oneLine); ok is
// false for anything else.
func fitParams(p json.RawMessage) (_ json.RawMessage, ok bool) {
	if len(p) == 0 {
		return p, true
	}
	if p[0] != '{' && p[0] != '[' {
		return nil, false
	}
	return oneLine(p)
}

// resultFits reports whether the step has a result for the wire: one JSON
// value, compacted in place when it spans lines.
func resultFits(st *Step) bool {
	r, ok := oneLine(st.Result)
	st.Result = r
	return ok
}

// rewriteResponse turns the agent's response to a redirected request into
// the response the client asked for, under the client's id.
func (c *Conn) rewriteResponse(v frameView, r request, rw *Rewrite) Result {
	resp := AgentResponse{
		Result: scan.Result(v.resultMember()),
		Error:  scan.Result(scan.Member(v.s, "error")),
	}
	if resp.Error.Type == gjson.Null {
		resp.Error = gjson.Result{} // "error":null beside a result is no error
	}
	s := c.sessions[r.session]
	if s != nil && s.created != r.created {
		s = nil // the session ended (and maybe began again) since
	}
	note := r.note
	if _, none := note.(noNote); none {
		note = nil
	}
	st := rw.Response(resp, s.hookState(), note)
	c.stats.Rewritten++
	w := responseWire(v.id.Raw, r.method, resp, &st)
	if c.overLine(w.Frame) {
		// The client cannot read it: it gets an error, so the step is
		// not applied, lest the events and the state say otherwise.
		w, st = errorWire(v.id.Raw, tooLong(r.method, w.Frame)), Step{}
	}
	return Result{Wire: w, Events: c.applyStep(s, st)}
}

// responseWire is the client's response under its id: the step's error or
// result, else the agent's error.
func responseWire(id, method string, resp AgentResponse, st *Step) *Wire {
	switch {
	case st.Error != nil:
		return errorWire(id, *st.Error)
	case resultFits(st):
		return replyWire(id, st.Result)
	case resp.Error.IsObject():
		return errorWire(id, readError(resp.Error))
	case resp.Error.Exists():
		// Not an object: its text, so that the client still reads it.
		return errorWire(id, RPCError{Code: -32603, Message: "acpdialect: the agent's error for " + method + " is not an object: " +
			head(resp.Error.Raw, 1024)})
	}
	return errorWire(id, RPCError{Code: -32603, Message: "acpdialect: no response for " + method})
}

// LimitLine sets the longest line, without its '\n', that the client
// reads; 0, the default, is no limit. wiretap sets it to what the
// acp-go-sdk reads. A response the dialect rewrites for the client
// (Inbound's Wire.Frame) that would be longer is not made, and its Step is
// not applied (no state, no events), so that the Conn agrees with what
// the client gets: a Rewrite's response becomes a -32603 error under the
// client's id; a SessionHooks.Result's new result is dropped, and the
// client gets the agent's response as it was. The agent may still have
// done what it was asked (Grok switched its model): the Conn keeps what
// the client was told, not what the agent did. A Redirect's refusal that
// would be longer (its error's data) is delivered as a short -32603
// instead. Call it before the first frame.
func (c *Conn) LimitLine(n int) { c.maxLine = max(n, 0) }

// overLine reports whether a frame for the client (with its '\n') is
// longer than the client reads (LimitLine).
func (c *Conn) overLine(frame []byte) bool {
	return c.maxLine > 0 && len(frame)-1 > c.maxLine
}

// tooLong is the error a client gets for a rewritten response it could
// not read.
func tooLong(method string, frame []byte) RPCError {
	return RPCError{Code: -32603, Message: "acpdialect: the response to " + method + " is " +
		strconv.Itoa(len(frame)-1) + " bytes, longer than the client reads"}
}

// head returns s's first max bytes or fewer, ending at a rune.
func head(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}

// readError reads a JSON-RPC error object, data included. Its strings view
// the frame: the error is written at once, never kept.
func readError(e gjson.Result) RPCError {
	out := RPCError{Code: int(e.Get("code").Int()), Message: e.Get("message").String()}
	if d := e.Get("data"); d.Exists() {
		out.Data = RawJSON(d.Raw)
	}
	return out
}

// sessionResult runs the dialect's SessionHooks.Result on the agent's
// result to a client request; a new result replaces the frame.
func (c *Conn) sessionResult(v frameView, r request, res *Result) {
	h := c.hooks()
	if h == nil || h.Result == nil {
		return
	}
	result := scan.Result(v.resultMember())
	if !result.Exists() {
		return // an error: the client sees it as is
	}
	s := c.sessions[r.session]
	if s == nil || s.created != r.created {
		return
	}
	st := h.Result(r.method, result, s.hookState())
	if resultFits(&st) {
		w := replyWire(v.id.Raw, st.Result)
		if c.overLine(w.Frame) {
			return // the client gets the agent's response as it was, and nothing of the step
		}
		c.stats.Rewritten++
		res.Wire = w
	}
	if evs := c.applyStep(s, st); len(evs) > 0 {
		res.Events = append(res.Events[:len(res.Events):len(res.Events)], evs...)
	}
}

// applyStep gives a session its new state and fills in the step's events;
// a context window sample equal to the last one is dropped.
func (c *Conn) applyStep(s *session, st Step) []Event {
	if s == nil {
		return nil
	}
	if st.State != nil {
		if s = c.setState(s, st.State); s == nil {
			return nil // ended to make room: another session's state grew
		}
		s.ext.hasWindow = false
	}
	x := s.x()
	out := st.Events[:0] // the hook's slice, filled in place (Step.Events)
	for _, ev := range st.Events {
		if w := ev.ContextWindow(); ev.Type == EventContextWindow && w != nil {
			if x.hasWindow && x.window == *w {
				continue
			}
			x.window, x.hasWindow = *w, true
		}
		ev.Agent, ev.SessionID = c.Agent(), s.id
		out = append(out, ev)
	}
	return out[:len(out):len(out)]
}

// setState gives session s its new state, held in the budget with the
// session: the sessions keep within their share, so the oldest other
// sessions are ended to make room. A state larger than MaxValue is not
// kept: the session has none. It returns s, or nil when s itself ended
// (a child session ends with its parent).
func (c *Conn) setState(s *session, state any) *session {
	x := s.x()
	size := hintSize(state)
	if size > c.budget.MaxValue() {
		c.budget.CountRefused()
		state, size = nil, 0
	}
	for c.sessBytes-x.stateSize+size > c.budget.Share() {
		old := c.sessionToEndBut(s)
		if old == "" {
			break
		}
		c.endSession(old)
		c.stats.SessionsEvicted++
	}
	if c.sessions[s.id] != s {
		return nil
	}
	c.sessBytes += size - x.stateSize
	c.budget.Unhold(x.stateSize)
	c.budget.Hold(size)
	x.state, x.stateSize = state, size
	return s
}

// hooks returns the connection's session hooks, or nil.
func (c *Conn) hooks() *SessionHooks {
	if c.d == nil {
		return nil
	}
	return c.d.Session
}

// updateExtras reads what a stateful dialect wants of a session/update
// beyond its kind: the prompt's echo, and the context window on the
// params' _meta. params is the raw params object (it may run on).
func (c *Conn) updateExtras(res *Result, sid, kind, params string) {
	h := c.hooks()
	s := c.sessions[sid]
	if s == nil || s.loading > 0 {
		return // unknown, or history replayed by session/load
	}
	if h.EchoesPrompt && kind == "user_message_chunk" && s.turns > 0 {
		res.Wire = echo
	}
	if h.ContextWindow == nil {
		return
	}
	meta := scan.Member(params, "_meta")
	if meta == "" || meta[0] != '{' {
		return
	}
	x := s.x()
	w, ok := h.ContextWindow(scan.Result(meta), x.state)
	if !ok || (x.hasWindow && x.window == w) {
		return
	}
	x.window, x.hasWindow = w, true
	o := &struct {
		ev [1]Event
		w  ContextWindow
	}{w: w}
	o.ev[0] = Event{Type: EventContextWindow, Agent: c.Agent(), SessionID: s.id, Object: &o.w}
	res.Events = append(res.Events[:len(res.Events):len(res.Events)], o.ev[0])
}

// vendorNotification runs SessionHooks.Notification on an allowlisted
// vendor notification.
func (c *Conn) vendorNotification(method string, params gjson.Result) []Event {
	h := c.hooks()
	if h == nil || h.Notification == nil {
		return nil
	}
	sid, st := h.Notification(method, params, func(id string) any {
		return c.sessions[id].hookState()
	})
	return c.applyStep(c.sessions[sid], st)
}

// fastParams starts an SDK-layout session/update up to its params object.
const fastParams = `{"jsonrpc":"2.0","method":"session/update","params":`

// statefulUpdate handles an SDK-layout update for a dialect that keeps
// session state: what every update gets, then the echo and the context
// window. Such a dialect's chunks bypass the skip cache: their params'
// _meta differs from frame to frame. A frame that is not JSON changes
// nothing: the session's state is read from the params of every update.
func (c *Conn) statefulUpdate(frame []byte, f fastUpdate) (Result, error) {
	if c.invalid(scan.UnsafeString(frame)) {
		return Result{}, ErrInvalidJSON
	}
	var res Result
	kind := scan.UnsafeString(f.kind)
	if c.wantsUpdate(kind) {
		res = c.fastUpdate(f)
	}
	c.updateExtras(&res, scan.UnsafeString(f.sid), kind, scan.UnsafeString(frame[len(fastParams):]))
	return res, nil
}
