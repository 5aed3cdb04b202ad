package wiretap

import (
	"io"
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

// pump reads the agent's stream on a goroutine, so that the reader can
// wait for the agent or a delivery at once. Each goroutine makes one Read
// of the stream, hands its result over on a buffered channel and ends: it
// never waits for the reader. So none outlives the stream however the
// client stops reading (the SDK stops without a word when its connection
// ends: a line too long, its notification queue full); at most one waits
// in the stream's Read, and ends with the agent's next write or its EOF.
type pump struct {
	src     io.Reader
	data    chan chunk // the result of the Read in flight
	reading bool       // a Read is in flight: its goroutine owns buf
	buf     []byte     // the Reads' buffer
	rest    []byte     // the last chunk's bytes not yet copied out
	err     error      // the last chunk's error, after rest
}

type chunk struct {
	b   []byte
	err error
}

// newPump returns a pump that reads src; its first read starts the first
// goroutine.
func newPump(src io.Reader) *pump {
	return &pump{src: src, data: make(chan chunk, 1), buf: make([]byte, readBuf)}
}

// readOnce reads src once into buf and hands the result over.
func readOnce(src io.Reader, buf []byte, data chan<- chunk) {
	n, err := src.Read(buf)
	if n < 0 || n > len(buf) {
		n, err = 0, errBadCount
	}
	data <- chunk{buf[:n], err} // buffered, and only one Read in flight: never blocks
}

// read copies the agent's next bytes into b, as one Read of the stream
// would; woken says a delivery came first and nothing was read (the Read
// in flight stays for the next call).
func (p *pump) read(b []byte, wake <-chan struct{}) (n int, woken bool, err error) {
	if len(p.rest) == 0 && p.err == nil {
		if !p.reading {
			p.reading = true
			go readOnce(p.src, p.buf, p.data)
		}
		select {
		case c := <-p.data:
			p.reading = false
			p.rest, p.err = c.b, c.err
		case <-wake:
			return 0, true, nil
		}
	}
	n = copy(b, p.rest)
	p.rest = p.rest[n:]
	if len(p.rest) > 0 {
		return n, false, nil
	}
	err, p.err = p.err, nil
	return n, false, err
}
