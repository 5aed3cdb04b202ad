// Command acpdialect replays a captured ACP transcript through the built-in
// dialects and shows what a client would render.
//
//	acpdialect replay [--agent NAME] [--json] [--final] [--strict] [FILE|-]
package main

import (
	"bytes"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/acpdialect/acpdialect/internal/replay"
)

// sample is a Cursor session replayed when no FILE is given.
//
//go:embed sample.jsonl
var sample []byte

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // unreadable input, a bad line with --strict
	exitUsage = 2
)

func usage(w io.Writer) {
	fmt.Fprintf(w, `usage: acpdialect replay [--agent NAME] [--json] [--final] [--strict] [FILE|-]

Replays an ACP transcript (JSONL: one JSON-RPC 2.0 message per line, both
directions in wire order) through the built-in dialects (%s) and prints
what a client would render. With no FILE it replays an embedded Cursor
sample; - reads standard input.

  --agent NAME  use this dialect instead of identifying the agent from the
                initialize response; unknown or none: standard ACP only
  --json        print the normalized events, one JSON object per line
  --final       print the final state: a line per tool call, a line per
                question, plan or image request with its answer, a line
                per frame a dialect rewrote (what went on the wire
                instead), a line per session (with its todos), then the
                counters (JSON lines; wins over --json)
  --strict      stop with exit status 1 at the first bad line (by default
                a bad line is reported on stderr and skipped)

Exit status: 0 done, 1 unreadable input or --strict bad line, 2 usage.
`, known())
}

func known() string {
	var ids []string
	for _, d := range replay.Builtins().Dialects() {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
}

// run is the whole command, testable without a process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "replay":
		return replayCmd(args[1:], stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	fmt.Fprintf(stderr, "acpdialect: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

type replayFlags struct {
	agent               string
	json, final, strict bool
	file                string // "" for the embedded sample
}

// parseFlags accepts flags before and after the FILE argument.
func parseFlags(args []string) (replayFlags, error) {
	var f replayFlags
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.agent, "agent", "", "")
	fs.BoolVar(&f.json, "json", false, "")
	fs.BoolVar(&f.final, "final", false, "")
	fs.BoolVar(&f.strict, "strict", false, "")
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return f, err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) > 1 {
		return f, fmt.Errorf("one FILE at most, got %d", len(files))
	}
	if len(files) == 1 {
		f.file = files[0]
	}
	return f, nil
}

func replayCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		usage(stdout)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "acpdialect: %v\n\n", err)
		usage(stderr)
		return exitUsage
	}
	in, closeIn, err := open(f.file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "acpdialect: %v\n", err)
		return exitFail
	}
	defer closeIn()

	r, err := replay.Run(replay.Builtins(), in, replay.Options{Agent: f.agent, Strict: f.strict})
	if errors.Is(err, replay.ErrUnknownAgent) {
		fmt.Fprintf(stderr, "acpdialect: %v\n", err)
		return exitUsage
	}
	status := exitOK
	if err != nil {
		// A --strict bad line or a read error: show what came before.
		fmt.Fprintf(stderr, "acpdialect: %v\n", err)
		status = exitFail
	} else {
		for _, b := range r.Bad {
			fmt.Fprintf(stderr, "acpdialect: %v\n", &b)
		}
	}
	if err := write(stdout, r, f); err != nil {
		fmt.Fprintf(stderr, "acpdialect: %v\n", err)
		return exitFail
	}
	return status
}

// open returns the input: the embedded sample, stdin for "-", or a file.
func open(name string, stdin io.Reader) (io.Reader, func(), error) {
	switch name {
	case "":
		return bytes.NewReader(sample), func() {}, nil
	case "-":
		return stdin, func() {}, nil
	}
	fh, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return fh, func() { fh.Close() }, nil
}

func write(w io.Writer, r *replay.Replay, f replayFlags) error {
	switch {
	case f.final:
		return r.WriteFinal(w)
	case f.json:
		return r.WriteEvents(w)
	}
	return writeView(w, r)
}
