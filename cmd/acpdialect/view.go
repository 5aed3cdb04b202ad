package main

import (
	"bufio"
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/tidwall/gjson"
)

// maxText is how many characters of a long value the view shows.
const maxText = 60

// view writes the readable view as the replay goes: one line per tool
// call state, per reply and per session-level event, in columns, then a
// one-line summary. Each line is written when its event arrives, so the
// columns are as wide as the widest cell so far: a wider cell later shifts
// the lines after it, never the ones already written.
type view struct {
	w     *bufio.Writer
	width []int
	cards int
}

func newView(w *bufio.Writer) *view { return &view{w: w} }

// frame sees each transcript line before its events.
func (v *view) frame(replay.Frame) {}

func (v *view) event(rec replay.Record) error {
	if rec.Event.Type == acpdialect.EventToolCall {
		v.cards++
	}
	v.row(viewRow(rec))
	return nil
}

func (v *view) finish(sum replay.Summary) {
	fmt.Fprintln(v.w, summary(sum, v.cards))
}

// row pads every cell but the row's last to its column's width so far,
// two spaces apart.
func (v *view) row(row []string) {
	// Empty last cells would leave padding at the end of the line.
	for len(row) > 1 && row[len(row)-1] == "" {
		row = row[:len(row)-1]
	}
	for i, cell := range row[:len(row)-1] {
		if i == len(v.width) {
			v.width = append(v.width, 0)
		}
		n := utf8.RuneCountInString(cell)
		v.width[i] = max(v.width[i], n)
		v.w.WriteString(cell)
		v.w.WriteString(strings.Repeat(" ", v.width[i]-n+2))
	}
	v.w.WriteString(strings.TrimRight(row[len(row)-1], " "))
	v.w.WriteByte('\n')
}

// viewRow is one event as columns.
func viewRow(rec replay.Record) []string {
	ev := rec.Event
	line := strconv.Itoa(rec.Line)
	if ev.Type == acpdialect.EventReply {
		// The method and answer go in the last, unaligned column, so that a
		// long method name does not widen the tool call columns.
		return []string{line, ev.Type, "-", "id=" + string(ev.ID), ev.Method + " -> " + replyText(ev)}
	}
	if ev.Payload == nil {
		row := []string{line, ev.Type, orDash(ev.SessionID), orDash(ev.ToolCallID)}
		// Like a reply's, a session-level event's text goes in the last,
		// unaligned column.
		if text := sessionText(ev); text != "" {
			row = append(row, text)
		}
		return row
	}
	p := ev.Payload
	return []string{line, ev.Type, ev.SessionID, ev.ToolCallID, p.Kind, orDash(p.Status),
		quote(p.Title), strings.Join(details(p), " ")}
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

// sessionText is a session-level event (question, plan, todos, image,
// models, commands) on one line: the request id when it is a request, then
// what a user would read of it.
func sessionText(ev acpdialect.Event) string {
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
	case ev.Commands() != nil:
		items := ev.Commands().Items
		names := make([]string, len(items))
		for i, c := range items {
			names[i] = "/" + token(c.Name)
		}
		out = append(out, "commands="+strconv.Itoa(len(names)))
		out = append(out, names...)
	}
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
		out = append(out, word(it.ID)+"="+cmp.Or(quote(it.Prompt), `""`), "["+strings.Join(labels, "|")+"]")
		if it.AllowMultiple {
			out = append(out, "multiple")
		}
	}
	return out
}

// todosText is the list's length, then each item as [status] and its
// content (the id where there is none).
func todosText(items []acpdialect.Todo) []string {
	out := []string{"todos=" + strconv.Itoa(len(items))}
	for _, t := range items {
		out = append(out, "["+cmp.Or(t.Status, "-")+"]", cmp.Or(quote(t.Content), word(t.ID)))
	}
	return out
}

// appendSet appends k=v when v is set.
func appendSet(out []string, k, v string) []string {
	if v == "" {
		return out
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
		addInt("duration_ms", st.DurationMs)
		addInt("total_tokens", st.TotalTokens)
		addInt("tool_use_count", st.ToolUseCount)
		add("result", quote(st.ResultText))
		if st.IsAsync {
			add("is_async", "true")
		}
		add("output_file", st.OutputFile)
	}
	return out
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
	agent := sum.Agent
	if agent == "" {
		agent = "unknown"
	}
	return fmt.Sprintf("agent=%s tool_calls=%d bad_lines=%d replies=%d declined=%d ignored_notifications=%d "+
		"late_merged=%d late_dropped=%d pending.swept=%d pending.evicted=%d",
		agent, cards, sum.BadLines, st.Replies, st.Declined, st.IgnoredNotifications,
		st.LateMerged, st.LateDropped, st.Pending.Swept, st.Pending.Evicted)
}
