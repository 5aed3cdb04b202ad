package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// TestRedactUsageErrors: with no FILE or more than one, redact says why
// on stderr before the usage, as audit does; -h is help on stdout.
func TestRedactUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "acpdialect: no FILE to redact\n"},
		{[]string{"a.jsonl", "b.jsonl"}, "acpdialect: one FILE to redact, got 2\n"},
	} {
		code, out, errs := cli(t, "", append([]string{"redact"}, tt.args...)...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errs, tt.want) || !strings.Contains(errs, "usage: acpdialect redact") {
			t.Errorf("redact %v: exit %d, stdout %q, stderr %q", tt.args, code, out, errs)
		}
	}
	code, out, errs := cli(t, "", "redact", "-h")
	if code != exitOK || errs != "" || !strings.HasPrefix(out, "usage: acpdialect redact") {
		t.Errorf("redact -h: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestRedactByteOrderMark: a transcript that starts with a byte-order
// mark redacts to one that replays the same, as replay skips the mark.
func TestRedactByteOrderMark(t *testing.T) {
	task := string(tw.CursorTask(5, map[string]any{"toolCallId": "t1", "description": "my private plan"})) + "\n"
	code, red, errs := cli(t, "\xef\xbb\xbf"+task, "redact", "-")
	if code != 0 || errs != "" || strings.Contains(red, "<invalid JSON line redacted>") || strings.Contains(red, "private plan") {
		t.Fatalf("exit %d, stderr %q, out %q", code, errs, red)
	}
	_, want, _ := cli(t, "\xef\xbb\xbf"+task, "replay", "--json", "--agent", "cursor", "-")
	code, got, errs := cli(t, red, "replay", "--json", "--agent", "cursor", "-")
	if code != 0 || errs != "" || !strings.Contains(got, `"id":5,"result":{}`) || strings.Count(got, "\n") != strings.Count(want, "\n") {
		t.Fatalf("replayed redacted: exit %d, stderr %q:\n%s\nwant like:\n%s", code, errs, got, want)
	}
}

// TestWriteErrorNamesStdout: every command that writes a transcript's
// output reports a failed write as replay does, naming standard output
// rather than its device path.
func TestWriteErrorNamesStdout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sample.jsonl")
	if err := os.WriteFile(path, sample, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"redact", path}, {"audit", path}, {"audit", "--json", path}, {"replay", path}} {
		var errb bytes.Buffer
		code := run(args, strings.NewReader(""), fullWriter{}, &errb)
		if want := "acpdialect: write stdout: no space left on device\n"; code != exitFail || errb.String() != want {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, stderr %q", args, code, errb.String(), exitFail, want)
		}
	}
}
