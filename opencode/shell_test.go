package opencode_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/opencode"
	"github.com/acpdialect/acpdialect/terminal"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func rawUpdate(s string) frame.ToolUpdate { return frame.ReadToolUpdate(gjson.Parse(s)) }

func code(n int64) *int64 { return &n }

// TestShellToolCall: OpenCode's bash tool (ACP kind execute) is a shell
// card, read from the shapes OpenCode 1.18.33 sends (the live recording
// testdata/live-1.18.33-stub.jsonl, lines 11 to 17); other tools and the
// task's card are left to their own rules.
func TestShellToolCall(t *testing.T) {
	generic := func(kind string) acpdialect.Payload {
		return acpdialect.Payload{Kind: acpdialect.KindGeneric, Generic: &acpdialect.Generic{ACPKind: kind}}
	}
	shell := func(sh acpdialect.Shell) acpdialect.Payload {
		return acpdialect.Payload{Kind: acpdialect.KindShell, Shell: &sh}
	}
	failedShell := func(sh acpdialect.Shell) acpdialect.Payload {
		p := shell(sh)
		p.Status = acpdialect.StatusFailed
		return p
	}
	task := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{Description: "d"}}
	const (
		pending   = `{"toolCallId":"call_2","title":"bash","kind":"execute","status":"pending","locations":[{"path":"/w"}],"rawInput":{"cwd":"/w"}}`
		running   = `{"toolCallId":"call_2","status":"in_progress","kind":"execute","title":"echo hi","rawInput":{"command":"echo hi","description":"Print hi","cwd":"/w"}}`
		streaming = `{"toolCallId":"call_2","status":"in_progress","kind":"execute","title":"echo hi","rawInput":{"command":"echo hi","description":"Print hi","cwd":"/w"},"content":[{"type":"content","content":{"type":"text","text":"hi\n"}}]}`
		completed = `{"toolCallId":"call_2","status":"completed","title":"echo hi","content":[{"type":"content","content":{"type":"text","text":"hi\n"}}],"rawOutput":{"output":"hi\n","metadata":{"output":"hi\n","exit":0,"truncated":false}}}`
	)
	tests := []struct {
		name  string
		prev  acpdialect.Payload
		frame string
		want  acpdialect.Payload
	}{
		// The real shapes, in order.
		{"pending: the cwd alone", acpdialect.Payload{Kind: acpdialect.KindGeneric}, pending,
			shell(acpdialect.Shell{Cwd: "/w"})},
		{"running: the command", shell(acpdialect.Shell{Cwd: "/w"}), running,
			shell(acpdialect.Shell{Command: "echo hi", Cwd: "/w"})},
		{"streamed content is not read", shell(acpdialect.Shell{Command: "echo hi", Cwd: "/w"}), streaming,
			shell(acpdialect.Shell{Command: "echo hi", Cwd: "/w"})},
		{"completed: output and exit, no kind on the frame", shell(acpdialect.Shell{Command: "echo hi", Cwd: "/w"}), completed,
			shell(acpdialect.Shell{Command: "echo hi", Cwd: "/w", Output: "hi\n", ExitCode: code(0)})},
		{"completion of a card the Conn knows as execute", generic("execute"), completed,
			shell(acpdialect.Shell{Output: "hi\n", ExitCode: code(0)})},
		{"a non-zero exit fails the call OpenCode reports completed", acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusCompleted},
			`{"status":"completed","rawOutput":{"output":"boom\n","metadata":{"output":"boom\n","exit":2}}}`,
			acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusFailed, Shell: &acpdialect.Shell{Output: "boom\n", ExitCode: code(2)}}},
		{"a cancelled call stays cancelled", acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusCancelled},
			`{"rawOutput":{"metadata":{"exit":130}}}`,
			acpdialect.Payload{Kind: acpdialect.KindShell, Status: acpdialect.StatusCancelled, Shell: &acpdialect.Shell{ExitCode: code(130)}}},
		{"failed: the metadata's output", generic("execute"),
			`{"status":"failed","kind":"execute","rawInput":{"command":"sleep 9"},"rawOutput":{"error":"aborted","metadata":{"output":"partial"}}}`,
			shell(acpdialect.Shell{Command: "sleep 9", Output: "partial"})},

		// Missing and mistyped values.
		{"missing command", acpdialect.Payload{Kind: acpdialect.KindGeneric}, `{"kind":"execute","rawInput":{"description":"d"}}`,
			shell(acpdialect.Shell{})},
		{"command not a string", acpdialect.Payload{Kind: acpdialect.KindGeneric}, `{"kind":"execute","rawInput":{"command":["echo","hi"],"cwd":7}}`,
			shell(acpdialect.Shell{})},
		{"output not a string: the metadata's", generic("execute"), `{"rawOutput":{"output":5,"metadata":{"output":"hi\n","exit":0}}}`,
			shell(acpdialect.Shell{Output: "hi\n", ExitCode: code(0)})},
		{"no output key: the metadata's", generic("execute"), `{"rawOutput":{"metadata":{"output":"x"}}}`,
			shell(acpdialect.Shell{Output: "x"})},
		// metadata.output is the command's own; output is the model's,
		// with OpenCode's notes.
		{"the metadata's output wins over the model's", generic("execute"), `{"rawOutput":{"output":"(no output)","metadata":{"output":""}}}`,
			shell(acpdialect.Shell{})},
		{"OpenCode's words for no output are none", generic("execute"), `{"rawOutput":{"output":"(no output)","metadata":{"output":"(no output)","exit":0}}}`,
			shell(acpdialect.Shell{ExitCode: code(0)})},
		{"the model's output when the metadata has none", generic("execute"), `{"rawOutput":{"output":"x\n","metadata":{"exit":0}}}`,
			shell(acpdialect.Shell{Output: "x\n", ExitCode: code(0)})},
		{"no output of a string type", generic("execute"), `{"rawOutput":{"output":null,"metadata":{"output":{"a":1}}}}`,
			shell(acpdialect.Shell{})},
		{"rawOutput a bare string", generic("execute"), `{"rawOutput":"hi"}`,
			shell(acpdialect.Shell{})},
		{"exit not whole", generic("execute"), `{"rawOutput":{"output":"","metadata":{"exit":1.5}}}`,
			shell(acpdialect.Shell{})},
		{"exit a string", generic("execute"), `{"rawOutput":{"metadata":{"exit":"0"}}}`,
			shell(acpdialect.Shell{})},
		{"exit null (killed)", generic("execute"), `{"rawOutput":{"output":"x","metadata":{"exit":null}}}`,
			shell(acpdialect.Shell{Output: "x"})},
		{"exit whole, written 1.0", generic("execute"), `{"rawOutput":{"metadata":{"exit":1.0}}}`,
			failedShell(acpdialect.Shell{ExitCode: code(1)})},
		{"first of a repeated key", generic("execute"), `{"rawInput":{"command":"a","command":"b"},"rawOutput":{"output":"1","output":"2","metadata":{"exit":3,"exit":4}}}`,
			failedShell(acpdialect.Shell{Command: "a", Output: "1", ExitCode: code(3)})},
		{"an absolute workdir is the cwd", generic("execute"), `{"kind":"execute","rawInput":{"command":"ls","workdir":"/srv/app"}}`,
			shell(acpdialect.Shell{Command: "ls", Cwd: "/srv/app"})},
		{"a Windows workdir", generic("execute"), `{"kind":"execute","rawInput":{"workdir":"C:\\src"}}`,
			shell(acpdialect.Shell{Cwd: `C:\src`})},
		{"a relative workdir is not", generic("execute"), `{"kind":"execute","rawInput":{"command":"ls","workdir":"sub"}}`,
			shell(acpdialect.Shell{Command: "ls"})},
		{"cwd before workdir", generic("execute"), `{"kind":"execute","rawInput":{"workdir":"/a","cwd":"/b"}}`,
			shell(acpdialect.Shell{Cwd: "/b"})},
		{"the kept cwd stays", shell(acpdialect.Shell{Cwd: "/w"}), `{"rawInput":{"cwd":"/other"}}`,
			shell(acpdialect.Shell{Cwd: "/w"})},
		{"a command named task is a shell's", acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"title":"task","kind":"execute","rawInput":{"command":"task","cwd":"/w"}}`,
			shell(acpdialect.Shell{Command: "task", Cwd: "/w"})},
		{"a shell card stays one whatever the frame's kind", shell(acpdialect.Shell{Command: "x"}), `{"kind":"other","title":"task"}`,
			shell(acpdialect.Shell{Command: "x"})},

		// Not a shell.
		{"read tool", generic("read"), `{"kind":"read","rawInput":{"command":"x","filePath":"/a"},"rawOutput":{"output":"text","metadata":{"exit":0}}}`,
			generic("read")},
		{"todowrite", generic("other"), `{"title":"2 todos","rawOutput":{"output":"[]","metadata":{"todos":[],"truncated":false}}}`,
			generic("other")},
		{"a frame's kind wins over the card's", generic("execute"), `{"kind":"other","rawInput":{"command":"x"}}`,
			generic("execute")},
		{"no kind known", acpdialect.Payload{Kind: acpdialect.KindGeneric}, completed,
			acpdialect.Payload{Kind: acpdialect.KindGeneric}},
		{"kind not a string", acpdialect.Payload{Kind: acpdialect.KindGeneric}, `{"kind":["execute"],"rawInput":{"command":"x"}}`,
			acpdialect.Payload{Kind: acpdialect.KindGeneric}},
		{"the task card", task, `{"kind":"execute","rawInput":{"command":"x"}}`, task},
		{"the task's frames", acpdialect.Payload{Kind: acpdialect.KindGeneric}, `{"title":"task","kind":"think","rawInput":{}}`,
			acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{}}},
		{"an mcp card", acpdialect.Payload{Kind: acpdialect.KindMCPTool, MCPTool: &acpdialect.MCPTool{Server: "s"}}, `{"kind":"execute","rawInput":{"command":"x"}}`,
			acpdialect.Payload{Kind: acpdialect.KindMCPTool, MCPTool: &acpdialect.MCPTool{Server: "s"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.prev.Clone()
			got := opencode.ToolCall(rawUpdate(tt.frame), tt.prev)
			if got.Kind == acpdialect.KindShell {
				got.Generic = nil // the Conn drops it from a claimed card
			}
			if !got.Equal(tt.want) {
				t.Errorf("got %s\nwant %s", dump(got), dump(tt.want))
			}
			if !tt.prev.Equal(before) {
				t.Errorf("prev's kind objects changed in place: %s", dump(tt.prev))
			}
		})
	}
}

func dump(p acpdialect.Payload) string {
	b, err := json.Marshal(p)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// TestShellCopyOnWrite: an unchanged frame keeps the card's shell object,
// a changed one gets a new object and leaves the old as it was.
func TestShellCopyOnWrite(t *testing.T) {
	p := opencode.ToolCall(rawUpdate(`{"kind":"execute","rawInput":{"command":"echo hi","cwd":"/w"}}`),
		acpdialect.Payload{Kind: acpdialect.KindGeneric})
	first := p.Shell
	same := opencode.ToolCall(rawUpdate(`{"kind":"execute","rawInput":{"command":"echo hi","cwd":"/w"}}`), p)
	if same.Shell != first {
		t.Errorf("an unchanged card got a new object")
	}
	done := opencode.ToolCall(rawUpdate(`{"status":"completed","rawOutput":{"output":"hi\n","metadata":{"exit":0}}}`), p)
	if done.Shell == first || *first != (acpdialect.Shell{Command: "echo hi", Cwd: "/w"}) {
		t.Errorf("the shell object was changed in place: %+v", *first)
	}
}

// TestShellOutputBounded: output past terminal.Limit keeps its tail and
// says it was cut (the Conn then cuts to Options.MaxOutput).
func TestShellOutputBounded(t *testing.T) {
	long := strings.Repeat("a", terminal.Limit) + "END"
	p := opencode.ToolCall(rawUpdate(`{"kind":"execute","rawOutput":{"output":"`+long+`"}}`), acpdialect.Payload{Kind: acpdialect.KindGeneric})
	if p.Shell == nil || len(p.Shell.Output) != terminal.Limit || !strings.HasSuffix(p.Shell.Output, "END") || !p.Shell.OutputTruncated {
		t.Fatalf("output not bounded: %d bytes, truncated %v", len(p.Shell.Output), p.Shell.OutputTruncated)
	}
}

// TestReadShell pins the reader on the recording's completion.
func TestReadShell(t *testing.T) {
	c := opencode.ReadShell(rawUpdate(`{"rawInput":{"command":"echo hi","cwd":"/w"},"rawOutput":{"output":"hi\n","metadata":{"output":"hi\n","exit":0,"truncated":false}}}`))
	want := terminal.Command{Command: "echo hi", Cwd: "/w", Output: "hi\n", HasOutput: true, ExitCode: code(0)}
	if d := cmp.Diff(want, c); d != "" {
		t.Error(d)
	}
}
