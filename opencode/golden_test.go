package opencode_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/opencode"
)

// TestGoldenSemantics states what each hand-written scenario requires of
// the replay, so that a golden blessed with -update by mistake still
// fails here; and that --agent opencode replays as identification does.
func TestGoldenSemantics(t *testing.T) {
	tests := []struct {
		name    string
		want    []string
		notWant []string
	}{
		{"task-child-session", []string{
			// The task is a subagent card; its completion names the child,
			// the model and the result.
			`"tool_call_id":"call_task","payload":{"kind":"subagent_task","status":"pending","title":"task"`,
			`"tool_call_id":"call_task","payload":{"kind":"subagent_task","status":"completed","title":"inspect child","subagent_task":{"description":"inspect child","prompt":"Return the child transcript fixture","subagent_type":"general","model":"anthropic/claude-sonnet-4-5","child_session_id":"ses_child","result_text":"child transcript fixture"}}`,
			// Before the link the child's card has no parent...
			// (a shell card: OpenCode's bash tool, ACP kind execute)...
			`{"type":"tool_call","agent":"opencode","session_id":"ses_child","tool_call_id":"call_c1","payload":{"kind":"shell","status":"pending","title":"bash","shell":{}}}`,
			// ...at the link it is reported again with it, and the held
			// messages go out nested, in order.
			`{"type":"tool_call_update","agent":"opencode","session_id":"ses_child","tool_call_id":"call_c1","payload":{"kind":"shell","status":"completed","title":"Print fixture","parent_tool_call_id":"call_task","shell":{"command":"cat fixture.txt","output":"fixture\n","exit_code":0}}}`,
			`"message":{"role":"thought","text":"Reading the fixture.","parent_tool_call_id":"call_task"}}
{"type":"message","agent":"opencode","session_id":"ses_child","message":{"role":"assistant","text":"child transcript ","parent_tool_call_id":"call_task"}}
{"type":"message","agent":"opencode","session_id":"ses_child","message":{"role":"assistant","text":"fixture","parent_tool_call_id":"call_task"}}`,
			// After the link the child's frames nest at once.
			`{"type":"tool_call","agent":"opencode","session_id":"ses_child","tool_call_id":"call_c2","payload":{"kind":"generic","status":"pending","title":"read","parent_tool_call_id":"call_task"`,
			`"message":{"role":"assistant","text":"Done.","parent_tool_call_id":"call_task"}`,
			`"early":{"nested":1,"released":3,"evicted":0,"dropped":0}`,
			`{"type":"usage","agent":"opencode","session_id":"ses_child","usage":{"used":1800,"size":200000,"cost":0.004,"currency":"USD"}}`,
		}, []string{
			// The parent's own chunks are not message events.
			`"text":"I'll delegate this."`, `"text":"parent complete"`,
			// No child message goes out without its parent.
			`"role":"assistant","text":"fixture"}`,
		}},
		{"subagents-update", []string{
			// The snapshot's and the update's nodes waited for the link and
			// merged at the completion; a later phase changes the subagent
			// status but never moves the finished card back; a removal
			// marks the linked card.
			`"status":"completed","title":"find flaky tests","subagent_task":{"description":"find flaky tests","prompt":"Run the suite three times","subagent_type":"explore","status":"running","model":"openai/gpt-5","child_session_id":"ses_a"`,
			`"subagent_task":{"description":"find flaky tests","prompt":"Run the suite three times","subagent_type":"explore","status":"completed"`,
			`{"type":"tool_call","agent":"opencode","session_id":"ses_root","tool_call_id":"call_a","payload":{"kind":"subagent_task","status":"completed","title":"find flaky tests","subagent_task":{"description":"find flaky tests","prompt":"Run the suite three times","subagent_type":"explore","status":"removed"`,
			// ses_b's node waits (no card names it) and its removal marks
			// the waiting node, nothing dropped; _opencode/rawEvent is not
			// the dialect's.
			`"late_dropped":0`, `"ignored_notifications":1`, `"pending":{"stored":2,"matched":1,"evicted":0,"over_budget":0,"swept":0,`,
			`"replies":0,"declined":0`,
		}, []string{`"type":"reply"`, `"status":"in_progress","title":"find flaky tests","subagent_task":{"description":"find flaky tests","prompt":"Run the suite three times","subagent_type":"explore","status"`, `ses_b"`}},
		{"task-tag", []string{
			// OpenCode 1.18's <task> tag: a task done in the foreground
			// gives its result and the state as the subagent status...
			`"tool_call_id":"call_fg","payload":{"kind":"subagent_task","status":"completed","title":"review the diff","subagent_task":{"description":"review the diff","prompt":"Review the staged diff","subagent_type":"general","status":"completed","model":"opencode/big-pickle","child_session_id":"ses_fg","result_text":"The diff looks right."}}`,
			// ...one sent to the background completes its card at once,
			// runs on, and OpenCode's notice is not its result.
			`"tool_call_id":"call_bg","payload":{"kind":"subagent_task","status":"completed","title":"run the suite","subagent_task":{"description":"run the suite","prompt":"Run the test suite","subagent_type":"general","status":"running","model":"opencode/big-pickle","child_session_id":"ses_bg"}}`,
			// A failed task: its rawOutput.error is the card's error.
			`"tool_call_id":"call_fail","payload":{"kind":"subagent_task","status":"failed","title":"task","subagent_task":{"description":"lint the diff","prompt":"Lint the staged diff","subagent_type":"linter","model":"opencode/big-pickle","child_session_id":"ses_fail","error":"Subagent failed (task_id: ses_fail): ProviderModelNotFoundError"}}`,
		}, []string{`working in the background`}},
		{"live-1.18.33-auth-failure", []string{
			// A live session with no provider: the commands and a usage
			// update come before the prompt fails.
			`{"type":"commands","agent":"opencode","session_id":"ses_dc2b061ccffeSeqcnMCRyVnrSw"`,
			`"usage":{"used":0,"size":200000,"cost":0,"currency":"USD"}`,
		}, []string{`"turn":true`}},
		{"live-1.18.33-stub", []string{
			// OpenCode 1.18.33 against a stub model. The bash tool is a
			// shell card from its pending frame (the cwd alone), the
			// command with the running update, the output and exit code
			// with the completion, which carries no ACP kind.
			`"tool_call_id":"call_2","payload":{"kind":"shell","status":"pending","title":"bash","shell":{"cwd":"/tmp/oclive/work"}}}`,
			`"tool_call_id":"call_2","payload":{"kind":"shell","status":"in_progress","title":"echo hi","shell":{"command":"echo hi","cwd":"/tmp/oclive/work"}}}`,
			`"tool_call_id":"call_2","payload":{"kind":"shell","status":"completed","title":"echo hi","shell":{"command":"echo hi","cwd":"/tmp/oclive/work","output":"hi\n","exit_code":0}}}`,
			// The task is a subagent card: the <task> tag's child, state
			// and result, and the model.
			`"tool_call_id":"call_4","payload":{"kind":"subagent_task","status":"completed","title":"Summarize calc module","subagent_task":{"description":"Summarize calc module","prompt":"Summarize calc.py for the parent agent.","subagent_type":"general","status":"completed","model":"stub/fake-model","child_session_id":"ses_db6aa0138ffePfCZLBMr3P0ddd","result_text":"calc.py defines add(a, b), which returns a + b."}}}`,
			// The loaded child's text nests under the task card.
			`"session_id":"ses_db6aa0138ffePfCZLBMr3P0ddd","message":{"role":"assistant","text":"calc.py defines add(a, b), which returns a + b.","parent_tool_call_id":"call_4"}}`,
			// todowrite's card stays generic; OpenCode sends no plan, so
			// the list it wrote (rawOutput.metadata.todos) is the
			// session's todos, once, at the completion.
			`"tool_call_id":"call_7","payload":{"kind":"generic","status":"completed","title":"2 todos","generic":{"acp_kind":"other"}}}`,
			`"tool_call_id":"call_7","todos":{"items":[{"id":"content:Write the parser","content":"Write the parser","status":"in_progress"},{"id":"content:Test it","content":"Test it","status":"pending"}]}}`,
		}, []string{`"type":"plan"`, `"acp_kind":"execute"`, `"priority"`}},
		{"usage", []string{
			`"usage":{"used":1200,"size":128000,"cost":0,"currency":"USD"}`,
			`"usage":{"used":2500,"size":128000,"cost":0.0031,"currency":"EUR"}`,
			// Wrong types read as absent.
			`"usage":{"size":128000}}`,
			// The releases send the last message's counts: estimated.
			`"usage":{"turn":true,"input_tokens":2000,"output_tokens":150,"cached_read_tokens":400,"cached_write_tokens":100,"thought_tokens":300,"total_tokens":2950,"estimated":true}`,
		}, []string{`"id":3`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join("testdata", tt.name+".jsonl")
			final, events, err := replay.FileAs(dialects.Registry(), path, "")
			if err != nil {
				t.Fatal(err)
			}
			out := string(bytes.Join([][]byte{events, final}, nil))
			testwire.Fragments(t, out, tt.want, tt.notWant)
			f2, e2, err := replay.FileAs(dialects.Registry(), path, opencode.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(final, f2) || !bytes.Equal(events, e2) {
				t.Errorf("--agent opencode differs from identification")
			}
		})
	}
}
