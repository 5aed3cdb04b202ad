package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/acpdialect/acpdialect"
)

// WriteEvents writes every event as one JSON object per line: the
// normalized output contract (`acpdialect replay --json`). HTML characters
// are not escaped, so that values read as they were sent.
func (r *Replay) WriteEvents(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, rec := range r.Events {
		if err := WriteEvent(bw, rec.Event); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteEvent writes one event and a newline, as --json does: the bytes
// of the event's MarshalJSON, appended straight into a buffered writer's
// free space (appendEvent) where it can.
func WriteEvent(w io.Writer, ev acpdialect.Event) error {
	var b []byte
	if bw, ok := w.(interface{ AvailableBuffer() []byte }); ok {
		b = bw.AvailableBuffer()
	}
	b, ok := appendEvent(b, ev)
	if !ok {
		// The event's own MarshalJSON output is already compact and
		// unescaped: written as it is, it skips the second pass an
		// Encoder makes over a Marshaler's bytes.
		var err error
		if b, err = ev.MarshalJSON(); err != nil {
			return err
		}
	}
	_, err := w.Write(append(b, '\n'))
	return err
}

// The lines of the final state (`acpdialect replay --final`).
type (
	toolLine struct {
		Type       string              `json:"type"` // "tool_call"
		Agent      string              `json:"agent,omitempty"`
		SessionID  string              `json:"session_id"`
		ToolCallID string              `json:"tool_call_id"`
		Payload    *acpdialect.Payload `json:"payload"` // last: Final writes its own in place of null
	}
	sessionLine struct {
		Type      string            `json:"type"` // "session"
		Agent     string            `json:"agent,omitempty"`
		SessionID string            `json:"session_id"`
		Todos     []acpdialect.Todo `json:"todos,omitempty"` // the final list, if it had one
	}
	answer struct {
		Result json.RawMessage      `json:"result,omitempty"`
		Error  *acpdialect.RPCError `json:"error,omitempty"`
	}
	// wireLine is a frame a dialect put on the wire instead of the
	// transcript's line: written only for dialects that rewrite.
	wireLine struct {
		Type  string          `json:"type"` // "wire"
		Line  int             `json:"line"`
		To    string          `json:"to"`
		Frame json.RawMessage `json:"frame,omitempty"`
		Echo  bool            `json:"echo,omitempty"`
	}
	statsLine struct {
		Type     string           `json:"type"` // "stats"
		Agent    string           `json:"agent,omitempty"`
		Stats    acpdialect.Stats `json:"stats"`
		BadLines int              `json:"bad_lines"`
		// Flushed counts the lines written early, as they left the
		// stream's windows (see Final).
		Flushed int `json:"flushed_early,omitempty"`
	}
)

// WriteFinal writes the final state: one tool_call line per card (its final
// merged payload), one line per vendor request event (question, plan,
// image) with the answer it got, one wire line per frame a dialect put on
// the wire in place of a transcript line (a rewrite, a refusal's response,
// a dropped echo), one session line per session (with its final todo
// list), then one stats line with the connection's counters and the
// number of bad lines.
func (r *Replay) WriteFinal(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, c := range r.Cards {
		if err := writeCard(bw, c); err != nil {
			return err
		}
	}
	for _, q := range r.Requests {
		if err := writeRequest(bw, q); err != nil {
			return err
		}
	}
	for _, x := range r.Wire {
		if err := writeWire(bw, x); err != nil {
			return err
		}
	}
	for _, sid := range r.Sessions {
		if err := writeSession(bw, r.Agent, sid, r.Todos[sid]); err != nil {
			return err
		}
	}
	if err := writeJSON(bw, statsLine{"stats", r.Agent, r.Stats, r.BadLines, r.Flushed}); err != nil {
		return err
	}
	return bw.Flush()
}

func writeWire(w io.Writer, x Wire) error {
	return writeJSON(w, wireLine{"wire", x.Line, x.To, json.RawMessage(x.Frame), x.Echo})
}

func writeCard(w io.Writer, c Card) error {
	p := c.Payload
	return writeJSON(w, toolLine{"tool_call", c.Agent, c.SessionID, c.ToolCallID, &p})
}

func writeSession(w io.Writer, agent, sid string, todos []acpdialect.Todo) error {
	return writeJSON(w, sessionLine{"session", agent, sid, todos})
}

// writeJSON writes v and a newline.
func writeJSON(w io.Writer, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// marshal is json.Marshal with <, > and & as they are: the output is read
// by people and diffed, not embedded in HTML.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeRequest writes a vendor request's event with the answer it got
// after the event's own members. (An Event embedded in a struct would
// marshal as the Event alone: its MarshalJSON is promoted.)
func writeRequest(w io.Writer, q Request) error {
	ev, err := marshal(q.Event)
	if err != nil {
		return err
	}
	if q.Reply != nil {
		a, err := marshal(answer{Result: q.Reply.Result, Error: q.Reply.Error})
		if err != nil {
			return err
		}
		ev = append(append(append(ev[:len(ev)-1], `,"answer":`...), a...), '}')
	}
	_, err = w.Write(append(ev, '\n'))
	return err
}
