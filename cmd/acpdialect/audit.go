package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect/internal/audit"
	"github.com/acpdialect/acpdialect/internal/replay"
)

func init() { commands["audit"] = auditCmd }

func auditUsage(w io.Writer) {
	fmt.Fprint(w, `usage: acpdialect audit [--json] [--strict] [--agent NAME] FILE...

Lists every vendor method, session/update kind and _meta key path the
transcripts use, with how often and where first, each marked as
  read      the identified dialect reads it
  ignored   the dialect knows it and leaves it alone on purpose
  standard  ACP defines it (update kinds)
  unknown   nothing knows it: what a new agent release added
Unknown items come first. A line that is not JSON-RPC is reported on
stderr and skipped.

  --json        one JSON object per item
  --strict      exit 1 when anything is unknown or a line was skipped
  --agent NAME  judge by this dialect instead of identifying the agent
`)
}

func auditCmd(s stdio, args []string) int {
	var asJSON, strict bool
	var agent string
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&asJSON, "json", false, "")
	fs.BoolVar(&strict, "strict", false, "")
	fs.StringVar(&agent, "agent", "", "")
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		auditUsage(s.out)
		return exitOK
	}
	if err == nil && len(files) == 0 {
		err = errors.New("no FILE to audit")
	}
	if err != nil {
		s.errorf("%v\n", err)
		auditUsage(s.err)
		return exitUsage
	}
	if err := replay.CheckAgent(replay.Builtins(), agent); err != nil {
		s.errorf("%v", err) // before opening anything: a usage error
		return exitUsage
	}
	a := audit.New()
	a.Bad = func(file string, b replay.BadLine) { s.errorf("%s: %v", file, &b) }
	for _, name := range files {
		if code := auditFile(s, a, name, agent); code != exitOK {
			return code
		}
	}
	items := a.Items()
	w := bufio.NewWriter(outWriter{s.out})
	if asJSON {
		enc := json.NewEncoder(jsonOut(w))
		enc.SetEscapeHTML(false)
		for _, it := range items {
			enc.Encode(it)
		}
	} else {
		writeAudit(w, items)
	}
	if err := w.Flush(); err != nil {
		s.errorf("%v", err)
		return exitFail
	}
	if !strict {
		return exitOK
	}
	for _, it := range items {
		if it.Status == audit.Unknown {
			return exitFail
		}
	}
	if a.BadLines > 0 {
		return exitFail
	}
	return exitOK
}

func auditFile(s stdio, a *audit.Audit, name, agent string) int {
	var in io.Reader = s.in
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			s.errorf("%v", err)
			return exitFail
		}
		defer f.Close()
		in = f
	}
	err := a.File(replay.Builtins(), name, in, agent)
	if errors.Is(err, replay.ErrUnknownAgent) {
		s.errorf("%v", err)
		return exitUsage
	}
	if err != nil {
		s.errorf("%s: %v", name, err)
		return exitFail
	}
	return exitOK
}

// writeAudit writes the items in aligned columns. Names come from the
// agent, so they are made safe for a terminal first.
func writeAudit(w *bufio.Writer, items []audit.Item) {
	rows := [][]string{{"STATUS", "KIND", "NAME", "COUNT", "FIRST", "AGENT"}}
	for _, it := range items {
		rows = append(rows, []string{it.Status, it.Kind, safe(it.Name), strconv.Itoa(it.Count),
			safe(it.File) + ":" + strconv.Itoa(it.Line), safe(it.Agent)})
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)+2))
			}
		}
		w.WriteString(b.String() + "\n")
	}
}
