package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/acpdialect/acpdialect/internal/redact"
)

func init() { commands["redact"] = redactCmd }

func redactUsage(w io.Writer) {
	fmt.Fprint(w, `usage: acpdialect redact FILE|-

Writes the transcript to standard output ready to share: prompts, message
and thought text, file contents, paths, command lines and outputs, and
anything that looks like a secret (API keys, tokens, e-mail addresses)
become placeholders of the same kind (<text-3>, <path-1>, <command-2>,
<output-4>, <secret-1>, <email-1>), the same value always the same
placeholder; everything under a key that names a secret (apiKey,
X-Api-Key, Authorization, password, ...) is a secret. JSON-RPC
structure, methods, ids, tool call ids, update kinds, statuses, _meta
keys and one-word identifiers outside text and tool input and output
stay, as written, and so do the fixed phrases and markup agents write
into text that the dialects read (task notifications and their task
ids, subagent title prefixes), so the result replays to the same events
apart from the redacted strings. A line that is not JSON is replaced
whole; a byte-order mark is kept. Review the output before sharing it:
the patterns catch the usual secrets, not every one.
`)
}

func redactCmd(s stdio, args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		redactUsage(s.out)
		return exitOK
	}
	if len(args) != 1 {
		if len(args) == 0 {
			s.errorf("no FILE to redact\n")
		} else {
			s.errorf("one FILE to redact, got %d\n", len(args))
		}
		redactUsage(s.err)
		return exitUsage
	}
	in := s.in
	if args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			s.errorf("%v", err)
			return exitFail
		}
		defer f.Close()
		in = f
	}
	w := bufio.NewWriter(outWriter{s.out})
	if err := redact.New().Copy(w, in); err != nil {
		s.errorf("%v", err)
		return exitFail
	}
	if err := w.Flush(); err != nil {
		s.errorf("%v", err)
		return exitFail
	}
	return exitOK
}
