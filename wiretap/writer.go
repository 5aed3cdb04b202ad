package wiretap

import (
	"bytes"
	"io"
	"sync"
)

// Writer returns what the SDK writes to instead of the agent's stdin. Each
// whole frame is fed to the Conn (before it is written, so that the Conn
// knows a request before the agent can answer it), loses the "_" of an
// Options.Outbound alias, and goes to agentStdin in exactly one Write. A
// frame longer than MaxFrame goes to the agent as it is, and the Conn gets
// only its head (method, id and params.sessionId), so that a prompt with a
// large image still starts a turn: see outboundHead. Writer is safe for
// concurrent use; concurrent callers must each write whole frames, as the
// SDK does. A partial frame is buffered until its '\n'; once agentStdin
// fails, every later Write returns that error.
func (t *Tap) Writer(agentStdin io.Writer) io.Writer {
	return &writer{t: t, dst: agentStdin}
}

type writer struct {
	t       *Tap
	dst     io.Writer
	mu      sync.Mutex
	buf     []byte // a partial frame
	scratch []byte // an un-aliased frame
	pass    bool   // writing an oversize frame through, uninspected, up to its '\n'
	err     error
}

// Write implements io.Writer. It returns len(p) unless agentStdin fails.
func (w *writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	done := 0
	for done < len(p) {
		rest := p[done:]
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			if err := w.partial(rest); err != nil {
				return done, err
			}
			return len(p), nil
		}
		if err := w.line(rest[:i+1]); err != nil {
			return done, err
		}
		done += i + 1
	}
	return done, nil
}

// partial keeps the start of a frame, or writes it through when the frame
// is already longer than MaxFrame.
func (w *writer) partial(b []byte) error {
	if !w.pass {
		w.buf = append(w.buf, b...)
		if len(w.buf) <= w.t.maxFrame {
			return nil
		}
		w.t.oversize.Add(1)
		w.pass = true
		w.t.outboundHead(w.buf) // before the agent has any of it
		b, w.buf = w.buf, w.buf[:0]
	}
	return w.write(b)
}

// line handles the end of a frame: line ends with '\n'.
func (w *writer) line(line []byte) error {
	if w.pass {
		w.pass = false
		return w.write(line)
	}
	if len(w.buf) > 0 {
		w.buf = append(w.buf, line...)
		line = w.buf
	}
	if len(line)-1 > w.t.maxFrame {
		w.t.oversize.Add(1)
		w.t.outboundHead(line)
	} else if len(bytes.TrimSpace(line)) > 0 {
		w.t.outFrames.Add(1)
		out := w.t.outbound(line, w.scratch)
		if len(out) != len(line) && cap(out) <= readBuf {
			w.scratch = out[:0]
		}
		line = out
	}
	var err error
	if len(line) > 0 { // nothing for a request the dialect answered itself
		err = w.write(line)
	}
	w.buf = w.buf[:0]
	if cap(w.buf) > readBuf {
		w.buf = nil
	}
	return err
}

// write writes b in one call, remembering a failure.
func (w *writer) write(b []byte) error {
	n, err := w.dst.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite // a broken io.Writer: a frame is lost
	}
	if err != nil {
		w.err = err
	}
	return err
}
