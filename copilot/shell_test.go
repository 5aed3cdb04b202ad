package copilot_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/copilot"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// update is a session/update of s1 carrying the update object u.
func update(u string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
}

// shellCall is Copilot CLI 1.0.102's tool call for its shell tool, as
// recorded live (copilot/testdata/live-1.0.102-stub.jsonl).
func shellCall(id, cmd string) string {
	return titledShellCall(id, "Run it", cmd)
}

func titledShellCall(id, title, cmd string) string {
	return update(`{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"` + title + `","kind":"execute","status":"pending",` +
		`"rawInput":{"command":"` + cmd + `","description":"Run it"}}`)
}

// streamed is an update with the output so far, as Copilot streams it.
func streamed(id, text string) string {
	return update(`{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `","content":[{"type":"content","content":{"type":"text","text":` + quote(text) + `}}]}`)
}

// finished is the last update of a command: the output with Copilot's
// closing line, rawOutput with the same text and contents.
func finished(id, status, text, contents string) string {
	return update(`{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `","status":"` + status + `",` +
		`"content":[{"type":"content","content":{"type":"text","text":` + quote(text) + `}}],` +
		`"rawOutput":{"content":` + quote(text) + `,"detailedContent":` + quote(text) + `,"contents":` + contents + `}}`)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// feed sends the frames of one turn of session s1 to a Copilot connection
// and returns the events' JSON, one per line.
func feed(t *testing.T, opts acpdialect.Options, frames ...string) string {
	t.Helper()
	opts.Agent = copilot.ID
	c := acpdialect.NewRegistry(copilot.Dialect()).NewConn(opts)
	if _, err := c.Outbound([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range frames {
		res, err := c.Inbound([]byte(f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, ev := range res.Events {
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	return strings.Join(out, "\n")
}

func TestShell(t *testing.T) {
	const (
		lsErr = "ls: cannot access '/nonexistent-dir': No such file or directory\n"
		exit0 = `[{"type":"shell_exit","shellId":"0","exitCode":0,"cwd":"/w","outputPreview":"hi\n"}]`
		exit2 = `[{"type":"shell_exit","shellId":"1","exitCode":2,"cwd":"/w","outputPreview":"` + "ls: cannot access '/nonexistent-dir': No such file or directory\\n" + `"}]`
	)
	big := strings.Repeat("x", 100)
	tests := []struct {
		name    string
		opts    acpdialect.Options
		frames  []string
		want    []string
		notWant []string
	}{
		{"exit 0 completes", acpdialect.Options{}, []string{
			shellCall("call_0", "echo hi"),
			streamed("call_0", "hi\n"),
			finished("call_0", "completed", "hi\n<shellId: 0 completed with exit code 0>", exit0),
		}, []string{
			`{"type":"tool_call","agent":"copilot","session_id":"s1","tool_call_id":"call_0","payload":{"kind":"shell","status":"pending","title":"Run it","shell":{"command":"echo hi"}}}`,
			`{"type":"tool_call_update","agent":"copilot","session_id":"s1","tool_call_id":"call_0","payload":{"kind":"shell","status":"pending","title":"Run it","shell":{"command":"echo hi","output":"hi\n"}}}`,
			`{"type":"tool_call_update","agent":"copilot","session_id":"s1","tool_call_id":"call_0","payload":{"kind":"shell","status":"completed","title":"Run it","shell":{"command":"echo hi","cwd":"/w","output":"hi\n","exit_code":0}}}`,
		}, []string{`"failed"`, `shellId`, `"generic"`}},
		// Each update repeats the whole output so far: the latest
		// replaces what was kept, never appended to it.
		{"exit 2 fails, the output the latest text", acpdialect.Options{}, []string{
			titledShellCall("call_2", "List a missing dir", "ls /nonexistent-dir"),
			streamed("call_2", "ls: "),
			streamed("call_2", lsErr),
			finished("call_2", "completed", lsErr+"<shellId: 1 completed with exit code 2>", exit2),
			// A later update that says completed keeps the call failed.
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"call_2","status":"completed"}`),
		}, []string{
			`"shell":{"command":"ls /nonexistent-dir","output":"ls: "}`,
			`{"type":"tool_call_update","agent":"copilot","session_id":"s1","tool_call_id":"call_2","payload":{"kind":"shell","status":"failed","title":"List a missing dir","shell":{"command":"ls /nonexistent-dir","cwd":"/w","output":"` + "ls: cannot access '/nonexistent-dir': No such file or directory\\n" + `","exit_code":2}}}`,
		}, []string{`"status":"completed"`, `ls: ls: `, `shellId`}},
		{"a cancelled call stays cancelled", acpdialect.Options{}, []string{
			shellCall("c1", "sleep 9"),
			finished("c1", "cancelled", "<shellId: 3 completed with exit code 130>", `[{"type":"shell_exit","shellId":"3","exitCode":130,"cwd":"/w"}]`),
		}, []string{`"status":"cancelled","title":"Run it","shell":{"command":"sleep 9","cwd":"/w","exit_code":130}}`}, []string{`"failed"`}},
		{"an exitCode that is not a whole number is none", acpdialect.Options{}, []string{
			shellCall("c1", "false"),
			finished("c1", "completed", "<shellId: 0 completed with exit code 1>", `[{"type":"shell_exit","shellId":"0","exitCode":"1","cwd":"/w"},{"type":"shell_exit","exitCode":1}]`),
			finished("c1", "completed", "<shellId: 0 completed with exit code 1>", `[{"type":"shell_exit","shellId":"0","exitCode":1.5}]`),
			finished("c1", "completed", "<shellId: 0 completed with exit code 1>", `[{"type":"shell_exit","shellId":"0","exitCode":null}]`),
		}, []string{`"payload":{"kind":"shell","status":"completed","title":"Run it","shell":{"command":"false","cwd":"/w"}}`}, []string{`"failed"`, `"exit_code"`}},
		{"contents not an array: no exit", acpdialect.Options{}, []string{
			shellCall("c1", "false"),
			finished("c1", "completed", "no\n<shellId: 0 completed with exit code 1>", `{"type":"shell_exit","shellId":"0","exitCode":1,"cwd":"/w"}`),
			finished("c1", "completed", "no\n<shellId: 0 completed with exit code 1>", `"shell_exit"`),
		}, []string{`"payload":{"kind":"shell","status":"completed","title":"Run it","shell":{"command":"false","output":"no\n"}}`}, []string{`"failed"`, `"exit_code"`, `"cwd"`}},
		{"other entries of contents are not an exit", acpdialect.Options{}, []string{
			shellCall("c1", "false"),
			finished("c1", "completed", "no\n", `[{"type":"text","exitCode":1},7,null]`),
		}, []string{`"status":"completed","title":"Run it","shell":{"command":"false","output":"no\n"}}`}, []string{`"failed"`, `"exit_code"`}},
		{"the output from rawOutput.content when there is no text content", acpdialect.Options{}, []string{
			shellCall("c1", "echo a"),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"content":"a\n<shellId: 0 completed with exit code 0>","contents":` + exit0 + `}}`),
		}, []string{`"shell":{"command":"echo a","cwd":"/w","output":"a\n","exit_code":0}}`}, nil},
		{"a line that only looks like the closing one stays", acpdialect.Options{}, []string{
			shellCall("c1", "cat f"),
			streamed("c1", "<shellId: 0 completed with exit code x>"),
		}, []string{`"output":"\u003cshellId: 0 completed with exit code x\u003e"}`}, nil},
		{"bounded output, tail kept", acpdialect.Options{MaxOutput: 64}, []string{
			shellCall("c1", "yes"),
			streamed("c1", big),
			finished("c1", "completed", big+"END\n<shellId: 0 completed with exit code 0>", exit0),
		}, []string{
			`"output":"` + strings.Repeat("x", 64) + `","output_truncated":true}`,
			`"status":"completed","title":"Run it","shell":{"command":"yes","cwd":"/w","output":"` + strings.Repeat("x", 60) + `END\n","output_truncated":true,"exit_code":0}`,
		}, []string{`"output":"` + strings.Repeat("x", 65)}},
		{"an update of a command never announced", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c9","kind":"execute","status":"completed","rawOutput":{"content":"<shellId: 0 completed with exit code 2>","contents":[{"type":"shell_exit","shellId":"0","exitCode":2,"cwd":"/w"}]}}`),
		}, []string{`"tool_call_id":"c9","payload":{"kind":"shell","status":"failed","shell":{"cwd":"/w","exit_code":2}}`}, nil},
		// The task tool (a subagent) is a subagent card, never a shell,
		// and other tools keep generic cards, whatever their rawInput and
		// rawOutput hold.
		{"the task tool is no shell", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"call_4","title":"Count files","kind":"other","status":"pending","rawInput":{"name":"counter","prompt":"Count.","agent_type":"general-purpose","description":"Count files","mode":"sync","command":"ls"}}`),
			finished("call_4", "completed", "There are 0 files.", exit2),
		}, []string{`"payload":{"kind":"subagent_task","status":"completed","title":"Count files","subagent_task":{"description":"Count files","prompt":"Count.","subagent_type":"general-purpose","status":"completed","name":"counter","result_text":"There are 0 files."}}`}, []string{`"shell"`, `"failed"`}},
		{"a read with a command's result stays generic", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"r1","title":"read_agent","kind":"read","status":"pending","rawInput":{"agent_id":"a","command":"x"}}`),
			finished("r1", "completed", "idle", exit2),
		}, []string{`"payload":{"kind":"generic","status":"completed","title":"read_agent","generic":{"acp_kind":"read"}}`}, []string{`"shell"`, `"failed"`}},
		{"an execute call without a command stays generic", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"w1","title":"write_bash","kind":"execute","status":"pending","rawInput":{"shellId":"0","input":"y\n","command":7}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"w1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"ok"}}],"rawOutput":{"content":"ok","contents":[{"type":"text","text":"ok"}]}}`),
		}, []string{`"payload":{"kind":"generic","status":"completed","title":"write_bash","generic":{"acp_kind":"execute"}}`}, []string{`"shell"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := feed(t, tt.opts, tt.frames...)
			testwire.Fragments(t, out, tt.want, tt.notWant)
			if t.Failed() {
				t.Logf("events:\n%s", out)
			}
		})
	}
}

// The hook copies the shell object before a change: the one prev holds,
// which events already handed out share, stays as it was.
func TestShellCopyOnWrite(t *testing.T) {
	code := int64(0)
	kept := &acpdialect.Shell{Command: "ls /nonexistent-dir", Output: "ls: ", ExitCode: &code}
	before := *kept
	prev := acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusCompleted, Shell: kept}
	u := frame.ReadToolUpdate(gjson.Get(finished("call_2", "completed", "ls: x\n<shellId: 1 completed with exit code 2>",
		`[{"type":"shell_exit","shellId":"1","exitCode":2,"cwd":"/w"}]`), "params.update"))
	next := copilot.ToolCall(u, prev)
	if *kept != before || kept.ExitCode != &code || code != 0 {
		t.Errorf("prev's shell changed: %+v", *kept)
	}
	if next.Shell == kept || next.Status != acpdialect.StatusFailed || next.Shell.Output != "ls: x\n" || next.Shell.ExitCode == nil || *next.Shell.ExitCode != 2 {
		t.Errorf("next = %+v, shell %+v", next, next.Shell)
	}
	// An update that changes nothing keeps the object.
	if again := copilot.ToolCall(frame.ReadToolUpdate(gjson.Parse(`{"sessionUpdate":"tool_call_update","toolCallId":"call_2","status":"completed"}`)), next); again.Shell != next.Shell {
		t.Error("an unchanged shell was copied")
	}
}
