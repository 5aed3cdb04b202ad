package air_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// Frames of both agents as they send them: claude-agent-acp's (a
// background Bash, a Monitor's task, a workflow) and codex-acp 2.6.0's
// (a command that went to the background: no description, the name its
// tool call's title, always the tool call's id).
const (
	claudeShellSpawn = `{"sessionUpdate":"async_task_spawned","asyncTaskId":"bash_1","name":"sleep 100","taskType":"shell","description":"sleep 100","showInTranscript":true,"canStop":true}`
	claudeMonitor    = `{"sessionUpdate":"async_task_spawned","asyncTaskId":"bmon_a","name":"Watch the API","taskType":"monitor","description":"tail -f api.log","showInTranscript":false,"canStop":false,"toolCallId":"toolu_mon_a"}`
	codexSpawn       = `{"sessionUpdate":"async_task_spawned","asyncTaskId":"call_bg","name":"npm run dev","taskType":"shell","showInTranscript":false,"canStop":true,"toolCallId":"call_bg"}`
	codexState       = `{"sessionUpdate":"async_task_state_update","asyncTaskId":"thr_2:call_bg","state":"%s","toolCallId":"call_bg"}`
)

// TestTaskLate: each update of either agent is the late half the table
// says: a card of the task's kind named by the task id (and the tool call
// once known), the status a spawn implies or a state gives, a monitor's
// events and end, a subagent's figures.
func TestTaskLate(t *testing.T) {
	tests := []struct {
		name, update string
		want         string // the Late as JSON, "{}" for none
	}{
		{"claude shell spawn", claudeShellSpawn,
			`{"ToolCallID":"","Alias":"bash_1","Payload":{"kind":"shell","status":"in_progress","shell":{"command":"sleep 100","background":true}}}`},
		{"claude Monitor's task", claudeMonitor,
			`{"ToolCallID":"toolu_mon_a","Alias":"bmon_a","Payload":{"kind":"monitor","status":"in_progress","monitor":{"task_id":"bmon_a","command":"tail -f api.log","event_count":0}}}`},
		{"workflow", `{"sessionUpdate":"async_task_spawned","asyncTaskId":"w1","name":"deploy","taskType":"workflow"}`,
			`{"ToolCallID":"","Alias":"w1","Payload":{"kind":"","status":"in_progress","title":"deploy"}}`},
		{"codex command spawn", codexSpawn,
			`{"ToolCallID":"call_bg","Alias":"call_bg","Payload":{"kind":"shell","status":"in_progress","shell":{"background":true}}}`},
		{"codex state completed", strings.Replace(codexState, "%s", "completed", 1),
			`{"ToolCallID":"call_bg","Alias":"thr_2:call_bg","Payload":{"kind":"","status":"completed","monitor":{"task_id":"thr_2:call_bg","event_count":0,"ended":true,"end_reason":"completed"}}}`},
		{"codex state failed", strings.Replace(codexState, "%s", "failed", 1),
			`{"ToolCallID":"call_bg","Alias":"thr_2:call_bg","Payload":{"kind":"","status":"failed","monitor":{"task_id":"thr_2:call_bg","event_count":0,"ended":true,"end_reason":"failed"}}}`},
		{"codex state stopped", strings.Replace(codexState, "%s", "stopped", 1),
			`{"ToolCallID":"call_bg","Alias":"thr_2:call_bg","Payload":{"kind":"","status":"cancelled","monitor":{"task_id":"thr_2:call_bg","event_count":0,"ended":true,"end_reason":"stopped"}}}`},
		// codex-acp's names for an ACP v2 client read the same.
		{"v2 codex state stopped", strings.Replace(strings.Replace(codexState, "%s", "stopped", 1), `"async_task`, `"_async_task`, 1),
			`{"ToolCallID":"call_bg","Alias":"thr_2:call_bg","Payload":{"kind":"","status":"cancelled","monitor":{"task_id":"thr_2:call_bg","event_count":0,"ended":true,"end_reason":"stopped"}}}`},
		{"v2 codex command spawn", strings.Replace(codexSpawn, `"async_task`, `"_async_task`, 1),
			`{"ToolCallID":"call_bg","Alias":"call_bg","Payload":{"kind":"shell","status":"in_progress","shell":{"background":true}}}`},
		{"state running", `{"sessionUpdate":"async_task_state_update","asyncTaskId":"t","state":"running"}`,
			`{"ToolCallID":"","Alias":"t","Payload":{"kind":"","status":"in_progress"}}`},
		{"state paused", `{"sessionUpdate":"async_task_state_update","asyncTaskId":"t","state":"paused"}`,
			`{"ToolCallID":"","Alias":"t","Payload":{"kind":"","status":"paused"}}`},
		{"unknown state", `{"sessionUpdate":"async_task_state_update","asyncTaskId":"t","state":"queued"}`,
			`{"ToolCallID":"","Alias":"t","Payload":{"kind":""}}`},
		{"a paused monitor has not ended", `{"sessionUpdate":"async_task_spawned","asyncTaskId":"m","taskType":"monitor","description":"tail","state":"paused"}`,
			`{"ToolCallID":"","Alias":"m","Payload":{"kind":"monitor","status":"paused","monitor":{"task_id":"m","command":"tail","event_count":0}}}`},
		{"spawn names a state", `{"sessionUpdate":"async_task_spawned","asyncTaskId":"m","taskType":"monitor","description":"tail","state":"failed"}`,
			`{"ToolCallID":"","Alias":"m","Payload":{"kind":"monitor","status":"failed","monitor":{"task_id":"m","command":"tail","event_count":0,"ended":true,"end_reason":"failed"}}}`},
		{"progress summary and usage", `{"sessionUpdate":"async_task_progress","asyncTaskId":"t","summary":"502 on /login","usage":{"durationMs":5,"toolUses":2,"totalTokens":900},"toolCallId":"toolu_t"}`,
			`{"ToolCallID":"toolu_t","Alias":"t","Payload":{"kind":"","subagent_task":{"duration_ms":5,"total_tokens":900,"tool_use_count":2},"monitor":{"task_id":"t","event_count":1,"recent_events":["502 on /login"]}}}`},
		// The first of a repeated key wins; a value of the wrong type is
		// absent.
		{"repeated and mistyped keys", `{"sessionUpdate":"async_task_spawned","asyncTaskId":"a","asyncTaskId":"b","taskType":7,"name":"n"}`,
			`{"ToolCallID":"","Alias":"a","Payload":{"kind":"","status":"in_progress","title":"n"}}`},
		{"no task id", `{"sessionUpdate":"async_task_state_update","state":"completed","toolCallId":"call_bg"}`, `{"ToolCallID":"","Alias":"","Payload":{"kind":""}}`},
		{"not an object", `["async_task_spawned"]`, `{"ToolCallID":"","Alias":"","Payload":{"kind":""}}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(air.ReadTask(gjson.Parse(tt.update)).Late())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, string(b)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestTaskSummaryBound: a progress's summary is kept to its first
// MaxEvent bytes, cut before a rune that would cross the bound.
func TestTaskSummaryBound(t *testing.T) {
	long := strings.Repeat("x", air.MaxEvent-1) + "é" + strings.Repeat("y", 1<<16)
	u, _ := json.Marshal(map[string]string{"sessionUpdate": air.UpdateTaskProgress, "asyncTaskId": "t", "summary": long})
	l := air.ReadTask(gjson.ParseBytes(u)).Late()
	if got := l.Payload.Monitor.RecentEvents[0]; got != long[:air.MaxEvent-1] {
		t.Errorf("summary kept %d bytes, want %d", len(got), air.MaxEvent-1)
	}
}

// TestTaskStatus: the task states and the card status each is.
func TestTaskStatus(t *testing.T) {
	for state, want := range map[string]string{"running": acpdialect.StatusInProgress, "paused": acpdialect.StatusPaused,
		"completed": acpdialect.StatusCompleted, "failed": acpdialect.StatusFailed, "stopped": acpdialect.StatusCancelled,
		"stopping": "", "": "", "Completed": ""} {
		if got := air.Status(state); got != want {
			t.Errorf("Status(%q) = %q, want %q", state, got, want)
		}
	}
}

// TestMergeShell: a task's shell fills the command and sets the
// background flag, returns cur itself when that changes nothing, and
// never modifies cur.
func TestMergeShell(t *testing.T) {
	cur := &acpdialect.Shell{Command: "npm run dev", Output: "ready"}
	got := air.MergeShell(cur, &acpdialect.Shell{Background: true})
	if got == cur || !got.Background || got.Command != "npm run dev" || got.Output != "ready" || cur.Background {
		t.Errorf("merge of the background flag: %+v (cur %+v)", got, cur)
	}
	if again := air.MergeShell(got, &acpdialect.Shell{Background: true}); again != got {
		t.Errorf("a merge that changes nothing made a new object")
	}
	if sh := air.MergeShell(nil, &acpdialect.Shell{Command: "ls", Background: true}); sh.Command != "ls" || !sh.Background {
		t.Errorf("merge into no shell: %+v", sh)
	}
}

// TestTaskOwnsItsStrings: the Late keeps no view of the frame it was read
// from: overwriting the frame's bytes changes nothing.
func TestTaskOwnsItsStrings(t *testing.T) {
	b := []byte(`{"sessionUpdate":"async_task_spawned","asyncTaskId":"bash_1","name":"sleep 100","taskType":"monitor","description":"tail -f log","toolCallId":"toolu_X"}`)
	l := air.ReadTask(gjson.Parse(unsafe.String(&b[0], len(b)))).Late() // a view, as the Conn passes
	before := fmt.Sprintf("%+v %+v", l, *l.Payload.Monitor)
	for i := range b {
		b[i] = 'x'
	}
	if after := fmt.Sprintf("%+v %+v", l, *l.Payload.Monitor); after != before || l.Alias != "bash_1" {
		t.Errorf("the Late changed with the frame:\n%s\n%s", before, after)
	}
}
