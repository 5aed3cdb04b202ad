package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// TestInterrupt: an interrupt ends every command that waits for its input,
// as the process itself (this test binary started again). replay - on a
// terminal or a pipe that stays open is stopped by Ctrl-C like any
// program; replay --follow, which only ends when interrupted, prints what
// comes after the last line and exits 0.
func TestInterrupt(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "live.jsonl")
	task := fmt.Sprintf("%s\n", tw.CursorTask(10, map[string]any{"toolCallId": "t1"}))
	if err := os.WriteFile(file, []byte(task), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		sig    syscall.Signal
		status int    // the exit status, or -1 for a death by sig
		last   string // in the last line of output
	}{
		{"stdin SIGINT", []string{"replay", "--agent", "cursor", "-"}, syscall.SIGINT, -1, ""},
		{"stdin SIGTERM", []string{"replay", "--json", "--agent", "cursor", "-"}, syscall.SIGTERM, -1, ""},
		{"follow SIGINT", []string{"replay", "--agent", "cursor", "--follow", file}, syscall.SIGINT, 0, "agent=cursor"},
		{"follow SIGTERM", []string{"replay", "--agent", "cursor", "--follow", file}, syscall.SIGTERM, 0, "agent=cursor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(self, append([]string{"-test.run=^$", "--"}, tc.args...)...)
			cmd.Env = append(os.Environ(), "ACPDIALECT_CLI_CHILD=1")
			stdin, _ := cmd.StdinPipe()
			defer stdin.Close() // open until the end: only the signal ends the command
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Close()
			cmd.Stdout = pw
			err = cmd.Start()
			pw.Close()
			if err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			io.WriteString(stdin, task)
			out := make(chan string, 100)
			go func() {
				for sc := bufio.NewScanner(pr); sc.Scan(); {
					out <- sc.Text()
				}
				close(out)
			}()
			next(t, out) // the line is read: the command waits for more
			cmd.Process.Signal(tc.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				checkStatus(t, err, tc.sig, tc.status)
			case <-time.After(wait):
				t.Fatalf("still running %d s after %v", wait/time.Second, tc.sig)
			}
			last := ""
			for l := range out {
				last = l
			}
			if !strings.Contains(last, tc.last) {
				t.Errorf("last line %q, want %q in it", last, tc.last)
			}
		})
	}
}

func checkStatus(t *testing.T, err error, sig syscall.Signal, want int) {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case want == 0 && err != nil:
		t.Fatalf("exit: %v, want 0", err)
	case want == 0:
	case !errors.As(err, &ee):
		t.Fatalf("exit: %v, want death by %v", err, sig)
	case ee.Sys().(syscall.WaitStatus).Signal() != sig:
		t.Fatalf("exit: %v, want death by %v", err, sig)
	}
}
