package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMain lets the test binary run again as the command itself
// (ACPDIALECT_CLI_CHILD=1: its arguments after "--"), for measurements of
// a fresh process, or as a fake agent (ACPDIALECT_FAKE_AGENT).
func TestMain(m *testing.M) {
	switch {
	case os.Getenv("ACPDIALECT_CLI_CHILD") == "1":
		os.Exit(child())
	case os.Getenv("ACPDIALECT_FAKE_AGENT") != "":
		os.Exit(fakeAgent(os.Getenv("ACPDIALECT_FAKE_AGENT")))
	}
	os.Exit(m.Run())
}

// child runs the command, then reports its peak RSS (VmHWM, of this
// process's memory since its exec) on stderr.
func child() int {
	os.Unsetenv("ACPDIALECT_CLI_CHILD") // the processes it starts are not
	args := os.Args[1:]
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	code := command(args)
	status, _ := os.ReadFile("/proc/self/status")
	for l := range bytes.Lines(status) {
		if s, ok := strings.CutPrefix(string(l), "VmHWM:"); ok {
			fmt.Fprintf(os.Stderr, "VmHWM %s", strings.TrimSpace(s))
		}
	}
	return code
}
