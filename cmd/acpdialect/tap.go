package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/proc"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

func init() { commands["tap"] = tapCmd }

func tapUsage(w io.Writer) {
	fmt.Fprint(w, `usage: acpdialect tap [--record FILE] [--events FILE] [--answer] [--agent NAME] [--grace D] -- AGENT [ARGS...]

Runs AGENT (an ACP agent on stdin/stdout) for the editor that started the
tap, and passes every byte both ways unchanged. Configure the editor to
launch "acpdialect tap --record session.jsonl -- agent acp" instead of
"agent acp".

  --record FILE  write the transcript: every message of both directions,
                 one per line, in wire order, each line written as it
                 passes (nothing is lost when either side exits); the
                 file is created once the agent has started
  --events FILE  write the normalized events, one JSON object per line:
                 those a client on acpdialect gets, as replay --json
                 gives them for the record (without --answer, a reply
                 event is the reply such a client would send, not the
                 editor's own; with it, an answer the tap dropped has
                 no reply event)
  --answer       answer the vendor requests the agent's dialect allows
                 (Cursor's cursor/task gets {} and never reaches the
                 editor; a blocking question gets its default), for an
                 editor that would answer them -32601; past 1,024 (or
                 1 MiB) answers the agent has not read, the next are
                 dropped, which is said on stderr
  --agent NAME   use this dialect instead of identifying the agent
  --grace D      how long the agent has to exit once the editor closes its
                 side, before its process group is ended (default 2s)

The agent runs in a process group of its own; SIGINT, SIGTERM and SIGHUP
are passed to it, and the group is ended when the agent exits or the
editor goes away (stops reading, or closes its side). Up to 1 MiB of the
editor's lines are read ahead of an agent that is not reading them, so
that the tap sees the editor close its side; they go on to the agent
during the grace period, and what it has not read then is said on
stderr. The tap exits with the agent's status: 127 when AGENT is not
found, 126 when it cannot be run. Killed itself with SIGKILL, the tap
cannot end the group: Linux ends the agent's own process (a parent-death
signal), not what it started.
`)
}

type tapFlags struct {
	record, events, agent string
	answer                bool
	grace                 time.Duration
	argv                  []string
}

func parseTap(args []string) (tapFlags, error) {
	var f tapFlags
	fs := flag.NewFlagSet("tap", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.record, "record", "", "")
	fs.StringVar(&f.events, "events", "", "")
	fs.StringVar(&f.agent, "agent", "", "")
	fs.BoolVar(&f.answer, "answer", false, "")
	fs.DurationVar(&f.grace, "grace", 2*time.Second, "")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	f.argv = fs.Args()
	if len(f.argv) == 0 {
		return f, errors.New("no AGENT to run (acpdialect tap [flags] -- AGENT [ARGS...])")
	}
	if f.agent != "" && f.agent != "unknown" && f.agent != "none" && replay.Builtins().ByID(f.agent) == nil &&
		replay.Builtins().ByAgent(f.agent, "") == nil {
		return f, fmt.Errorf("unknown agent %q; known: %s", f.agent, replay.Known(replay.Builtins()))
	}
	return f, nil
}

func tapCmd(s stdio, args []string) int {
	f, err := parseTap(args)
	if errors.Is(err, flag.ErrHelp) {
		tapUsage(s.out)
		return exitOK
	}
	if err != nil {
		s.errorf("%v\n", err)
		tapUsage(s.err)
		return exitUsage
	}
	t, err := newTap(s, f)
	if err != nil {
		s.errorf("%v", err)
		return exitFail
	}
	defer t.close()
	return t.run()
}

// openOutputs creates the --record and --events files, once the agent has
// started: a run that could not start leaves an earlier record as it was.
func (t *tap) openOutputs() error {
	var err error
	if t.record, err = create(t.f.record); err != nil {
		return err
	}
	t.events, err = create(t.f.events)
	return err
}

// startStatus is the exit status of an agent that could not be started,
// as a shell gives it: 127 not found, 126 not runnable.
func startStatus(err error) int {
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return 127
	case errors.Is(err, fs.ErrPermission):
		return 126
	}
	return exitFail
}

// tap is one agent run for one editor.
type tap struct {
	s     stdio
	f     tapFlags
	cmd   *exec.Cmd
	toAg  *os.File // the agent's stdin
	fromA *os.File // the agent's stdout
	// cutOff says the tap stopped reading the agent's stdout after the
	// agent exited (a process it left outside its group still held it).
	cutOff atomic.Bool

	mu     sync.Mutex // orders the record and the events in wire order, and guards conn
	conn   *acpdialect.Conn
	record *os.File // unbuffered: each line is one write, kept if the tap dies
	events *os.File

	// The agent's stdin has two writers: fromEditor (the editor's lines)
	// and sendAnswers (the tap's answers, which fromAgent queues in
	// answers without waiting). agentMu is held across recording a line
	// and writing it: lines never interleave, and the record has them in
	// the order the agent gets them.
	agentMu    sync.Mutex
	answers    chan []byte   // at most maxAnswers
	queued     atomic.Int64  // the bytes in answers, at most maxAnswerBytes
	dropping   bool          // fromAgent's: the answers are dropped, and it was said
	editorDone chan struct{} // closed when the editor's side ends
	inClosed   atomic.Bool   // the tap closed the agent's stdin
	inBroken   atomic.Bool   // a write to it failed: the agent closed it
	ending     atomic.Bool   // the editor went away and the grace period is over
	ahead      *lineQueue    // the editor's lines, read ahead of the agent's stdin
}

// The answers the tap queues for an agent that does not read its stdin:
// beyond either bound it drops them (see queueAnswer).
const maxAnswers, maxAnswerBytes = 1024, 1 << 20

func newTap(s stdio, f tapFlags) (*tap, error) {
	t := &tap{s: s, f: f, answers: make(chan []byte, maxAnswers), editorDone: make(chan struct{}), ahead: newLineQueue(maxAhead)}
	reg := replay.Builtins()
	agent := f.agent
	if agent == "unknown" || agent == "none" {
		reg, agent = acpdialect.NewRegistry(), ""
	}
	// Without --answer the editor answers the agent's blocking requests:
	// the Conn waits for them (and sees them through Outbound).
	t.conn = reg.NewConn(acpdialect.Options{Agent: agent, ClientAnswers: !f.answer})
	// As replay reads the record: --events is its replay --json.
	t.conn.LimitLine(wiretap.MaxLine)
	return t, nil
}

// create opens an output file, or returns nil for "".
func create(path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	return os.Create(path)
}

func (t *tap) close() {
	for _, f := range []*os.File{t.record, t.events} {
		if f != nil {
			f.Close()
		}
	}
}

// run starts the agent, passes the bytes until it exits, and returns its
// status.
func (t *tap) run() int {
	// Registered before the first write: a SIGPIPE (the editor stopped
	// reading) must not kill the tap before it ends the agent's group.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	defer signal.Stop(sigs)
	if err := t.start(); err != nil {
		t.s.errorf("%v", err)
		return startStatus(err)
	}
	if err := t.openOutputs(); err != nil {
		t.s.errorf("%v", err)
		_ = proc.Signal(t.cmd.Process.Pid, syscall.SIGKILL)
		_ = t.cmd.Wait()
		return exitFail
	}
	exited := make(chan struct{})
	go t.forwardSignals(sigs, exited)
	go t.fromEditor(exited)
	go t.sendAnswers(exited)
	waited, read := make(chan error, 1), make(chan struct{})
	go func() {
		err := t.cmd.Wait()
		// The agent is gone: end what it left in its group, which also
		// closes its stdout for good.
		_ = proc.Signal(t.cmd.Process.Pid, syscall.SIGKILL)
		waited <- err
		// A process it started outside its group (setsid) may still
		// hold its stdout: after the grace period, stop reading it.
		select {
		case <-read:
		case <-time.After(t.f.grace):
			t.cutOff.Store(true)
			t.fromA.Close()
		}
	}()
	t.fromAgent()
	close(read)
	err := <-waited
	// A write to the agent's stdin that a process it left still holds
	// would block for good: closing it ends the write.
	t.closeAgentIn()
	close(exited)
	t.ahead.stop()
	t.finish()
	return exitStatus(err)
}

// start runs the agent in a process group of its own, on pipes the tap
// owns (so that reading its stdout to the end does not race Wait).
func (t *tap) start() error {
	t.cmd = exec.Command(t.f.argv[0], t.f.argv[1:]...)
	proc.Group(t.cmd)
	t.cmd.Stderr = t.s.err
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	t.cmd.Stdin, t.cmd.Stdout = inR, outW
	err = t.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return err
	}
	t.toAg, t.fromA = inW, outR
	return nil
}

// exitStatus is the agent's exit status; a signal's death is 128+signal,
// as a shell reports it.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		if err != nil {
			return exitFail
		}
		return exitOK
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

// forwardSignals passes SIGINT, SIGTERM and SIGHUP to the agent's group.
// SIGPIPE is only caught: the write that raised it fails, and the tap
// ends the group as for any editor that went away.
func (t *tap) forwardSignals(sigs <-chan os.Signal, exited <-chan struct{}) {
	for {
		select {
		case sig := <-sigs:
			if sig != syscall.SIGPIPE {
				_ = proc.Signal(t.cmd.Process.Pid, sig.(syscall.Signal))
			}
		case <-exited:
			return
		}
	}
}

// fromEditor passes the editor's lines to the agent. It reads them ahead
// of the agent's stdin, up to maxAhead bytes (see lineQueue), so that it
// sees the editor go away even while a write to an agent that does not
// read is held up; beyond that an agent that does not read holds the
// editor up, as without the tap. When the editor goes away, the lines
// read go on to the agent as it reads them, then sendAnswers closes the
// agent's stdin after the answers already queued; readEditor ends the
// agent's group if it has not exited after the grace period.
func (t *tap) fromEditor(exited <-chan struct{}) {
	go t.readEditor(exited)
	for {
		line, ok := t.ahead.next()
		if !ok {
			break
		}
		// An agent that closed its stdin runs on; its group ends when the
		// editor goes away.
		t.toAgent(line, t.observeEditor)
		t.ahead.done()
	}
	close(t.editorDone)
}

// errTapEnded stops the reading of the editor's lines once the agent has
// exited: they have nowhere to go.
var errTapEnded = errors.New("the tap ended")

// readEditor reads the editor's lines into the queue. At the editor's end
// the grace period starts at once, whatever waits for the agent's stdin.
func (t *tap) readEditor(exited <-chan struct{}) {
	err := eachLine(t.s.in, maxTapLine, func(line []byte) error {
		if !t.ahead.put(bytes.Clone(line)) {
			return errTapEnded
		}
		return nil
	})
	t.ahead.end()
	if errors.Is(err, errTapEnded) {
		return
	}
	if err != nil {
		t.s.errorf("editor: %v", err)
	}
	select {
	case <-exited:
	case <-time.After(t.f.grace):
		t.ending.Store(true)
		if n, size := t.ahead.pending(); n > 0 {
			t.s.errorf("the editor closed its side; after %v the agent has not read the editor's last %d lines (%d bytes): ending it", t.f.grace, n, size)
		} else {
			t.s.errorf("the editor closed its side; the agent has not exited after %v: ending it", t.f.grace)
		}
		_ = proc.Signal(t.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(t.f.grace):
			_ = proc.Signal(t.cmd.Process.Pid, syscall.SIGKILL)
		}
	}
}

// toAgent records one whole line and writes it to the agent's stdin. Once
// the stdin is closed (by the tap, or by the agent: said once, as the
// agent's doing, not the editor's) the line has nowhere to go: it is
// neither recorded nor written.
func (t *tap) toAgent(line []byte, record func([]byte)) {
	t.agentMu.Lock()
	defer t.agentMu.Unlock()
	if t.inClosed.Load() || t.inBroken.Load() {
		return
	}
	record(line)
	if _, err := t.toAg.Write(line); err != nil && !t.inClosed.Load() {
		t.inBroken.Store(true)
		if !t.ending.Load() { // else the tap ended the agent, and said so
			t.s.errorf("agent: its stdin is closed: %v", err)
		}
	}
}

// closeAgentIn closes the agent's stdin; a write blocked on it returns.
func (t *tap) closeAgentIn() {
	if t.inClosed.CompareAndSwap(false, true) {
		t.toAg.Close()
	}
}

// queueAnswer queues the tap's answer for sendAnswers, without waiting,
// and says whether it did: fromAgent goes on reading the agent's stdout
// whatever its stdin holds, so an agent that writes before it reads is not
// stalled by the tap. An agent that reads none of maxAnswers answers (or
// maxAnswerBytes) has the next ones dropped, neither recorded nor sent, as
// to a closed stdin: said on stderr once, and again only after it has read
// all those queued.
func (t *tap) queueAnswer(reply []byte) bool {
	if t.inClosed.Load() || t.inBroken.Load() {
		return false // nowhere to go
	}
	if t.queued.Add(int64(len(reply))) <= maxAnswerBytes {
		select {
		case t.answers <- reply:
			t.dropping = t.dropping && len(t.answers) > 1 // until the agent has read them all
			return true
		default:
		}
	}
	t.queued.Add(-int64(len(reply)))
	if !t.dropping {
		t.dropping = true
		t.s.errorf("agent: %d of the tap's answers wait for its stdin; the next ones are dropped until it reads them", len(t.answers))
	}
	return false
}

// sendAnswers writes the queued answers to the agent's stdin, each
// recorded where it is written. When the editor goes away it writes those
// already queued, then closes the agent's stdin (its end of input comes
// after them); it ends then, or when the agent has exited.
func (t *tap) sendAnswers(exited <-chan struct{}) {
	for {
		select {
		case reply := <-t.answers:
			t.sendAnswer(reply)
		case <-t.editorDone:
			for len(t.answers) > 0 {
				t.sendAnswer(<-t.answers)
			}
			t.closeAgentIn()
			return
		case <-exited:
			return
		}
	}
}

func (t *tap) sendAnswer(reply []byte) {
	t.queued.Add(-int64(len(reply)))
	t.toAgent(reply, t.recordAnswer)
}

// fromAgent passes the agent's lines to the editor, until the agent's
// stdout ends. With --answer, a vendor request the dialect answers is
// kept from the editor and its answer queued (queueAnswer): fromAgent never
// waits for the agent's stdin. If the editor stops reading
// (its side is gone), the agent's group is ended.
func (t *tap) fromAgent() {
	w := outWriter{t.s.out}
	err := eachLine(t.fromA, maxTapLine, func(line []byte) error {
		if t.observe(line, replay.AgentToClient) {
			return nil // the tap answered it
		}
		_, err := w.Write(line)
		return err
	})
	switch {
	case err != nil && t.cutOff.Load():
		t.s.errorf("the agent exited; stopped reading what the processes it left still write")
	case errors.Is(err, errLineTooLong):
		t.s.errorf("agent: %v: ending it", err)
		_ = proc.Signal(t.cmd.Process.Pid, syscall.SIGTERM)
		_, _ = io.Copy(io.Discard, t.fromA) // until the group is gone
	case err != nil:
		t.s.errorf("editor gone: %v", err)
		_ = proc.Signal(t.cmd.Process.Pid, syscall.SIGTERM)
		_, _ = io.Copy(io.Discard, t.fromA) // until the group is gone
	}
}

// recordAnswer records the tap's answer, as the editor's would have been.
func (t *tap) recordAnswer(reply []byte) {
	t.mu.Lock()
	t.recordLine(reply)
	t.mu.Unlock()
}

// observeEditor observes one of the editor's lines.
func (t *tap) observeEditor(line []byte) { t.observe(line, replay.ClientToAgent) }

// observe records a line, feeds it to the Conn and writes its events. It
// says whether the tap answers the line instead of the editor (--answer):
// then the line does not go on.
func (t *tap) observe(line []byte, d replay.Direction) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recordLine(line)
	frame := bytes.TrimSpace(line) // as replay reads the record
	if len(frame) == 0 || frame[0] != '{' {
		return false
	}
	if d == replay.AgentToClient {
		return t.inbound(frame)
	}
	res, err := t.conn.Outbound(frame)
	if err == nil {
		t.writeEvents(res.Events)
	}
	return false
}

// inbound feeds an agent frame, queues the tap's answer to it (--answer)
// and says whether there is one. The tap knows each frame's direction
// from the pipe it came on: no inference.
func (t *tap) inbound(frame []byte) bool {
	res, err := t.conn.Inbound(frame)
	if err != nil {
		return false
	}
	answered := t.f.answer && res.Reply != nil &&
		t.conn.Dialect().Accepts(gjson.GetBytes(frame, "method").Str) // the editor declines what the dialect does not allow
	if answered && !t.queueAnswer(res.Reply) {
		// The agent never gets the answer: the events say no reply.
		res.Events = withoutReplies(res.Events)
	}
	t.writeEvents(res.Events)
	return answered
}

// withoutReplies returns evs without their reply events, in a new slice:
// a Result's events are read-only.
func withoutReplies(evs []acpdialect.Event) []acpdialect.Event {
	var kept []acpdialect.Event
	for _, ev := range evs {
		if ev.Type != acpdialect.EventReply {
			kept = append(kept, ev)
		}
	}
	return kept
}

func (t *tap) recordLine(line []byte) {
	if t.record == nil {
		return
	}
	b := trimEOL(line)
	if len(b) == 0 {
		return
	}
	// One write per line: the OS has it even if the tap is killed next.
	_, _ = t.record.Write(append(append([]byte(nil), b...), '\n'))
}

func (t *tap) writeEvents(evs []acpdialect.Event) {
	if t.events == nil || len(evs) == 0 {
		return
	}
	var b []byte
	for _, ev := range evs {
		j, err := ev.MarshalJSON()
		if err == nil {
			b = append(append(b, j...), '\n')
		}
	}
	_, _ = jsonOut(t.events).Write(b)
}

// finish gives the defaults of what was left unanswered, as the replay
// does after a transcript's last line, so that --events matches it.
func (t *tap) finish() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range t.conn.Expire(time.Unix(1<<62, 0)) {
		t.writeEvents(r.Events)
	}
	t.conn.Close()
}

// maxTapLine bounds a line the tap holds: six times the longest line the
// acp-go-sdk reads (wiretap.MaxLine), room for a peer on an SDK without
// that limit. A longer line, or bytes that never end a line, would
// otherwise grow the tap's memory without end.
const maxTapLine = 64 << 20

// errLineTooLong ends eachLine at a line longer than its bound.
var errLineTooLong = errors.New("a line longer than the tap holds")

// eachLine calls fn with each line of r, its line ending included (the
// last may have none), until r ends (nil), a read or fn fails, or a line
// is longer than max bytes (errLineTooLong, before fn sees any of it).
func eachLine(r io.Reader, max int, fn func([]byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(long) > max {
					return fmt.Errorf("%w (%d MiB without a newline)", errLineTooLong, max>>20)
				}
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > max {
			return fmt.Errorf("%w (%d MiB without a newline)", errLineTooLong, max>>20)
		}
		if len(line) > 0 {
			if ferr := fn(line); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
