package terminal_test

import (
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/terminal"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestReadCommand(t *testing.T) {
	tests := []struct {
		in, out string
		want    terminal.Command
	}{
		{`{"command":"ls -la","cwd":"/test/project"}`, ``, terminal.Command{Command: "ls -la", Cwd: "/test/project"}},
		// The legacy adapter's ExecCommandBegin: an argument vector.
		{`{"call_id":"c","command":["bash","-lc","ls -la | wc -l"],"cwd":"/w","parsed_cmd":[{"type":"unknown","cmd":"ls"}]}`, ``,
			terminal.Command{Command: `bash -lc 'ls -la | wc -l'`, Cwd: "/w"}},
		{`{"command":["echo","it's",""]}`, ``, terminal.Command{Command: `echo 'it'\''s' ''`}},
		{`{"command":["echo",7]}`, ``, terminal.Command{}},
		{`{"command":7,"cwd":null}`, `null`, terminal.Command{}},
		{`{"command":"a","command":"b"}`, ``, terminal.Command{Command: "a"}},
		{``, `{"formatted_output":"file1.txt\n","exit_code":0}`, terminal.Command{Output: "file1.txt\n", HasOutput: true, ExitCode: ptr(0)}},
		{``, `{"formatted_output":"","exit_code":null}`, terminal.Command{HasOutput: true}},
		// The legacy adapter's ExecCommandEnd: aggregated_output, not the
		// output formatted for the model.
		{``, `{"stdout":"a\n","aggregated_output":"a\n","exit_code":2,"formatted_output":"Exit code: 2\na\n"}`,
			terminal.Command{Output: "a\n", HasOutput: true, ExitCode: ptr(2)}},
		{``, `{"formatted_output":7,"exit_code":"1"}`, terminal.Command{}},
		{``, `{"result":null,"error":{"message":"x"}}`, terminal.Command{}},
		{`"ls"`, `"out"`, terminal.Command{}},
	}
	for _, tt := range tests {
		got := terminal.ReadCommand(gjson.Parse(tt.in), gjson.Parse(tt.out))
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("ReadCommand(%s, %s) (-want +got):\n%s", tt.in, tt.out, d)
		}
		if got.Empty() != (tt.want == terminal.Command{}) {
			t.Errorf("ReadCommand(%s, %s).Empty() = %v", tt.in, tt.out, got.Empty())
		}
	}
}

func TestFoldCommand(t *testing.T) {
	started := &acpdialect.Shell{TerminalID: "t1", Cwd: "/meta"}
	tests := []struct {
		name string
		sh   *acpdialect.Shell
		c    terminal.Command
		want acpdialect.Shell
	}{
		{"the tool call's input; terminal_info's cwd wins", started, terminal.Command{Command: "ls", Cwd: "/input"},
			acpdialect.Shell{Command: "ls", TerminalID: "t1", Cwd: "/meta"}},
		{"a cwd fills an empty one", nil, terminal.Command{Command: "ls", Cwd: "/input"}, acpdialect.Shell{Command: "ls", Cwd: "/input"}},
		{"a result without the channel", nil, terminal.Command{Output: "a\n", HasOutput: true, ExitCode: ptr(0)},
			acpdialect.Shell{Output: "a\n", ExitCode: ptr(0)}},
		{"the whole output extends what was streamed", &acpdialect.Shell{Output: "a\n"}, terminal.Command{Output: "a\nb\n", HasOutput: true},
			acpdialect.Shell{Output: "a\nb\n"}},
		{"a formatted output that differs leaves the stream", &acpdialect.Shell{Output: "a\n"}, terminal.Command{Output: "Exit code: 0\na\n", HasOutput: true},
			acpdialect.Shell{Output: "a\n"}},
		{"a cut stream takes the whole output", &acpdialect.Shell{Output: "tail\n", OutputTruncated: true}, terminal.Command{Output: "head\ntail\n", HasOutput: true},
			acpdialect.Shell{Output: "head\ntail\n"}},
		{"terminal_exit's code wins", &acpdialect.Shell{ExitCode: ptr(1)}, terminal.Command{ExitCode: ptr(0)}, acpdialect.Shell{ExitCode: ptr(1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before acpdialect.Shell
			if tt.sh != nil {
				before = *tt.sh
			}
			got := terminal.FoldCommand(tt.sh, tt.c)
			if d := cmp.Diff(tt.want, *got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if tt.sh != nil && !cmp.Equal(before, *tt.sh) {
				t.Error("FoldCommand changed the shell it was given")
			}
		})
	}
	if sh := terminal.FoldCommand(started, terminal.Command{}); sh != started {
		t.Error("an empty command made a new shell")
	}
	if sh := terminal.FoldCommand(started, terminal.Command{Cwd: "/other"}); sh != started {
		t.Error("an unchanged shell is not returned as is")
	}
	big := strings.Repeat("x", terminal.Limit) + "end"
	if sh := terminal.FoldCommand(nil, terminal.Command{Output: big, HasOutput: true}); len(sh.Output) != terminal.Limit || !sh.OutputTruncated {
		t.Errorf("a long result: %d bytes, truncated %v", len(sh.Output), sh.OutputTruncated)
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		sh     *acpdialect.Shell
		status string
		want   string
	}{
		{nil, acpdialect.StatusCompleted, acpdialect.StatusCompleted},
		{&acpdialect.Shell{}, acpdialect.StatusInProgress, acpdialect.StatusInProgress},
		{&acpdialect.Shell{ExitCode: ptr(0)}, acpdialect.StatusCompleted, acpdialect.StatusCompleted},
		{&acpdialect.Shell{ExitCode: ptr(1)}, acpdialect.StatusCompleted, acpdialect.StatusFailed},
		{&acpdialect.Shell{ExitCode: ptr(-1)}, acpdialect.StatusInProgress, acpdialect.StatusFailed},
		{&acpdialect.Shell{ExitCode: ptr(130)}, acpdialect.StatusCancelled, acpdialect.StatusCancelled},
		{&acpdialect.Shell{Signal: "SIGTERM"}, acpdialect.StatusCompleted, acpdialect.StatusCompleted},
	}
	for _, tt := range tests {
		if got := terminal.Status(tt.sh, tt.status); got != tt.want {
			t.Errorf("Status(%+v, %q) = %q, want %q", tt.sh, tt.status, got, tt.want)
		}
	}
}

func FuzzReadCommand(f *testing.F) {
	for _, s := range [][2]string{
		{`{"command":"ls -la","cwd":"/test/project"}`, `{"formatted_output":"file1.txt\n","exit_code":0}`},
		{`{"command":["bash","-lc","echo 'hi'"],"cwd":"/w"}`, `{"aggregated_output":"hi\n","formatted_output":"hi\n","exit_code":1}`},
		{`{"command":["a",{}]}`, `{"exit_code":1e400}`},
		{`[`, `{"formatted_output":"\u00e9`},
	} {
		f.Add(s[0], s[1])
	}
	// The captures' inputs and outputs, each alone: few lines carry both.
	for _, s := range testwire.CaptureSeeds(f, "..", "params.update.rawInput") {
		f.Add(s, ``)
	}
	for _, s := range testwire.CaptureSeeds(f, "..", "params.update.rawOutput") {
		f.Add(``, s)
	}
	f.Fuzz(func(t *testing.T, in, out string) {
		c := terminal.ReadCommand(gjson.Result{Type: gjson.JSON, Raw: in}, gjson.Result{Type: gjson.JSON, Raw: out})
		sh := terminal.FoldCommand(nil, c)
		if c.Empty() != (sh == nil) {
			t.Fatalf("Empty %v, shell %+v", c.Empty(), sh)
		}
		if sh == nil {
			return
		}
		if len(sh.Output) > terminal.Limit {
			t.Fatal("unbounded output")
		}
		if again := terminal.FoldCommand(sh, c); again != sh {
			t.Fatal("folding the same command twice made a new shell")
		}
		if st := terminal.Status(sh, acpdialect.StatusCompleted); st == acpdialect.StatusFailed && *sh.ExitCode == 0 {
			t.Fatal("failed with exit 0")
		}
	})
}
