package copilot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/copilot"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// FuzzToolCall: whatever a tool call update holds, ToolCall does not
// panic, a shell card has its shell and a subagent card its subagent_task,
// a background task takes no result, ToolCall keeps the card it was given
// unchanged, and a card whose exit code is not zero is failed unless it
// was cancelled. Seeded with Copilot CLI 1.0.102's own updates
// (testdata/live-1.0.102-stub*.jsonl).
func FuzzToolCall(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "live-1.0.102-stub*.jsonl"))
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if u := gjson.Get(line, "params.update"); strings.HasPrefix(u.Get("sessionUpdate").Str, "tool_call") {
				f.Add(u.Raw)
			}
		}
	}
	f.Add(`{"toolCallId":"c","kind":"execute","status":"completed","rawOutput":{"contents":[{"type":"shell_exit","exitCode":1e300},{"type":"shell_exit","exitCode":3}]}}`)
	f.Fuzz(func(t *testing.T, in string) {
		u := frame.ReadToolUpdate(gjson.Parse(in))
		code := int64(0)
		shell := acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusInProgress,
			Shell: &acpdialect.Shell{Command: "c", ExitCode: &code}}
		task := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{Prompt: "p", IsAsync: true}}
		for _, prev := range []acpdialect.Payload{{Kind: acpdialect.KindGeneric}, shell, task} {
			keep := prev.Clone()
			next := copilot.ToolCall(u, prev)
			if !prev.Equal(keep) {
				t.Fatalf("ToolCall changed the card it was given, from %s", in)
			}
			if next.Kind == acpdialect.KindShell && next.Shell == nil {
				t.Fatalf("a shell card without its shell from %s", in)
			}
			if next.Kind == acpdialect.KindSubagentTask && (next.SubagentTask == nil || prev.Kind == acpdialect.KindShell) {
				t.Fatalf("a subagent card %+v from a %s card and %s", next.SubagentTask, prev.Kind, in)
			}
			if st := next.SubagentTask; prev.SubagentTask != nil && (st.Prompt == "" || !st.IsAsync || st.ResultText != "") {
				t.Fatalf("a background task lost what it had or took a result: %+v from %s", st, in)
			}
			if sh := next.Shell; sh != nil && sh.ExitCode != nil && *sh.ExitCode != 0 &&
				next.Status != acpdialect.StatusFailed && next.Status != acpdialect.StatusCancelled {
				t.Fatalf("exit code %d with status %q from %s", *sh.ExitCode, next.Status, in)
			}
		}
	})
}
