package wiretap

import (
	"io"
	"runtime"
	"sync"
)

// maxDeliveries and maxDeliveryBytes bound the frames the tap holds for
// the client until its reader takes them: responses to requests the
// dialect answered itself, each of which echoes its request's id. A
// client that sends more refused requests than that without reading loses
// the oldest responses beyond them (Stats.Undelivered). A single response
// larger than maxDeliveryBytes (an id that large: at most Options.MaxFrame)
// is kept alone.
const (
	maxDeliveries    = 1024
	maxDeliveryBytes = 16 << 20
)

// deliveries are frames for the client that the agent never sent (the
// response to a request the dialect refused): the writer pushes them, the
// reader puts them on the client's stream between two agent frames.
type deliveries struct {
	mu      sync.Mutex
	frames  [][]byte
	bytes   int           // the frames' lengths
	dropped uint64        // frames pushed out by the bounds
	wake    chan struct{} // wakes a reader waiting for the agent
}

// push queues a frame and wakes the reader.
func (d *deliveries) push(b []byte) {
	d.mu.Lock()
	for len(d.frames) > 0 && (len(d.frames) >= maxDeliveries || d.bytes+len(b) > maxDeliveryBytes) {
		d.bytes -= len(d.frames[0])
		d.frames[0] = nil // the array must not keep it
		d.frames = d.frames[1:]
		d.dropped++
	}
	d.frames = append(d.frames, b)
	d.bytes += len(b)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// take returns the queued frames, oldest first, and empties the queue.
func (d *deliveries) take() [][]byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := d.frames
	d.frames, d.bytes = nil, 0
	return out
}

// undelivered returns how many frames the bounds pushed out.
func (d *deliveries) undelivered() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dropped
}

// injectDeliveries puts the queued frames for the client before the
// frame in progress, at a frame boundary. It reports whether it put any.
func (rd *reader) injectDeliveries() bool {
	if rd.pass {
		return false // inside an oversize frame: after it
	}
	frames := rd.t.deliver.take()
	for _, f := range frames {
		rd.splice(rd.ready, rd.ready, f)
		rd.ready += len(f)
		rd.scan += len(f)
	}
	return len(frames) > 0
}

// pump reads the agent's stream on a goroutine of its own, one chunk at a
// time, so that the reader can wait for the agent or a delivery at once.
// The goroutine ends with the stream (its EOF or error), or once the
// reader is garbage: the SDK stops reading without a word when its
// connection ends (a line too long, its notification queue full), and
// the goroutine must not wait for ever for a chunk to be taken.
type pump struct {
	data  chan chunk
	free  chan []byte   // the chunk's buffer, back to the goroutine
	done  chan struct{} // closed once the reader is gone
	cur   chunk         // the chunk being copied out
	rest  []byte        // its bytes not yet copied
	valid bool          // cur is held
}

type chunk struct {
	b   []byte
	err error
}

// startPump starts reading src for rd. The goroutine holds the pump, never
// rd, so that rd can become garbage while it waits.
func startPump(rd *reader, src io.Reader) *pump {
	p := &pump{data: make(chan chunk, 1), free: make(chan []byte, 1), done: make(chan struct{})}
	runtime.AddCleanup(rd, func(done chan struct{}) { close(done) }, p.done)
	go p.run(src)
	return p
}

// run reads src until it fails or the reader is gone, handing each read
// over and waiting for its buffer back before the next.
func (p *pump) run(src io.Reader) {
	buf := make([]byte, readBuf)
	for {
		n, err := src.Read(buf)
		if n < 0 || n > len(buf) {
			n, err = 0, errBadCount
		}
		select {
		case p.data <- chunk{buf[:n], err}:
		case <-p.done:
			return
		}
		if err != nil {
			return
		}
		select {
		case buf = <-p.free:
		case <-p.done:
			return
		}
	}
}

// read copies the agent's next bytes into b, as one Read of the stream
// would; woken says a delivery came first and nothing was read.
func (p *pump) read(b []byte, wake <-chan struct{}) (n int, woken bool, err error) {
	if !p.valid {
		select {
		case p.cur = <-p.data:
			p.rest, p.valid = p.cur.b, true
		case <-wake:
			return 0, true, nil
		}
	}
	n = copy(b, p.rest)
	p.rest = p.rest[n:]
	if len(p.rest) > 0 {
		return n, false, nil
	}
	p.valid = false
	if p.cur.err != nil {
		return n, false, p.cur.err
	}
	p.free <- p.cur.b[:cap(p.cur.b)]
	return n, false, nil
}
