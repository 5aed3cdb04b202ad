package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	tw "github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// fullWriter fails every write as a write to /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// chunkReader returns at most n bytes a read, so that reads end mid-line.
type chunkReader struct {
	r io.Reader
	n int
}

func (c chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// TestReplayWriteError: a failed output is reported once, as a write of
// standard output, with exit status 1, and the line the failed flush cut
// short is not reported as a bad line.
func TestReplayWriteError(t *testing.T) {
	for _, mode := range []string{"", "--json", "--final"} {
		t.Run("mode "+mode, func(t *testing.T) {
			args := []string{"replay", "-"}
			if mode != "" {
				args = append(args, mode)
			}
			var errb bytes.Buffer
			code := run(args, chunkReader{bytes.NewReader(sample), 7}, fullWriter{}, &errb)
			if want := "acpdialect: write stdout: no space left on device\n"; code != exitFail || errb.String() != want {
				t.Errorf("exit %d, stderr %q; want exit %d, stderr %q", code, errb.String(), exitFail, want)
			}
		})
	}
}

// TestReplayFollowTruncated: --follow reads a file truncated under it from
// its start again, like tail -f, and says so on stderr.
func TestReplayFollowTruncated(t *testing.T) {
	path, f, ctx, cancel := liveFile(t)
	defer cancel()
	pr, pw := io.Pipe()
	var errb bytes.Buffer // read once the command has ended
	code := make(chan int, 1)
	go func() {
		c := runCtx(ctx, []string{"replay", "--json", "--agent", "cursor", "--follow", path}, nil, pw, &errb)
		pw.Close()
		code <- c
	}()
	out := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			out <- sc.Text()
		}
		close(out)
	}()
	write := func(id int) {
		t.Helper()
		if _, err := f.Write(append(tw.CursorTask(id, map[string]any{"toolCallId": "t1"}), '\n')); err != nil {
			t.Fatal(err)
		}
		if l := next(t, out); !strings.Contains(l, fmt.Sprintf(`"id":%d,"result":{}`, id)) {
			t.Fatalf("after id %d: %s", id, l)
		}
	}
	write(100)
	write(101)
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	write(7) // shorter than what was read: the replay must start over to see it
	cancel()
	endsClean(t, code)
	if want := "acpdialect: " + path + ": file truncated, reading from start\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

// TestNoColor: only a non-empty NO_COLOR turns colour off
// (https://no-color.org); colour needs a character device, as a terminal.
func TestNoColor(t *testing.T) {
	dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer dev.Close()
	if st, err := dev.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Skip("the null device is not a character device here")
	}
	tests := []struct {
		name  string
		value string
		set   bool
		want  bool
	}{
		{"unset", "", false, true},
		{"empty", "", true, true},
		{"set", "1", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tt.value) // restored after the test
			if !tt.set {
				os.Unsetenv("NO_COLOR")
			}
			if got := useColor(dev); got != tt.want {
				t.Errorf("useColor with NO_COLOR %s = %v, want %v", tt.name, got, tt.want)
			}
			if got := useColor(&bytes.Buffer{}); got {
				t.Error("useColor on a buffer = true, want false")
			}
		})
	}
}

// TestUnknownAgentIsUsage: an --agent no dialect resolves is a usage
// error (exit 2), found before any FILE is opened.
func TestUnknownAgentIsUsage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	tests := []struct {
		name string
		args []string
	}{
		{"audit, missing file", []string{"audit", "--agent", "bogus", missing}},
		{"audit, stdin", []string{"audit", "--agent", "bogus", "-"}},
		{"replay, missing file", []string{"replay", "--agent", "bogus", missing}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := cli(t, "{}\n", tt.args...)
			if code != exitUsage || !strings.HasPrefix(errs, `acpdialect: unknown agent "bogus"; known: cursor, `) {
				t.Errorf("exit %d, stderr %q; want exit %d, unknown agent", code, errs, exitUsage)
			}
		})
	}
	if code, _, errs := cli(t, "{}\n", "audit", "--agent", "none", "-"); code != exitOK {
		t.Errorf("--agent none: exit %d, stderr %q", code, errs)
	}
}

// grokNew is a Grok transcript whose session/new response carries a pad of
// n bytes: the dialect rewrites it with the model catalog's config options
// added.
func grokNew(n int) string {
	return `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"grok-build","version":"1.0.5"}}}
{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}
{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","models":{"currentModelId":"g","availableModels":[{"modelId":"g","name":"G"}]},"_meta":{"pad":"` +
		strings.Repeat("x", n) + `"}}}
`
}

// TestReplayLimitLine: replay shows a rewritten response only when the
// acp-go-sdk would read it, as the live tap delivers it (wiretap.MaxLine):
// a rewrite of exactly MaxLine bytes is a wire line (--final) and a config
// event (--json); one a byte longer is neither (the client gets the
// agent's response).
func TestReplayLimitLine(t *testing.T) {
	// The rewrite's length with no pad gives the pad for any length.
	_, out, _ := cli(t, grokNew(0), "replay", "--final", "-")
	wire := gjson.Get(lineOfType(out, "wire"), "frame")
	if !wire.Exists() {
		t.Fatalf("no rewritten frame in %s", out)
	}
	for _, tt := range []struct {
		n       int // the rewritten response's length
		rewrite bool
	}{
		{wiretap.MaxLine, true},
		{wiretap.MaxLine + 1, false},
	} {
		in := grokNew(tt.n - len(wire.Raw))
		_, final, _ := cli(t, in, "replay", "--final", "-")
		_, events, _ := cli(t, in, "replay", "--json", "-")
		w := gjson.Get(lineOfType(final, "wire"), "frame")
		config := lineOfType(events, "config") != ""
		if w.Exists() != tt.rewrite || config != tt.rewrite || (tt.rewrite && len(w.Raw) != tt.n) {
			t.Errorf("%d bytes: rewritten frame of %d bytes, config event %t; want the rewrite %t", tt.n, len(w.Raw), config, tt.rewrite)
		}
	}
}

// lineOfType returns the first JSON line of out whose type is typ, or "".
func lineOfType(out, typ string) string {
	for line := range strings.Lines(out) {
		if gjson.Get(line, "type").Str == typ {
			return line
		}
	}
	return ""
}
