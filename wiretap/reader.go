package wiretap

import (
	"bytes"
	"errors"
	"io"
)

// readBuf is the reader's buffer size while frames fit in it; it grows for
// a longer frame (up to MaxFrame) and shrinks back once that is delivered.
const readBuf = 64 << 10

// maxEmptyReads matches bufio: that many (0, nil) reads in a row from the
// agent's stream is an error rather than a busy loop.
const maxEmptyReads = 100

var errBadCount = errors.New("wiretap: underlying reader returned an invalid count")

// Reader returns what the SDK reads instead of the agent's stdout: the same
// bytes, with allowed vendor methods renamed to their alias. It inspects
// only whole frames, keeps at most one frame (or one underlying read)
// buffered, and returns the underlying reader's EOF or error once the
// bytes before it are delivered. Read must not be called concurrently.
func (t *Tap) Reader(agentStdout io.Reader) io.Reader {
	return &reader{t: t, src: agentStdout}
}

// reader buffers the agent's stream:
//
//	buf[r:ready]     inspected, to deliver
//	buf[ready:scan]  the start of a frame, without '\n'
//	buf[scan:w]      read but not yet searched for '\n'
type reader struct {
	t                 *Tap
	src               io.Reader
	buf               []byte
	r, ready, scan, w int
	pass              bool  // delivering an oversize frame, uninspected, up to its '\n'
	pump              *pump // reads the agent's stream once the dialect rewrites frames
	err               error // the underlying reader's error, returned once the buffer is empty
	empty             int   // consecutive (0, nil) reads
}

// Read implements io.Reader. It may return several frames, or part of one
// when p is small.
func (rd *reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for rd.r == rd.ready {
		if rd.err != nil {
			if rd.w == rd.ready {
				return 0, rd.err
			}
			rd.finish()
			continue
		}
		rd.fill()
	}
	n := copy(p, rd.buf[rd.r:rd.ready])
	rd.r += n
	return n, nil
}

// fill reads once from the agent's stream and inspects the whole frames it
// completes. Called only when nothing is left to deliver.
func (rd *reader) fill() {
	rd.compact()
	if rd.w == len(rd.buf) {
		rd.grow()
	}
	var n int
	var err error
	if rd.pump == nil && rd.t.dialect.Load().RewritesRequests() {
		// No Read of the agent's stream is in flight here: from now on a
		// goroutine reads it, so that a response the tap gives a client
		// request is delivered without waiting for the agent's next frame.
		rd.pump = newPump(rd.src)
	}
	if rd.pump != nil {
		if rd.injectDeliveries() {
			return
		}
		var woken bool
		if n, woken, err = rd.pump.read(rd.buf[rd.w:], rd.t.deliver.wake); woken {
			return
		}
	} else {
		n, err = rd.src.Read(rd.buf[rd.w:])
	}
	if n < 0 || n > len(rd.buf)-rd.w {
		n, err = 0, errBadCount
	}
	rd.w += n
	switch {
	case err != nil:
		rd.err = err
	case n == 0:
		if rd.empty++; rd.empty >= maxEmptyReads {
			rd.err = io.ErrNoProgress
		}
		return
	}
	rd.empty = 0
	rd.scanFrames()
}

// compact moves the undelivered bytes to the front of the buffer, and drops
// a grown buffer once it is empty.
func (rd *reader) compact() {
	if rd.r == rd.w && len(rd.buf) > 4*readBuf {
		rd.buf = nil
	}
	if rd.buf == nil {
		rd.buf = make([]byte, min(readBuf, rd.t.inMax+1))
		rd.r, rd.ready, rd.scan, rd.w = 0, 0, 0, 0
		return
	}
	if rd.r == 0 {
		return
	}
	copy(rd.buf, rd.buf[rd.r:rd.w])
	rd.ready -= rd.r
	rd.scan -= rd.r
	rd.w -= rd.r
	rd.r = 0
}

// grow makes room for a frame longer than the buffer. It never needs more
// than MaxFrame+1 bytes: a longer frame is then known to be oversize.
func (rd *reader) grow() {
	n := min(2*len(rd.buf), rd.t.inMax+1)
	if n <= len(rd.buf) {
		n = len(rd.buf) + 1
	}
	nb := make([]byte, n)
	copy(nb, rd.buf[:rd.w])
	rd.buf = nb
}

// scanFrames inspects every whole frame in the new bytes, under one lock,
// and marks them deliverable.
func (rd *reader) scanFrames() {
	if rd.pass {
		i := bytes.IndexByte(rd.buf[rd.scan:rd.w], '\n')
		if i < 0 {
			rd.ready, rd.scan = rd.w, rd.w
			return
		}
		rd.ready = rd.scan + i + 1
		rd.scan = rd.ready
		rd.pass = false
	}
	if i := bytes.IndexByte(rd.buf[rd.scan:rd.w], '\n'); i >= 0 {
		rd.frames(rd.scan + i)
	}
	rd.scan = rd.w
	if rd.w-rd.ready > rd.t.inMax {
		// The frame in progress is already too long: deliver it as it
		// comes, without inspecting it.
		rd.t.oversize.Add(1)
		rd.pass = true
		rd.ready = rd.w
	}
}

// frames inspects the whole frames from buf[ready:], the first of which
// ends at nl, and advances ready past the last one.
func (rd *reader) frames(nl int) {
	t := rd.t
	n := uint64(0)
	t.mu.Lock()
	defer func() {
		t.mu.Unlock()
		t.frames.Add(n)
	}()
	for nl >= 0 {
		fed, next := rd.frame(rd.ready, nl)
		if fed {
			n++
		}
		rd.ready = next
		nl = bytes.IndexByte(rd.buf[rd.ready:rd.w], '\n')
		if nl >= 0 {
			nl += rd.ready
		}
	}
}

// frame inspects buf[start:end], a whole frame without its '\n', with the
// tap's lock held, and edits it in place if the tap says so: renamed (one
// byte longer), replaced or dropped. fed says whether the frame went to
// the Conn; next is the offset just past what is left of it.
func (rd *reader) frame(start, end int) (fed bool, next int) {
	f := rd.buf[start:end]
	if len(f) > rd.t.inMax {
		rd.t.oversize.Add(1)
		return false, end + 1
	}
	if len(f) == 0 || (f[0] != '{' && len(bytes.TrimSpace(f)) == 0) {
		return false, end + 1 // a blank line: the SDK skips it too
	}
	if readsApart(f) {
		rd.t.ambiguous.Add(1)
		if with := rd.t.disarm(f); with != nil {
			rd.splice(start, end, with)
			return false, start + len(with) + 1
		}
		return false, end + 1
	}
	e := rd.t.inbound(f)
	switch {
	case e.replace:
		rd.splice(start, min(end+1, rd.w), e.with)
		return true, start + len(e.with)
	case e.at >= 0:
		rd.insert(start + e.at)
		return true, end + 2
	case e.cut >= 0:
		n := underscoreLen(f[e.cut:])
		rd.splice(start+e.cut, start+e.cut+n, nil)
		return true, end + 1 - n
	}
	return true, end + 1
}

// splice replaces buf[from:to] with b, moving the rest of the buffer.
func (rd *reader) splice(from, to int, b []byte) {
	n := rd.w + len(b) - (to - from)
	if n > len(rd.buf) {
		nb := make([]byte, n+readBuf)
		copy(nb, rd.buf[:rd.w])
		rd.buf = nb
	}
	copy(rd.buf[from+len(b):], rd.buf[to:rd.w])
	copy(rd.buf[from:], b)
	rd.w = n
}

// insert puts a '_' at buf[pos], shifting the rest of the buffer by one.
func (rd *reader) insert(pos int) {
	if rd.w == len(rd.buf) {
		rd.buf = append(rd.buf, 0)
	}
	copy(rd.buf[pos+1:rd.w+1], rd.buf[pos:rd.w])
	rd.buf[pos] = '_'
	rd.w++
}

// finish delivers what is left once the agent's stream has ended: at EOF
// a final line without '\n' is a frame, as bufio.Scanner sees it; after
// any other error the SDK discards it, so it passes uninspected.
func (rd *reader) finish() {
	if !rd.pass && rd.err == io.EOF && rd.w-rd.ready <= rd.t.inMax {
		rd.t.mu.Lock()
		func() {
			defer rd.t.mu.Unlock()
			if fed, _ := rd.frame(rd.ready, rd.w); fed {
				rd.t.frames.Add(1)
			}
		}()
	}
	rd.pass = false
	rd.ready, rd.scan = rd.w, rd.w
}
