package acpdialect_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/tidwall/gjson"
)

// rwSessions are the sessions the client's requests name: fewer than
// rwOpts.MaxSessions, so that no session is ended to make room and a
// session's turns are the client's to count.
var rwSessions = []string{"s1", "s2", "s3", "s1"}

// rwCatalog is Grok's session/new (and session/load) model catalog: two
// models, the first with efforts (docs/grok.md, section 2).
const rwCatalog = `{"currentModelId":"grok-4.5","availableModels":[` +
	`{"modelId":"grok-4.5","name":"Grok 4.5","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","high"],"reasoningEffort":"high"}},` +
	`{"modelId":"grok-code-fast","name":"Fast"}]}`

// rwOwnOptions is a result's own configOptions: the session's
// set_config_option then passes as it is (docs/grok.md: "a result that
// has a non-empty configOptions of its own is left alone, and so is that
// session's set_config_option").
const rwOwnOptions = `"configOptions":[{"id":"mode","name":"Mode","type":"select","currentValue":"a","options":[{"value":"a","name":"A"}]}]`

// rwSetConfig are the params of the client's set_config_option after the
// session id: values the catalog offers, values it does not (refused with
// -32602 and nothing reaching the agent), an unknown option and a value
// that is not a string (refused too).
var rwSetConfig = []string{
	`"configId":"model","value":"grok-code-fast"`,
	`"configId":"model","value":"grok-4.5"`,
	`"configId":"reasoning_effort","value":"low"`,
	`"configId":"model","value":"nope"`,
	`"configId":"reasoning_effort","value":"max"`,
	`"configId":"mode","value":"a"`,
	`"configId":"model","value":3`,
	`"configId":"reasoning_effort","value":"high"`,
}

// rwSetModelResults are Grok's results to session/set_model (docs/grok.md,
// section 3: "{}, {"_meta":{"model":"<id>"}} or {"_meta":{"model":{"Ok":"<id>"}}}").
var rwSetModelResults = []string{`{}`, `{"_meta":{"model":"grok-code-fast"}}`, `{"_meta":{"model":{"Ok":"grok-4.5"}}}`, `{"_meta":{"model":"other"}}`}

// rwErrors are the agent's error responses: a plain one, Grok's
// incompatible switch (docs/grok.md, section 4), one that is not an
// object, and "error":null beside a result, which is a success.
var rwErrors = []string{
	`"error":{"code":-32000,"message":"no"}`,
	`"error":{"code":-32600,"message":"Cannot switch model harness after first turn","data":{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","details":"` +
		strings.Repeat("d", rwLimit) + `"}}`,
	`"error":"boom"`,
	`"error":null,"result":{}`,
}

var rwOpts = acpdialect.Options{
	Agent:       "grok",
	MaxBytes:    correlate.MinBudget,
	MaxSessions: 4,
	// Small, so that the client's requests in flight are forgotten: a
	// forgotten prompt's turn ends with the session's next turn that ends
	// (README's bounds table), a forgotten rewrite's note is gone.
	MaxRequests: 3,
}

// rwLimit is the line the client reads when the first byte's bit 0 says
// so (Conn.LimitLine): long enough for the session/new result with the
// catalog's options added (686 bytes) and a refusal, too short for Grok's
// incompatible switch with its long details (rwErrors), which the client
// then gets as a -32603 of a line too long.
const rwLimit = 700

// rwMaxFrames bounds the steps of one execution, as reqMaxFrames does.
const rwMaxFrames = 48

// rwSeeds are hand-written sequences: the first byte's bit 0 sets
// Conn.LimitLine(rwLimit); then three bytes a step, op, a, b (see step).
var rwSeeds = [][]byte{
	// session/new answered with the catalog, a model change answered {},
	// an effort change answered with the model named, an unknown model
	// refused.
	{0, 0, 0x00, 0x00, 4, 0x00, 0x00, 2, 0x00, 0x00, 4, 0x00, 0x00, 2, 0x00, 0x02, 4, 0x00, 0x05, 2, 0x00, 0x03},
	// The same under LimitLine: Grok's incompatible switch with details
	// longer than the client reads becomes a -32603 of a line too long.
	{1, 0, 0x00, 0x00, 4, 0x00, 0x00, 2, 0x00, 0x00, 4, 0x00, 0x0c},
	// A prompt, an echo during the turn, a change answered under its id
	// escaped ("\u0072"), the same response again (a duplicate), the
	// prompt's response, an echo after it.
	{0, 0, 0x00, 0x00, 4, 0x00, 0x00, 1, 0x00, 0x00, 6, 0x00, 0x00, 2, 0x00, 0x00, 4, 0x01, 0x01, 5, 0x03, 0x00, 4, 0x00, 0x00, 6, 0x00, 0x00},
	// Four requests over MaxRequests: the rewritten one is forgotten, and
	// its response comes after, under 2.0.
	{0, 0, 0x00, 0x00, 4, 0x00, 0x00, 2, 0x00, 0x00, 1, 0x00, 0x00, 1, 0x04, 0x00, 1, 0x08, 0x00, 4, 0x00, 0x01, 6, 0x00, 0x00},
	// A load of s2 with its catalog, an echo while it replays, a change
	// answered with Grok's incompatible switch, a wrong id, Close.
	{0, 3, 0x04, 0x00, 6, 0x04, 0x00, 4, 0x00, 0x00, 2, 0x04, 0x00, 4, 0x00, 0x0c, 5, 0x00, 0x01},
	// A session/new result with options of its own (the session's change
	// passes), a prompt, a session/close in mid-turn, an error that is not
	// an object to the change, a prompt of the new s1, the old prompt's
	// response (stale: it ends nothing), an echo.
	{0, 0, 0x00, 0x00, 4, 0x00, 0x20, 2, 0x00, 0x00, 1, 0x00, 0x00, 3, 0x00, 0x02, 4, 0x00, 0x14, 1, 0x00, 0x00, 4, 0x00, 0x00, 6, 0x00, 0x00},
}

// FuzzRewriteFrames feeds a random sequence of a Grok client's requests
// (session/new, session/load, session/prompt, session/cancel,
// session/close, set_config_option, which the dialect rewrites or
// refuses) and the agent's responses (right id, other spellings of it,
// errors, duplicates, wrong ids, none at all) to a Conn with small bounds,
// each three bytes a step, and checks after every step what the client
// sees on the wire: each of its requests gets at most one response, the
// Conn's own frames only under a request the client awaits, never the
// agent's response to a rewritten request as it is; the agent's prompt
// echo marks exactly the turns in flight; the bounds and the counts. At
// the end, after Close, every request the agent answered or the Conn
// refused got exactly one response.
func FuzzRewriteFrames(f *testing.F) {
	for _, s := range rwSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) == 0 {
			return
		}
		w := newRwWire(t, prog[0]&1 != 0)
		ops := prog[1:]
		if len(ops) > 3*rwMaxFrames {
			ops = ops[:3*rwMaxFrames]
		}
		for ; len(ops) >= 3; ops = ops[3:] {
			w.step(ops[0], ops[1], ops[2])
			w.check()
		}
		w.finish()
	})
}

// rwReq is a client request as the client and the agent saw it.
type rwReq struct {
	n         int
	raw       string // its id as the client wrote it
	method    string
	sid       string
	gen       int  // the generation of its session when sent, 0 for none
	refused   bool // answered by the Conn (Wire.Deliver); the agent never got it
	rewritten bool // the agent got the dialect's request (Wire.Frame)
	tracked   bool // the Conn keeps it until its response, by the client's count
	evicted   bool // forgotten past MaxRequests
	answered  int  // responses the agent sent under its id
	delivered int  // responses the client got under its id
}

// rwSession is the client's count of a session: its generation (a new
// one each time the Conn starts tracking it), its turns and loads in
// flight.
type rwSession struct {
	gen, turns, forgotten, loading int
}

// rwWire is the client's view of one Grok connection.
type rwWire struct {
	t     *testing.T
	c     *acpdialect.Conn
	limit int // Conn.LimitLine, 0 for none
	log   []string

	reqs     []*rwReq              // by number, from 1
	tracked  []*rwReq              // the requests the Conn keeps, oldest first
	sessions map[string]*rwSession // the sessions the Conn tracks
	gens     int
	refused  uint64 // Stats.Refused
	evicted  uint64 // Stats.RequestsEvicted
}

func newRwWire(t *testing.T, limit bool) *rwWire {
	w := &rwWire{t: t, reqs: []*rwReq{nil}, sessions: map[string]*rwSession{}}
	w.c = dialects.Registry().NewConn(rwOpts)
	if limit {
		w.limit = rwLimit
		w.c.LimitLine(rwLimit)
	}
	return w
}

func (w *rwWire) fatalf(format string, args ...any) {
	w.t.Helper()
	w.t.Fatalf("after\n\t%s\n%s", strings.Join(w.log, "\n\t"), fmt.Sprintf(format, args...))
}

// step does what op names with parameters a and b.
func (w *rwWire) step(op, a, b byte) {
	w.t.Helper()
	sid := pick(rwSessions, a, 2)
	switch op % 8 {
	case 0:
		w.request("session/new", "", `{"cwd":"/w","mcpServers":[]}`)
	case 1:
		w.request("session/prompt", sid, fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}`, sid))
	case 2:
		w.request("session/set_config_option", sid, fmt.Sprintf(`{"sessionId":%q,%s}`, sid, rwSetConfig[b%8]))
	case 3:
		switch b % 4 {
		case 0:
			w.request("session/load", sid, fmt.Sprintf(`{"sessionId":%q,"cwd":"/w","mcpServers":[]}`, sid))
		case 1:
			w.outbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`, sid), "")
		case 2:
			// Ended at once (Conn.Outbound), before the close is tracked:
			// its turns and loads with it.
			w.endSession(sid)
			w.request("session/close", sid, fmt.Sprintf(`{"sessionId":%q}`, sid))
		default:
			// The client's own session/set_model passes as it is.
			w.request("session/set_model", sid, fmt.Sprintf(`{"sessionId":%q,"modelId":"grok-code-fast"}`, sid))
		}
	case 4:
		w.respond(w.inFlight(int(a&3)), b)
	case 5:
		w.stray(a, b)
	case 6:
		w.echo(sid)
	case 7:
		// The newest request in flight answered, so that the usual path
		// runs often.
		if n := len(w.reqs) - 1; n > 0 {
			w.respond(w.reqs[n], b&^3)
		}
	}
}

// rawID is request n's id as the client writes it: a number, or every
// third a string.
func rawID(n int) string {
	if n%3 == 0 {
		return fmt.Sprintf(`"r%d"`, n)
	}
	return strconv.Itoa(n)
}

// spell is request n's id as the agent writes it back: as sent, or the
// same value written otherwise (README: "`20.0` is `20`").
func spell(n int, b byte) string {
	switch {
	case b&3 == 0:
		return rawID(n)
	case n%3 == 0:
		return fmt.Sprintf(`"\u0072%d"`, n)
	case b&3 == 1:
		return strconv.Itoa(n) + ".0"
	case b&3 == 2:
		return strconv.Itoa(n) + "e0"
	}
	return strconv.Itoa(n*10) + "e-1"
}

// idValue is an id's value: the Conn matches ids by value.
func idValue(raw string) string {
	v := gjson.Parse(raw)
	if v.Type == gjson.String {
		return "s" + v.Str
	}
	return "n" + strconv.FormatFloat(v.Num, 'g', -1, 64)
}

// request sends a client request under a new id: the client never reuses
// an id it awaits a response under.
func (w *rwWire) request(method, sid, params string) {
	w.t.Helper()
	r := &rwReq{n: len(w.reqs), method: method, sid: sid}
	r.raw = rawID(r.n)
	w.reqs = append(w.reqs, r)
	// The sessions the Conn starts tracking at the request (Conn.Outbound,
	// rewriteRequest): before the request records its session's
	// generation.
	switch method {
	case "session/prompt", "session/load", "session/set_config_option":
		w.touch(sid)
	}
	if s := w.sessions[sid]; s != nil {
		r.gen = s.gen
	}
	fr := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, r.raw, method, params)
	wire := w.outbound([]byte(fr), method)
	switch {
	case wire == nil:
	case wire.Frame == nil:
		// README, "Rewritten frames": Wire.Deliver is "the response to a
		// refused request: hand it to the client as if the agent sent it".
		w.mine(wire.Deliver, "Deliver")
		if gjson.GetBytes(wire.Deliver, "id").Raw != r.raw || !gjson.GetBytes(wire.Deliver, "error").IsObject() {
			w.fatalf("the refusal %q of %s is not an error under the client's id", wire.Deliver, fr)
		}
		r.refused = true
		w.refused++
		w.deliver(r, "Deliver")
		return
	default:
		// Rewrite: "the agent gets another request in its place, under the
		// client's id" (docs/grok.md, section 3: session/set_model).
		w.mine(wire.Frame, "Frame")
		if gjson.GetBytes(wire.Frame, "id").Raw != r.raw || gjson.GetBytes(wire.Frame, "method").Str != "session/set_model" ||
			gjson.GetBytes(wire.Frame, "params.sessionId").Str != sid || wire.Deliver != nil {
			w.fatalf("the rewrite of %s is %q, delivering %q", fr, wire.Frame, wire.Deliver)
		}
		r.rewritten = true
	}
	w.track(r)
}

// endSession ends a session as the Conn does: the requests made in it
// that still await their response are forgotten, but a rewritten one,
// whose response must still be turned back (README's bounds table); none
// counts as evicted.
func (w *rwWire) endSession(sid string) {
	if s := w.sessions[sid]; s != nil {
		w.tracked = slices.DeleteFunc(w.tracked, func(o *rwReq) bool {
			if o.sid != sid || o.gen != s.gen || o.rewritten {
				return false
			}
			o.tracked = false
			return true
		})
	}
	delete(w.sessions, sid)
}

// touch starts tracking a session the Conn does not know.
func (w *rwWire) touch(sid string) {
	if sid != "" && w.sessions[sid] == nil {
		w.gens++
		w.sessions[sid] = &rwSession{gen: w.gens}
	}
}

// session returns r's session if it is the one r was sent in.
func (w *rwWire) session(r *rwReq) *rwSession {
	if s := w.sessions[r.sid]; s != nil && s.gen == r.gen {
		return s
	}
	return nil
}

// track keeps a request until its response, as the Conn does: past
// MaxRequests the oldest not rewritten is forgotten (Options.MaxRequests;
// README's bounds table: "a forgotten prompt's turn ends with the
// session's next turn that ends"); a prompt starts a turn and a load a
// replay.
func (w *rwWire) track(r *rwReq) {
	if len(w.tracked) >= rwOpts.MaxRequests {
		// A rewritten request is never forgotten (Options.MaxRequests):
		// there is always another, as at most MaxRequests-1 are rewritten.
		i := slices.IndexFunc(w.tracked, func(o *rwReq) bool { return !o.rewritten })
		if i < 0 {
			w.fatalf("%d requests tracked, all rewritten", len(w.tracked))
		}
		old := w.tracked[i]
		w.tracked = slices.Delete(w.tracked, i, i+1)
		old.tracked, old.evicted = false, true
		w.evicted++
		if s := w.session(old); s != nil {
			switch old.method {
			case "session/prompt":
				if s.turns > s.forgotten {
					s.forgotten++
				}
			case "session/load":
				s.loading = max(s.loading-1, 0)
			}
		}
	}
	r.tracked = true
	w.tracked = append(w.tracked, r)
	if s := w.session(r); s != nil {
		switch r.method {
		case "session/prompt":
			s.turns++
		case "session/load":
			s.loading++
		}
	}
}

// outbound feeds a client frame; method is the request's, "" for a
// notification. Only a set_config_option is rewritten (README:
// "Every other frame passes byte for byte").
func (w *rwWire) outbound(fr []byte, method string) *acpdialect.Wire {
	w.t.Helper()
	w.log = append(w.log, "client: "+string(fr))
	res, err := w.c.Outbound(fr)
	if err != nil || res.Reply != nil {
		w.fatalf("Outbound: %q, %v", res.Reply, err)
	}
	w.events(res)
	if res.Wire != nil && method != "session/set_config_option" {
		w.fatalf("Outbound rewrote %s: %+v", fr, res.Wire)
	}
	return res.Wire
}

// events checks a Result's events encode and decode to themselves.
func (w *rwWire) events(res acpdialect.Result) {
	for _, e := range res.Events {
		roundTrip(w.t, e)
	}
}

// mine checks a frame the Conn made for the wire: one JSON line ending in
// '\n' (Wire's doc), no longer than the client reads (Conn.LimitLine).
func (w *rwWire) mine(fr []byte, what string) {
	w.t.Helper()
	if len(fr) == 0 || fr[len(fr)-1] != '\n' || strings.Count(string(fr), "\n") != 1 || !gjson.ValidBytes(fr) {
		w.fatalf("%s %q is not one JSON line", what, fr)
	}
	if w.limit > 0 && len(fr)-1 > w.limit {
		w.fatalf("%s is %d bytes, over LimitLine(%d)", what, len(fr)-1, w.limit)
	}
}

// deliver counts a response the client gets: at most one per request
// (README: "Every request gets exactly one reply").
func (w *rwWire) deliver(r *rwReq, what string) {
	w.t.Helper()
	r.delivered++
	if r.delivered > 1 {
		w.fatalf("%s: a second response to the client's request %s (%s)", what, r.raw, r.method)
	}
}

// inFlight returns the x-th oldest request the agent got and has not
// answered, or nil.
func (w *rwWire) inFlight(x int) *rwReq {
	var open []*rwReq
	for _, r := range w.reqs[1:] {
		if !r.refused && r.answered == 0 {
			open = append(open, r)
		}
	}
	if len(open) == 0 {
		return nil
	}
	return open[x%len(open)]
}

// result is the agent's success result for r: what Grok answers each
// method. b's bit 4 gives session/new a sessionId of another session,
// bit 5 a result with options of its own.
func result(r *rwReq, b byte) string {
	switch r.method {
	case "session/new":
		own := ""
		if b&0x20 != 0 {
			own = "," + rwOwnOptions
		}
		return fmt.Sprintf(`{"sessionId":%q,"models":%s%s}`, pick(rwSessions, b, 6), rwCatalog, own)
	case "session/load":
		return `{"models":` + rwCatalog + `}`
	case "session/prompt":
		return `{"stopReason":"end_turn"}`
	case "session/set_config_option":
		if !r.rewritten {
			return `{"configOptions":[]}`
		}
		return rwSetModelResults[(b>>4)&3]
	}
	return `{}`
}

// respond sends the agent's response to r under its id spelled as b's
// bits 0-1 say: a result, or when b's bit 2 is set an error (bit 3 and 4
// pick which).
func (w *rwWire) respond(r *rwReq, b byte) {
	w.t.Helper()
	if r == nil {
		return
	}
	body := `"result":` + result(r, b)
	if b&4 != 0 {
		body = rwErrors[(b>>3)&3]
	}
	fr := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,%s}`, spell(r.n, b), body)
	first := r.answered == 0
	r.answered++
	res := w.inbound([]byte(fr))
	if !first || r.refused {
		w.noWire(res, fr)
		return
	}
	w.answered(r, res, fr)
}

// answered checks the first response the agent sent to a request it got,
// and counts what the client gets.
func (w *rwWire) answered(r *rwReq, res acpdialect.Result, fr string) {
	w.t.Helper()
	switch {
	case r.rewritten:
		// Rewrite: the agent's response "is turned back into the one the
		// client asked for"; README: "Inbound: deliver this [Wire.Frame]
		// to the client instead of the agent's frame". Never the agent's
		// set_model response as it is.
		if res.Wire == nil || res.Wire.Frame == nil {
			w.fatalf("the agent's response %s to the rewritten request %s reaches the client as it is (tracked %v, forgotten %v)",
				fr, r.raw, r.tracked, r.evicted)
		}
		w.mine(res.Wire.Frame, "Inbound's Frame")
		got := gjson.ParseBytes(res.Wire.Frame)
		// The one the client asked for: a set_config_option result has
		// its configOptions (ACP's SetSessionConfigOptionResponse).
		if idValue(got.Get("id").Raw) != idValue(r.raw) || got.Get("result").Exists() == got.Get("error").Exists() ||
			got.Get("result").Exists() && !got.Get("result.configOptions").IsArray() {
			w.fatalf("the turned-back response %q is not one set_config_option response under %s", res.Wire.Frame, r.raw)
		}
	case res.Wire != nil:
		// SessionHooks.Result: Grok's session/new and session/load get
		// their config options in the result the client sees
		// (docs/grok.md, section 2); nothing else is rewritten.
		if r.method != "session/new" && r.method != "session/load" || res.Wire.Frame == nil {
			w.fatalf("the response %s to %s became %+v", fr, r.method, res.Wire)
		}
		w.mine(res.Wire.Frame, "Inbound's Frame")
		if idValue(gjson.GetBytes(res.Wire.Frame, "id").Raw) != idValue(r.raw) {
			w.fatalf("the response %q is not under %s", res.Wire.Frame, r.raw)
		}
	}
	w.deliver(r, "Inbound")
	if !r.tracked {
		return // forgotten: its response ends nothing (Stats.RequestsEvicted)
	}
	r.tracked = false
	w.tracked = slices.DeleteFunc(w.tracked, func(o *rwReq) bool { return o == r })
	if r.method == "session/new" {
		w.touch(gjson.Get(fr, "result.sessionId").Str) // the session its result names
	}
	s := w.session(r)
	if s == nil {
		return // its session ended since: a stale response ends nothing
	}
	switch r.method {
	case "session/prompt":
		// A turn ends when its prompt's response arrives; a forgotten
		// prompt's turn with it (README's bounds table).
		s.turns = max(s.turns-1-s.forgotten, 0)
		s.forgotten = 0
	case "session/load":
		s.loading = max(s.loading-1, 0)
	}
}

// stray sends a response the client awaits nothing under: a duplicate
// of an answered request's, or an id no request had. The Conn makes
// nothing of it (it keeps no answered id): the agent's frame goes on as
// it is, the agent's own mistake, which the client's SDK drops.
func (w *rwWire) stray(a, b byte) {
	w.t.Helper()
	id := strconv.Itoa(900 + int(a&7))
	for _, r := range w.reqs[1:] {
		if r.answered > 0 && r.n%4 == int(a&3) {
			id = spell(r.n, b)
		}
	}
	fr := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id)
	if b&4 != 0 {
		fr = fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,%s}`, id, rwErrors[(b>>3)&3])
	}
	w.noWire(w.inbound([]byte(fr)), fr)
}

// noWire checks the Conn made no frame of the agent's: the client gets it
// as the agent sent it.
func (w *rwWire) noWire(res acpdialect.Result, fr string) {
	w.t.Helper()
	if res.Wire != nil {
		w.fatalf("a response to no request in flight, %s, became %+v", fr, res.Wire)
	}
}

// inbound feeds an agent frame: well-formed, so no error.
func (w *rwWire) inbound(fr []byte) acpdialect.Result {
	w.t.Helper()
	w.log = append(w.log, "agent: "+string(fr))
	res, err := w.c.Inbound(fr)
	if err != nil || res.Reply != nil {
		w.fatalf("Inbound: %q, %v", res.Reply, err)
	}
	w.events(res)
	return res
}

// echo sends Grok's echo of the prompt in sid: the Conn flags it exactly
// while a turn of the session is in flight, never while session/load
// replays history (SessionHooks.EchoesPrompt).
func (w *rwWire) echo(sid string) {
	w.t.Helper()
	fr := seqUpdate(sid, `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"hi"}}`)
	res := w.inbound(fr)
	s := w.sessions[sid]
	want := s != nil && s.turns > 0 && s.loading == 0
	if got := res.Wire != nil && res.Wire.Echo; got != want {
		w.fatalf("the echo in %s flagged %v; the client counts %+v", sid, got, s)
	}
}

// check is what holds after every step: the bounds, and the counts the
// Stats keep.
func (w *rwWire) check() {
	w.t.Helper()
	st := w.c.Stats()
	if st.Budget.Used > st.Budget.Limit || len(w.c.Sessions()) > rwOpts.MaxSessions {
		w.fatalf("bounds broken: %+v, sessions %v", st, w.c.Sessions())
	}
	// Stats.Refused counts "client requests a rewrite answered without
	// the agent"; Stats.RequestsEvicted those no longer tracked to keep
	// within MaxRequests.
	if st.Refused != w.refused || st.RequestsEvicted != w.evicted {
		w.fatalf("Stats refused %d, requests_evicted %d; the client counts %d, %d", st.Refused, st.RequestsEvicted, w.refused, w.evicted)
	}
}

// finish closes the Conn: after it every request the agent answered, or
// the Conn refused, got exactly one response, and a request the agent
// never answered got none.
func (w *rwWire) finish() {
	w.t.Helper()
	w.log = append(w.log, "Close")
	w.c.Close()
	for _, r := range w.reqs[1:] {
		want := 0
		if r.refused || r.answered > 0 {
			want = 1
		}
		if r.delivered != want {
			w.fatalf("the client's request %s (%s) got %d responses; want %d", r.raw, r.method, r.delivered, want)
		}
	}
	if len(w.c.Sessions()) != 0 {
		w.fatalf("after Close: sessions %v", w.c.Sessions())
	}
}
