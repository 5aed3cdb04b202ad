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
		if err := writeJSON(bw, rec.Event); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// The lines of the final state (`acpdialect replay --final`).
type (
	toolLine struct {
		Type       string              `json:"type"` // "tool_call"
		Agent      string              `json:"agent,omitempty"`
		SessionID  string              `json:"session_id"`
		ToolCallID string              `json:"tool_call_id"`
		Payload    *acpdialect.Payload `json:"payload"`
	}
	sessionLine struct {
		Type      string            `json:"type"` // "session"
		Agent     string            `json:"agent,omitempty"`
		SessionID string            `json:"session_id"`
		Todos     []acpdialect.Todo `json:"todos,omitempty"` // the final list, if it had one
	}
	// requestLine is a vendor request's event with the answer it got.
	requestLine struct {
		acpdialect.Event
		Answer *answer `json:"answer,omitempty"`
	}
	answer struct {
		Result json.RawMessage      `json:"result,omitempty"`
		Error  *acpdialect.RPCError `json:"error,omitempty"`
	}
	statsLine struct {
		Type     string           `json:"type"` // "stats"
		Agent    string           `json:"agent,omitempty"`
		Stats    acpdialect.Stats `json:"stats"`
		BadLines int              `json:"bad_lines"`
	}
)

// WriteFinal writes the final state: one tool_call line per card (its final
// merged payload), one line per vendor request event (question, plan,
// image) with the answer it got, one session line per session (with its
// final todo list), then one stats line with the connection's counters and
// the number of bad lines.
func (r *Replay) WriteFinal(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, c := range r.Cards {
		p := c.Payload
		if err := writeJSON(bw, toolLine{"tool_call", c.Agent, c.SessionID, c.ToolCallID, &p}); err != nil {
			return err
		}
	}
	for _, q := range r.Requests {
		line := requestLine{Event: q.Event}
		if q.Reply != nil {
			line.Answer = &answer{Result: q.Reply.Result, Error: q.Reply.Error}
		}
		if err := writeJSON(bw, line); err != nil {
			return err
		}
	}
	for _, sid := range r.Sessions {
		if err := writeJSON(bw, sessionLine{"session", r.Agent, sid, r.Todos[sid]}); err != nil {
			return err
		}
	}
	if err := writeJSON(bw, statsLine{"stats", r.Agent, r.Stats, len(r.Bad)}); err != nil {
		return err
	}
	return bw.Flush()
}

// writeJSON writes v and a newline.
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
