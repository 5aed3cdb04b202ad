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

func ptr(n int64) *int64 { return &n }

func TestReadMeta(t *testing.T) {
	tests := []struct {
		in   string
		want terminal.Meta
	}{
		{`{"terminal_info":{"terminal_id":"t1","cwd":"/w"}}`, terminal.Meta{TerminalID: "t1", Cwd: "/w"}},
		{`{"terminal_output":{"terminal_id":"t1","data":"a\nb"}}`, terminal.Meta{TerminalID: "t1", Output: "a\nb", HasOutput: true}},
		{`{"terminal_output":"whole"}`, terminal.Meta{Output: "whole", HasOutput: true}},
		{`{"terminal_output":{"data":7}}`, terminal.Meta{}},
		{`{"terminal_output_delta":{"terminal_id":"t1","data":"more"}}`, terminal.Meta{TerminalID: "t1", Delta: "more"}},
		{`{"terminal_exit":{"terminal_id":"t1","exit_code":2,"signal":null}}`, terminal.Meta{TerminalID: "t1", Exited: true, ExitCode: ptr(2)}},
		{`{"terminal_exit":{"code":0,"signal":"SIGTERM"}}`, terminal.Meta{Exited: true, ExitCode: ptr(0), Signal: "SIGTERM"}},
		{`{"terminal_exit":{"exit_code":"1"}}`, terminal.Meta{Exited: true}},
		{`{"terminal_exit":null}`, terminal.Meta{}},
		{`{"claudeCode":{"toolName":"Bash"}}`, terminal.Meta{}},
		{`[1,2]`, terminal.Meta{}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, terminal.ReadMeta(gjson.Parse(tt.in))); d != "" {
			t.Errorf("ReadMeta(%s) (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestFold(t *testing.T) {
	var sh *acpdialect.Shell
	steps := []struct {
		meta string
		want acpdialect.Shell
	}{
		{`{"terminal_info":{"terminal_id":"t1"}}`, acpdialect.Shell{TerminalID: "t1"}},
		{`{"terminal_output":{"data":"a\n"}}`, acpdialect.Shell{TerminalID: "t1", Output: "a\n"}},
		{`{"terminal_output":{"data":"a\nb\n"}}`, acpdialect.Shell{TerminalID: "t1", Output: "a\nb\n"}},
		{`{"terminal_output_delta":{"data":"c\n"}}`, acpdialect.Shell{TerminalID: "t1", Output: "a\nb\nc\n"}},
		// A chunk (codex-acp sends terminal_output per chunk): appended.
		{`{"terminal_output":{"data":"d\n"}}`, acpdialect.Shell{TerminalID: "t1", Output: "a\nb\nc\nd\n"}},
		{`{"terminal_exit":{"exit_code":1,"signal":null}}`, acpdialect.Shell{TerminalID: "t1", Output: "a\nb\nc\nd\n", ExitCode: ptr(1)}},
	}
	for i, s := range steps {
		prev := sh
		var before acpdialect.Shell
		if prev != nil {
			before = *prev
		}
		sh = terminal.Fold(sh, terminal.ReadMeta(gjson.Parse(s.meta)))
		if d := cmp.Diff(s.want, *sh); d != "" {
			t.Fatalf("step %d (-want +got):\n%s", i, d)
		}
		if prev != nil && !cmp.Equal(before, *prev) {
			t.Fatalf("step %d changed the shell it was given", i)
		}
	}
	if again := terminal.Fold(sh, terminal.ReadMeta(gjson.Parse(`{"terminal_exit":{"exit_code":1}}`))); again != sh {
		t.Error("an unchanged shell is not returned as is")
	}
}

// FoldChunks appends every terminal_output, even one that repeats the
// output so far or starts with it; Fold takes such data as the whole
// output again.
func TestFoldChunks(t *testing.T) {
	tests := []struct {
		data       []string
		fold, each string
	}{
		{[]string{"a", "ab"}, "ab", "aab"},
		{[]string{"x\n", "x\n"}, "x\n", "x\nx\n"},
		{[]string{"a", "b"}, "ab", "ab"},
	}
	for _, tt := range tests {
		var whole, chunks *acpdialect.Shell
		for _, d := range tt.data {
			m := terminal.Meta{Output: d, HasOutput: true}
			whole, chunks = terminal.Fold(whole, m), terminal.FoldChunks(chunks, m)
		}
		if whole.Output != tt.fold || chunks.Output != tt.each {
			t.Errorf("%q: Fold %q, FoldChunks %q; want %q, %q", tt.data, whole.Output, chunks.Output, tt.fold, tt.each)
		}
	}
}

func TestFoldBounded(t *testing.T) {
	big := strings.Repeat("é", terminal.Limit) // two bytes a rune
	sh := terminal.Fold(nil, terminal.Meta{Output: big, HasOutput: true})
	if len(sh.Output) > terminal.Limit || !sh.OutputTruncated || !strings.HasPrefix(sh.Output, "é") {
		t.Fatalf("output %d bytes, truncated %v, starts %q", len(sh.Output), sh.OutputTruncated, sh.Output[:2])
	}
	sh = terminal.Fold(sh, terminal.Meta{Delta: "end"})
	if len(sh.Output) > terminal.Limit || !sh.OutputTruncated || !strings.HasSuffix(sh.Output, "end") {
		t.Fatalf("delta: %d bytes, truncated %v", len(sh.Output), sh.OutputTruncated)
	}
	// A chunk in terminal_output (codex-acp's) does not start with the
	// kept tail: appended.
	sh = terminal.Fold(sh, terminal.Meta{Output: "more", HasOutput: true})
	if len(sh.Output) > terminal.Limit || !sh.OutputTruncated || !strings.HasSuffix(sh.Output, "endmore") {
		t.Fatalf("a chunk: %d bytes, truncated %v", len(sh.Output), sh.OutputTruncated)
	}
	// The whole output sent again no longer starts with the kept tail
	// either: appended too, its own tail is what stays.
	sh = terminal.Fold(sh, terminal.Meta{Output: big + "endmore!", HasOutput: true})
	if len(sh.Output) > terminal.Limit || !sh.OutputTruncated || !strings.HasSuffix(sh.Output, "éendmore!") ||
		strings.Count(sh.Output, "end") != 1 {
		t.Fatalf("the whole output again: %d bytes, truncated %v", len(sh.Output), sh.OutputTruncated)
	}
	sh = terminal.Fold(nil, terminal.Meta{Output: "short", HasOutput: true})
	if sh.Output != "short" || sh.OutputTruncated {
		t.Fatalf("a whole output that fits: %q %v", sh.Output, sh.OutputTruncated)
	}
}

func FuzzReadMeta(f *testing.F) {
	for _, s := range []string{
		`{"terminal_info":{"terminal_id":"toolu_bg"}}`,
		`{"terminal_output":{"data":"built","terminal_id":"toolu_slow"}}`,
		`{"terminal_output_delta":{"data":"make: *** Error 2","terminal_id":"toolu_native_bash"}}`,
		`{"terminal_exit":{"exit_code":0,"signal":null,"terminal_id":"toolu_slow"}}`,
		`{"claudeCode":{"toolName":"Bash"},"terminal_info":{"terminal_id":"x"}}`,
	} {
		f.Add(s)
	}
	for _, s := range testwire.CaptureSeeds(f, "..", "params.update._meta") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		m := terminal.ReadMeta(gjson.Result{Type: gjson.JSON, Raw: raw})
		sh := terminal.Fold(nil, m)
		if len(sh.Output) > terminal.Limit {
			t.Fatal("unbounded output")
		}
		terminal.Fold(sh, m)
	})
}
