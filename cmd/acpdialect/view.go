package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/tidwall/gjson"
)

// maxText is how many characters of a long value the view shows.
const maxText = 60

// maxItems is how many items of a list (a plan's entries, to-dos) a row
// shows; the count before them says how many there are.
const maxItems = 20

// view writes the readable view as the replay goes: one line per
// meaningful step of a turn (the prompt, each agent message and thought,
// each tool call state, plan, permission request and its answer, usage,
// reply and dialect event), then a one-line summary. Lines are
//
//	LINE  WHAT  SESSION  TEXT
//
// numbered by the transcript line that caused them. A frame that produced
// events is shown through them; one that did not (a chunk, a plan, a
// usage_update of an agent without a dialect) is shown from the frame
// itself, so the view answers "what happened in this turn" for any agent.
// The agent's identity, a new session and the end of a turn are shown from
// the frame whatever events it made.
type view struct {
	w       *bufio.Writer
	color   bool
	lineW   int // the widest line number and session so far: columns
	sessW   int // only widen, so lines already written stay as they are
	cards   int
	pending []row  // the current frame's own lines, shown if no event covers it
	chunk   *chunk // the current frame's own chunk, joined unless a message event replaces it
	msg     *chunk // the message being joined, shown when it ends
	turn    *turnState
}

// row is one line of the view before layout.
type row struct {
	line    int
	what    string
	session string
	text    string
	depth   int    // nesting under a parent tool call
	color   string // the colour of what, when not colorOf(what)
	// keep shows the row even when its frame made events: no event says
	// who the agent is, that a session started or that a turn ended.
	keep bool
}

func newView(w *bufio.Writer, color bool) *view {
	return &view{w: w, color: color, turn: newTurnState()}
}

// frame reads a transcript line before its events: its own lines wait in
// pending until lineDone says whether an event covered them.
func (v *view) frame(f replay.Frame) {
	v.pending = v.turn.rows(f, v.pending[:0])
	if v.chunk = v.turn.chunk(f); v.chunk == nil {
		v.endMessage() // anything else ends the message being joined
	}
}

// lineDone shows the frame's own lines when it produced no event, and
// those that no event says in any case.
func (v *view) lineDone(_, events int) {
	v.joinChunk()
	for _, r := range v.pending {
		if events == 0 || r.keep {
			v.write(r)
		}
	}
	v.pending = v.pending[:0]
}

func (v *view) event(rec replay.Record) error {
	ev := rec.Event
	if m := ev.Message(); m != nil {
		// A dialect's message (a subagent's, a phased one) is what its
		// chunk says, read by the dialect: it replaces the chunk and
		// joins like chunks, under its card.
		v.chunk = nil
		v.join(&chunk{line: rec.Line, session: ev.SessionID, role: m.Role, parent: m.ParentToolCallID, phase: m.Phase, text: m.Text})
		return nil
	}
	v.joinChunk() // the chunk comes before what else it caused
	v.endMessage()
	if ev.Type == acpdialect.EventToolCall {
		v.cards++
	}
	v.write(v.eventRow(rec))
	return nil
}

func (v *view) finish(sum replay.Summary) {
	v.endMessage()
	for _, r := range v.turn.unfinished() {
		v.write(r)
	}
	fmt.Fprintln(v.w, v.paint(colorDim, summary(sum, v.cards)))
}

// eventRow is one event as a row.
func (v *view) eventRow(rec replay.Record) row {
	ev := rec.Event
	r := row{line: rec.Line, what: ev.Type, session: ev.SessionID}
	switch {
	case ev.Type == acpdialect.EventReply:
		r.text = "id=" + string(ev.ID) + " " + ev.Method + " -> " + replyText(ev)
	case ev.Payload != nil:
		r.depth = v.turn.depth(ev.SessionID, ev.ToolCallID, ev.Payload.ParentToolCallID)
		r.text = cardText(ev)
	default:
		r.text = strings.TrimSpace(ev.ToolCallID + " " + objectText(ev))
	}
	return r
}

// cardText is a tool call state: id, kind, status, title, details.
func cardText(ev acpdialect.Event) string {
	p := ev.Payload
	parts := []string{ev.ToolCallID, p.Kind, orDash(p.Status)}
	if p.Title != "" {
		parts = append(parts, quote(p.Title))
	}
	return strings.Join(append(parts, details(p)...), " ")
}

// join adds a chunk to the message being joined, or ends that message and
// starts another.
func (v *view) join(c *chunk) {
	if v.msg != nil && v.msg.same(c) {
		v.msg.add(c.text)
		return
	}
	v.endMessage()
	v.msg = c
	c.total = utf8.RuneCountInString(c.text)
	c.text = cut(c.text)
}

// joinChunk joins the current frame's chunk, if no message event replaced
// it.
func (v *view) joinChunk() {
	if c := v.chunk; c != nil {
		v.chunk = nil
		v.join(c)
	}
}

// endMessage writes the message being joined, if any.
func (v *view) endMessage() {
	if v.msg == nil {
		return
	}
	m := v.msg
	v.msg = nil
	r := row{line: m.line, what: m.role, session: m.session, text: quote(m.text)}
	if m.total > maxText {
		r.text += fmt.Sprintf(" (%d chars)", m.total)
	}
	if m.phase != "" {
		r.text += " phase=" + token(m.phase)
	}
	if m.parent != "" {
		r.depth = v.turn.depth(m.session, "", m.parent)
	}
	v.write(r)
}

// Colours (ANSI SGR) by what a line is.
const (
	colorDim     = "2"
	colorUser    = "1;36" // bold cyan: what the user said
	colorAgent   = "32"   // green: what the agent said
	colorThought = "35"   // magenta
	colorCard    = "33"   // yellow: tool calls
	colorAsk     = "1;31" // bold red: the agent waits for the user
	colorOther   = "34"   // blue
)

func colorOf(what string) string {
	switch what {
	case "prompt", acpdialect.RoleUser, "answer":
		return colorUser
	case acpdialect.RoleAssistant:
		return colorAgent
	case acpdialect.RoleThought:
		return colorThought
	case acpdialect.EventToolCall, acpdialect.EventToolCallUpdate:
		return colorCard
	case "permission", acpdialect.EventQuestion, acpdialect.EventPlan:
		return colorAsk
	}
	return colorOther
}

func (v *view) paint(code, s string) string {
	if !v.color || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// write lays a row out: the line number and session padded to the widest
// so far, the type to 16 (tool_call_update), a nested line indented under
// its parent. Every column may hold the agent's text, so each is made safe
// for a terminal; the colours are the view's own.
func (v *view) write(r row) {
	num := strconv.Itoa(r.line)
	sess := safe(shortID(orDash(r.session)))
	r.what, r.text = safe(r.what), safe(r.text)
	v.lineW = max(v.lineW, len(num))
	v.sessW = max(v.sessW, utf8.RuneCountInString(sess))
	var b strings.Builder
	b.WriteString(v.paint(colorDim, num))
	b.WriteString(strings.Repeat(" ", v.lineW-len(num)+2))
	b.WriteString(v.paint(cmp.Or(r.color, colorOf(r.what)), r.what))
	b.WriteString(strings.Repeat(" ", max(16-utf8.RuneCountInString(r.what), 0)+2))
	b.WriteString(sess)
	text := r.text
	if r.depth > 0 {
		text = strings.Repeat("  ", r.depth-1) + "└ " + text
	}
	if text != "" {
		b.WriteString(strings.Repeat(" ", v.sessW-utf8.RuneCountInString(sess)+2))
		b.WriteString(text)
	}
	v.w.WriteString(strings.TrimRight(b.String(), " "))
	v.w.WriteByte('\n')
}

// shortID cuts a session id longer than 12 characters to its last 8.
// The head is the same for sessions made about the same time when the id
// is time-ordered (a version 7 UUID: Codex threads, Grok sessions;
// OpenCode's ses_ ids), and for a child named after its parent (codex-acp's
// "<parent>:subagent:<thread>"): a subagent's session and its parent's
// start alike. The tail of each of these is its own.
func shortID(s string) string {
	r := []rune(s)
	if len(r) <= 12 {
		return s
	}
	return "…" + string(r[len(r)-8:])
}

func replyText(ev acpdialect.Event) string {
	if ev.Error != nil {
		return fmt.Sprintf("error %d %s", ev.Error.Code, ev.Error.Message)
	}
	if o := outcomeText(ev.Result); o != "" {
		return o
	}
	return truncate(string(ev.Result))
}

// outcomeText reads an answer of the {"outcome":{"outcome":...}} form that
// Cursor's blocking requests get (answered, skipped, accepted, rejected,
// cancelled): the outcome, then what the user chose or said. It is "" for
// any other result, which is then shown as JSON.
func outcomeText(result []byte) string {
	o := gjson.GetBytes(result, "outcome")
	kind := o.Get("outcome")
	if !o.IsObject() || kind.Type != gjson.String || kind.Str == "" {
		return ""
	}
	out := []string{kind.Str}
	o.Get("answers").ForEach(func(_, a gjson.Result) bool {
		var ids []string
		a.Get("selectedOptionIds").ForEach(func(_, id gjson.Result) bool {
			ids = append(ids, word(id.String()))
			return true
		})
		out = append(out, word(a.Get("questionId").String())+"="+strings.Join(ids, ","))
		return true
	})
	if u := o.Get("planUri").String(); u != "" {
		out = append(out, "plan_uri="+token(u))
	}
	if r := o.Get("reason").String(); r != "" {
		out = append(out, "reason="+quote(r))
	}
	return strings.Join(out, " ")
}

// objectText is a session-level event (question, plan, todos, image,
// models, commands) on one line: the request id when it is a request, then
// what a user would read of it.
func objectText(ev acpdialect.Event) string {
	var out []string
	if ev.ID != nil {
		out = append(out, "id="+string(ev.ID))
	}
	// The accessors, not a type switch: a typed nil object reads as none.
	switch {
	case ev.Question() != nil:
		out = append(out, questionText(ev.Question())...)
	case ev.Plan() != nil:
		out = appendSet(out, "name", quote(ev.Plan().Name))
		out = append(out, "todos="+strconv.Itoa(len(ev.Plan().Todos)))
	case ev.Todos() != nil:
		out = append(out, todosText(ev.Todos().Items)...)
	case ev.Image() != nil:
		out = appendSet(out, "description", quote(ev.Image().Description))
		out = appendSet(out, "file", token(ev.Image().FilePath))
	case ev.Models() != nil:
		items := ev.Models().Items
		ids := make([]string, len(items))
		for i, m := range items {
			ids[i] = token(m.ID)
		}
		out = append(out, "models="+strconv.Itoa(len(ids)))
		out = append(out, ids...)
	case ev.Permission() != nil:
		out = append(out, permissionText(ev.Permission())...)
	case ev.State() != nil:
		out = append(out, stateText(ev.State())...)
	case ev.Commands() != nil:
		items := ev.Commands().Items
		names := make([]string, len(items))
		for i, c := range items {
			names[i] = "/" + token(c.Name)
		}
		out = append(out, "commands="+strconv.Itoa(len(names)))
		out = append(out, names...)
	case ev.Object != nil && !reflect.ValueOf(ev.Object).IsNil():
		// Every other type, a new one from a dialect too: its scalar
		// fields, and its lists by length.
		b, err := json.Marshal(ev.Object)
		if err == nil {
			out = appendSet(out, "", objectFields(gjson.ParseBytes(b)))
		}
	}
	return strings.Join(out, " ")
}

// stateText is a work state, its stop reason, and its background list
// when reported: its length, then each item as type:id.
func stateText(st *acpdialect.State) []string {
	out := []string{"state=" + token(st.State)}
	if st.StopReason != "" {
		out = append(out, "stop_reason="+token(st.StopReason))
	}
	if st.Background == nil {
		return out
	}
	out = append(out, "background="+strconv.Itoa(len(st.Background)))
	for _, w := range st.Background {
		out = append(out, token(w.Type)+":"+token(orDash(w.ID)))
	}
	return out
}

// objectFields is an object's scalar members as k=v and its lists as
// k=[n], nested objects flattened with a dot.
func objectFields(o gjson.Result) string {
	var out []string
	o.ForEach(func(k, v gjson.Result) bool {
		switch {
		case v.IsArray():
			out = append(out, k.Str+"=["+strconv.Itoa(len(v.Array()))+"]")
		case v.IsObject():
			out = appendSet(out, "", prefixed(k.Str+".", v))
		default:
			out = appendSet(out, "", prefixed("", gjson.Parse(`{"`+k.Str+`":`+v.Raw+`}`)))
		}
		return true
	})
	return strings.Join(out, " ")
}

// questionText is the title, then each question: its id and prompt, its
// option labels (the id where there is no label) and whether several may
// be picked.
func questionText(q *acpdialect.Question) []string {
	out := appendSet(nil, "title", quote(q.Title))
	for _, it := range q.Questions {
		labels := make([]string, len(it.Options))
		for i, o := range it.Options {
			labels[i] = word(cmp.Or(o.Label, o.ID))
		}
		q := word(it.ID) + "=" + cmp.Or(quote(it.Prompt), `""`)
		if it.ID == it.Prompt && it.ID != "" {
			q = quote(it.Prompt) // an agent that keys questions by their text (Grok)
		}
		out = append(out, q, "["+strings.Join(labels, "|")+"]")
		if it.AllowMultiple {
			out = append(out, "multiple")
		}
	}
	return out
}

// permissionText is a permission request's fields, then its options as
// the request from the wire shows them: the user's choices, not a count.
func permissionText(p *acpdialect.Permission) []string {
	fields := *p
	fields.Options = nil
	var out []string
	if b, err := json.Marshal(&fields); err == nil {
		out = appendSet(out, "", objectFields(gjson.ParseBytes(b)))
	}
	names := make([]string, len(p.Options))
	for i, o := range p.Options {
		names[i] = optionText(o.Name, o.ID, o.Kind)
	}
	return append(out, "["+strings.Join(names, "|")+"]")
}

// optionText is a permission option: its name (its id if it has none)
// and its kind.
func optionText(name, id, kind string) string {
	s := word(cmp.Or(name, id))
	if kind != "" {
		s += "(" + word(kind) + ")"
	}
	return s
}

// todosText is the list's length, then each item as [status] and its
// content (the id where there is none).
func todosText(items []acpdialect.Todo) []string {
	out := []string{"todos=" + strconv.Itoa(len(items))}
	for i, t := range items {
		if i == maxItems {
			return append(out, "…")
		}
		out = append(out, statusTag(t.Status), cmp.Or(quote(t.Content), word(t.ID)))
	}
	return out
}

// statusTag is an item's status in brackets, as a word: a status that
// holds a bracket is quoted, so it cannot close the tag and forge an item.
func statusTag(status string) string { return "[" + word(cmp.Or(status, "-")) + "]" }

// appendSet appends k=v when v is set (v alone for an empty k).
func appendSet(out []string, k, v string) []string {
	switch {
	case v == "":
		return out
	case k == "":
		return append(out, v)
	}
	return append(out, k+"="+v)
}

// word shows an id or a label as is when it reads as one word, else
// quoted, so that the view's separators (= , | [ ]) stay unambiguous.
func word(s string) string { return plain(s, "=,|[]") }

// token is word for a value whose own syntax uses those separators (a
// model id such as grok-4.5[effort=high], a path): quoted only when it
// holds a space or a character that needs escaping.
func token(s string) string { return plain(s, "") }

func plain(s, seps string) string {
	s = truncate(s)
	q := strconv.Quote(s)
	if s == "" || q != `"`+s+`"` || strings.ContainsAny(s, " "+seps) {
		return q
	}
	return s
}

// details are the payload's kind-specific fields that are set, as key=value.
func details(p *acpdialect.Payload) []string {
	var out []string
	add := func(k, v string) {
		if v != "" {
			out = append(out, k+"="+v)
		}
	}
	addInt := func(k string, v *int64) {
		if v != nil {
			add(k, strconv.FormatInt(*v, 10))
		}
	}
	add("parent", p.ParentToolCallID)
	if p.Cancellable {
		add("cancellable", "true") // tool_call/cancel
	}
	if g := p.Generic; g != nil {
		add("acp_kind", g.ACPKind)
	}
	if st := p.SubagentTask; st != nil {
		add("description", quote(st.Description))
		add("prompt", quote(st.Prompt))
		add("subagent_type", st.SubagentType)
		add("subagent_status", st.Status)
		add("model", st.Model)
		add("agent_id", st.AgentID)
		add("child_session_id", st.ChildSessionID)
		if st.Name != "" {
			add("name", word(st.Name))
		}
		if st.Cwd != "" {
			add("cwd", token(st.Cwd)) // a path, quoted as the image's file is
		}
		addInt("duration_ms", st.DurationMs)
		addInt("total_tokens", st.TotalTokens)
		addInt("tool_use_count", st.ToolUseCount)
		add("result", quote(st.ResultText))
		add("error", quote(st.Error))
		if st.IsAsync {
			add("is_async", "true")
		}
		if st.Cancellable {
			add("subagent_cancellable", "true") // the child's own grant, as subagent_status is its status
		}
		add("output_file", st.OutputFile)
	}
	return append(out, kindDetails(p)...)
}

// kindDetails are what the other kinds' objects say, as a client shows
// them on the card: an output by its tail, a monitor by its last event.
func kindDetails(p *acpdialect.Payload) []string {
	var out []string
	add := func(k, v string) {
		if v != "" {
			out = append(out, k+"="+v)
		}
	}
	tok := func(k, v string) {
		if v != "" {
			add(k, token(v))
		}
	}
	flag := func(k string, b bool) {
		if b {
			out = append(out, k+"=true")
		}
	}
	num := func(k string, v *int64) {
		if v != nil {
			add(k, strconv.FormatInt(*v, 10))
		}
	}
	if sh := p.Shell; sh != nil {
		add("command", quote(sh.Command))
		tok("cwd", sh.Cwd)
		tok("terminal_id", sh.TerminalID)
		add("output", tailQuote(sh.Output))
		flag("output_truncated", sh.OutputTruncated)
		num("exit_code", sh.ExitCode)
		tok("signal", sh.Signal)
		flag("background", sh.Background)
		flag("terminal_cancellable", sh.Cancellable) // terminal/cancel, beside the tool call's grant
	}
	if m := p.MCPTool; m != nil {
		tok("server", m.Server)
		tok("tool", m.Tool)
		add("output", tailQuote(m.Output))
		add("error", quote(m.Error))
	}
	if m := p.Monitor; m != nil {
		tok("task_id", m.TaskID)
		add("command", quote(m.Command))
		add("events", strconv.FormatInt(m.EventCount, 10))
		if n := len(m.RecentEvents); n > 0 {
			add("last_event", quote(m.RecentEvents[n-1]))
		}
		flag("ended", m.Ended)
		tok("end_reason", m.EndReason)
	}
	if w := p.Wakeup; w != nil {
		num("delay_seconds", w.DelaySeconds)
		num("scheduled_for", w.ScheduledFor)
		flag("invalid", w.Invalid)
		add("reason", quote(w.Reason))
	}
	return out
}

// tailQuote is quote for an output, whose end is what a terminal shows:
// past maxText characters its tail, after an ellipsis.
func tailQuote(s string) string {
	if utf8.RuneCountInString(s) <= maxText {
		return quote(s)
	}
	r := []rune(s)
	return strconv.Quote("…" + string(r[len(r)-maxText+1:]))
}

// quote shows a free-text value on one line, shortened; "" stays empty.
func quote(s string) string {
	if s == "" {
		return ""
	}
	return strconv.Quote(truncate(s))
}

// truncate shortens s to maxText characters with an ellipsis.
func truncate(s string) string {
	if utf8.RuneCountInString(s) <= maxText {
		return s
	}
	r := []rune(s)
	return string(r[:maxText-1]) + "…"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// summary is the last line: the agent, what was shown, and the counters a
// reader checks first when a card looks wrong, named as in the --final
// stats line (pending.* are its "pending" store's counters).
func summary(sum replay.Summary, cards int) string {
	st := sum.Stats
	agent := safe(sum.Agent)
	if agent == "" {
		agent = "unknown"
	}
	return fmt.Sprintf("agent=%s tool_calls=%d bad_lines=%d replies=%d declined=%d ignored_notifications=%d "+
		"late_merged=%d late_dropped=%d pending.swept=%d pending.evicted=%d",
		agent, cards, sum.BadLines, st.Replies, st.Declined, st.IgnoredNotifications,
		st.LateMerged, st.LateDropped, st.Pending.Swept, st.Pending.Evicted)
}
