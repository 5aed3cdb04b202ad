package wiretap

import (
	"context"
	"encoding/json"
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	acp "github.com/coder/acp-go-sdk"
)

// Defaults of Options.
const (
	// DefaultMaxFrame is the acp-go-sdk's longest line (10 MiB): a longer
	// frame ends the SDK's connection anyway.
	DefaultMaxFrame = 10 << 20
	// DefaultMaxParked bounds the renamed frames awaiting HandleExtension.
	DefaultMaxParked = 256
)

// Options configures a Tap. The zero value is usable.
type Options struct {
	// OnEvent receives the normalized events of every frame the tap sees,
	// synchronously and in wire order, from inside Read and Write, with the
	// tap's lock held: it must not block and must not call the Tap's
	// methods other than Stats (hand the events off to a channel if
	// needed). The events of a renamed vendor frame are not sent here:
	// HandleExtension returns them. nil drops the events.
	OnEvent func(acpdialect.Event)
	// MaxFrame is the longest frame the tap inspects, in bytes without the
	// line ending. Larger frames pass through unmodified and uninspected.
	// Default DefaultMaxFrame.
	MaxFrame int
	// MaxParked bounds the results of renamed frames awaiting
	// HandleExtension. Beyond it the oldest is dropped and its events go to
	// OnEvent, so a client that never calls HandleExtension loses nothing.
	// Default DefaultMaxParked.
	MaxParked int
	// Outbound lists vendor methods the client sends to the agent
	// ("cursor/list_available_models"). The SDK only sends "_"-prefixed
	// extension methods, so the client calls
	// CallExtension(ctx, Alias(name), params) and the Writer removes the "_"
	// on the wire.
	Outbound []string
}

// Stats counts what a Tap did. Counters only grow, except Parked.
type Stats struct {
	Frames        uint64 `json:"frames"`         // whole agent frames fed to the Conn
	Renamed       uint64 `json:"renamed"`        // agent vendor frames renamed to their alias
	PassedThrough uint64 `json:"passed_through"` // agent frames delivered byte for byte (Frames - Renamed)
	Skipped       uint64 `json:"skipped"`        // allowed vendor frames left as they were: renaming was unsafe
	Oversize      uint64 `json:"oversize"`       // frames over MaxFrame passed uninspected, both directions
	Outbound      uint64 `json:"outbound"`       // whole client frames fed to the Conn
	Unaliased     uint64 `json:"unaliased"`      // client frames whose "_" alias was removed
	Parked        uint64 `json:"parked"`         // results now awaiting HandleExtension
	Claimed       uint64 `json:"claimed"`        // parked results returned by HandleExtension
	Evicted       uint64 `json:"evicted"`        // parked results dropped unclaimed; their events went to OnEvent
	Unmatched     uint64 `json:"unmatched"`      // HandleExtension calls that found nothing parked
}

// Tap connects one acpdialect.Conn to the byte streams of one agent: it
// feeds every frame in both directions to the Conn in wire order, renames
// the vendor methods the agent's dialect allows to their "_" alias so that
// the SDK routes them to the client's HandleExtensionMethod, and hands the
// Conn's answer back through HandleExtension.
//
// Use one Tap per connection, and call Reader and Writer once each.
type Tap struct {
	mu     sync.Mutex // guards conn and parked, and orders OnEvent
	conn   *acpdialect.Conn
	parked []parked // FIFO, oldest first

	onEvent   func(acpdialect.Event)
	maxFrame  int
	maxParked int
	seed      maphash.Seed
	aliases   map[string]bool // "_name" for each Options.Outbound name

	frames, renamed, skipped, oversize   atomic.Uint64
	outFrames, unaliased                 atomic.Uint64
	nparked, claimed, evicted, unmatched atomic.Uint64
}

// parked is the Conn's result for one renamed frame.
type parked struct {
	method string // the alias the SDK passes to HandleExtensionMethod
	sum    uint64 // maphash of the params bytes the SDK passes
	size   int
	reply  *acpdialect.Event // the reply event of a request; nil for a notification
	events []acpdialect.Event
}

// New returns a tap that feeds conn. The tap owns conn from now on: use
// ConnStats rather than calling conn's methods while the streams run.
func New(conn *acpdialect.Conn, opts Options) *Tap {
	if opts.MaxFrame <= 0 {
		opts.MaxFrame = DefaultMaxFrame
	}
	if opts.MaxParked <= 0 {
		opts.MaxParked = DefaultMaxParked
	}
	t := &Tap{
		conn:      conn,
		onEvent:   opts.OnEvent,
		maxFrame:  opts.MaxFrame,
		maxParked: opts.MaxParked,
		seed:      maphash.MakeSeed(),
	}
	for _, name := range opts.Outbound {
		if name != "" && !strings.HasPrefix(name, "_") {
			if t.aliases == nil {
				t.aliases = map[string]bool{}
			}
			t.aliases[Alias(name)] = true
		}
	}
	return t
}

// Alias returns the extension method name the SDK uses for a vendor
// method: "cursor/task" -> "_cursor/task".
func Alias(method string) string { return "_" + method }

// Stats returns the counters. It takes no lock and may be called from
// OnEvent.
func (t *Tap) Stats() Stats {
	st := Stats{
		Frames:    t.frames.Load(),
		Renamed:   t.renamed.Load(),
		Skipped:   t.skipped.Load(),
		Oversize:  t.oversize.Load(),
		Outbound:  t.outFrames.Load(),
		Unaliased: t.unaliased.Load(),
		Parked:    t.nparked.Load(),
		Claimed:   t.claimed.Load(),
		Evicted:   t.evicted.Load(),
		Unmatched: t.unmatched.Load(),
	}
	st.PassedThrough = st.Frames - min(st.Renamed, st.Frames)
	return st
}

// ConnStats returns the Conn's counters, read under the tap's lock. Do not
// call it from OnEvent.
func (t *Tap) ConnStats() acpdialect.Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.conn.Stats()
}

// HandleExtension is what a client calls from its own HandleExtensionMethod
// (keeping its other optional SDK interfaces visible to the SDK). For a
// vendor frame the tap renamed, it returns the dialect's reply and the
// frame's normalized events, with handled true: the client renders the
// events and returns result and err to the SDK as they are. err is an
// *acp.RequestError when the dialect answers with an error; result is a
// json.RawMessage the SDK sends verbatim (nil for a notification).
//
// handled is false for any other method: the client does its own thing,
// typically returning acp.NewMethodNotFound(method).
func (t *Tap) HandleExtension(ctx context.Context, method string, params json.RawMessage) (result any, events []acpdialect.Event, handled bool, err error) {
	_ = ctx // the answer is already computed: nothing blocks
	if !strings.HasPrefix(method, "_") {
		return nil, nil, false, nil
	}
	sum := maphash.Bytes(t.seed, params)
	p, ok := t.claim(method, sum, len(params))
	if !ok {
		t.unmatched.Add(1)
		return nil, nil, false, nil
	}
	t.claimed.Add(1)
	if p.reply != nil {
		if e := p.reply.Error; e != nil {
			err = &acp.RequestError{Code: e.Code, Message: e.Message}
		} else {
			result = json.RawMessage(p.reply.Result)
		}
	}
	return result, p.events, true, err
}

// claim removes and returns the oldest parked result for a frame.
func (t *Tap) claim(method string, sum uint64, size int) (parked, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, p := range t.parked {
		if p.sum == sum && p.size == size && p.method == method {
			t.parked = append(t.parked[:i], t.parked[i+1:]...)
			t.nparked.Add(^uint64(0))
			return p, true
		}
	}
	return parked{}, false
}

// park keeps the Conn's result for a renamed frame until HandleExtension
// claims it, within MaxParked. Called with t.mu held.
func (t *Tap) park(p parked) {
	t.parked = append(t.parked, p)
	t.nparked.Add(1)
	for len(t.parked) > t.maxParked {
		old := t.parked[0]
		t.parked[0] = parked{}
		t.parked = t.parked[1:]
		t.nparked.Add(^uint64(0))
		t.evicted.Add(1)
		t.emit(old.events)
	}
	if cap(t.parked) > 4*t.maxParked {
		// Re-slicing from the front walks the array forward: copy now and
		// then so that it does not grow without bound.
		t.parked = append([]parked(nil), t.parked...)
	}
}

// emit hands events to OnEvent. Called with t.mu held, so that events
// from Read and Write keep the wire order.
func (t *Tap) emit(events []acpdialect.Event) {
	if t.onEvent == nil {
		return
	}
	for _, ev := range events {
		t.onEvent(ev)
	}
}

// unsafeString views b as a string without copying; it must not outlive b's
// current contents.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
