package acpdialect

import (
	"cmp"
	"strings"
	"unicode"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// ACP's subagents RFD (agent-client-protocol pull request 1992, a draft on
// its way into the standard) reports a subagent as a child session: the
// agent opens it with its own session id, reports it on the parent session
// with subagent_update, and the child's own updates carry the child's id.
// The standard's behaviour is every connection's, so the Conn reads these
// kinds for every agent, identified or not, unless the dialect reads the
// kind itself (its Updates entry wins). The SDKs do not know them and would
// misread them, so they are quarantined (see Result.Quarantine) on every
// connection too.
const (
	// UpdateSubagent, on the parent session, opens or updates a child
	// session. Two shapes are on the wire, both read:
	//
	//   - the original draft: {"sessionUpdate":"subagent_update",
	//     "subagentSessionId","name","task","capabilities","state"} with
	//     state one of running, completed, failed, cancelled, disconnected;
	//   - the reworked draft, an upsert: {"sessionUpdate":"subagent_update",
	//     "sessionId","title","description","cwd","capabilities",
	//     "state":{"state","stopReason","error"}} (claude-agent-acp and
	//     codex-acp today), where an omitted field leaves the child's as
	//     it was.
	//
	// See ReadSubagentUpdate.
	UpdateSubagent = "subagent_update"
	// UpdateSessionMessage is a message between sessions: a child's
	// prompt, its answer (claude-agent-acp from 0.95.0 sends both in place
	// of the Agent call). Between a linked child and its parent session it
	// gives the child's card its prompt and result text (sessionMessage).
	// Quarantined: an SDK reads one with content as a user chunk.
	UpdateSessionMessage = "session_message"
)

// Subagent statuses: the RFD's state values (SubagentTask.Status). The
// Cursor and Claude dialects use the same words.
const (
	SubagentRunning   = "running"
	SubagentCompleted = "completed"
	SubagentFailed    = "failed"
	SubagentCancelled = "cancelled"
	// SubagentDisconnected: the child's outcome is unknown; for its card
	// that is a failure, since it will not finish.
	SubagentDisconnected = "disconnected"
)

// draftKind reports whether kind is one of the subagents RFD's update kinds
// that every connection reads.
func draftKind(kind string) bool {
	return kind == UpdateSubagent || kind == UpdateSessionMessage
}

// ReadSubagentUpdate reads a subagent_update object, in either draft's
// shape, into a late half for the child session's card: a subagent_task
// whose ChildSessionID is the child (subagentSessionId, else sessionId; the
// first of each key counts, as gjson reads it). The update names no tool
// call, so the Conn keys the card by the child session unless the child is
// already linked to one.
//
//   - Original draft: name is the subagent's Name, task its Description
//     and the card's title.
//   - Reworked draft: title is the card's title and the subagent's
//     Description (its display name). description is, as the RFD defines
//     it, the child's role or purpose: an identifier (letters, digits and
//     "-_.:" only) is the subagent's type, its SubagentType
//     (claude-agent-acp from 0.99.1 sends the Agent call's subagent_type
//     there, such as general-purpose); any other text its Prompt (earlier
//     builds sent the task there).
//
// The state maps to the subagent status and the card's, as Cursor's and
// Claude's dialects map them:
//
//   - a string state (original): running -> running, in progress;
//     completed, failed, cancelled -> the same; disconnected ->
//     disconnected, failed; any other value is kept as the subagent
//     status and leaves the card's as it was;
//   - an object state (reworked): idle with stopReason cancelled ->
//     cancelled; idle with refusal or error (the RFD's failed child) ->
//     failed; idle with another stop reason (end_turn, max_tokens ...) ->
//     completed; idle without one -> failed (claude-agent-acp reports an
//     orphaned child so, and a failed one before 0.90.0); unknown ->
//     disconnected, failed; any other state (running, requires_action)
//     -> running, in progress.
//
// No state, or one of a wrong type, leaves both statuses empty: unchanged
// (the Conn starts a card it makes running). Wrong-typed fields read as
// absent. An update without a child session id says nothing: a zero Late.
// Pure: the Late views nothing of update.
//
// A failed child's text is the subagent's Error: the reworked state's
// error {code, message} beside stopReason error (the RFD defines it for
// that stop reason only; claude-agent-acp's rfdEndState and codex-acp's
// toV2IdleState send the JSON-RPC internal error with the child's text).
// Its message must be a string; anything else is absent, and so is an
// error beside any other stop reason.
//
// cwd (the reworked draft's, claude-agent-acp from 0.100.0, codex-acp
// 2.6.0) is the directory the child works in, the subagent's Cwd, kept as
// sent. The RFD makes cwd and title nullable: null clears them (the child
// is back in its parent's directory; it has no title, codex-acp's child
// whose thread name was unset).
//
// capabilities grant the client session/cancel on the child when their
// cancel is an object (or the original draft's true): the subagent's
// Cancellable. Capabilities without it, or null, withdraw the grant.
//
// A Late cannot say that a value goes (an empty or false one leaves the
// card's), so here a null cwd or title, and a withdrawal, read as absent;
// the Conn, which reads every connection's subagent_update, clears the
// card's values itself. A dialect whose Updates entry takes the kind over
// reads it with its own Handle and merge, and gets no clearing unless its
// merge does it.
func ReadSubagentUpdate(update gjson.Result) Late {
	l, _ := readSubagentUpdate(update)
	return l
}

// clearing is the fields a subagent_update clears: the RFD's patch
// semantics, where null clears what an earlier update reported, and
// capabilities without cancel withdraw the grant.
type clearing uint8

const (
	clearTitle clearing = 1 << iota
	clearCwd
	clearCancel // capabilities without cancel: the grant is withdrawn
)

// readSubagentUpdate is ReadSubagentUpdate, and reports which fields the
// update clears (null, or a withdrawn cancel grant), which the Conn
// applies.
func readSubagentUpdate(update gjson.Result) (_ Late, nulls clearing) {
	var st SubagentTask
	var sub, sid, name, task, title, desc, cwd, state, stop, msg string
	var stateObj bool
	var seen uint16
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch {
		case k == "subagentSessionId" && first(&seen, 1):
			sub = r.String()
		case k == "sessionId" && first(&seen, 2):
			sid = r.String()
		case k == "name" && first(&seen, 4):
			name = r.String()
		case k == "task" && first(&seen, 8):
			task = r.String()
		case k == "title" && first(&seen, 16):
			nulls |= nullIf(r, clearTitle)
			title = r.String()
		case k == "description" && first(&seen, 32):
			desc = r.String()
		case k == "state" && first(&seen, 64):
			state, stop, msg, stateObj = readSubagentState(r)
		case k == "cwd" && first(&seen, 128):
			nulls |= nullIf(r, clearCwd)
			cwd = r.String()
		case k == "capabilities" && first(&seen, 256):
			if cancel, ok := readCancel(r); ok && cancel {
				st.Cancellable = true
			} else if ok {
				nulls |= clearCancel
			}
		}
	})
	child := sub
	if child == "" {
		child = sid
	}
	if child == "" {
		return Late{}, 0
	}
	st.ChildSessionID = child
	st.Name = name
	st.Cwd = cwd
	st.Description = title
	if identifier(desc) {
		st.SubagentType = desc // the child's role (claude-agent-acp from 0.99.1)
	} else {
		st.Prompt = desc
	}
	if st.Description == "" {
		st.Description = task // the original draft's task is what the title is to the reworked one
	}
	var card string
	if stateObj {
		st.Status, card = workState(state, stop)
		if state == "idle" && stop == "error" && strings.TrimSpace(msg) != "" {
			st.Error = msg // a blank message is no text, as a blank result is none
		}
	} else if st.Status, card = draftState(state); card == "" && st.Status != "" {
		frame.Own(&st.Status) // a state of the agent's own, kept as sent
	}
	frame.Own(&st.ChildSessionID, &st.Name, &st.Description, &st.Prompt, &st.SubagentType, &st.Cwd, &st.Error)
	return Late{Payload: Payload{Kind: KindSubagentTask, Status: card, Title: st.Description, SubagentTask: &st}}, nulls
}

// readCancel reads a subagent's capabilities: ok when they are an object
// or null (the RFD: null or an object without cancel grants nothing, and
// replaces an earlier grant), cancel when they grant it: cancel is an
// object (the reworked draft's {} ) or true (the original draft's). Any
// other value is skipped and says nothing.
func readCancel(r *frame.Reader) (cancel, ok bool) {
	if r.Peek() == 'n' {
		r.Skip()
		return false, true
	}
	var seen uint16
	ok = r.Object(func(k string) {
		if k == "cancel" && first(&seen, 1) {
			cancel = r.Peek() == '{' || r.True()
		}
	})
	return cancel, ok
}

// nullIf returns bit when the reader's next value is null, else 0.
func nullIf(r *frame.Reader, bit clearing) clearing {
	if r.Peek() == 'n' {
		return bit
	}
	return 0
}

// identifier reports whether s is a name such as a subagent type
// (general-purpose, Explore, plugin:reviewer) rather than text: non-empty,
// letters, digits and "-_.:" only.
func identifier(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-_.:", r)
	}) < 0
}

// first reports whether bit is unset in *seen, setting it: the first
// occurrence of a key counts.
func first(seen *uint16, bit uint16) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// readSubagentState reads a state value: a string (the original draft) or
// an object {state, stopReason, error: {message}} (the reworked one); obj
// says which. Any other type reads as no state. The strings view the
// frame.
func readSubagentState(r *frame.Reader) (state, stop, msg string, obj bool) {
	switch r.Peek() {
	case '"':
		return r.String(), "", "", false
	case '{':
		var seen uint16
		r.Object(func(k string) {
			switch {
			case k == "state" && first(&seen, 1):
				state = r.String()
			case k == "stopReason" && first(&seen, 2):
				stop = r.String()
			case k == "error" && first(&seen, 4):
				msg = readErrorMessage(r)
			}
		})
		return state, stop, msg, true
	}
	r.Skip()
	return "", "", "", false
}

// readErrorMessage reads a JSON-RPC error object's message: a string, the
// first of the key; "" for anything else. It views the frame.
func readErrorMessage(r *frame.Reader) string {
	var msg string
	var seen uint16
	r.Object(func(k string) {
		if k == "message" && first(&seen, 1) {
			msg = r.String()
		}
	})
	return msg
}

// draftState maps the original draft's string state to the subagent
// status and the card status. An unknown value is kept (the caller owns
// it) and leaves the card as it is.
func draftState(state string) (subagent, card string) {
	switch state {
	case "":
		return "", ""
	case SubagentRunning:
		return SubagentRunning, StatusInProgress
	case SubagentCompleted:
		return SubagentCompleted, StatusCompleted
	case SubagentFailed:
		return SubagentFailed, StatusFailed
	case SubagentCancelled:
		return SubagentCancelled, StatusCancelled
	case SubagentDisconnected:
		return SubagentDisconnected, StatusFailed
	}
	return state, ""
}

// workState maps the reworked draft's work state snapshot to the subagent
// status and the card status, as claude-agent-acp's toSubagentWorkState
// writes them (completed -> idle/end_turn, cancelled -> idle/cancelled,
// failed -> idle/error from 0.90.0 (rfdEndState), idle before; an orphaned
// child -> idle; disconnected -> unknown). A state that is not a string
// says nothing.
func workState(state, stop string) (subagent, card string) {
	switch {
	case state == "":
		return "", ""
	case state == "idle" && stop == "cancelled":
		return SubagentCancelled, StatusCancelled
	case state == "idle" && (stop == "refusal" || stop == "error"):
		// error is the RFD's failed child (claude-agent-acp from 0.90.0,
		// with the JSON-RPC error beside it): not a normal stop.
		return SubagentFailed, StatusFailed
	case state == "idle" && stop != "":
		return SubagentCompleted, StatusCompleted
	case state == "idle":
		return SubagentFailed, StatusFailed
	case state == "unknown":
		return SubagentDisconnected, StatusFailed
	}
	return SubagentRunning, StatusInProgress
}

// ReadSubagentSpawned reads the original subagents draft's
// subagent_spawned {subagentSessionId, name, task, capabilities} into a
// late half for the child session's card, as ReadSubagentUpdate reads the
// reworked subagent_update: name (the subagent's display name) is the
// title and the description, task (its prompt) the prompt, and the child
// runs. claude-agent-acp (0.71.0 on, to AIR clients) and codex-acp 2.x
// send it so; Cursor's carries more and its dialect reads it itself. An
// update without a subagentSessionId says nothing: a zero Late. Pure: the
// Late views nothing of update.
func ReadSubagentSpawned(update gjson.Result) Late {
	var st SubagentTask
	var seen uint16
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch {
		case k == "subagentSessionId" && first(&seen, 1):
			st.ChildSessionID = r.String()
		case k == "name" && first(&seen, 2):
			st.Description = r.String()
		case k == "task" && first(&seen, 4):
			st.Prompt = r.String()
		}
	})
	if st.ChildSessionID == "" {
		return Late{}
	}
	frame.Own(&st.ChildSessionID, &st.Description, &st.Prompt)
	st.Status = SubagentRunning
	return Late{Payload: Payload{Kind: KindSubagentTask,
		Status: StatusInProgress, Title: st.Description, SubagentTask: &st}}
}

// draftUpdate handles a subagents RFD update kind the dialect does not read
// itself: subagent_update becomes its child session's card (made running
// when new), merged as the standard says, and session_message gives the
// card its prompt and answer (sessionMessage).
func (c *Conn) draftUpdate(sid string, u gjson.Result, kind string) []Event {
	s := c.updateSession(sid)
	if s == nil {
		c.stats.Malformed++
		return nil
	}
	if kind == UpdateSessionMessage {
		return c.sessionMessage(s, u)
	}
	if kind != UpdateSubagent {
		return nil
	}
	l, nulls := readSubagentUpdate(u)
	st := l.Payload.SubagentTask
	if st == nil || st.ChildSessionID == s.id {
		// No child, or a session that says it is its own child: nothing
		// to link.
		c.stats.LateDropped++
		return nil
	}
	if l.Payload.Status == "" && c.childCard(s, st.ChildSessionID) == nil {
		// The child's first report without a state: it has just started.
		l.Payload.Status = StatusInProgress
		if st.Status == "" {
			st.Status = SubagentRunning
		}
	}
	merge := mergeSubagentHalf
	if nulls != 0 {
		merge = nulls.merge
	}
	return c.updateCard(s, l, merge, false)
}

// childCard returns the card of session s that the child session is
// linked to, or that is keyed by it, if any.
func (c *Conn) childCard(s *session, child string) *toolState {
	id := child
	if linked := c.children.Get(correlate.Key{Session: s.id, ID: child}); linked != nil {
		id = *linked
	}
	return c.tools.Get(correlate.Key{Session: s.id, ID: id})
}

// mergeSubagentHalf is the standard's merge of a subagent_update half into
// its card, whatever the dialect: a non-empty value replaces (an upsert), an
// empty one never blanks. The card's kind objects are never changed: a
// changed subagent object is a new one.
//
// So a failure's error text fills a card whose failed end came without it
// (claude-agent-acp's supplyError sends the same failed state again, with
// the text, once the SDK gives it), and a later failure's text replaces
// an earlier one: the adapter repeats a failure only to supply a missing
// text, so a second text is a new failure's (a child that runs again in
// its session, such as codex-acp's child thread given a new turn, keeps
// its card). An end that is not a failure leaves the text,
// as it leaves the result text.
func mergeSubagentHalf(cur, late Payload) (Payload, bool) {
	if late.Title != "" {
		cur.Title = late.Title
	}
	if late.SubagentTask == nil {
		return cur, late.Title != ""
	}
	var st SubagentTask
	if cur.SubagentTask != nil {
		st = *cur.SubagentTask
	}
	l := late.SubagentTask
	frame.Fill(&st.ChildSessionID, l.ChildSessionID)
	frame.Fill(&st.Name, l.Name)
	frame.Fill(&st.Cwd, l.Cwd)
	frame.Fill(&st.Description, l.Description)
	frame.Fill(&st.Prompt, l.Prompt)
	frame.Fill(&st.SubagentType, l.SubagentType)
	frame.Fill(&st.ResultText, l.ResultText)
	frame.Fill(&st.Error, l.Error)
	frame.Fill(&st.Status, l.Status)
	st.Cancellable = st.Cancellable || l.Cancellable
	if cur.SubagentTask == nil || !st.Equal(*cur.SubagentTask) {
		cur.SubagentTask = &st
	}
	return cur, true
}

// merge is mergeSubagentHalf for a half whose fields in cl were null or
// withdrawn: the RFD's way to say the child is back in its parent's
// directory (the card's cwd goes), may no longer be cancelled, or has no
// title. A title the RFD reported is the card's title and the subagent's
// description alike, and both go; a card title that differs came from the
// spawning tool call, and it and the description (the call's input) stay.
// A card left without a title falls back to the child's name, else its
// type, else none, for the client to choose.
func (cl clearing) merge(cur, late Payload) (Payload, bool) {
	next, ok := mergeSubagentHalf(cur, late)
	st := next.SubagentTask
	if st == nil {
		return next, ok
	}
	cleared := *st // possibly cur's object, which is never changed
	if cl&clearCwd != 0 {
		cleared.Cwd = ""
	}
	if cl&clearCancel != 0 {
		cleared.Cancellable = false
	}
	if cl&clearTitle != 0 {
		if st.Description != "" && next.Title == st.Description {
			next.Title, cleared.Description = "", ""
		}
		if next.Title == "" {
			next.Title = cmp.Or(st.Name, st.SubagentType)
		}
		ok = ok || next.Title != cur.Title
	}
	if !cleared.Equal(*st) {
		changed := new(SubagentTask) // only then: most clearings clear nothing
		*changed = cleared
		next.SubagentTask = changed
		ok = true
	}
	return next, ok
}

// sessionMessage reads a session_message between a child session and the
// session whose card it is linked to: claude-agent-acp (0.95.0 on) sends
// a child's prompt and answer so, in place of the Agent call the client
// is not sent. A message to the child (the parent's outgoing view, or
// the child's incoming one) is the card's prompt when it has none yet: the
// first is the task, later ones are follow-ups. A message from the child
// to the parent session (its answer, or its hand-back report) is the
// card's result text, the last one winning. Any other message (between
// sessions no card links, a session's message to itself) says nothing,
// as before.
func (c *Conn) sessionMessage(s *session, u gjson.Result) []Event {
	m := readSessionMessage(u)
	if m.text == "" || m.sender == "" || m.recipient == "" || m.sender == m.recipient {
		return nil
	}
	var parent *session
	var child string
	toChild := true
	switch {
	case m.sender == s.id && c.childCard(s, m.recipient) != nil:
		parent, child = s, m.recipient // the parent's outgoing view
	case m.recipient == s.id && c.childCard(s, m.sender) != nil:
		parent, child, toChild = s, m.sender, false // the answer, on the parent
	case m.recipient == s.id && s.parent.Session == m.sender:
		parent, child = c.sessions[m.sender], s.id // the child's incoming view
	}
	if parent == nil {
		return nil
	}
	card := c.childCard(parent, child)
	if card == nil || card.payload.SubagentTask == nil {
		return nil
	}
	st := SubagentTask{ChildSessionID: strings.Clone(child)}
	if toChild {
		if card.payload.SubagentTask.Prompt != "" {
			return nil
		}
		st.Prompt = strings.Clone(m.text)
	} else {
		st.ResultText = strings.Clone(m.text)
	}
	return c.updateCard(parent, Late{Payload: Payload{Kind: KindSubagentTask, SubagentTask: &st}}, mergeSubagentHalf, false)
}

// sessionMessageFields is what sessionMessage reads of a session_message;
// the strings view the frame.
type sessionMessageFields struct {
	sender, recipient, text string
}

// readSessionMessage reads {senderSessionId, recipientSessionId, content}:
// the first of each key counts, and the content's text blocks are joined
// by a newline (other blocks are skipped). Wrong-typed fields are absent.
func readSessionMessage(u gjson.Result) sessionMessageFields {
	var m sessionMessageFields
	var texts []string
	var seen uint16
	r := frame.NewReader(u)
	r.Object(func(k string) {
		switch {
		case k == "senderSessionId" && first(&seen, 1):
			m.sender = r.String()
		case k == "recipientSessionId" && first(&seen, 2):
			m.recipient = r.String()
		case k == "content" && first(&seen, 4):
			r.Array(func() {
				var typ, text string
				var block uint16
				r.Object(func(k string) {
					switch {
					case k == "type" && first(&block, 1):
						typ = r.String()
					case k == "text" && first(&block, 2):
						text = r.String()
					}
				})
				if typ == "text" && text != "" {
					texts = append(texts, text)
				}
			})
		}
	})
	m.text = strings.Join(texts, "\n")
	return m
}
