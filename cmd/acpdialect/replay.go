package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/wiretap"
)

func replayUsage(w io.Writer) {
	fmt.Fprintf(w, `usage: acpdialect replay [--agent NAME] [--json] [--final] [--strict] [--follow] [FILE|-]

Replays an ACP transcript (JSONL: one JSON-RPC 2.0 message per line, both
directions in wire order) through the built-in dialects (%s) and prints
what a client would render, each line's output as soon as the line is
read. With no FILE it replays an embedded Cursor sample; - reads standard
input.

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
  --follow      keep reading FILE as it grows, like tail -f (from its
                start again if it is truncated), until interrupted (then
                --final prints the final state)

Exit status: 0 done, 1 unreadable input or --strict bad line, 2 usage.
`, known())
}

type replayFlags struct {
	agent                       string
	json, final, strict, follow bool
	file                        string // "" for the embedded sample
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
	fs.BoolVar(&f.follow, "follow", false, "")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return f, err
	}
	if len(files) > 1 {
		return f, fmt.Errorf("one FILE at most, got %d", len(files))
	}
	if len(files) == 1 {
		f.file = files[0]
	}
	if f.follow && f.file == "" {
		return f, errors.New("--follow needs a FILE")
	}
	return f, nil
}

// parseInterspersed parses flags before and after the arguments and
// returns the arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func replayCmd(s stdio, args []string) int {
	f, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		replayUsage(s.out)
		return exitOK
	}
	if err != nil {
		s.errorf("%v\n", err)
		replayUsage(s.err)
		return exitUsage
	}
	if err := replay.CheckAgent(replay.Builtins(), f.agent); err != nil {
		s.errorf("%v", err) // before opening anything: a usage error
		return exitUsage
	}
	in, closeIn, err := open(s, f)
	if err != nil {
		s.errorf("%v", err)
		return exitFail
	}
	defer closeIn()
	return replayStream(s, f, in)
}

// replayStream replays in and writes each line's output as soon as the
// line is read. Output is buffered until the input would block: the
// buffer is flushed before every read of the input itself, so a file
// goes out in large writes and a live pipe shows each line at once.
func replayStream(s stdio, f replayFlags, in io.Reader) int {
	if os.Getenv("GOGC") == "" {
		// A streaming replay's live heap is the Conn's bounded stores, a
		// few MB; the default target (twice the live heap) would make the
		// peak twice that. Half as much headroom keeps the peak near the
		// bound, for GC cycles that cost little on so small a heap.
		defer debug.SetGCPercent(debug.SetGCPercent(50))
	}
	out := bufio.NewWriterSize(outWriter{s.out}, 64<<10)
	src := bufio.NewReaderSize(flushReader{in, out}, 256<<10)
	o, err := newOutput(f, out, useColor(s.out))
	if err != nil {
		return o.fail(s, err)
	}
	stream, err := replay.NewStream(replay.Builtins(), replay.Options{Agent: f.agent, Strict: f.strict, LimitLine: wiretap.MaxLine}, o.sink(s), o.final)
	if errors.Is(err, replay.ErrUnknownAgent) {
		s.errorf("%v", err)
		return exitUsage
	}
	status := exitOK
	ferr := stream.Feed(src)
	if ferr != nil {
		// A --strict bad line, a read error or a closed output: show
		// what came before.
		var bad *replay.BadLine
		if !errors.As(ferr, &bad) {
			s.errorf("%v", ferr)
		}
		status = exitFail
	}
	// A failed output fails every write after (bufio keeps the error):
	// it is reported once.
	if err := o.finish(stream.Finish()); err != nil {
		if err != ferr {
			s.errorf("%v", err)
		}
		return exitFail
	}
	if f.json && !f.final && o.events == 0 && status == exitOK {
		s.errorf("no events: the transcript has nothing a dialect or the standard view normalizes (see replay without --json)")
	}
	return status
}

// output is where one replay's lines go, by mode.
type output struct {
	f      replayFlags
	w      *bufio.Writer
	json   *jsonWriter // w for the JSON lines (--json, --final)
	final  *replay.Final
	view   *view
	events int
}

func newOutput(f replayFlags, w *bufio.Writer, color bool) (*output, error) {
	o := &output{f: f, w: w, json: jsonOut(w)}
	switch {
	case f.final:
		o.final = replay.NewFinal(replay.StreamLimits, o.json)
	case !f.json:
		o.view = newView(w, color)
	}
	return o, nil
}

// useColor says whether to colour the view: only on a terminal, and not
// when NO_COLOR is set to a non-empty value (https://no-color.org: an
// empty NO_COLOR is as if unset).
func useColor(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (o *output) fail(s stdio, err error) int {
	s.errorf("%v", err)
	return exitFail
}

// sink is the stream's sink for this mode: bad lines go to stderr as they
// are read, events to the output.
func (o *output) sink(s stdio) replay.Sink {
	sink := replay.Sink{
		Bad: func(b replay.BadLine) { s.errorf("%v", &b) },
		Event: func(rec replay.Record) error {
			o.events++
			switch {
			case o.f.final:
				return nil
			case o.f.json:
				return replay.WriteEvent(o.json, rec.Event)
			}
			return o.view.event(rec)
		},
	}
	if o.view != nil {
		sink.Frame, sink.LineDone = o.view.frame, o.view.lineDone
	}
	return sink
}

// finish writes what comes after the last line and flushes.
func (o *output) finish(sum replay.Summary) error {
	switch {
	case o.final != nil:
		if err := o.final.WriteTo(o.json, sum); err != nil {
			return err
		}
	case o.view != nil:
		o.view.finish(sum)
	}
	return o.w.Flush()
}

// outWriter names standard output in its write errors ("write stdout: no
// space left on device", not the device's path), as a *writeError: one
// that flushReader returns is the output's, not the input's. Every command
// writes its standard output through one, so that all say it alike.
type outWriter struct{ w io.Writer }

func (o outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		err = &writeError{err}
	}
	return n, err
}

// writeError is a failed write of the output.
type writeError struct{ err error }

func (e *writeError) Error() string { return "write stdout: " + e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// flushReader flushes the output before each read of the input: the
// moment the input might block. A failed flush ends the reading (the
// replay's output is gone) with the write error.
type flushReader struct {
	r io.Reader
	w *bufio.Writer
}

func (f flushReader) Read(p []byte) (int, error) {
	if f.w.Buffered() > 0 {
		if err := f.w.Flush(); err != nil {
			return 0, err
		}
	}
	return f.r.Read(p)
}

// open returns the input: the embedded sample, stdin for "-", or a file
// (followed as it grows with --follow, until s.ctx ends).
func open(s stdio, f replayFlags) (io.Reader, func(), error) {
	switch f.file {
	case "":
		return bytes.NewReader(sample), func() {}, nil
	case "-":
		return s.in, func() {}, nil
	}
	fh, err := os.Open(f.file)
	if err != nil {
		return nil, nil, err
	}
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		fh.Close()
		return nil, nil, fmt.Errorf("%s is a directory, not a transcript", f.file)
	}
	if f.follow {
		// Following ends only when interrupted: SIGINT and SIGTERM end
		// the reading, and the replay finishes as at the end of a file.
		// Once one has come, the next ends the process as usual.
		ctx, stop := signal.NotifyContext(s.ctx, os.Interrupt, syscall.SIGTERM)
		context.AfterFunc(ctx, stop)
		return &followReader{ctx: ctx, f: fh, poll: followPoll, warn: s.errorf}, func() { stop(); fh.Close() }, nil
	}
	return fh, func() { fh.Close() }, nil
}

// followPoll is how often --follow looks for more at the end of a file.
const followPoll = 100 * time.Millisecond

// followReader reads a file that grows, like tail -f: at its end it waits
// and reads again, until ctx ends (then it reports io.EOF, and the replay
// finishes as at the end of a file). A file truncated under it is read
// again from its start, as tail -f does.
type followReader struct {
	ctx  context.Context
	f    *os.File
	poll time.Duration
	warn func(format string, args ...any) // to stderr
}

func (r *followReader) Read(p []byte) (int, error) {
	t := time.NewTimer(r.poll)
	defer t.Stop()
	for {
		n, err := r.f.Read(p)
		if n > 0 || (err != nil && !errors.Is(err, io.EOF)) {
			return n, err
		}
		rewound, err := r.rewind()
		if err != nil {
			return 0, err
		}
		if rewound {
			continue
		}
		t.Reset(r.poll)
		select {
		case <-r.ctx.Done():
			return 0, io.EOF
		case <-t.C:
		}
	}
}

// rewind goes back to the file's start when the file is now shorter than
// what was read: it was truncated (rotated with copytruncate, rewritten),
// so what follows the old offset would never come. A truncation the file
// has already outgrown again by the time it is checked goes unseen, as in
// tail -f; a line the truncation cut joins the first new one (one bad line).
func (r *followReader) rewind() (bool, error) {
	st, err := r.f.Stat()
	if err != nil {
		return false, err
	}
	off, err := r.f.Seek(0, io.SeekCurrent)
	if err != nil || st.Size() >= off {
		return false, err
	}
	r.warn("%s: file truncated, reading from start", r.f.Name())
	_, err = r.f.Seek(0, io.SeekStart)
	return err == nil, err
}
