package acpdialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// Options configures a Conn. The zero value is usable.
type Options struct {
	// Agent names the dialect explicitly (an ID such as "cursor", or an
	// agent name). It overrides identification by the initialize
	// response, whose agentInfo.version still picks the dialect's variant
	// for the agent's release (Dialect.ForVersion). An Agent no dialect
	// matches gives standard ACP behaviour.
	Agent string
	// MaxBytes bounds in bytes everything the Conn keeps, all stores
	// together: tool call cards (their kind objects with a shell's or MCP
	// tool's output), late halves, todo lists, blocking requests awaiting
	// the client's answer, child session links, background cards' aliases,
	// subagent run links (MaxRunLinks), the messages held for possible
	// child sessions (MaxHeld), sessions with their dialect's state
	// (SessionHooks, sized by SizeHint) and tracked client requests with
	// their rewrite notes. When it is full the oldest values are evicted
	// first (cards, halves, todo lists, links, aliases, run links, a
	// session's held messages, answered requests), each eviction counted
	// in Stats.Budget and its store's counters (Stats.RunLinks,
	// Stats.Early.Evicted, ...).
	//
	// No single value takes more than MaxBytes/16: a larger card, half or
	// todo list has its longest strings cut, each to the same length, as
	// little as needed (Stats.Budget.Cut; its event shows the cut value).
	// The ids a value is found by are never cut: a card or half whose ids
	// alone are that large, a session with such an id, or a request with
	// such an id is not kept (Stats.Budget.Refused; a blocking request is
	// then answered its default at once, and a session/prompt or
	// session/load starts no turn or history replay: its response could
	// end none).
	//
	// Sessions (with their states), requests awaiting an answer and
	// tracked client requests (with their notes) are never evicted for
	// another store: each keeps its own within MaxBytes/8, ending a
	// session (chosen as at MaxSessions: the oldest idle one first),
	// answering its oldest request its default, or
	// forgetting its oldest client request. A state larger than
	// MaxBytes/16 is not kept; a rewritten request whose note is that
	// large is refused. See package correlate. Default DefaultMaxBytes; at
	// least correlate.MinBudget.
	MaxBytes int64
	// Pending bounds the late halves (vendor metadata) waiting for their
	// tool call. Defaults: correlate.DefaultPerSession / DefaultTotal. Its
	// Budget is ignored: MaxBytes is the one budget.
	Pending correlate.Limits
	// Tools bounds the tool call states kept for merging, and the child
	// session links of native subagents. Defaults: DefaultToolsPerSession
	// / DefaultTools. Its Budget is ignored, as Pending's.
	Tools correlate.Limits
	// MaxSessions bounds the sessions tracked at once; when a new one
	// would exceed it, the oldest idle one is ended (no session/prompt or
	// session/load of its own or of its parent session in flight), else
	// the oldest subagent's session, else the oldest. Default
	// DefaultMaxSessions.
	MaxSessions int
	// MaxRequests bounds the client requests tracked until the agent's
	// response (to see turns end): past it the oldest is forgotten
	// (Stats.RequestsEvicted). A request a dialect rewrote (Rewrite) is
	// never forgotten, since its response could then not be turned back:
	// the oldest other one goes, and a rewrite beyond MaxRequests-1 in
	// flight (or half the requests' share of MaxBytes) is refused with
	// -32603 (Wire.Deliver). Default DefaultMaxRequests.
	MaxRequests int
	// ClientMethods are agent -> client methods the client serves itself
	// (its own "_" extensions, say). Like ACP's standard client methods they
	// get no reply from the Conn and are not read by the dialect; every
	// other method no dialect allows is declined with -32601. Naming a
	// method the dialect allows takes it over: through wiretap it still
	// reaches HandleExtensionMethod (renamed), so answer it there yourself
	// instead of calling Tap.HandleExtension.
	ClientMethods []string
	// ClientAnswers says the client answers the agent's blocking requests
	// (Cursor's questions and plans) itself, with Conn.Answer (through
	// wiretap: Tap.Answer) or by sending the response, fed through
	// Outbound. It is set here, on the Conn, also for wiretap. Without it the Conn
	// answers each at once with the dialect's default (cancelled for a
	// question or plan), so that a client with no handler never stalls
	// the agent's turn.
	ClientAnswers bool
	// AnswerTimeout is how long a blocking request waits for the client's
	// answer before Expire (or wiretap) answers its default. Default
	// DefaultAnswerTimeout.
	AnswerTimeout time.Duration
	// MaxRunLinks bounds the links from a subagent run's child to its card
	// (Dialect.Runs), kept so that later frames naming only the child
	// find the card: past it the oldest link of a finished run goes first,
	// else the oldest. Default DefaultRunLinks.
	MaxRunLinks int
	// Now is the clock for answer deadlines (Conn.Now reads it). Default
	// time.Now. wiretap times its waits on it too, so a test may move it
	// by hand; it must then be safe for concurrent use.
	Now func() time.Time
	// MaxOutput bounds the output text a card keeps (Shell.Output,
	// MCPTool.Output), in bytes: past it the tail is kept and
	// OutputTruncated says so. Default DefaultMaxOutput. A dialect may
	// keep less of its own (Codex keeps at most codex.MaxMCPOutput of an
	// MCP call's output), never more.
	MaxOutput int
	// MaxHeld and MaxHeldBytes bound the message events held for each
	// session that may be an unlinked subagent's (Dialect.ChildSessions),
	// in events and in bytes of text: past them the oldest go, counted in
	// Stats.Early.Evicted. Across sessions MaxBytes bounds them: each
	// session's held events are one value of the budget (at most
	// MaxBytes/16), evicted all at once. Defaults DefaultMaxHeld,
	// DefaultMaxHeldBytes.
	MaxHeld, MaxHeldBytes int
	// Checked says that the caller checks every frame to be valid JSON
	// (what encoding/json.Valid says) before it hands the frame over, so
	// the Conn does not check it again: for a caller that parses each
	// line itself first, as the replay command does. Set it only when
	// that holds: a frame that is not JSON is then read as far as it
	// goes, may change state and gets no ErrInvalidJSON.
	Checked bool
}

// Default bounds of a Conn's own stores.
const (
	DefaultToolsPerSession = 4096
	DefaultTools           = 16384
	DefaultMaxSessions     = 256
	DefaultMaxRequests     = 4096
	DefaultMaxOutput       = 64 << 10
	DefaultRunLinks        = 256
	// DefaultMaxBytes is the default byte budget of a Conn: 64 MiB. An
	// honest session keeps a few hundred kilobytes.
	DefaultMaxBytes = correlate.DefaultBudget
)

// Result is what one frame produced: Inbound, Outbound and Answer return
// one, and Expire one per request it answers.
//
// Everything in it stays valid after the call, and after later calls: the
// Conn never reuses a Result's memory. It is read-only: payload kind
// objects are shared with the Conn's state and with later events (copy
// with Payload.Clone to change one), and a reply event's ID and Result view
// the Reply bytes. Every slice is capped, so appending to one never writes
// into another.
type Result struct {
	// Reply is what the client must write to the agent, as is: a complete
	// JSON-RPC response frame ending in '\n'; nil when the client owes no
	// reply (or the reply is the client's own business, as for standard
	// methods). In one case it holds more than one frame, each a whole
	// line: a blocking request that pushes an older one out of the table
	// of waiting requests (Options.MaxRequests) is preceded by that one's
	// default reply, and so is any agent request that reuses the id of
	// one still waiting. The id is then the new request's: the client's
	// response to it, if the client serves it (a standard method, say,
	// whose Reply is then that default alone), passes through untouched.
	Reply []byte
	// Events are the normalized changes the frame caused, in order.
	Events []Event
	// Awaiting says the frame is a blocking request that now waits for the
	// client's answer (Options.ClientAnswers): see Conn.Answer.
	Awaiting bool
	// Quarantine says the frame is a session/update of a kind of the
	// dialect's own, or of a draft kind every connection reads
	// (UpdateSubagent, UpdateSessionMessage, UpdateState, UpdateTerminal,
	// UpdateTerminalOutput): the SDKs do not
	// know it and would misread it, so wiretap hands it to the client on a
	// "_" method instead.
	Quarantine bool
	// Wire, unless nil, says the frame does not go on as it is: a
	// dialect rewrote it (see Rewrite), or it is the agent's echo of the
	// user's prompt. One pointer, so that a Result stays as small (and as
	// cheap to return) as it was for every other frame.
	Wire *Wire
}

// Stats counts what a Conn saw. Pending, Tools, Links and Parents are the
// correlation stores' own counters; Budget counts the byte budget's
// evictions (of every store), cuts and refusals (Options.MaxBytes).
type Stats struct {
	Frames               uint64 `json:"frames"`                // frames fed to Inbound and Outbound, malformed ones included
	Malformed            uint64 `json:"malformed"`             // not JSON-RPC objects, or not valid JSON where it would act
	Replies              uint64 `json:"replies"`               // reply frames the Conn made: a dialect's answer, a decline, a default or a client's answer
	Declined             uint64 `json:"declined"`              // vendor requests answered -32601
	IgnoredNotifications uint64 `json:"ignored_notifications"` // unknown vendor notifications
	LateMerged           uint64 `json:"late_merged"`           // late halves merged into a tool call
	LateDropped          uint64 `json:"late_dropped"`          // late halves with no tool call id or session
	// SessionsEvicted counts sessions ended to keep within MaxSessions or
	// the sessions' share of MaxBytes.
	SessionsEvicted uint64 `json:"sessions_evicted"`
	// TodosEvicted counts sessions' todo lists dropped for the budget (the
	// next update starts a new list).
	TodosEvicted uint64 `json:"todos_evicted"`
	// AnswersEvicted counts blocking requests answered their default
	// early, to keep within MaxRequests or their share of MaxBytes, and
	// answered ones forgotten to keep within MaxRequests or the budget (a
	// second answer to one is then not refused). Those a session's end or
	// Close forgets are not counted: nothing of a session outlives it.
	AnswersEvicted uint64 `json:"answers_evicted"`
	// RequestsEvicted counts client requests no longer tracked, to keep
	// within MaxRequests or their share of MaxBytes (their response then
	// ends no turn: a forgotten prompt's turn ends with the session's
	// next turn that ends).
	RequestsEvicted uint64                `json:"requests_evicted"`
	Rewritten       uint64                `json:"rewritten,omitempty"` // frames a dialect rewrote, both directions
	Refused         uint64                `json:"refused,omitempty"`   // client requests a rewrite answered without the agent
	Pending         correlate.Stats       `json:"pending"`             // late halves waiting for their tool call's card
	Tools           correlate.Stats       `json:"tools"`               // the tool call cards
	Links           correlate.Stats       `json:"links"`               // (session, child session) -> card
	Parents         correlate.Stats       `json:"parents"`             // child session -> parent card
	Budget          correlate.BudgetStats `json:"budget"`              // the shared byte budget (MaxBytes)
	// RunLinks counts the links from subagent runs to their cards
	// (Options.MaxRunLinks); omitted when the dialect reports no runs.
	RunLinks correlate.Stats `json:"run_links,omitzero"`
	// Early counts the child sessions' cards nested and messages held
	// (Dialect.ChildSessions); omitted for other dialects.
	Early EarlyStats `json:"early,omitzero"`
}

// ErrNotObject is returned for a frame that is not a JSON object.
var ErrNotObject = errors.New("acpdialect: frame is not a JSON-RPC object")

// ErrInvalidJSON is returned for a frame that starts as a JSON object but
// is not valid JSON (truncated, trailing bytes, a broken token).
var ErrInvalidJSON = errors.New("acpdialect: frame is not valid JSON")

// Conn normalizes one agent connection. Feed it every frame in both
// directions, in wire order: Inbound for agent -> client, Outbound for
// client -> agent. It identifies the agent, tracks sessions and turns,
// correlates vendor metadata with tool calls, and returns the replies the
// client owes and the normalized events.
//
// Make one with Registry.NewConn (dialects.Registry() holds the built-in
// dialects): the zero Conn is not usable. A Conn is not safe for concurrent use; serialize calls
// (wiretap does). Frames are only read during the call: the caller may
// reuse the buffer.
//
// Vendor metadata that names a tool call but no session (Cursor's
// cursor/task) is attributed to the session whose card it fits, else to the
// session whose turn is in flight: a turn starts with the client's
// session/prompt (seen through Outbound) and ends with its response. With
// no card and no turn it is dropped and counted in Stats.LateDropped.
type Conn struct {
	reg      *Registry
	d        *Dialect
	base     *Dialect // d before the agent's version refined it (Dialect.ForVersion)
	fixed    bool     // the dialect was named explicitly
	v2       bool     // the agent answered initialize as ACP v2 does (info)
	repeated []string // the update kinds d lists more than once (see Update)
	sessions map[string]*session
	last     *session // the session touched last, if it has not ended: most frames name it again
	seq      uint64
	requests map[string]request
	// reqOrder is the tracked requests' ids, oldest first, with stale
	// entries (answered; or an id since reused, whose order differs).
	reqOrder []orderedID
	reqSeq   uint64
	reqBytes int64 // held in the budget for the tracked requests
	// reqStale is the bytes of the ids that reqOrder's stale entries keep
	// alive, which the budget no longer counts: see untrack.
	reqStale int64
	// rwCount and rwBytes are the rewritten requests among them
	// (request.note set): bounded on their own, and never forgotten for
	// another request (roomForRewrite).
	rwCount int
	rwBytes int64
	// budget bounds the bytes of every store (Options.MaxBytes);
	// sessBytes is what the sessions hold in it.
	budget    *correlate.Budget
	sessBytes int64
	tools     *correlate.Store[toolState]
	pending   *correlate.Store[Payload]
	opts      Options
	maxLine   int // LimitLine
	stats     Stats
	skip      skipCache // prefixes of recent frames that needed nothing
	// awaiting holds blocking agent requests by raw id, answered ones
	// for a while too (to refuse a second answer); waiting counts the
	// unanswered, and waitBytes what they hold in the budget.
	awaiting   map[string]*awaited
	awaitOrder []*awaited
	waiting    int
	waitBytes  int64
	children   *correlate.Store[string] // (session, child session id) -> tool call id
	// childOf maps a child session to its parent's card: ("", child
	// session) -> card. One bucket for all (a child has one parent), not a
	// session list per child.
	childOf *correlate.Store[correlate.Key]
	// aliases maps another name of a card (a background task's id) in
	// its session to the card's tool call id: see Late.Alias.
	aliases *correlate.Store[string]
	runs    runLinks // subagent run child -> card (Dialect.Runs)
}

type session struct {
	id    string // owned: keys and events use it instead of a copy
	turns int    // session/prompt requests awaiting their response
	// forgotten counts those of turns no longer tracked (MaxRequests):
	// the next turn end ends them too.
	forgotten int
	// accepted counts those of turns an ACP v2 agent answered when it
	// accepted the prompt: they end when its state goes idle
	// (stateChange). finished counts idle states that ended a prompt
	// whose acceptance is still to come: it ends at its acceptance.
	accepted, finished int
	lastTurn           uint64 // seq of the latest turn start
	// epoch changes (to a new seq) when the session goes from idle to busy
	// and at every turn end: a card made in one epoch takes a sweeping
	// dialect's late metadata only in that epoch. A prompt queued behind
	// another does not start a new one.
	epoch   uint64
	created uint64
	todo    todoList // the latest todo list, after merges
	// parent is the card of the native subagent this session is the
	// child session of: its tool calls nest under that card.
	parent correlate.Key
	// marked is the dialect's session mark (Update.Mark).
	marked bool
	// idle says the last state the agent reported was idle: another idle
	// is a repeat, no new end. working says the spell of work since the
	// last idle began while a prompt awaited its answer: it may be that
	// prompt's, and its idle may end the prompt before its acceptance.
	// stated says a state came at all.
	idle, working, stated bool
	// lists says a state_update reported the session's background work:
	// the agent then reports each piece's end itself, and the Conn ends
	// none at a turn's end.
	lists   bool
	loading int // session/load requests awaiting their response: history replays
	// requests counts the tracked client requests made in it (request.created
	// is its created): at its end those only it could use go (endRequests).
	requests int
	// asked says a blocking agent request named it: at its end those
	// answered are forgotten (endAwaited).
	asked bool
	// ext is what a dialect with SessionHooks keeps: made on first use,
	// so that other dialects' sessions stay as small as before.
	ext *sessionExt
	// early is what a session that may be a subagent's holds until it is
	// linked (Dialect.ChildSessions).
	early *early
}

// sessionExt is a session's state for a dialect's SessionHooks.
type sessionExt struct {
	state any // the dialect's, replaced, never changed
	// stateSize is what the state holds in the budget, with the session.
	stateSize int64
	// window is the last context window sample reported.
	window    ContextWindow
	hasWindow bool
}

// x returns the session's extension, making it.
func (s *session) x() *sessionExt {
	if s.ext == nil {
		s.ext = &sessionExt{}
	}
	return s.ext
}

// hookState returns the dialect's state of the session, or nil.
func (s *session) hookState() any {
	if s == nil || s.ext == nil {
		return nil
	}
	return s.ext.state
}

// request is a client request awaiting the agent's response.
type request struct {
	method  string
	session string
	created uint64 // the session's created seq: a response outliving it is stale
	order   uint64 // when it was tracked: its entry in reqOrder says the same
	// note, for a request a Rewrite sent the agent in another form, is
	// its Redirect.Note (noNote for none), kept until the response; the
	// Rewrite, found again by the method, turns the response back. Kept
	// here rather than behind a pointer: a rewritten request costs no
	// allocation of its own.
	note any
}

// redirectedOverhead is what a redirected request keeps beyond its note:
// the note's interface and the box it may need (64-bit).
const redirectedOverhead = 64

// toolState is a card: the store's value, measured for the budget (Size,
// Cut).
type toolState struct {
	id string // the tool call id, owned
	// epoch is the low half of its session's epoch when the card started
	// (turnEpoch): with the flags beside it, one word. Two epochs alike
	// there are 2^32 turns apart, which no card outlives in practice.
	epoch    uint32
	surfaced bool
	native   bool // made from a dialect's own update kind, not a tool call
	// announced says a tool_call frame has named the card: until one
	// has, a tool_call in the card's epoch merges rather than restarts.
	announced bool
	// stdName says the card's Tool.Name is ACP's standard name, which a
	// vendor's name never replaces (withName).
	stdName bool
	acpKind string // the latest ACP kind, for a generic payload
	payload Payload
	child   string // the subagent run the card is for (Dialect.Runs), owned
}

// NewConn returns a normalizer for one agent connection.
func (r *Registry) NewConn(opts Options) *Conn {
	if opts.Tools.PerSession <= 0 {
		opts.Tools.PerSession = DefaultToolsPerSession
	}
	if opts.Tools.Total <= 0 {
		opts.Tools.Total = DefaultTools
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.MaxRequests <= 0 {
		opts.MaxRequests = DefaultMaxRequests
	}
	if opts.MaxRunLinks <= 0 {
		opts.MaxRunLinks = DefaultRunLinks
	}
	if opts.AnswerTimeout <= 0 {
		opts.AnswerTimeout = DefaultAnswerTimeout
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	b := correlate.NewBudget(opts.MaxBytes)
	opts.MaxBytes = b.Limit()
	opts.Tools.Budget, opts.Pending.Budget = b, b
	c := &Conn{
		reg:      r,
		sessions: map[string]*session{},
		requests: map[string]request{},
		budget:   b,
		tools:    correlate.New[toolState](opts.Tools),
		pending:  correlate.New[Payload](opts.Pending),
		children: correlate.New[string](opts.Tools),
		childOf:  correlate.New[correlate.Key](correlate.Limits{PerSession: opts.Tools.Total, Total: opts.Tools.Total, Budget: b}),
		aliases:  correlate.New[string](opts.Tools),
		awaiting: map[string]*awaited{},
		opts:     opts,
	}
	c.runs.budget = b
	if opts.Agent != "" {
		c.d = r.resolve(opts.Agent)
		c.base, c.fixed = c.d, true
		c.repeated = c.d.repeatedKinds()
	}
	return c
}

// Dialect returns the dialect the connection was identified as, or nil:
// its variant for the agent's release, when the initialize result named
// one that the dialect has a variant for (Dialect.ForVersion).
func (c *Conn) Dialect() *Dialect { return c.d }

// Agent returns the identified dialect's ID, or "" for an unknown agent.
func (c *Conn) Agent() string {
	if c.d == nil {
		return ""
	}
	return c.d.ID
}

// Allows reports whether the connection's dialect accepts a vendor method.
func (c *Conn) Allows(method string) bool { return c.d.Allows(method) }

// Stats returns the counters.
func (c *Conn) Stats() Stats {
	st := c.stats
	st.Pending = c.pending.Stats()
	st.Tools = c.tools.Stats()
	st.RunLinks = c.runs.stats()
	st.Links = c.children.Stats()
	st.Parents = c.childOf.Stats()
	st.Budget = c.budget.Stats()
	return st
}

// Sessions returns the ids of the sessions being tracked, sorted.
func (c *Conn) Sessions() []string {
	out := make([]string, 0, len(c.sessions))
	for id := range c.sessions {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// Close ends every session: the connection is gone. Blocking requests
// still waiting for the client's answer are due at once, as at the end of
// a turn, those of no tracked session too: the next Expire returns each
// one's default reply and reply event, so that a client's log shows how
// each ended (an Answer before it is still the one the agent gets). Each
// is forgotten once answered, and those answered already are forgotten
// now: a second answer gets ErrNotPending, as for an unknown id. Child
// halves still waiting for their card's link (OpenCode's nodes, kept by
// child session alone, not with any session) are dropped, counted as
// swept: no card can link them once the connection is gone.
func (c *Conn) Close() {
	c.endAll()
	c.pending.SweepSession(childKey("").Session)
	c.endAllAwaited()
}

// frameView is the top level of one frame, read without decoding it.
type frameView struct {
	s      string // the frame, aliasing the caller's bytes
	method gjson.Result
	id     gjson.Result
	hasID  bool
	params string // raw params, read with the id by readIDParams
	// whole says the walk for the method went through every member and
	// found none: then id and result (raw, first occurrences) are read,
	// and a response needs no second walk for them.
	whole  bool
	rawID  string
	result string
	// checked says that walk also found the whole frame valid JSON.
	checked bool
	// in holds the first sessionId, agentInfo and info members of the
	// first result object, raw: a checking walk reads them on its way
	// through the result (scan.MembersValidIn), for the responses that
	// need them, which would otherwise walk a large result again.
	in resultFields
}

// resultFields are the result members a response is read for.
type resultFields struct {
	sessionID, agentInfo, info string
}

func view(frame []byte, check bool) (frameView, error) {
	frame = bytes.TrimSpace(frame)
	if len(frame) == 0 || frame[0] != '{' {
		return frameView{}, ErrNotObject
	}
	v := frameView{s: scan.UnsafeString(frame)}
	// The method's first occurrence, as scan.Member reads it. A response
	// has none, so the walk goes through it whole (past a large result):
	// it keeps the id and the result on the way, and checks the frame
	// (unless the caller did: Options.Checked).
	end, valid := v.walk(check)
	if check && end < 0 && !valid {
		// Not JSON: read what a lenient walk reads, as the SDK-facing
		// checks expect (the frame is refused once it is acted on).
		end, _ = v.walk(false)
	}
	v.whole = end > 0
	v.checked = valid && end == len(v.s)
	return v, nil
}

// walk reads the method, and if there is none the id and result, of the
// frame's members; checking, it also checks them (scan.MembersValid).
func (v *frameView) walk(check bool) (end int, valid bool) {
	var method string
	var seen uint8
	v.rawID, v.result, v.in = "", "", resultFields{}
	read := func(k, raw string) bool {
		switch {
		case k == "method":
			method = raw
			return false
		case k == "id" && seen&1 == 0:
			v.rawID, seen = raw, seen|1
		case k == "result" && seen&2 == 0:
			v.result, seen = raw, seen|2
		}
		return true
	}
	if check {
		var inSeen uint8
		in := func(k, raw string) bool {
			switch {
			case seen&2 != 0: // not the first result
			case k == "sessionId" && inSeen&1 == 0:
				v.in.sessionID, inSeen = raw, inSeen|1
			case k == "agentInfo" && inSeen&2 == 0:
				v.in.agentInfo, inSeen = raw, inSeen|2
			case k == "info" && inSeen&4 == 0:
				v.in.info, inSeen = raw, inSeen|4
			}
			return true
		}
		end, valid = scan.MembersValidIn(v.s, 0, read, "result", in)
	} else {
		end = scan.Members(v.s, read)
	}
	v.method = scan.Result(method)
	return end, valid
}

// clientView reads a client frame's method, id, params and result (first
// occurrences) in one walk over all of it, which also checks it: the Conn
// acts on every client frame, so each is checked anyway. A frame that is
// not valid JSON is read as view reads it, and left unchecked.
func clientView(frame []byte, check bool) (frameView, error) {
	trimmed := bytes.TrimSpace(frame)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return frameView{}, ErrNotObject
	}
	v := frameView{s: scan.UnsafeString(trimmed)}
	var method string
	var seen uint8
	read := func(k, raw string) bool {
		switch {
		case k == "method" && seen&1 == 0:
			method, seen = raw, seen|1
		case k == "id" && seen&2 == 0:
			v.rawID, seen = raw, seen|2
		case k == "params" && seen&4 == 0:
			v.params, seen = raw, seen|4
		case k == "result" && seen&8 == 0:
			v.result, seen = raw, seen|8
		}
		return true
	}
	var end int
	if check {
		var valid bool
		if end, valid = scan.MembersValid(v.s, 0, read); !valid || end != len(v.s) {
			return view(frame, false) // not JSON: Outbound refuses it
		}
		v.checked = true
	} else {
		end = scan.Members(v.s, read)
	}
	v.method = scan.Result(method)
	v.whole = end > 0 && !v.method.Exists()
	v.id = scan.Result(v.rawID)
	v.hasID = v.id.Exists() && v.id.Type != gjson.Null
	return v, nil
}

// resultMember returns the raw result, as scan.Member(v.s, "result").
func (v *frameView) resultMember() string {
	if v.whole {
		return v.result
	}
	return scan.Member(v.s, "result")
}

// readIDParams reads the id and the raw params in one walk: a
// notification has no id, so looking it up alone walks the whole frame.
func (v *frameView) readIDParams() {
	// The usual layout has the id before the params: then the params are
	// not skipped here, only viewed from their start (running on past
	// them), for the handler that reads them and stops at their end.
	var id string
	seenID := false
	_, tail := scan.Walk(v.s, "params", func(k, raw string) bool {
		if k == "id" && !seenID {
			id, seenID = raw, true
		}
		return true
	})
	if seenID && tail != "" {
		v.params = tail
		v.id = scan.Result(id)
		v.hasID = v.id.Exists() && v.id.Type != gjson.Null
		return
	}
	var seen uint8
	scan.Members(v.s, func(k, raw string) bool {
		switch {
		case k == "id" && seen&1 == 0:
			id, seen = raw, seen|1
		case k == "params" && seen&2 == 0:
			v.params, seen = raw, seen|2
		}
		return seen != 3
	})
	v.id = scan.Result(id)
	v.hasID = v.id.Exists() && v.id.Type != gjson.Null
}

// readID looks up the id, which the hot path never needs.
func (v *frameView) readID() {
	if v.whole {
		v.id = scan.Result(v.rawID)
	} else {
		v.id = scan.Result(scan.Member(v.s, "id"))
	}
	v.hasID = v.id.Exists() && v.id.Type != gjson.Null
}

// Inbound handles one frame from the agent to the client. A frame that is
// not a JSON object returns ErrNotObject; one that would produce a reply,
// an event or a change but is not valid JSON returns ErrInvalidJSON and
// gets no reply (the SDKs drop such lines). Both are counted in
// Stats.Malformed. The message chunks that pass untouched are not
// validated.
func (c *Conn) Inbound(frame []byte) (Result, error) {
	c.stats.Frames++
	if c.skip.hit(frame) {
		return Result{}, nil
	}
	if f, ok := fastUpdateKind(frame); ok {
		if c.d != nil && c.d.Session != nil {
			return c.statefulUpdate(frame, f)
		}
		if !c.wantsUpdate(scan.UnsafeString(f.kind)) {
			c.skip.add(frame, f.end)
			return Result{}, nil
		}
		if toolKind(scan.UnsafeString(f.kind)) {
			return c.fastToolUpdate(frame, f)
		}
		if c.invalid(scan.UnsafeString(frame)) {
			return Result{}, ErrInvalidJSON
		}
		return c.fastUpdate(f), nil
	}
	if sid, params, update, ok := sortedUpdate(frame); ok {
		sid := scan.UnsafeString(sid)
		return c.updateAt(scan.UnsafeString(frame), scan.UnsafeString(params), scan.UnsafeString(update), &sid)
	}
	v, err := view(frame, !c.opts.Checked)
	if err != nil {
		c.stats.Malformed++
		return Result{}, err
	}
	if v.method.Type != gjson.String {
		v.readID()
		if v.method.Exists() || !v.hasID {
			// Not JSON-RPC (or not JSON, which may hide its method).
			if c.invalid(v.s) {
				return Result{}, ErrInvalidJSON
			}
			c.stats.Malformed++
			return Result{}, nil
		}
		return c.response(v)
	}
	method := v.method.Str
	if method == "session/update" {
		return c.sessionUpdate(v.s)
	}
	if c.invalid(v.s) {
		return Result{}, ErrInvalidJSON // never answered under an id read from its prefix
	}
	v.readIDParams()
	if isClientMethod(method) || c.serves(method) {
		// A subagent's session may be first seen here (OpenCode names
		// the child in its permission requests): as in an update.
		c.updateSession(scan.Result(scan.Member(v.params, "sessionId")).Str)
		var old, res Result
		if v.hasID {
			old = c.clientsID(v.id.Raw) // the client's response to this one is its own
		}
		if isClientMethod(method) && !c.serves(method) {
			res.Events = c.observe(v, method)
		}
		return old.before(res), nil
	}
	res := c.vendor(v, method)
	if v.hasID && !res.Awaiting {
		// A request the Conn answers at once: a waiting one under its id
		// gets its default first (awaitRequest does it for one that waits).
		res = c.reusedID(v.id.Raw).before(res)
	}
	return res, nil
}

// invalid reports whether a frame the Conn is about to act on is not
// JSON, and counts it malformed. The SDKs drop such a line, so the Conn
// neither answers it nor lets it change a card, a turn or a session. Only
// frames that would produce a reply, an event or a change pay for the
// check: the message chunks the fast path passes do not.
func (c *Conn) invalid(frame string) bool {
	if c.opts.Checked || scan.Valid(frame) {
		return false
	}
	c.stats.Malformed++
	return true
}

// invalidAround is invalid for a frame of which frame[start:end] was
// checked already, by the walk that read it (scan.ValidExcept).
func (c *Conn) invalidAround(frame string, start, end int) bool {
	if scan.ValidExcept(frame, start, end) {
		return false
	}
	c.stats.Malformed++
	return true
}

// fastUpdate handles an SDK-layout update of a kind wantsUpdate accepted.
// Tool calls, the hot case, go straight to their merge.
func (c *Conn) fastUpdate(f fastUpdate) Result {
	kind, sid, update := scan.UnsafeString(f.kind), scan.UnsafeString(f.sid), gjson.Parse(scan.UnsafeString(f.update))
	if kind == UpdateState {
		return Result{Events: c.stateUpdate(sid, c.d.update(kind), update), Quarantine: true}
	}
	if terminalKind(kind) {
		return Result{Events: c.terminalUpdate(sid, c.d.update(kind), update, kind), Quarantine: true}
	}
	if h := c.d.update(kind); h != nil && !toolKind(kind) {
		// The dialect reads the update itself; a kind of its own is
		// quarantined.
		return Result{Events: c.vendorUpdate(sid, h, update), Quarantine: !h.Standard}
	}
	if draftKind(kind) {
		// The subagents RFD's kinds, read as the standard says for every
		// agent whose dialect does not read them itself.
		return Result{Events: c.draftUpdate(sid, update, kind), Quarantine: true}
	}
	if kind == "available_commands_update" {
		// What update does with it, without first walking the update
		// past its list, which commands reads in the same pass.
		return Result{Events: c.commands(sid, update)}
	}
	u := frame.ReadToolUpdate(update)
	return Result{Events: c.update(sid, &u)}
}

// fastToolUpdate handles an SDK-layout tool call update, the hot case:
// the walk that reads the update checks it too, so that only the rest of
// the frame is left to check.
func (c *Conn) fastToolUpdate(b []byte, f fastUpdate) (Result, error) {
	s := scan.UnsafeString(b)
	if c.opts.Checked {
		u := frame.ReadToolUpdate(gjson.Parse(scan.UnsafeString(f.update)))
		return Result{Events: c.update(scan.UnsafeString(f.sid), &u)}, nil
	}
	var u frame.ToolUpdate
	if !frame.ReadToolUpdateChecked(&u, gjson.Parse(scan.UnsafeString(f.update))) {
		if c.invalid(s) {
			return Result{}, ErrInvalidJSON
		}
		return c.fastUpdate(f), nil // the plain path: not reached by a valid frame
	}
	start := len(s) - len(f.update)
	if end := start + len(u.Raw.Raw); !closesUpdate(s, scan.UnsafeString(f.sid), end) && c.invalidAround(s, start, end) {
		return Result{}, ErrInvalidJSON
	}
	return Result{Events: c.update(scan.UnsafeString(f.sid), &u)}, nil
}

// Outbound handles one frame from the client to the agent. Its Result has
// no Reply (the client sends its own frames); its Events are what the frame
// changed: the reply event when the frame is the client's own answer to a
// blocking request. A second answer to one returns ErrNotPending while
// the Conn remembers the first (within twice MaxRequests and the budget,
// until the request's session ends or Close): after that it is a response
// to an id the Conn no longer knows, no event and no error; a frame
// that is not valid JSON, which the agent rejects, changes nothing and
// returns ErrInvalidJSON. A response under an id the agent has since given
// to a request the client serves (Result.Reply) is that request's: no
// event, no error.
func (c *Conn) Outbound(frame []byte) (Result, error) {
	c.stats.Frames++
	v, err := clientView(frame, !c.opts.Checked)
	if err != nil {
		c.stats.Malformed++
		return Result{}, err
	}
	if !v.checked && c.invalid(v.s) {
		return Result{}, ErrInvalidJSON // the agent rejects it: no answer, no turn
	}
	if v.method.Type != gjson.String {
		events, err := c.clientResponse(v)
		return Result{Events: events}, err
	}
	// As gjson.Get(v.s, "params.sessionId") reads it.
	sid := scan.Result(scan.Member(v.params, "sessionId")).Str
	if v.hasID {
		if rw := c.d.rewrite(v.method.Str); rw != nil {
			return c.rewriteRequest(v, rw, sid), nil
		}
	}
	var s *session
	method := v.method.Str
	if method == "session/resume" && replays(v.params) {
		method = "session/load" // ACP v2's load: a resume that replays
	}
	switch method {
	case "session/prompt":
		s = c.touchSession(sid)
	case "session/cancel":
		c.dueNow(sid)
	case "session/close":
		c.endSession(sid)
	case "session/load", "session/new":
		if c.d != nil && c.d.SingleSession {
			c.endAll() // the agent keeps one session: a new one replaces it
		}
		s = c.touchSession(sid) // session/new has no id yet: its response does this
	}
	if v.hasID && c.trackClient(v, method, sid) && s != nil {
		// Only a request tracked now (its id not already awaiting a
		// response, and not too large to keep) has a response that ends
		// what it starts: any other would leave its session busy, or
		// replaying history, for good.
		switch method {
		case "session/prompt":
			c.turnStart(s)
		case "session/load":
			s.loading++ // until the response, updates replay history
		}
	}
	return Result{}, nil
}

// trackClient tracks a client request until its response, as method
// (its own, or what it means), and reports whether it is tracked now (see
// track).
func (c *Conn) trackClient(v frameView, method, sid string) bool {
	r := request{method: method, session: sid}
	if s := c.sessions[sid]; s != nil {
		r.created = s.created
	}
	return c.track(v.id.Raw, r, true)
}

// replays reports whether session/resume params ask for the session's
// history (ACP v2's replayFrom, not null): such a resume is v1's
// session/load, and claude-agent-acp serves it as one (dist/v2/session.js,
// v1RestoreSessionRequest).
func replays(params string) bool {
	r := scan.Member(params, "replayFrom")
	return r != "" && r != "null"
}

// turnStart starts a turn of s; the first of a busy spell starts an epoch,
// dropping metadata left over from before it.
func (c *Conn) turnStart(s *session) {
	c.seq++
	if s.turns == 0 {
		s.epoch = c.seq
		if c.d != nil && c.d.SweepAtTurnEnd {
			c.pending.SweepSession(s.id)
		}
	}
	s.turns++
	s.lastTurn = c.seq
}

// requestOverhead is what a tracked request costs beyond its strings: its
// map slot, its place in the order and the struct.
const requestOverhead = 208

// requestSize is what a tracked request holds in the budget.
func requestSize(id string, r request) int64 {
	n := requestOverhead + int64(len(id)+len(r.method)+len(r.session))
	if r.note != nil {
		n += redirectedOverhead + hintSize(r.note)
	}
	return n
}

// track remembers a client request until its response, within MaxRequests
// and the requests' share of the budget (the oldest is forgotten); one
// larger than the budget's MaxValue is not tracked. It reports whether the
// request is tracked now: false when a request with this id awaits its
// response, or the request is too large. views says the request's method
// and session view the frame: it keeps copies.
func (c *Conn) track(id string, r request, views bool) bool {
	id = awaitKey(id) // the agent may echo a string id escaped otherwise
	if _, ok := c.requests[id]; ok {
		return false
	}
	size := requestSize(id, r)
	if size > c.budget.MaxValue() {
		c.budget.CountRefused()
		return false
	}
	for len(c.requests) >= c.opts.MaxRequests || c.reqBytes+size > c.budget.Share() {
		if !c.forgetOldestRequest() {
			break // only rewritten requests: roomForRewrite left room beside them
		}
	}
	id = strings.Clone(id)
	if views {
		r.method = strings.Clone(r.method)
		r.session = strings.Clone(r.session)
	}
	c.reqSeq++
	r.order = c.reqSeq
	c.requests[id] = r
	c.reqOrder = append(c.reqOrder, orderedID{id, r.order})
	c.reqBytes += size
	if s := c.madeIn(r); s != nil {
		s.requests++
	}
	if r.note != nil {
		c.rwCount++
		c.rwBytes += size
	}
	c.budget.Hold(size)
	if len(c.reqOrder) > 2*c.opts.MaxRequests {
		c.compactRequests()
	}
	return true
}

// loaded ends the history replay of a session/load request.
func (c *Conn) loaded(r request) {
	if r.method != "session/load" {
		return
	}
	if s := c.madeIn(r); s != nil && s.loading > 0 {
		s.loading--
	}
}

// forgetTurn notes a forgotten prompt's turn: its response ends nothing
// now, so the next tracked prompt's response of the session ends it too
// (prompts are answered in order, and the forgotten are the oldest).
// Without this the session would stay busy for good, and no later turn's
// end would end it: its questions would wait for their deadline and its
// background cards run on.
func (c *Conn) forgetTurn(r request) {
	if r.method != "session/prompt" {
		return
	}
	if s := c.madeIn(r); s != nil && s.turns > s.forgotten {
		s.forgotten++
		if s.finished > 0 {
			// Its idle came already: it now ends with the next turn end,
			// as the forgotten do.
			s.finished--
		}
	}
}

// forgetOldestRequest stops tracking the oldest request that is not
// rewritten, and reports whether there was one. A rewritten request is
// never forgotten: its response, once the Rewrite is forgotten, would
// reach the client as the agent sent it, a response to another method
// (roomForRewrite keeps room for the others beside them).
func (c *Conn) forgetOldestRequest() bool {
	for len(c.reqOrder) > 0 {
		if _, ok := c.live(c.reqOrder[0]); ok {
			break
		}
		c.reqStale -= int64(len(c.reqOrder[0].id))
		c.reqOrder[0] = orderedID{} // the array must not keep the id alive
		c.reqOrder = c.reqOrder[1:]
	}
	for _, e := range c.reqOrder {
		if r, ok := c.live(e); ok && r.note == nil {
			// Its entry in the order is stale now: compactRequests, or
			// the loop above, drops it.
			c.loaded(r) // a forgotten load replays no more
			c.forgetTurn(r)
			c.untrack(e.id, r)
			c.stats.RequestsEvicted++
			return true
		}
	}
	return false
}

// roomForRewrite reports whether a rewritten request of size bytes may be
// tracked: the rewritten requests keep within MaxRequests-1 and half the
// requests' share of the budget, so that forgetting the others always
// makes room for a request (one is at most MaxValue, half the share).
func (c *Conn) roomForRewrite(size int64) bool {
	return c.rwCount+1 < c.opts.MaxRequests && c.rwBytes+size <= c.budget.Share()/2
}

// orderedID is an entry of the eviction order: a request's id and when
// it was tracked.
type orderedID struct {
	id    string
	order uint64
}

// live returns the tracked request an entry of the eviction order stands
// for, if it is still tracked: not answered, and its id not reused since
// (a client may reuse an answered id while other requests wait).
func (c *Conn) live(e orderedID) (request, bool) {
	r, ok := c.requests[e.id]
	return r, ok && r.order == e.order
}

// untrack forgets a tracked request and gives back its bytes.
func (c *Conn) untrack(id string, r request) {
	delete(c.requests, id)
	if s := c.madeIn(r); s != nil {
		s.requests--
	}
	size := requestSize(id, r)
	c.reqBytes -= size
	if r.note != nil {
		c.rwCount--
		c.rwBytes -= size
	}
	c.budget.Unhold(size)
	if len(c.requests) == 0 {
		clear(c.reqOrder) // nothing of the answered ids stays
		c.reqOrder = c.reqOrder[:0]
		c.reqStale = 0
		return
	}
	// Its entry in the order is stale now and keeps its id alive, beside
	// a request that may never be answered (a prompt of a session closed
	// in mid-turn): past maxStaleOrder of such ids the order is
	// compacted, else answered ids as large as MaxValue would fill it up
	// to twice MaxRequests entries outside the budget.
	c.reqStale += int64(len(id))
	if c.reqStale > maxStaleOrder {
		c.compactRequests()
	}
}

// madeIn returns the session a tracked request was made in, if it has
// not ended since: not one that took its id since, nor one the Conn
// tracked only after the request (r.created is 0 then, and a session's
// created is never 0).
func (c *Conn) madeIn(r request) *session {
	if s := c.sessions[r.session]; s != nil && s.created == r.created {
		return s
	}
	return nil
}

// endRequests forgets the tracked requests made in s, which ends: their
// responses are about s (a prompt's ends a turn of s, a load's its
// replay; the dialect's hooks and calls read them for s), and nothing of
// a session outlives it. A session closed in mid-turn would otherwise
// keep its prompt until MaxRequests later requests pushed it out. A
// rewritten request stays until its response, which must still be
// turned back for the client.
func (c *Conn) endRequests(s *session) {
	for id, r := range c.requests {
		if s.requests == 0 {
			return
		}
		if r.note == nil && c.madeIn(r) == s {
			c.untrack(id, r)
		}
	}
}

// maxStaleOrder is the most bytes of answered ids the eviction order may
// keep alive. A compaction walks the order (at most twice MaxRequests
// entries) once per that many bytes of ids the client sent.
const maxStaleOrder = 64 << 10

// compactRequests drops answered ids from the eviction order, so that it
// stays within twice the bound however many requests come and go.
func (c *Conn) compactRequests() {
	kept := c.reqOrder[:0]
	for _, e := range c.reqOrder {
		if _, ok := c.live(e); ok {
			kept = append(kept, e)
		}
	}
	clear(c.reqOrder[len(kept):])
	c.reqOrder = kept
	c.reqStale = 0
}

// response handles the agent's response to a client request. One that
// is not JSON ends nothing: the client's SDK never sees it.
func (c *Conn) response(v frameView) (Result, error) {
	key := awaitKey(v.id.Raw)
	r, ok := c.requests[key]
	if !ok {
		return Result{}, nil
	}
	if !v.checked && c.invalid(v.s) {
		return Result{}, ErrInvalidJSON
	}
	c.untrack(key, r)
	var ended []Event // cards the response ends
	switch r.method {
	case "initialize":
		info, v2 := v.agentInfo()
		c.v2 = v2
		c.identify(info, &v)
	case "session/new":
		// gjson's path looks in every result object for a sessionId: the
		// first one's is the usual case.
		sid := v.resultSessionID()
		if !sid.Exists() {
			sid = gjson.Get(v.s, "result.sessionId")
		}
		r.session = sid.Str
		if s := c.touchSession(r.session); s != nil {
			r.created = s.created
		}
	case "session/load":
		// The load's replay is over, and the process that ran the
		// session's background work before it is gone.
		c.loaded(r)
		ended = c.endBackground(c.sessions[r.session], EndSessionRestart)
	case "session/prompt":
		ended = c.turnEnd(r, c.v2 && accepts(v))
	}
	if r.note != nil {
		if rw := c.d.rewrite(r.method); rw != nil {
			return c.rewriteResponse(v, r, rw), nil
		}
	}
	res := Result{Events: c.callResult(v, r)}
	if len(ended) > 0 {
		res.Events = append(ended, res.Events...)
	}
	if c.d != nil && c.d.Session != nil {
		c.sessionResult(v, r, &res)
	}
	return res, nil
}

// callResult reads the agent's result for a vendor method the client
// called, as the dialect says: each Call that names the method, in table
// order.
func (c *Conn) callResult(v frameView, r request) []Event {
	if c.d == nil || len(c.d.Calls) == 0 {
		return nil
	}
	var out []Event
	var res gjson.Result
	read := false
	for _, call := range c.d.Calls {
		if call.Name != r.method || (call.Result == nil && call.Children == nil) {
			continue
		}
		if !read {
			res, read = scan.Result(v.resultMember()), true
		}
		if !res.Exists() {
			return nil // an error: the client sees it as is
		}
		if call.Children != nil {
			out = append(out, c.childHalves(call.Children(res))...)
		}
		var ev *Event
		if call.Result != nil {
			ev = call.Result(res)
		}
		if ev == nil {
			continue
		}
		ev.Agent, ev.Method = c.Agent(), r.method
		// The session the request was made in, if it lives, as for a
		// turn's end or the dialect's hooks.
		if s := c.madeIn(r); s != nil {
			ev.SessionID = s.id
		}
		ev.ID = json.RawMessage(strings.Clone(v.id.Raw))
		if len(out) == 0 {
			out = one(ev) // the usual result: one event, no copy
			continue
		}
		out = append(out[:len(out):len(out)], *ev)
	}
	return out
}

// agentInfo returns the initialize result's agent info object: ACP v1
// says agentInfo; the v2 draft says info, and v2 reports that the agent
// named itself so. The frame is valid: gjson.Get(v.s, "result") reads the
// same result.
func (v *frameView) agentInfo() (info gjson.Result, v2 bool) {
	if v.checked {
		if v.in.agentInfo != "" {
			return scan.Result(v.in.agentInfo), false
		}
		return scan.Result(v.in.info), v.in.info != ""
	}
	res := scan.Result(v.resultMember())
	if info := frame.Get(res, "agentInfo"); info.Exists() {
		return info, false
	}
	info = frame.Get(res, "info")
	return info, info.Exists()
}

// accepts reports whether a session/prompt response only accepts the
// prompt: a result without stopReason, as the ACP v2 draft answers
// ({messageId}). The turn goes on until the session's state is idle.
func accepts(v frameView) bool {
	res := gjson.Get(v.s, "result")
	return res.IsObject() && !frame.Get(res, "stopReason").Exists()
}

// resultSessionID returns the first result object's sessionId.
func (v *frameView) resultSessionID() gjson.Result {
	if v.checked {
		return scan.Result(v.in.sessionID)
	}
	return frame.Get(scan.Result(v.resultMember()), "sessionId")
}

// identify picks the dialect from an initialize result's agent info, or
// else from a vendor's mark in the result (Dialect.MatchResult), unless
// one was named explicitly, and then the variant for the agent's release
// (Dialect.ForVersion): of the named dialect too, as the user names the
// vendor and the agent its release.
func (c *Conn) identify(info gjson.Result, v *frameView) {
	if c.fixed && (c.base == nil || c.base.ForVersion == nil) {
		return // nothing in the info could change the dialect
	}
	name, title, version := agentNames(info)
	if !c.fixed {
		c.base = c.reg.ByAgent(name, title)
		if c.base == nil {
			c.base = c.reg.ByResult(scan.Result(v.resultMember()))
		}
	}
	c.d = c.base.refine(version)
	c.repeated = c.d.repeatedKinds()
	c.skip = skipCache{} // what needs nothing may depend on the dialect
}

// agentNames reads the name, title and version of an agent's info object
// in one walk: what info.Get("name").String() and the others read (first
// occurrences), where three gjson lookups cost a tenth of an initialize
// response's handling. The strings may view the frame.
func agentNames(info gjson.Result) (name, title, version string) {
	if !info.IsObject() {
		return "", "", ""
	}
	var seen uint8
	scan.Members(info.Raw, func(k, raw string) bool {
		switch {
		case k == "name" && seen&1 == 0:
			name, seen = scan.Result(raw).String(), seen|1
		case k == "title" && seen&2 == 0:
			title, seen = scan.Result(raw).String(), seen|2
		case k == "version" && seen&4 == 0:
			version, seen = scan.Result(raw).String(), seen|4
		}
		return seen != 7
	})
	return name, title, version
}

// turnEnd ends the turn of a session/prompt request, unless its session
// ended (and maybe began again) since: a stale response ends nothing. A
// response that only accepted the prompt (ACP v2) ends it only if an
// idle state ended it already; else its idle state will (stateChange).
func (c *Conn) turnEnd(r request, accepted bool) []Event {
	s := c.madeIn(r)
	if s == nil {
		return nil
	}
	if accepted {
		if s.finished == 0 {
			// The prompts no longer tracked are older: they were accepted
			// before this one, and end with it.
			s.accepted += 1 + s.forgotten
			s.forgotten = 0
			return nil
		}
		s.finished--
	} else if s.finished > 0 {
		// A refusal (or any answer of v1's) of a prompt an idle ended
		// already: that end is this one's, not a later prompt's.
		s.finished--
	}
	s.turns = max(s.turns-1-s.forgotten, 0)
	s.forgotten = 0
	return c.turnOver(s)
}

// stateChange takes a work state of session s (ACP v2) and ends the turns
// an idle state ends. Only a change to idle ends any: a repeated idle is
// no new end. It ends the turns the agent accepted. With none accepted, an
// idle that ends a spell of work begun while a prompt awaited its answer
// ends the prompts no longer tracked (whose acceptance would not be seen),
// else the oldest prompt still unanswered, at its answer (finished). Work
// begun before any prompt awaited an answer (the agent's own, or a
// resumed session's) ends none.
func (c *Conn) stateChange(s *session, state string) []Event {
	if state != StateIdle {
		if s.idle || !s.stated {
			// A spell of work begins (unknown and own states are work too).
			s.working = s.turns-s.accepted-s.finished > 0
		}
		s.idle, s.stated = false, true
		return nil
	}
	s.stated = true
	if s.idle {
		return nil
	}
	s.idle = true
	switch {
	case s.accepted > 0:
		s.turns = max(s.turns-s.accepted, 0)
		s.accepted = 0
	case !s.working:
		return nil
	case s.forgotten > 0:
		s.turns = max(s.turns-s.forgotten, 0)
		s.forgotten = 0
	case s.turns > s.finished:
		s.finished++
		return nil
	default:
		return nil
	}
	return c.turnOver(s)
}

// turnOver is what follows a turn's end in session s: the session's
// mark goes, and once no turn is left its awaited requests are due and
// its background cards end, unless the agent reports their ends itself
// (session.lists).
func (c *Conn) turnOver(s *session) []Event {
	s.marked = false // a mark tells the turn that set it (Update.Mark)
	if s.turns == 0 {
		c.dueNow(s.id) // the agent stopped: it waits for no answer
	}
	c.seq++
	s.epoch = c.seq
	if c.d != nil && c.d.SweepAtTurnEnd {
		c.pending.SweepSession(s.id)
	}
	if s.turns > 0 || s.lists {
		return nil // a queued prompt goes on: its background work too
	}
	return c.endBackground(s, EndExited)
}

// touchSession returns the session, starting to track it on first sight.
func (c *Conn) touchSession(sid string) *session {
	if sid == "" {
		return nil
	}
	if s := c.last; s != nil && s.id == sid {
		return s // the usual case: the same session as the frame before
	}
	if s := c.sessions[sid]; s != nil {
		c.last = s
		return s
	}
	size := sessionSize(sid)
	if size > c.budget.MaxValue() {
		c.budget.CountRefused() // an id that large is not tracked
		return nil
	}
	for len(c.sessions) > 0 && (len(c.sessions) >= c.opts.MaxSessions || c.sessBytes+size > c.budget.Share()) {
		c.endSession(c.sessionToEnd())
		c.stats.SessionsEvicted++
	}
	c.seq++
	s := &session{id: strings.Clone(sid), created: c.seq}
	if p := c.childOf.Get(correlate.Key{ID: sid}); p != nil {
		s.parent = *p
	}
	c.sessions[s.id] = s
	c.sessBytes += size
	c.budget.Hold(size)
	return s
}

// sessionOverhead is what a session costs beyond its id: the struct and
// its map slot.
const sessionOverhead = 384

// sessionSize is what a session holds in the budget (its todo list is
// charged apart), beyond its dialect's state.
func sessionSize(id string) int64 { return sessionOverhead + int64(len(id)) }

// held is what session s holds in the budget: itself and its dialect's
// state.
func (s *session) held() int64 {
	n := sessionSize(s.id)
	if s.ext != nil {
		n += s.ext.stateSize
	}
	return n
}

func (c *Conn) sessionToEnd() string { return c.sessionToEndBut(nil) }

// sessionToEndBut returns the session to end first, other than but, or
// "": the oldest idle one, else the oldest subagent's session of a busy
// one, else the oldest. Ending a session in mid-turn loses its cards and
// its pending metadata, and ends its subagents' sessions with it, while
// an old idle one may never be used again.
func (c *Conn) sessionToEndBut(but *session) string {
	var id string
	var min uint64
	rank := 0
	for sid, s := range c.sessions {
		if s == but {
			continue
		}
		r := c.inUse(s)
		if id == "" || r < rank || r == rank && s.created < min {
			id, min, rank = sid, s.created, r
		}
	}
	return id
}

// maxParents bounds the walk up a session's parents: links the agent
// made may loop.
const maxParents = 8

// inUse ranks a session for eviction: 2 when a turn or a load of its own
// is in flight, 1 when one of its parent sessions' is (it is a running
// subagent's, or may be: Dialect.ChildSessions), else 0.
func (c *Conn) inUse(s *session) int {
	if s.turns > 0 || s.loading > 0 {
		return 2
	}
	for range maxParents {
		if s = c.sessions[c.parentOf(s)]; s == nil {
			return 0
		}
		if s.turns > 0 || s.loading > 0 {
			return 1
		}
	}
	return 0
}

// endSession drops everything held for a session.
func (c *Conn) endSession(sid string) {
	s := c.sessions[sid]
	if s == nil {
		return
	}
	c.endAwaited(sid, s.asked)
	c.dropEarly(sid)
	if s.requests > 0 {
		c.endRequests(s)
	}
	delete(c.sessions, sid)
	size := s.held()
	c.sessBytes -= size
	c.budget.Unhold(size)
	c.budget.Release(&s.todo.charge)
	if c.last != nil && c.last.id == sid {
		c.last = nil
	}
	for child, cs := range c.sessions {
		if cs.parent.Session == sid {
			c.endSession(child) // a native subagent's session ends with its parent
		}
	}
	c.pending.SweepSession(sid)
	c.tools.SweepSession(sid)
	// A child that has not spoken yet ends with its parent too: its
	// frames, if any come, no longer nest under a card that is gone.
	c.children.Each(sid, func(k correlate.Key, _ *string) bool {
		ck := correlate.Key{ID: k.ID}
		if p := c.childOf.Get(ck); p != nil && p.Session == sid {
			c.childOf.Delete(ck)
		}
		return true
	})
	c.children.SweepSession(sid)
	c.aliases.SweepSession(sid)
	// Its own link stays while the card it nests under lives: that card
	// still names it, so no card of another session may claim it (see
	// link), and if it comes back it nests there again.
	if p := c.childOf.Get(correlate.Key{ID: sid}); p != nil && c.sessions[p.Session] == nil {
		c.childOf.Delete(correlate.Key{ID: sid})
	}
	c.runs.sweep(sid)
}

func (c *Conn) endAll() {
	for sid := range c.sessions {
		c.endSession(sid)
	}
}

// serves reports whether the client said it serves method itself.
func (c *Conn) serves(method string) bool {
	for _, m := range c.opts.ClientMethods {
		if m == method {
			return true
		}
	}
	return false
}

// isClientMethod reports whether ACP defines method as one the client
// serves. Those are the client's own business: no reply from here.
func isClientMethod(method string) bool {
	switch method {
	case "session/request_permission", "fs/read_text_file", "fs/write_text_file",
		"terminal/create", "terminal/output", "terminal/release",
		"terminal/wait_for_exit", "terminal/kill",
		"elicitation/create", "elicitation/complete",
		"mcp/connect", "mcp/disconnect", "mcp/message", "$/cancel_request":
		return true
	}
	return false
}

// observe reads a request ACP defines for the client to serve
// (session/request_permission) with the dialect's handler of that name,
// if any, for the event and late metadata it describes. The client answers
// it, never the Conn.
func (c *Conn) observe(v frameView, method string) []Event {
	m := c.d.method(method, v.hasID)
	if m == nil || m.Handle == nil {
		return nil
	}
	act := m.Handle(scan.Result(v.params))
	var out []Event
	if act.Late != (Late{}) {
		if card := c.late(act.Late); card.changed {
			out = c.toolEvent(EventToolCallUpdate, card.key, card.payload)
		}
	}
	if act.Event == nil {
		return out
	}
	if sid := scan.Result(scan.Member(v.params, "sessionId")); sid.Type == gjson.String {
		if s := c.sessions[sid.Str]; s != nil {
			act.Event.SessionID = s.id // the request names its session
		}
	}
	// After the session is set: the card it names is one of that session.
	c.finishEvent(act.Event, act)
	act.Event.Method = m.Name
	if v.hasID {
		act.Event.ID = json.RawMessage(strings.Clone(v.id.Raw))
	}
	return append(out[:len(out):len(out)], *act.Event)
}
