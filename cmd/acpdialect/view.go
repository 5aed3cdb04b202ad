package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
)

// maxText is how many characters of a long value the view shows.
const maxText = 60

// writeView writes the readable view: one line per tool call state and one
// per reply, in columns, then a one-line summary.
func writeView(w io.Writer, r *replay.Replay) error {
	rows := make([][]string, 0, len(r.Events))
	for _, rec := range r.Events {
		rows = append(rows, viewRow(rec))
	}
	bw := bufio.NewWriter(w)
	writeAligned(bw, rows)
	fmt.Fprintln(bw, summary(r))
	return bw.Flush()
}

// writeAligned pads every cell but a row's last to its column's width over
// all rows (unlike text/tabwriter, whose columns restart after a shorter
// row), two spaces apart.
func writeAligned(w *bufio.Writer, rows [][]string) {
	for i, row := range rows {
		// Empty last cells would leave padding at the end of the line.
		for len(row) > 1 && row[len(row)-1] == "" {
			row = row[:len(row)-1]
		}
		rows[i] = row
	}
	var width []int
	for _, row := range rows {
		for i, cell := range row[:len(row)-1] {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range rows {
		for i, cell := range row[:len(row)-1] {
			w.WriteString(cell)
			w.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell)+2))
		}
		w.WriteString(strings.TrimRight(row[len(row)-1], " "))
		w.WriteByte('\n')
	}
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
		return []string{line, ev.Type, orDash(ev.SessionID), orDash(ev.ToolCallID)}
	}
	p := ev.Payload
	return []string{line, ev.Type, ev.SessionID, ev.ToolCallID, p.Kind, orDash(p.Status),
		quote(p.Title), strings.Join(details(p), " ")}
}

func replyText(ev acpdialect.Event) string {
	if ev.Error != nil {
		return fmt.Sprintf("error %d %s", ev.Error.Code, ev.Error.Message)
	}
	return truncate(string(ev.Result))
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
// reader checks first when a card looks wrong.
func summary(r *replay.Replay) string {
	st := r.Stats
	agent := r.Agent
	if agent == "" {
		agent = "unknown"
	}
	return fmt.Sprintf("agent=%s tool_calls=%d replies=%d declined=%d bad_lines=%d "+
		"late_merged=%d late_dropped=%d late_swept=%d late_evicted=%d ignored_notifications=%d",
		agent, len(r.Cards), st.Replies, st.Declined, len(r.Bad),
		st.LateMerged, st.LateDropped, st.Pending.Swept, st.Pending.Evicted, st.IgnoredNotifications)
}
