package acpdialect

import (
	"encoding/json"
	"slices"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// Dialect is one vendor's table of pure functions: how to recognize the
// agent, which vendor methods it may send and how to answer them, how to
// recognize its tool calls, and how to fold late metadata into them.
//
// Every hook is pure: it reads a read-only view of the frame (a gjson.Result
// over the raw bytes) and returns data. Hooks never perform I/O, never block
// and never keep state; all state lives in the Conn. A nil hook means
// standard ACP behaviour for that step.
type Dialect struct {
	// ID is the short, stable name used by --agent and in every event
	// ("cursor", "claude").
	ID string
	// Match reports whether an initialize response's agentInfo name and
	// title identify this agent: by the agent's known names (MatchName),
	// never by a substring, so that no other agent runs its rules.
	Match func(name, title string) bool
	// MatchResult, if set, reports whether an initialize result is this
	// agent's by a mark the agent puts in it besides its name: for an
	// agent that sends no agentInfo (Grok's CLI 1.0.41 sends none, but
	// _meta.grokShell). The Conn asks it only when no dialect's Match
	// accepts the agentInfo name and title, in registration order. Like
	// Match it must accept only a mark no other agent sends.
	MatchResult func(result gjson.Result) bool
	// Methods is the allowlist of vendor methods the agent may send to the
	// client. Any other non-standard request is answered -32601 and any
	// other non-standard notification is ignored and counted. An entry
	// may also name a request ACP defines for the client to serve
	// (session/request_permission): its Handle is read for the Event and
	// Late it describes, and the Conn never answers it.
	Methods []Method
	// ToolCall recognizes a tool_call or tool_call_update and returns the
	// tool call's next payload. prev is the merged state so far, with the
	// update's standard fields (status, title) already applied. Payloads
	// are copy-on-write: a hook may change prev's own fields but must copy
	// a kind object (prev.SubagentTask, ...) before changing it, because
	// events already handed out share it. Returning prev leaves the payload
	// as it is.
	ToolCall func(u frame.ToolUpdate, prev Payload) Payload
	// MergeLate folds a late half (metadata that a vendor method delivered
	// for a tool call, see Action.Late) into a tool call's payload. ok is
	// false when the payload is not (yet) one the half applies to; the half
	// then keeps waiting. MergeLate is also used to merge two late halves
	// for the same tool call. Like ToolCall it must not modify the kind
	// objects of cur: events already handed out share them. The late half
	// is the merge's: when ok, late's kind objects may be changed and
	// become next's (so a changed card costs no copy). The Conn passes a
	// given object as late only once per result it keeps (a half merged
	// into a waiting half is passed on as part of the merged one), and
	// gives each candidate card its own copy when it weighs several. When
	// not ok, late must be left as it was.
	MergeLate func(cur, late Payload) (next Payload, ok bool)
	// Runs, if set, names the subagent runs a tool_call or
	// tool_call_update speaks of, for a vendor that reports several runs
	// under one tool call id or reports on a run from other tool calls
	// (Codex): see Run. Nil or no runs leaves the frame to ToolCall alone.
	Runs func(u frame.ToolUpdate) []Run
	// EndNested, if set, reads whether a tool_call or tool_call_update
	// ends the work nested under a card, for an agent that never ends a
	// subagent's own tool calls (Devin): the cards of the frame's session
	// whose ParentToolCallID is parent, other than parent's own, that have
	// not ended take status, which must be an ended one (StatusEnded); the
	// client gets a tool_call_update for each it was shown, after the
	// frame's own events. ok false, or a status that does not end, ends
	// nothing. Like ToolCall it is pure.
	EndNested func(u frame.ToolUpdate) (parent, status string, ok bool)
	// ToolEvent, if set, reads a session-level event a tool_call or
	// tool_call_update carries besides its card (Codex's context
	// compaction, OpenCode's todo list), or returns nil. The Conn fills in
	// Agent, SessionID and ToolCallID, and makes a todos event's list the
	// session's (replaced, as an Action's without Merge). Like
	// Update.Event it is pure and keeps no view of the frame.
	ToolEvent func(u frame.ToolUpdate) *Event
	// SweepAtTurnEnd is for vendors that reuse tool call ids across turns:
	// unmatched late halves are dropped when a turn ends and when the
	// session goes busy again, and a half merges only into a card of its
	// session's current epoch (see Conn). They are always dropped when
	// their session ends.
	SweepAtTurnEnd bool
	// SingleSession says the agent keeps one session per connection: a new
	// session/new or session/load ends the sessions before it.
	SingleSession bool
	// SurfaceUpdates says the agent announces some tool calls with a
	// tool_call_update alone (Gemini CLI sends a tool_call only for a call
	// that needs no permission; the others are named in their
	// session/request_permission, then updated): a card first seen
	// through an update surfaces at once, as on an ACP v2 connection,
	// rather than once the dialect recognizes something in it.
	SurfaceUpdates bool
	// Updates are the non-standard session/update kinds the agent sends
	// (Cursor's subagent_spawned). The SDKs do not know them and misread
	// them, so wiretap quarantines them on a "_" method. An entry for a
	// draft kind the Conn reads on every connection (UpdateSubagent,
	// UpdateSessionMessage) takes it over: the dialect's handler, and its
	// Standard, replace the standard's reading. An entry for ACP v2's
	// UpdateState, UpdateTerminal or UpdateTerminalOutput adds its events
	// after those every connection gets, and the kind stays quarantined.
	//
	// A kind other than tool_call and tool_call_update may be listed more
	// than once, for vendor data that two readers share (Codex's
	// session_info_update carries the session's title and AIR's typed
	// failures, package air): the first entry is the kind's handler, and
	// each later entry adds only its Event, after the first's, in table
	// order.
	Updates []Update
	// Calls are methods the client sends to the agent whose result the
	// dialect reads (Cursor's cursor/list_available_models, or initialize
	// for the agent's capabilities). A method may be listed more than
	// once: each entry's Children and Result are read, in table order
	// (a session/prompt result's turn usage, then AIR's failure on it).
	Calls []Call
	// CommandDescription, if set, rewrites a slash command's description
	// (Cursor sends "---" for none). The description views the frame, and
	// the Conn copies what it returns: the hook keeps no reference.
	CommandDescription func(string) string
	// EndBackground, if set, is told that the work a card describes can no
	// longer be running, and returns the card's next payload: reason is
	// EndExited when its session's turn ends, EndSessionRestart when the
	// session is loaded again (the agent process that ran it is gone). A
	// subagent's session the client never prompted takes the turns and
	// loads of the session it runs under as its own.
	// The Conn asks only about background cards: those with an alias (see
	// Late.Alias; a monitor's task id is one). Like MergeLate it must not
	// modify the kind objects of p; returning p leaves the card as it is.
	// A card the Conn made for an alias takes its status from late halves
	// only until its monitor has ended (Monitor.Ended): then it keeps the
	// status it ended with.
	EndBackground func(p Payload, reason string) Payload
	// Rewrites are client requests the agent does not serve as sent: the
	// Conn sends another request in their place and turns the response
	// back (Grok's session/set_config_option). See Rewrite.
	Rewrites []Rewrite
	// Session, if set, are hooks that keep state per session in the Conn
	// (Grok's model catalog, read for its config options and context
	// window). See SessionHooks.
	Session *SessionHooks
	// ChildSessions says the agent runs each subagent as a session of its
	// own whose updates carry the child's session id (OpenCode): a card
	// whose payload names the child (SubagentTask.ChildSessionID) links
	// it, the child's cards and messages nest under the card, and what
	// the child sent before the link is nested when it comes. See Child
	// and Options.MaxHeld. A session held as a possible child (first seen
	// during another session's turn, never opened by the client) takes
	// that session's turns as its own: its background cards (EndBackground)
	// end with them, and are dropped when that session ends, as its held
	// messages are, unless the client prompted it.
	ChildSessions bool
	// ForVersion, if set, returns the dialect to use for an agent that
	// reports this release in its initialize result (agentInfo.version):
	// a variant of this one with the same ID and Match (codex-acp 2.2.1
	// and later report the whole turn's usage, earlier releases the last
	// model request's), or nil to keep this one. Read the version with
	// ParseVersion. The Conn asks it once per initialize result that
	// names a version: on the dialect the agent was identified as, and
	// on the one Options.Agent named (the user names the vendor, the
	// agent names its release), never on the variant it returned,
	// whose own ForVersion is ignored. A variant with another ID is
	// ignored too (the dialect's output keeps one name). An agent with
	// no version gets the dialect itself, also after an earlier
	// initialize on the connection picked a variant. Like every
	// hook it is pure; version may view the frame, so keep none of it.
	// Build each variant once (when the dialect is built) rather than
	// per call: every connection of the agent's release shares it.
	ForVersion func(version string) *Dialect

	// Reads and Ignores declare, for audits (`acpdialect audit`), the
	// vendor data the dialect reads and the vendor data it knows and
	// leaves alone on purpose, so that an audit of a new agent release
	// shows only what is new. The Conn never looks at them. Each entry is
	// a vendor method ("cursor/task"), a session/update kind prefixed
	// "update:" ("update:subagent_spawned"), or a _meta key path
	// ("_meta.cursor.toolCallId": the key toolCallId of the object cursor
	// in a _meta object anywhere in a frame; "*" stands for any one key).
	// An entry covers the paths under it. Methods, Updates and Calls are
	// read without being listed.
	Reads, Ignores []string
}

// Reasons EndBackground is given.
const (
	// EndExited: the turn that started the work ended.
	EndExited = "exited"
	// EndSessionRestart: the session was loaded again (session/load).
	EndSessionRestart = "session_restart"
)

// Call is a method the client sends to the agent whose result the dialect
// reads: a vendor method (Cursor's cursor/list_available_models), or a
// standard one whose result carries vendor data (initialize's
// capabilities, session/prompt's usage).
type Call struct {
	Name string
	// Result reads the agent's result into an event (its Type and object;
	// the Conn fills in Agent, Method, ID and the request's session: the
	// one the request was made in, if the Conn tracked it then and it has
	// not ended since, else none), or returns nil. It is pure and keeps no view of the frame; make the
	// event fresh for each result, as the Conn hands it out as it is.
	Result func(result gjson.Result) *Event
	// Children, if set, reads what the result says about subagents known
	// by their child session alone (a snapshot of a subagent tree): see
	// Child. Pure, like Result.
	Children func(result gjson.Result) []Child
}

// Update is one session/update kind a dialect reads: a kind of its own
// (Cursor's subagent_spawned), or with Standard a kind ACP defines whose
// vendor data it reads (usage_update's _meta, a chunk's parent).
type Update struct {
	Kind string
	// Standard says ACP defines the kind: the SDKs read it, so wiretap
	// leaves it on the wire as it is instead of quarantining it. (ACP v2's
	// UpdateState, UpdateTerminal and UpdateTerminalOutput, which the SDKs
	// before v2 misread, are quarantined on every connection whatever its
	// entries say.)
	Standard bool
	// Event, if set, reads the update object into a session-level event
	// (its Type and object), or returns nil. The Conn fills in Agent and
	// SessionID. Like Handle it is pure and keeps no view of the frame;
	// make the event fresh for each frame. On tool_call and
	// tool_call_update (Standard) it runs beside the card's merge, whose
	// event comes first; Handle is not read for them.
	Event func(update gjson.Result) *Event
	// Handle reads the update object and returns what it says about a tool
	// call. The Conn merges it into the card named by Late.ToolCallID, else
	// into the card of the child session named by
	// Late.Payload.SubagentTask.ChildSessionID, and makes a card when there
	// is none (keyed by the tool call id, else by the child session id).
	// A zero Late changes nothing. The update's Raw may run on past the
	// object (the rest of the frame): read it with Members or Get, which
	// stop at its end. None of the Late's values may view the frame.
	Handle func(update gjson.Result) Late
	// HandleAll is Handle for an update that speaks of several tool calls
	// at once (a Claude chunk reporting the events of several monitors):
	// the Conn merges each Late in order, as it merges Handle's, after
	// Handle's when both are set. Pure, like Handle; nil or empty says
	// nothing.
	HandleAll func(update gjson.Result) []Late
	// Waits says the kind only reports on a card another update makes
	// (Cursor's subagent_state_update, on the child its subagent_spawned
	// opened). A half that names no tool call and a child session no card
	// is linked to yet makes no card: it is held, swept as unmatched late
	// halves are (SweepAtTurnEnd), and the next half that names the same
	// child finds or makes the card and takes it, applied after its own,
	// so that an update that came out of order makes no second card. A
	// half that names no child (an alias alone) is read as without Waits.
	Waits bool
	// Mark, if set, reads whether the update sets (mark true) or clears
	// the session's mark: a vendor state that gives later updates their
	// meaning (Codex's systemError thread status, after which the model's
	// capacity text is a provider error). ok false leaves the mark as it
	// is. The mark ends with the session's turn (the session/prompt
	// response), so a later turn's text is read afresh.
	Mark func(update gjson.Result) (mark, ok bool)
	// Marked, if set, is read only while the session is marked: it
	// returns the event the update means in that state, or nil. An event
	// clears the mark. Pure, like Event.
	Marked func(update gjson.Result) *Event
}

// MethodKind says how a vendor method may arrive.
type MethodKind uint8

// Method kinds. A method may be allowed as both.
const (
	Request               MethodKind = 1 << iota // has an id, gets exactly one reply
	Notification                                 // has no id, gets no reply
	RequestOrNotification = Request | Notification
)

// Method is one allowlisted vendor method (agent -> client).
type Method struct {
	Name string
	Kind MethodKind
	// Handle reads the params (possibly missing, of any JSON type, or
	// malformed) and says what to do. It must degrade to "what was
	// present" and never fail a request because of bad data. The params'
	// Raw may run on past them (the rest of the frame): read them with
	// Members, a frame.Reader or Get, which stop at their end.
	Handle func(params gjson.Result) Action
}

// Action is what a Method asks the Conn to do with one vendor frame. The
// Conn keeps its values, so none may view the frame: read strings with Str,
// or with View and then Own.
type Action struct {
	// Result is the reply to a request; empty means an empty object {}. It
	// must be one JSON value: one that spans lines is compacted (a frame
	// is one line), and one that is not JSON is answered -32603 instead,
	// with a message that names the dialect and the method.
	Result json.RawMessage
	// Error, if set, is sent instead of Result.
	Error *RPCError
	// Late, unless zero, is metadata for a tool call that the Conn
	// correlates by ToolCallID, in whichever order the tool call and this
	// frame arrive. (A value, not a pointer: one allocation fewer per
	// vendor frame.)
	Late Late
	// Children are what the frame says about subagents known by their
	// child session alone (a subagent tree), merged into their cards: see
	// Child. Their card events come before the frame's own.
	Children []Child
	// Event, if set, is a session-level event the frame produced
	// (question, plan, todos, image). The Conn fills in its Agent, its
	// SessionID (the session the event already names, whether the Conn
	// tracks it or not: a hook copies params.sessionId there; else the
	// session of the tool call Event.ToolCallID names, else the one with
	// a turn in flight), and for a request Method and ID. It
	// does so in place and may hand the event and its object out as they
	// are (a todos object gets the session's whole list): make them fresh
	// for each frame and keep no reference.
	Event *Event
	// Await says a request waits for the client's answer when the client
	// answers blocking requests itself (Options.ClientAnswers): Result is
	// then only the default, sent when the client has no handler or its
	// answer is overdue.
	Await bool
	// Merge, for a todos event, merges its items into the session's list
	// (by id) instead of replacing the list.
	Merge bool
}

// Late is one half of a correlation: metadata for the tool call ToolCallID,
// merged into its payload with Dialect.MergeLate. Its kind objects must be
// made for it (not shared with anything else): the merge may take them
// over. Its strings must not view the frame: they end up in cards (the
// Conn copies those it uses as store keys, so that a broken handler cannot
// corrupt the stores, but not the rest).
type Late struct {
	ToolCallID string
	// Alias is another name the tool call goes by in its session, such as
	// the id of the background task it started. A Late from an update
	// (Update.Handle) with both names records the alias; one with only
	// the alias merges into the card recorded for it, else into a card
	// keyed by the alias. A card whose payload is a monitor has its task
	// id as an alias.
	//
	// A Late with both names whose alias still names a card keyed by the
	// alias (one that Lates with the alias alone made, before the tool
	// call was known) hands that card over: the tool call's card takes
	// what it said, then the Late's own values, and the alias's card
	// ends, with the Late's end status if it has one, else completed
	// unless it had ended. That card stays (a client has shown it) but
	// the alias names the tool call's card from then on, so the work goes
	// on in one card, not in two.
	Alias   string
	Payload Payload
}

// refine returns the dialect for an agent reporting version in its
// initialize result: d's ForVersion variant when it names one with d's
// ID, else d (see ForVersion).
func (d *Dialect) refine(version string) *Dialect {
	if d == nil || d.ForVersion == nil || version == "" {
		return d
	}
	if v := d.ForVersion(version); v != nil && v.ID == d.ID {
		return v
	}
	return d
}

// update returns the dialect's handler of a session/update kind, or nil.
func (d *Dialect) update(kind string) *Update {
	if d == nil {
		return nil
	}
	for i := range d.Updates {
		if d.Updates[i].Kind == kind {
			return &d.Updates[i]
		}
	}
	return nil
}

// repeatedKinds returns the update kinds the dialect lists more than once:
// the Conn reads the later entries' Event of those too (see Update), and
// of no other kind, so that the usual update (a chunk) pays one compare
// per repeated kind, not a walk of the table.
func (d *Dialect) repeatedKinds() []string {
	if d == nil {
		return nil
	}
	var kinds []string
	for i := range d.Updates {
		k := d.Updates[i].Kind
		for j := range i {
			if d.Updates[j].Kind == k && !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	return kinds
}

// Quarantines reports whether kind is a session/update kind of the
// dialect's own, which the SDKs do not know. (The Conn also quarantines
// the draft kinds every connection reads, UpdateSubagent and
// UpdateSessionMessage, unless the dialect lists them as Standard, and
// ACP v2's UpdateState, UpdateTerminal and UpdateTerminalOutput always:
// see Result.Quarantine.)
func (d *Dialect) Quarantines(kind string) bool {
	u := d.update(kind)
	return u != nil && !u.Standard
}

func (d *Dialect) method(name string, isRequest bool) *Method {
	if d == nil {
		return nil
	}
	want := Notification
	if isRequest {
		want = Request
	}
	for i := range d.Methods {
		m := &d.Methods[i]
		if m.Name == name && m.Kind&want != 0 {
			return m
		}
	}
	return nil
}

// Allows reports whether the dialect accepts the vendor method name, as a
// request or a notification. A nil dialect allows nothing, and a method
// ACP defines for the client is never a vendor method, even when the
// dialect reads it.
func (d *Dialect) Allows(name string) bool {
	if isClientMethod(name) {
		return false
	}
	return d.method(name, true) != nil || d.method(name, false) != nil
}

// Accepts reports whether the Conn takes a vendor frame of method as the
// dialect's: a method Allows, or one under its "_" alias (Grok's
// _x.ai/..., the name a client on the SDK knows an extension method by),
// which the Conn answers as the method.
func (d *Dialect) Accepts(method string) bool {
	return d.Allows(method) || len(method) > 1 && method[0] == '_' && d.Allows(method[1:])
}

// Reply returns the answer the dialect gives to a request for method with
// these params: its result (an empty object by default) or its error. ok is
// false when the dialect does not allow method as a request. Methods are
// pure, so this is the same answer the Conn gave when it read the frame;
// wiretap uses it to answer from the SDK's request goroutine without
// keeping any state per request.
func (d *Dialect) Reply(method string, params []byte) (res json.RawMessage, rpcErr *RPCError, ok bool) {
	m := d.method(method, true)
	if m == nil {
		return nil, nil, false
	}
	var act Action
	if m.Handle != nil {
		act = fitReply(m.Handle(scan.Result(scan.UnsafeString(params))), d.ID, m.Name)
	}
	if act.Error != nil {
		e := *act.Error
		return nil, &e, true
	}
	if len(act.Result) == 0 {
		return json.RawMessage("{}"), nil, true
	}
	return act.Result, nil, true
}
