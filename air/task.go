package air

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// AIR's async task update kinds: session/update kinds the SDKs do not
// know, sent only to a client that lists "asyncTasks" in its AIR
// capabilities. claude-agent-acp and codex-acp send the same three
// records; a dialect lists the kinds it may get in its Updates (so the
// tap quarantines them) with a handler that calls ReadTask. codex-acp
// sends an ACP v2 client the spawn and the state as _async_task_spawned
// and _async_task_state_update, which ReadTask reads as these.
const (
	UpdateTaskSpawned  = "async_task_spawned"
	UpdateTaskProgress = "async_task_progress"
	UpdateTaskState    = "async_task_state_update"
)

// Task types a card of their own kind is made for (see Task.Late); any
// other type is a generic card titled by the task's name.
const (
	TaskShell   = "shell"
	TaskMonitor = "monitor"
)

// MaxEvent bounds a progress summary a monitor's card keeps as an event,
// in bytes (its head): the bound of a Claude monitor's event bodies.
const MaxEvent = 4 << 10

// Task is what one async task update says, as read (ReadTask): the first
// of a repeated key wins, a field of the wrong type is absent, and the
// strings are copies, so a Task keeps no view of the frame.
//
//   - async_task_spawned {asyncTaskId, name, taskType, description?,
//     toolCallId?, state?};
//   - async_task_progress {asyncTaskId, summary?, usage?: {durationMs,
//     toolUses, totalTokens}, toolCallId?};
//   - async_task_state_update {asyncTaskId, state, summary?, toolCallId?},
//     state running, paused, completed, failed or stopped.
//
// The other fields (showInTranscript, canStop, outputFilePath, a
// progress's lastToolName) are not read.
type Task struct {
	Update      string // the sessionUpdate kind, its v2 name's "_" taken off
	ID          string // asyncTaskId
	ToolCallID  string // the tool call that started the task, once known
	Type        string // taskType
	Name        string
	Description string
	Summary     string
	State       string
	// A progress's usage: the figures of a subagent's card.
	DurationMs, ToolUses, TotalTokens *int64
}

// ReadTask reads an async task update.
func ReadTask(update gjson.Result) Task {
	var t Task
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch k {
		case "sessionUpdate":
			// codex-acp sends an ACP v2 client the same records under
			// names of AIR's own: _async_task_spawned, ...
			first(&t.Update, strings.TrimPrefix(r.String(), "_"))
		case "asyncTaskId":
			first(&t.ID, r.String())
		case "toolCallId":
			first(&t.ToolCallID, r.String())
		case "taskType":
			first(&t.Type, r.String())
		case "name":
			first(&t.Name, r.String())
		case "description":
			first(&t.Description, r.String())
		case "summary":
			first(&t.Summary, r.String())
		case "state":
			first(&t.State, r.String())
		case "usage":
			r.Object(func(k string) {
				switch k {
				case "durationMs":
					t.DurationMs = frame.Count(t.DurationMs, r.Value())
				case "toolUses":
					t.ToolUses = frame.Count(t.ToolUses, r.Value())
				case "totalTokens":
					t.TotalTokens = frame.Count(t.TotalTokens, r.Value())
				}
			})
		}
	})
	return t
}

// first copies v into *dst unless *dst is set or v is empty.
func first(dst *string, v string) {
	if *dst == "" && v != "" {
		*dst = strings.Clone(v)
	}
}

// Late turns the update into a late half for the task's card, named by
// the task id (an alias of the tool call that started it, once an update
// names one; the Conn hands a card keyed by the task id over to the tool
// call's, see acpdialect.Late.Alias). An update without a task id says
// nothing: a zero Late.
//
// A spawn makes a shell task a background shell (its description the
// command), a monitor task a monitor, and any other type a card of no
// kind of its own titled by the task's name; the task is running
// (in_progress), unless the spawn names a state. A progress's summary is
// one of a monitor's events, its usage a subagent's figures. A state
// update gives the end status (completed, failed; stopped is cancelled)
// and ends a monitor. The status is the card's only where the Conn or the
// dialect's merge applies it: a tool call's card keeps its own unless the
// dialect says otherwise.
func (t Task) Late() acpdialect.Late {
	if t.ID == "" {
		return acpdialect.Late{}
	}
	l := acpdialect.Late{ToolCallID: t.ToolCallID, Alias: t.ID}
	switch t.Type {
	case TaskShell:
		l.Payload = acpdialect.Payload{Kind: acpdialect.KindShell, Shell: &acpdialect.Shell{Command: t.Description, Background: true}}
	case TaskMonitor:
		l.Payload = acpdialect.Payload{Kind: acpdialect.KindMonitor, Monitor: &acpdialect.Monitor{TaskID: t.ID, Command: t.Description}}
	default:
		// claude-agent-acp's "task" (a task whose SDK type is missing),
		// "workflow" and any type passed through: a background card of no
		// kind of its own, titled by the name. Never a subagent: neither
		// agent reports those as async tasks.
		l.Payload.Title = t.Name
	}
	t.progress(&l.Payload)
	t.state(&l.Payload)
	return l
}

// progress puts a progress update's news on the half: a summary is an
// event of a monitor (its kind is known by its card, so the half carries
// a monitor object only with the summary), and usage the figures of a
// subagent.
func (t Task) progress(p *acpdialect.Payload) {
	if t.Update != UpdateTaskProgress {
		return
	}
	if t.Summary != "" {
		p.Monitor = &acpdialect.Monitor{TaskID: t.ID, EventCount: 1, RecentEvents: []string{frame.Head(t.Summary, MaxEvent)}}
	}
	if t.DurationMs != nil || t.ToolUses != nil || t.TotalTokens != nil {
		p.SubagentTask = &acpdialect.SubagentTask{DurationMs: t.DurationMs, ToolUseCount: t.ToolUses, TotalTokens: t.TotalTokens}
	}
}

// state maps the task's state to the half's status and ends a monitor. A
// spawned task is running, so a spawn is in_progress, unless it names a
// state of its own: a task that runs past the turn may send no state
// update for a long time.
func (t Task) state(p *acpdialect.Payload) {
	switch t.Update {
	case UpdateTaskSpawned:
		p.Status = acpdialect.StatusInProgress
	case UpdateTaskState:
	default:
		return
	}
	if s := Status(t.State); s != "" {
		p.Status = s
	} else {
		return
	}
	if acpdialect.StatusEnded(p.Status) {
		p.Monitor = endedMonitor(p.Monitor, t.ID, t.State) // a paused monitor has not ended
	}
}

// Status maps a task state to a card status: running is in_progress,
// paused, completed and failed themselves (paused as ACP v2's tool call
// status: started, not running now, may run again), stopped cancelled;
// any other state is "".
func Status(state string) string {
	switch state {
	case "running":
		return acpdialect.StatusInProgress
	case "paused":
		return acpdialect.StatusPaused
	case "completed":
		return acpdialect.StatusCompleted
	case "failed":
		return acpdialect.StatusFailed
	case "stopped":
		return acpdialect.StatusCancelled
	}
	return ""
}

// endedMonitor returns a new monitor object, m's values (a spawn's command)
// kept, that ends with the task's state.
func endedMonitor(m *acpdialect.Monitor, id, state string) *acpdialect.Monitor {
	e := acpdialect.Monitor{TaskID: id}
	if m != nil {
		e = *m
	}
	e.Ended, e.EndReason = true, state
	return &e
}

// MergeShell returns cur with a task's shell merged in: its command, when
// it names one, and the background flag. It returns cur itself when
// nothing changed, else a new object (cur is never modified).
func MergeShell(cur, late *acpdialect.Shell) *acpdialect.Shell {
	var sh acpdialect.Shell
	if cur != nil {
		sh = *cur
	}
	frame.Fill(&sh.Command, late.Command)
	sh.Background = sh.Background || late.Background
	if cur != nil && (acpdialect.Payload{Shell: &sh}).Equal(acpdialect.Payload{Shell: cur}) {
		return cur
	}
	return &sh
}
