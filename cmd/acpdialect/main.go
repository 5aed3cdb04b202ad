// Command acpdialect replays, records, audits and redacts ACP transcripts
// through the built-in dialects.
//
//	acpdialect replay [--agent NAME] [--json] [--final] [--strict] [--follow] [FILE|-]
//	acpdialect tap [--record FILE] [--events FILE] [--answer] [--agent NAME] [--grace D] -- AGENT [ARGS...]
//	acpdialect audit [--json] [--strict] [--agent NAME] FILE...
//	acpdialect redact FILE|-
//	acpdialect version
package main

import (
	"context"
	_ "embed"
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

func main() { os.Exit(command(os.Args[1:])) }

// command is the process's whole command on its standard streams (a test
// binary started again runs it too). SIGINT and SIGTERM keep their
// default, ending the process, except where a command catches them to
// end what only ends when interrupted (replay --follow, tap).
func command(args []string) int {
	return run(args, os.Stdin, os.Stdout, os.Stderr)
}

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // unreadable input, a bad line with --strict, unknown audit entries with --strict
	exitUsage = 2
)

func usage(w io.Writer) {
	fmt.Fprintf(w, `usage: acpdialect replay [--agent NAME] [--json] [--final] [--strict] [--follow] [FILE|-]
       acpdialect tap [--record FILE] [--events FILE] [--answer] [--agent NAME] [--grace D] -- AGENT [ARGS...]
       acpdialect audit [--json] [--strict] [--agent NAME] FILE...
       acpdialect redact FILE|-
       acpdialect version

replay  replays an ACP transcript (JSONL: one JSON-RPC 2.0 message per line,
        both directions in wire order) through the built-in dialects (%s)
        and prints what a client would render, each line as soon as it is
        read. With no FILE it replays an embedded Cursor sample; - reads
        standard input.
tap     runs AGENT as an editor's agent and passes every byte through,
        recording the transcript and the events.
audit   lists every vendor method, update kind and _meta key the transcripts
        use, and whether the identified dialect reads it.
redact  writes FILE with its text, paths, commands and secrets replaced by
        placeholders, ready to share.
version prints the module version.

Run acpdialect COMMAND -h for a command's flags.
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
	return runCtx(context.Background(), args, stdin, stdout, stderr)
}

// runCtx is run that stops what waits (replay --follow, tap) when ctx ends.
func runCtx(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	st := stdio{ctx: ctx, in: stdin, out: stdout, err: stderr}
	switch args[0] {
	case "replay":
		return replayCmd(st, args[1:])
	case "version":
		return versionCmd(st, args[1:])
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd(st, args[1:])
	}
	fmt.Fprintf(stderr, "acpdialect: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

// commands are the subcommands beyond replay and version, each in its own
// file.
var commands = map[string]func(stdio, []string) int{}

// stdio is a command's context and standard streams.
type stdio struct {
	ctx context.Context
	in  io.Reader
	out io.Writer
	err io.Writer
}

func (s stdio) errorf(format string, args ...any) {
	// Messages quote the input (a bad line's reason, a file name): made
	// safe for a terminal like the view.
	msg := fmt.Sprintf(format, args...)
	body := strings.TrimRight(msg, "\n")
	fmt.Fprint(s.err, "acpdialect: "+safe(body)+msg[len(body):]+"\n")
}
