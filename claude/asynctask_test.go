package claude_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
	"github.com/google/go-cmp/cmp"
)

// Frames of a background shell whose async task spawn went out before its
// tool call id was known (claude-agent-acp releases a held spawn without
// it at the turn's end), the id following on a later update.
const (
	lateSpawn    = `{"sessionUpdate":"async_task_spawned","asyncTaskId":"bash_1","name":"sleep 100","taskType":"shell","description":"sleep 100","showInTranscript":true,"canStop":true}`
	lateBash     = `{"sessionUpdate":"tool_call","toolCallId":"toolu_X","kind":"execute","status":"pending","title":"sleep 100","rawInput":{"command":"sleep 100"},"_meta":{"claudeCode":{"toolName":"Bash"}}}`
	lateBashDone = `{"sessionUpdate":"tool_call_update","toolCallId":"toolu_X","status":"completed","_meta":{"claudeCode":{"toolName":"Bash"}}}`
	lateProgress = `{"sessionUpdate":"async_task_progress","asyncTaskId":"bash_1","toolCallId":"toolu_X","outputFilePath":"/tmp/tasks/bash_1.output","lastToolName":"Bash"}`
	lateFailed   = `{"sessionUpdate":"async_task_state_update","asyncTaskId":"bash_1","state":"failed","toolCallId":"toolu_X"}`
	lateDone     = `{"sessionUpdate":"async_task_state_update","asyncTaskId":"bash_1","state":"completed","summary":"done"}`
)

// A Monitor tool call and its registration.
const (
	monitorCall    = `{"_meta":{"claudeCode":{"toolName":"Monitor"}},"sessionUpdate":"tool_call","toolCallId":"toolu_mon_a","kind":"other","title":"Monitor","status":"pending","rawInput":{"command":"tail -f api.log","description":"Watch the API"}}`
	monitorStarted = `{"_meta":{"claudeCode":{"toolName":"Monitor"}},"sessionUpdate":"tool_call_update","toolCallId":"toolu_mon_a","status":"completed","rawOutput":"Monitor started (task bmon_a, timeout 600000ms). You will be notified of each event."}`
)

// TestAsyncTaskToolCallIDAfterSpawn: when the tool call id of an async
// task arrives after a spawn that had none, the task's card (keyed by the
// task id) hands over to the tool call's: that card gets what the task
// said and the task id as its alias, and the task's card ends instead of
// running on beside it. The task's later updates reach the tool call's
// card only.
func TestAsyncTaskToolCallIDAfterSpawn(t *testing.T) {
	shell := `{"kind":"shell","status":"completed","title":"sleep 100","tool":{"name":"Bash"},"shell":{"command":"sleep 100","background":true}}`
	tests := []struct {
		name   string
		frames []string
		want   map[string]string // each card's last payload
	}{
		{"progress names the tool call",
			[]string{lateSpawn, lateBash, lateBashDone, lateProgress, lateDone},
			map[string]string{"toolu_X": shell, "bash_1": `{"kind":"shell","status":"completed","shell":{"command":"sleep 100","background":true}}`}},
		{"tool call before the spawn",
			[]string{lateBash, lateBashDone, lateSpawn, lateProgress, lateDone},
			map[string]string{"toolu_X": shell, "bash_1": `{"kind":"shell","status":"completed","shell":{"command":"sleep 100","background":true}}`}},
		{"a terminal state names the tool call",
			[]string{lateSpawn, lateBash, lateBashDone, lateFailed},
			map[string]string{"toolu_X": shell, "bash_1": `{"kind":"shell","status":"failed","shell":{"command":"sleep 100","background":true}}`}},
		// The state that names the tool call is the task's latest word
		// (claude-agent-acp corrects a stopped task to completed or failed).
		{"the task ended before its id",
			[]string{lateSpawn, lateDone, lateBash, lateBashDone, lateFailed},
			map[string]string{"toolu_X": shell, "bash_1": `{"kind":"shell","status":"failed","shell":{"command":"sleep 100","background":true}}`}},
		// The id names a tool call not seen yet: its card is made by the
		// update, keeps the task's status by its alias, and the tool call
		// merges into it, its status never moving back.
		{"id before its tool call",
			[]string{lateSpawn, lateProgress, lateDone, lateBash},
			map[string]string{"toolu_X": shell, "bash_1": `{"kind":"shell","status":"completed","shell":{"command":"sleep 100","background":true}}`}},
	}
	for _, tt := range tests {
		got := lastCards(t, tt.frames...)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// After the hand-over, an update of the task by its id alone changes the
// tool call's card (here one the update made: the tool call is not seen
// yet, so the card takes the task's status, in_progress from the spawn
// on, which the running state does not change), never the ended task
// card.
func TestAsyncTaskAliasAfterHandOver(t *testing.T) {
	evs := cardEvents(t, lateSpawn, lateProgress,
		`{"sessionUpdate":"async_task_state_update","asyncTaskId":"bash_1","state":"running"}`, lateDone)
	var got []string
	for _, ev := range evs {
		got = append(got, ev.ToolCallID+" "+ev.Payload.Status)
	}
	want := []string{"bash_1 in_progress", "toolu_X in_progress", "bash_1 completed", "toolu_X completed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestAsyncTaskTypeTask: taskType "task" is claude-agent-acp's name for a
// background task whose SDK type is missing, never a subagent (those are
// not async tasks): a generic card titled by the task's name, and on the
// card of the tool call it names, nothing that changes that card's kind.
func TestAsyncTaskTypeTask(t *testing.T) {
	task := `{"sessionUpdate":"async_task_spawned","asyncTaskId":"t1","name":"Background task","taskType":"task","description":"Background task"%s}`
	tests := []struct {
		name   string
		frames []string
		want   map[string]string
	}{
		{"no tool call", []string{fmt.Sprintf(task, "")},
			map[string]string{"t1": `{"kind":"generic","status":"in_progress","title":"Background task"}`}},
		{"a tool call's", []string{lateBash, fmt.Sprintf(task, `,"toolCallId":"toolu_X"`)},
			map[string]string{"toolu_X": `{"kind":"shell","status":"pending","title":"Background task","tool":{"name":"Bash"},"shell":{"command":"sleep 100"}}`}},
		// An autonomous turn (0.95.0) is no card: its tool calls come
		// as usual. Its progress and end find none.
		{"an autonomous turn", []string{
			`{"sessionUpdate":"async_task_spawned","asyncTaskId":"autonomous-turn-1","name":"Claude is working","taskType":"turn","description":"A scheduled wakeup fired.","showInTranscript":false,"canStop":true}`,
			`{"sessionUpdate":"async_task_progress","asyncTaskId":"autonomous-turn-1","description":"A task finished."}`,
			`{"sessionUpdate":"async_task_state_update","asyncTaskId":"autonomous-turn-1","state":"completed"}`},
			map[string]string{}},
		{"a turn's spawn, whatever its id", []string{`{"sessionUpdate":"async_task_spawned","asyncTaskId":"t9","name":"Claude is working","taskType":"turn"}`},
			map[string]string{}},
		// An SDK type claude-agent-acp passes through as it is.
		{"another type", []string{`{"sessionUpdate":"async_task_spawned","asyncTaskId":"t2","name":"dream","taskType":"dream"}`},
			map[string]string{"t2": `{"kind":"generic","status":"in_progress","title":"dream"}`}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, lastCards(t, tt.frames...)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestAsyncTaskSpawnRunning: a spawned task is running, so the card a
// spawn makes (keyed by the task id when the spawn names no tool call, or
// by a tool call not seen yet) is in_progress at once, not without a
// status until a state update comes; a state the spawn names wins. The
// card of a tool call already seen keeps that tool call's status.
func TestAsyncTaskSpawnRunning(t *testing.T) {
	tests := []struct {
		name   string
		frames []string
		want   map[string]string
	}{
		{"shell", []string{lateSpawn},
			map[string]string{"bash_1": `{"kind":"shell","status":"in_progress","shell":{"command":"sleep 100","background":true}}`}},
		{"monitor", []string{`{"sessionUpdate":"async_task_spawned","asyncTaskId":"m1","name":"tail","taskType":"monitor","description":"tail -f log"}`},
			map[string]string{"m1": `{"kind":"monitor","status":"in_progress","monitor":{"task_id":"m1","command":"tail -f log","event_count":0}}`}},
		{"workflow", []string{`{"sessionUpdate":"async_task_spawned","asyncTaskId":"w1","name":"deploy","taskType":"workflow"}`},
			map[string]string{"w1": `{"kind":"generic","status":"in_progress","title":"deploy"}`}},
		{"a tool call not seen yet", []string{`{"sessionUpdate":"async_task_spawned","asyncTaskId":"w2","name":"deploy","taskType":"workflow","toolCallId":"toolu_W"}`},
			map[string]string{"toolu_W": `{"kind":"generic","status":"in_progress","title":"deploy"}`}},
		{"the spawn names a state", []string{`{"sessionUpdate":"async_task_spawned","asyncTaskId":"m2","taskType":"monitor","description":"tail","state":"completed"}`},
			map[string]string{"m2": `{"kind":"monitor","status":"completed","monitor":{"task_id":"m2","command":"tail","event_count":0,"ended":true,"end_reason":"completed"}}`}},
		{"the spawn names an unknown state", []string{`{"sessionUpdate":"async_task_spawned","asyncTaskId":"w3","name":"x","taskType":"workflow","state":"queued"}`},
			map[string]string{"w3": `{"kind":"generic","status":"in_progress","title":"x"}`}},
		{"a tool call's card", []string{lateBash, lateBashDone, `{"sessionUpdate":"async_task_spawned","asyncTaskId":"bash_1","taskType":"shell","description":"sleep 100","toolCallId":"toolu_X"}`},
			map[string]string{"toolu_X": `{"kind":"shell","status":"completed","title":"sleep 100","tool":{"name":"Bash"},"shell":{"command":"sleep 100","background":true}}`}},
		// A Monitor's task (published from 0.98.0): the Monitor's card,
		// running past its tool call, gets the task's events and ends
		// with its state.
		{"a Monitor's task", []string{monitorCall, monitorStarted,
			`{"sessionUpdate":"async_task_spawned","asyncTaskId":"bmon_a","name":"Watch the API","taskType":"monitor","description":"Watch the API","showInTranscript":false,"canStop":false,"toolCallId":"toolu_mon_a"}`,
			`{"sessionUpdate":"async_task_progress","asyncTaskId":"bmon_a","summary":"api: 502 on /login","toolCallId":"toolu_mon_a"}`},
			map[string]string{"toolu_mon_a": `{"kind":"monitor","status":"in_progress","title":"Monitor","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon_a","command":"tail -f api.log","event_count":1,"recent_events":["api: 502 on /login"]}}`}},
		{"a Monitor's task ends", []string{monitorCall, monitorStarted,
			`{"sessionUpdate":"async_task_spawned","asyncTaskId":"bmon_a","name":"Watch the API","taskType":"monitor","description":"Watch the API","toolCallId":"toolu_mon_a"}`,
			`{"sessionUpdate":"async_task_state_update","asyncTaskId":"bmon_a","state":"stopped","toolCallId":"toolu_mon_a"}`,
			`{"sessionUpdate":"async_task_state_update","asyncTaskId":"bmon_a","state":"completed","toolCallId":"toolu_mon_a"}`},
			map[string]string{"toolu_mon_a": `{"kind":"monitor","status":"cancelled","title":"Monitor","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon_a","command":"tail -f api.log","event_count":0,"ended":true,"end_reason":"stopped"}}`}},
		{"then a state", []string{lateSpawn, lateDone},
			map[string]string{"bash_1": `{"kind":"shell","status":"completed","shell":{"command":"sleep 100","background":true}}`}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, lastCards(t, tt.frames...)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// cardEvents feeds update objects to a fresh Claude Conn, as
// session/updates of s1 after a session/prompt on it, and returns its
// card events.
func cardEvents(t *testing.T, updates ...string) []acpdialect.Event {
	t.Helper()
	var out []acpdialect.Event
	for _, ev := range feed(t, claudeConn(t, claude.ID), s1Updates(updates)...) {
		if ev.Payload != nil {
			out = append(out, ev)
		}
	}
	return out
}

// lastOf returns each card's last payload.
func lastOf(evs []acpdialect.Event) map[string]*acpdialect.Payload {
	last := map[string]*acpdialect.Payload{}
	for _, ev := range evs {
		last[ev.ToolCallID] = ev.Payload
	}
	return last
}

// lastCards returns each card's last payload as JSON.
func lastCards(t *testing.T, frames ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	last := lastOf(cardEvents(t, frames...))
	for _, id := range slices.Sorted(maps.Keys(last)) {
		b, err := json.Marshal(last[id])
		if err != nil {
			t.Fatal(err)
		}
		out[id] = string(b)
	}
	return out
}

// TestMonitorPaused: a monitor, which runs past its tool call, shows its
// pauses: a v2 client's tool call status paused (taskPaused) and in_progress
// again, and AIR's async task state paused and running. An ended monitor
// does not pause.
func TestMonitorPaused(t *testing.T) {
	status := func(s string) string {
		return `{"_meta":{"claudeCode":{"toolName":"Monitor"}},"sessionUpdate":"tool_call_update","toolCallId":"toolu_mon_a","status":"` + s + `"}`
	}
	state := func(s string) string {
		return `{"sessionUpdate":"async_task_state_update","asyncTaskId":"bmon_a","state":"` + s + `"}`
	}
	statuses := func(frames ...string) []string {
		var out []string
		for _, ev := range cardEvents(t, frames...) {
			if ev.ToolCallID == "toolu_mon_a" {
				out = append(out, ev.Payload.Status)
			}
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		frames []string
		want   []string
	}{
		{"v2: the tool call's status", []string{monitorCall, monitorStarted, status("paused"), status("in_progress")},
			[]string{"pending", "in_progress", "paused", "in_progress"}},
		{"AIR: the task's state", []string{monitorCall, monitorStarted, state("paused"), state("running")},
			[]string{"pending", "in_progress", "paused", "in_progress"}},
		{"AIR: an ended monitor does not pause", []string{monitorCall, monitorStarted, state("completed"), state("paused")},
			[]string{"pending", "in_progress", "completed"}},
	} {
		if got := statuses(tt.frames...); !slices.Equal(got, tt.want) {
			t.Errorf("%s: statuses %v, want %v", tt.name, got, tt.want)
		}
	}
}
