package claude

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// A Monitor tool call registers a background watch and completes at once;
// the watch then reports each event into the conversation as a
// <task-notification> envelope, until the turn ends.

// RecentEvents is how many event bodies a monitor card keeps, the last.
const RecentEvents = 10

// MaxEventBody bounds each event body a monitor card keeps, in bytes: the
// head is kept, cut at a rune boundary. An event is a line or two of the
// watched output; one flooded envelope must not grow the card by its size,
// RecentEvents times over. An AIR task's progress summary is bounded
// alike (package air).
const MaxEventBody = air.MaxEvent

// MaxNotifications bounds the task notifications read from one text chunk.
const MaxNotifications = 64

// Monitor end reasons beside acpdialect.EndExited and EndSessionRestart.
const EndCompleted = "completed"

// monitorCall merges a Monitor update: rawInput's command, and the
// registration ("Monitor started (task <id>, timeout <ms>ms)"), which gives
// the task id. A registered monitor that has not ended is running, whatever
// status its tool call reports, until a later update without the
// registration gives it a final status: its task ended so (end reason
// completed, failed or cancelled).
func monitorCall(u frame.ToolUpdate, c Code, prev acpdialect.Payload) acpdialect.Payload {
	prev.Kind = acpdialect.KindMonitor
	var m acpdialect.Monitor
	if prev.Monitor != nil {
		m = *prev.Monitor
	}
	cmd, _ := readShellInput(u.RawInput)
	set(&m.Command, cmd)
	id, registers := registeredTask(u)
	if m.TaskID == "" && registers {
		m.TaskID = strings.Clone(id)
	} else if end := finalStatus(u.Status); m.TaskID != "" && !registers && !m.Ended && end != "" {
		// A v2 client's monitor: claude-agent-acp 0.101.0 reports its
		// registration in_progress and its task's end as the tool call's
		// final status, in a later update of its own (background-work.js,
		// withRunningToolCall and taskEnded). A v1 client gets completed
		// with the registration, while the watch goes on, and no later
		// status (taskEnded reaches only clients with background lists,
		// which only v2 has).
		m.Ended, m.EndReason = true, end
	}
	if m.TaskID != "" && !m.Ended && prev.Status != acpdialect.StatusFailed && prev.Status != acpdialect.StatusCancelled &&
		prev.Status != acpdialect.StatusPaused { // a v2 client's paused monitor (taskPaused) is not running
		prev.Status = acpdialect.StatusInProgress
	}
	if prev.Monitor == nil || !(acpdialect.Payload{Monitor: &m}).Equal(acpdialect.Payload{Monitor: prev.Monitor}) {
		prev.Monitor = frame.Keep(m)
	}
	return prev
}

// finalStatus returns a tool call status that ends the call, as the
// package's constant (the frame is only borrowed), or "".
func finalStatus(status gjson.Result) string {
	if status.Type != gjson.String {
		return ""
	}
	switch status.Str {
	case acpdialect.StatusCompleted:
		return acpdialect.StatusCompleted
	case acpdialect.StatusFailed:
		return acpdialect.StatusFailed
	case acpdialect.StatusCancelled:
		return acpdialect.StatusCancelled
	}
	return ""
}

// registeredTask reads the task id of a Monitor registration from
// rawOutput, else from the tool call's content: an AIR client gets the
// result text only in content, and no rawOutput when content carries it.
func registeredTask(u frame.ToolUpdate) (string, bool) {
	if id, ok := ParseMonitorStarted(outputText(u.RawOutput)); ok {
		return id, true
	}
	return ParseMonitorStarted(contentText(u.Raw))
}

// contentText returns the text of the first text block in an update's
// content, ACP's [{type:"content", content:{type:"text", text}}]; a view.
func contentText(update gjson.Result) string {
	var text string
	r := frame.NewReader(update)
	r.Object(func(k string) {
		if k != "content" || text != "" {
			return
		}
		r.Array(func() {
			r.Object(func(k string) {
				if k != "content" || text != "" {
					return
				}
				r.Object(func(k string) {
					if k == "text" && text == "" {
						text = r.String()
					}
				})
			})
		})
	})
	return text
}

// outputText returns a string rawOutput, or its first text block; a view.
func outputText(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	var text string
	r := frame.NewReader(v)
	r.Array(func() {
		r.Object(func(k string) {
			if k == "text" && text == "" {
				text = r.String()
			}
		})
	})
	return text
}

// ParseMonitorStarted reads the task id of a Monitor registration,
// "Monitor started (task <id>, ...": the id is letters, digits, '_' and
// '-', and a comma ends it. ok is false for any other text.
func ParseMonitorStarted(s string) (taskID string, ok bool) {
	rest, found := strings.CutPrefix(s, "Monitor started (task ")
	if !found {
		return "", false
	}
	i := 0
	for i < len(rest) && idByte(rest[i]) {
		i++
	}
	if i == 0 || i == len(rest) || rest[i] != ',' {
		return "", false
	}
	return rest[:i], true
}

func idByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-'
}

// Notification is one <task-notification> envelope in a text, reporting
// an event of a background task: Start and End are the envelope's span in
// the text (with a "Human:" prefix the agent put before it), to hide.
type Notification struct {
	TaskID string
	Event  string
	Start  int
	End    int
}

// ParseTaskNotifications finds the envelopes
// <task-notification><task-id>ID</task-id>...<event>BODY</event></task-notification>
// in text, in order, at most MaxNotifications; their elements may come in
// any order, with others (<summary>) between. One without a task id or an
// event (a background command's completion notice) is not a monitor event
// and is skipped. Strings view text.
func ParseTaskNotifications(text string) []Notification {
	var out []Notification
	for from := 0; len(out) < MaxNotifications; {
		i := strings.Index(text[from:], "<task-notification>")
		if i < 0 {
			break
		}
		start := from + i
		end := strings.Index(text[start:], "</task-notification>")
		if end < 0 {
			break
		}
		end += start + len("</task-notification>")
		from = end
		n, ok := parseEnvelope(text[start+len("<task-notification>") : end-len("</task-notification>")])
		if !ok {
			continue
		}
		n.Start, n.End = humanPrefix(text, start), end
		out = append(out, n)
	}
	return out
}

// parseEnvelope reads the task id and the event body of an envelope's
// inside, its elements in any order: the body runs from the first <event>
// to the last </event>, and the task id is the first <task-id> outside it
// (the body is the monitored command's output, which may hold anything).
func parseEnvelope(in string) (Notification, bool) {
	start := strings.Index(in, "<event>")
	end := strings.LastIndex(in, "</event>")
	if start < 0 || end < start+len("<event>") {
		return Notification{}, false
	}
	id, ok := taskID(in[:start])
	if !ok {
		id, ok = taskID(in[end+len("</event>"):])
	}
	if !ok {
		return Notification{}, false
	}
	return Notification{TaskID: id, Event: in[start+len("<event>") : end]}, true
}

// taskID reads the first <task-id>ID</task-id> in s: an id with no markup.
func taskID(s string) (string, bool) {
	_, rest, ok := strings.Cut(s, "<task-id>")
	if !ok {
		return "", false
	}
	id, _, ok := strings.Cut(rest, "</task-id>")
	id = strings.TrimSpace(id)
	if !ok || id == "" || strings.Contains(id, "<") {
		return "", false
	}
	return id, true
}

// humanPrefix moves start back over a "Human:" (and spaces) just before
// it: the agent's transcript form of an injected turn. The word must stand
// alone, so that "NotHuman:" is left as the agent wrote it.
func humanPrefix(text string, start int) int {
	before := strings.TrimRight(text[:start], " \t\r\n")
	if p, ok := strings.CutSuffix(before, "Human:"); ok && (p == "" || !idByte(p[len(p)-1])) {
		return len(p)
	}
	return start
}

// monitorLates are the late halves that report a chunk's monitor events:
// one per task named, in the order first named, each with its events and
// their count.
func monitorLates(ns []Notification) []acpdialect.Late {
	var out []acpdialect.Late
	for i, n := range ns {
		if seenBefore(ns[:i], n.TaskID) {
			continue
		}
		m := &acpdialect.Monitor{TaskID: strings.Clone(n.TaskID)}
		for _, e := range ns[i:] {
			if e.TaskID == n.TaskID {
				m.EventCount++
				m.RecentEvents = append(m.RecentEvents, frame.Head(e.Event, MaxEventBody))
			}
		}
		if len(m.RecentEvents) > RecentEvents {
			m.RecentEvents = m.RecentEvents[len(m.RecentEvents)-RecentEvents:]
		}
		out = append(out, acpdialect.Late{Alias: m.TaskID, Payload: acpdialect.Payload{
			Kind: acpdialect.KindMonitor, Status: acpdialect.StatusInProgress, Monitor: m}})
	}
	return out
}

// seenBefore reports whether one of ns names task. A chunk names at most
// MaxNotifications, so the quadratic search stays small.
func seenBefore(ns []Notification, task string) bool {
	for _, n := range ns {
		if n.TaskID == task {
			return true
		}
	}
	return false
}

// mergeMonitor adds a late half's events to a monitor: the count grows,
// the last RecentEvents bodies are kept. ok is false when late has none.
func mergeMonitor(cur, late *acpdialect.Monitor) (*acpdialect.Monitor, bool) {
	if late == nil {
		return cur, false
	}
	var m acpdialect.Monitor
	if cur != nil {
		m = *cur
	}
	fill(&m.TaskID, late.TaskID)
	fill(&m.Command, late.Command)
	m.EventCount += late.EventCount
	if len(late.RecentEvents) > 0 {
		events := append(append([]string(nil), m.RecentEvents...), late.RecentEvents...)
		if len(events) > RecentEvents {
			events = events[len(events)-RecentEvents:]
		}
		m.RecentEvents = events
	}
	if late.Ended && !m.Ended {
		m.Ended, m.EndReason = true, late.EndReason
	}
	return &m, true
}

// EndBackground ends a running monitor: at turn end it has exited
// (completed), on session/load its process is gone (cancelled). Other
// cards are left as they are.
func EndBackground(p acpdialect.Payload, reason string) acpdialect.Payload {
	if p.Monitor == nil || p.Monitor.Ended {
		return p
	}
	m := *p.Monitor
	m.Ended, m.EndReason = true, reason
	p.Monitor = &m
	if reason == acpdialect.EndSessionRestart {
		p.Status = acpdialect.StatusCancelled
	} else {
		p.Status = acpdialect.StatusCompleted
	}
	return p
}
