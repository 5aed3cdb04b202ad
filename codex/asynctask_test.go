package codex_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/google/go-cmp/cmp"
)

// A command that goes to the background, in codex-acp 2.6.0's shapes to
// an AIR client that lists asyncTasks (CodexBackgroundTerminalTasks.ts):
// the tool call, output, the backgrounded marker and the spawn (both sent
// by publishSpawn), the end (publishTerminalState, sent before the
// command's last tool_call_update), the last update.
var (
	bgCall = update(`{"sessionUpdate":"tool_call","toolCallId":"call_dev","kind":"execute","title":"npm run dev","status":"in_progress",` +
		`"content":[{"type":"terminal","terminalId":"call_dev"}],"rawInput":{"command":"npm run dev","cwd":"/p"},` +
		`"_meta":{"terminal_info":{"cwd":"/p","terminal_id":"call_dev"}}}`)
	bgOutput = update(`{"sessionUpdate":"tool_call_update","toolCallId":"call_dev","_meta":{"terminal_output":{"data":"ready on :3000\n","terminal_id":"call_dev"}}}`)
	bgMarker = update(`{"sessionUpdate":"tool_call_update","toolCallId":"call_dev","_meta":{"jetbrains":{"air":{"asyncTasks":{"backgrounded":true}}}}}`)
	bgSpawn  = update(`{"sessionUpdate":"async_task_spawned","asyncTaskId":"call_dev","name":"npm run dev","taskType":"shell","showInTranscript":false,"canStop":true,"toolCallId":"call_dev"}`)
	bgExit   = update(`{"sessionUpdate":"tool_call_update","toolCallId":"call_dev","status":"failed",` +
		`"_meta":{"terminal_exit":{"exit_code":143,"signal":null,"terminal_id":"call_dev"}}}`)
)

// bgState is the task's end.
func bgState(state string) string {
	return update(fmt.Sprintf(`{"sessionUpdate":"async_task_state_update","asyncTaskId":"call_dev","state":%q,"toolCallId":"call_dev"}`, state))
}

// TestAsyncTasks: a spawn that names the command's tool call makes its
// shell card a background shell, still running past the turn; the task's
// state ends the card (stopped is cancelled) while the command's own
// frames have not, and never moves an ended card. A spawn for a tool call
// not seen makes a background shell card titled by the task's name; a
// state for a task never spawned makes a card with the end status only.
func TestAsyncTasks(t *testing.T) {
	shell := func(status, extra string) string {
		return `{"kind":"shell","status":"` + status + `","title":"npm run dev","shell":{"command":"npm run dev","cwd":"/p","terminal_id":"call_dev","output":"ready on :3000\n"` + extra + `}}`
	}
	turnEnd := `{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`
	tests := []struct {
		name   string
		frames []string
		want   map[string]string // each card's last payload
	}{
		{"spawn", []string{bgCall, bgOutput, bgMarker, bgSpawn},
			map[string]string{"call_dev": shell("in_progress", `,"background":true`)}},
		{"spawn, the turn ends", []string{bgCall, bgOutput, bgMarker, bgSpawn, turnEnd},
			map[string]string{"call_dev": shell("in_progress", `,"background":true`)}},
		{"the marker alone", []string{bgCall, bgOutput, bgMarker},
			map[string]string{"call_dev": shell("in_progress", "")}},
		{"completed", []string{bgCall, bgOutput, bgMarker, bgSpawn, turnEnd, bgState("completed")},
			map[string]string{"call_dev": shell("completed", `,"background":true`)}},
		{"failed", []string{bgCall, bgOutput, bgSpawn, bgState("failed")},
			map[string]string{"call_dev": shell("failed", `,"background":true`)}},
		{"stopped", []string{bgCall, bgOutput, bgSpawn, bgState("stopped")},
			map[string]string{"call_dev": shell("cancelled", `,"background":true`)}},
		// The command's last frame, after the state, is its own word.
		{"stopped, then the command's exit", []string{bgCall, bgOutput, bgSpawn, bgState("stopped"), bgExit},
			map[string]string{"call_dev": shell("failed", `,"exit_code":143,"background":true`)}},
		{"an ended card keeps its end", []string{bgCall, bgOutput, bgSpawn, bgExit, bgState("completed")},
			map[string]string{"call_dev": shell("failed", `,"exit_code":143,"background":true`)}},
		// A state of a command that never went to the background (no
		// spawn) does not end it.
		{"state without a spawn", []string{bgCall, bgOutput, bgState("completed")},
			map[string]string{"call_dev": shell("in_progress", "")}},
		{"spawn without a known tool call", []string{bgSpawn},
			map[string]string{"call_dev": `{"kind":"shell","status":"in_progress","title":"npm run dev","shell":{"background":true}}`}},
		{"then its tool call", []string{bgSpawn, bgCall, bgOutput, bgState("completed")},
			map[string]string{"call_dev": shell("completed", `,"background":true`)}},
		// A subagent thread's task: its id is "<thread>:<item>".
		{"a subagent thread's task", []string{bgCall, bgOutput,
			update(`{"sessionUpdate":"async_task_spawned","asyncTaskId":"thr_2:call_dev","name":"npm run dev","taskType":"shell","toolCallId":"call_dev"}`),
			update(`{"sessionUpdate":"async_task_state_update","asyncTaskId":"thr_2:call_dev","state":"completed"}`)},
			map[string]string{"call_dev": shell("completed", `,"background":true`)}},
		// An ACP v2 client gets the same records under AIR's own names.
		{"v2: spawn, stopped", []string{bgCall, bgOutput,
			update(`{"sessionUpdate":"_async_task_spawned","asyncTaskId":"call_dev","name":"npm run dev","taskType":"shell","toolCallId":"call_dev"}`),
			update(`{"sessionUpdate":"_async_task_state_update","asyncTaskId":"call_dev","state":"stopped","toolCallId":"call_dev"}`)},
			map[string]string{"call_dev": shell("cancelled", `,"background":true`)}},
		{"a state for an unknown task", []string{update(`{"sessionUpdate":"async_task_state_update","asyncTaskId":"call_x","state":"completed","toolCallId":"call_x"}`)},
			map[string]string{"call_x": `{"kind":"generic","status":"completed"}`}},
	}
	for _, tt := range tests {
		got := lastPayloads(t, feed(t, conn(t, acpdialect.Options{}), tt.frames...))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// lastPayloads returns each card's last payload as JSON, from feed's
// output.
func lastPayloads(t *testing.T, events string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(events, "\n") {
		if line == "" {
			continue
		}
		var ev struct {
			ToolCallID string          `json:"tool_call_id"`
			Payload    json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Payload != nil {
			out[ev.ToolCallID] = string(ev.Payload)
		}
	}
	return out
}

// TestAsyncTaskKindsQuarantined: the SDKs do not know AIR's async task
// kinds, so the dialect claims all three (progress too, which 2.6.0
// declares but never sends) and the two of them an ACP v2 client gets;
// the tap keeps them from the SDK.
func TestAsyncTaskKindsQuarantined(t *testing.T) {
	d := codex.Dialect()
	for _, k := range []string{"async_task_spawned", "async_task_progress", "async_task_state_update",
		"_async_task_spawned", "_async_task_state_update"} {
		if !d.Quarantines(k) {
			t.Errorf("update kind %s not claimed", k)
		}
	}
}
