// Package replay feeds a recorded ACP transcript through a Conn, as a client
// would have seen it live, and reports what the Conn produced: the events,
// the replies, and the final state of every tool call and session.
//
// A transcript is JSONL: one JSON-RPC 2.0 message per line, in wire order,
// both directions mixed. Direction is inferred (see agentServes and
// requests.answer). It is the engine of `acpdialect replay` and of the
// golden suites.
//
// A Stream replays line by line and hands each event out as soon as its
// line is read; it keeps only the Conn's own state and a Final's bounded
// windows, so its memory does not grow with the transcript. Run and File
// are the batch form the tests and goldens use: they keep everything.
package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/acpdialect/acpdialect"
)

// Options configures a replay.
type Options struct {
	// Agent names the dialect (an ID such as "cursor", or an agent name)
	// instead of identifying it from the initialize response. "unknown"
	// and "none" mean standard ACP behaviour. Any other name the registry
	// does not resolve is an error.
	Agent string
	// Strict stops at the first bad line and returns it as the error.
	Strict bool
	// LimitLine is the Conn's LimitLine: the longest line the client
	// reads, so that a rewritten response longer than that is replayed as
	// the error the client got (wiretap.MaxLine for a client on the
	// acp-go-sdk). 0: no limit.
	LimitLine int
	// Frame, if set, sees each valid line before the Conn does, as
	// Sink.Frame (Run's sink is its own): for a caller that names the
	// line a dialect's hook panicked on.
	Frame func(Frame)
}

// Replay is what a transcript produced, kept whole (Run).
type Replay struct {
	// Agent is the dialect the connection ended up identified as, "" for
	// an unknown agent.
	Agent   string
	Events  []Record  // every event, in order
	Replies []Reply   // every reply frame the client owes, in order
	Bad     []BadLine // lines skipped
	// BadLines counts the bad lines, also where Bad is not kept.
	BadLines int
	// Cards is the final state of every tool call surfaced, in first-seen
	// order. A tool_call for an id already seen starts a new card.
	Cards []Card
	// Sessions are the session ids seen in frames or events, in first-seen
	// order.
	Sessions []string
	// Stats are the Conn's counters at the end of the transcript, before
	// the connection is closed: Live shows what was still held, and Swept
	// counts only the turn and session ends the transcript itself shows.
	Stats acpdialect.Stats
	// Requests are the blocking and fire-and-forget vendor requests that
	// produced an event (a question, a plan, an image), in order, each
	// with the answer it got.
	Requests []Request
	// Todos is each session's final todo list, for sessions that had one.
	Todos map[string][]acpdialect.Todo
	// Flushed counts final lines written early, as they left a Final's
	// window (0 for Run, which keeps everything).
	Flushed int
	// Wire is what the connection puts on the wire instead of a
	// transcript line (a dialect's Rewrite, a dropped echo), in order. A
	// transcript holds each side's own frames: the client's requests as
	// the client wrote them, the agent's responses as the agent wrote
	// them; these records show what each side received instead.
	Wire []Wire
}

// Wire is one frame a dialect put on the wire in place of the frame on
// Line, or beside it.
type Wire struct {
	Line int
	// To is who receives Frame: "agent" or "client".
	To string
	// Frame is the frame sent instead (one JSON object); nil when nothing
	// goes on: a refused request (never sent to the agent) or a dropped
	// echo.
	Frame []byte
	// Echo marks a dropped echo of the user's prompt.
	Echo bool
}

// Request is a vendor request's event and the reply it got: the client's
// recorded answer, the dialect's default, or (for one the transcript
// leaves unanswered) the default sent at its deadline, after the last
// line.
type Request struct {
	Line  int
	Event acpdialect.Event
	Reply *acpdialect.Event // nil for a notification
}

// Record is one event and the transcript line that caused it.
type Record struct {
	Line  int
	Event acpdialect.Event
}

// Reply is a response frame the client sends for the request on Line.
type Reply struct {
	Line  int
	Frame []byte // ends in '\n'
}

// Card is one tool call's final state.
type Card struct {
	Line       int // where it was first surfaced
	Agent      string
	SessionID  string
	ToolCallID string
	Payload    acpdialect.Payload
}

// BadLine is a transcript line that is not a JSON-RPC message.
type BadLine struct {
	Line   int
	Reason string
}

func (b *BadLine) Error() string { return fmt.Sprintf("line %d: %s", b.Line, b.Reason) }

// ErrUnknownAgent is wrapped by the error for an Options.Agent that names
// no registered dialect.
var ErrUnknownAgent = errors.New("unknown agent")

// Run replays the transcript in r through a new Conn from reg and keeps
// everything. Bad lines are recorded and skipped, or with Strict returned
// as a *BadLine error (the Replay then holds what came before). A read
// error is returned with what was replayed so far.
func Run(reg *acpdialect.Registry, r io.Reader, opts Options) (*Replay, error) {
	out := &Replay{}
	final := NewFinal(Limits{}, nil)
	s, err := NewStream(reg, opts, Sink{
		Event: func(rec Record) error { out.Events = append(out.Events, rec); return nil },
		Bad:   func(b BadLine) { out.Bad = append(out.Bad, b) },
		Reply: func(rep Reply) { out.Replies = append(out.Replies, rep) },
		Frame: opts.Frame,
	}, final)
	if err != nil {
		return nil, err
	}
	err = s.Feed(r)
	sum := s.Finish()
	final.fill(out, sum)
	return out, err
}

// File replays the transcript at path strictly (the first bad line is an
// error) and returns its --final and --json outputs: what golden files pin.
func File(reg *acpdialect.Registry, path string) (final, events []byte, err error) {
	return FileAs(reg, path, "")
}

// FileAs is File with Options.Agent: the transcript replays as agent ("" to
// identify it from the initialize response).
func FileAs(reg *acpdialect.Registry, path, agent string) (final, events []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r, err := Run(reg, f, Options{Agent: agent, Strict: true})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var fb, eb bytes.Buffer
	if err := r.WriteFinal(&fb); err != nil {
		return nil, nil, err
	}
	if err := r.WriteEvents(&eb); err != nil {
		return nil, nil, err
	}
	return fb.Bytes(), eb.Bytes(), nil
}
