package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// wait is the bound on anything a test waits for: generous, so that a slow
// machine does not fail, and never a sleep that races.
const wait = 20 * time.Second

// lines runs the command in-process with the given stdin and returns its
// stdout lines as they come, and its exit status when it ends.
func lines(t *testing.T, ctx context.Context, stdin io.Reader, args ...string) (<-chan string, <-chan int) {
	t.Helper()
	pr, pw := io.Pipe()
	out, code := make(chan string, 100), make(chan int, 1)
	go func() {
		c := runCtx(ctx, args, stdin, pw, io.Discard)
		pw.Close()
		code <- c
	}()
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			out <- sc.Text()
		}
		close(out)
	}()
	return out, code
}

func next(t *testing.T, out <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-out:
		if !ok {
			t.Fatal("output ended")
		}
		return l
	case <-time.After(wait):
		t.Fatal("no output line within the bound")
	}
	return ""
}

// TestReplayStreamsFromPipe: each line's events are written before the
// next line arrives.
func TestReplayStreamsFromPipe(t *testing.T) {
	pr, pw := io.Pipe()
	out, code := lines(t, context.Background(), pr, "replay", "--json", "--agent", "cursor", "-")
	for i := range 3 {
		fmt.Fprintf(pw, "%s\n", tw.CursorTask(10+i, map[string]any{"toolCallId": "t1"}))
		if l := next(t, out); !strings.Contains(l, fmt.Sprintf(`"id":%d,"result":{}`, 10+i)) {
			t.Fatalf("line %d: %s", i, l)
		}
	}
	pw.Close()
	if c := <-code; c != 0 {
		t.Fatalf("exit %d", c)
	}
}

// endsClean waits for an interrupted --follow to end, with exit 0.
func endsClean(t *testing.T, code <-chan int) {
	t.Helper()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit %d", c)
		}
	case <-time.After(wait):
		t.Fatal("--follow did not end when interrupted")
	}
}

// liveFile is a file for --follow to read as the test writes it, and the
// context that ends the command.
func liveFile(t *testing.T) (string, *os.File, context.Context, context.CancelFunc) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "live.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	return path, f, ctx, cancel
}

// TestReplayFollow: --follow reads a file as it grows, and ends (with the
// final state) when interrupted.
func TestReplayFollow(t *testing.T) {
	path, f, ctx, cancel := liveFile(t)
	defer cancel()
	out, code := lines(t, ctx, nil, "replay", "--json", "--agent", "cursor", "--follow", path)
	for i := range 3 {
		frame := tw.CursorTask(20+i, map[string]any{"toolCallId": "t1"})
		// Half a line first: the replay waits for the rest.
		f.Write(frame[:10])
		f.Write(append(frame[10:], '\n'))
		if l := next(t, out); !strings.Contains(l, fmt.Sprintf(`"id":%d,"result":{}`, 20+i)) {
			t.Fatalf("line %d: %s", i, l)
		}
	}
	cancel()
	endsClean(t, code)
}

// TestReplayMemoryBounded: a 200 MB transcript replays with --json, and
// with --final, in less than twice the peak memory (RSS) of a 5 MB one.
func TestReplayMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200 MB and builds the command")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the peak RSS from Linux's rusage")
	}
	dir := t.TempDir()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// One long Cursor session (the captures' updates, repeated every turn,
	// would add a session of their own whose cards are new every turn:
	// then the windows fill to the Conn's total bound, 16,384 cards,
	// about 20 MB whatever the length).
	small, big := mixedFile(t, dir, "small", 5<<20, nil), mixedFile(t, dir, "big", 200<<20, nil)
	for _, mode := range []string{"--json", "--final"} {
		s, b := peakRSS(t, bin, mode, small), peakRSS(t, bin, mode, big)
		t.Logf("%s: peak RSS %d KiB for 5 MB, %d KiB for 200 MB", mode, s, b)
		if b >= 2*s {
			t.Errorf("%s: 200 MB took %d KiB, 5 MB %d KiB: not under twice", mode, b, s)
		}
	}
}

// mixedFile writes a mixed Cursor transcript of about size bytes.
func mixedFile(t *testing.T, dir, name string, size int, caps [][]byte) string {
	t.Helper()
	var one strings.Builder
	if err := tw.WriteMixed(&one, 1, caps); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := tw.WriteMixed(f, max(1, size/one.Len()), caps); err != nil {
		t.Fatal(err)
	}
	return path
}

// peakRSS runs the command in a process of its own (this test binary,
// started again as the command) and returns its peak RSS in KiB. (The
// rusage of a child counts its parent's memory from before its exec.)
func peakRSS(t *testing.T, bin, mode, path string) int64 {
	t.Helper()
	cmd := exec.Command(bin, "-test.run=^$", "--", "replay", mode, path)
	cmd.Env = append(os.Environ(), "ACPDIALECT_CLI_CHILD=1")
	cmd.Stdout = io.Discard
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", mode, path, err, stderr.String())
	}
	var kib int64
	if _, err := fmt.Sscanf(stderr.String()[strings.LastIndex(stderr.String(), "VmHWM"):], "VmHWM %d kB", &kib); err != nil {
		t.Fatalf("no VmHWM in %q: %v", stderr.String(), err)
	}
	return kib
}

// TestStreamMatchesGoldens: the streaming command writes, for every
// transcript in the repository, exactly the --json and --final outputs the
// golden suites pin (made by the batch replay).
func TestStreamMatchesGoldens(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "cursor", "testdata", "*.jsonl"))
	for _, path := range append(paths, more...) {
		base := strings.TrimSuffix(path, ".jsonl")
		for _, m := range []struct{ flag, golden string }{{"--json", ".events.golden"}, {"--final", ".final.golden"}} {
			want, err := os.ReadFile(base + m.golden)
			if err != nil {
				t.Fatal(err)
			}
			code, out, _ := cli(t, "", "replay", m.flag, path)
			if code != 0 || out != string(want) {
				t.Errorf("%s %s: exit %d, output differs from %s:\n%s", m.flag, path, code, m.golden, out)
			}
		}
	}
}
