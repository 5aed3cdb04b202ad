package wiretap

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	acp "github.com/coder/acp-go-sdk"
)

// MaxLine is the longest line, without its '\n', that the acp-go-sdk
// reads (10 MiB - 1): its bufio.Scanner's buffer is at most 10 MiB and
// must hold the '\n' too (a '\r' before it counts in the line). A longer
// line ends the SDK's connection. New gives it to Conn.LimitLine; a
// replay of what a tap saw uses it too.
const MaxLine = 10<<20 - 1

// DefaultMaxFrame is the default Options.MaxFrame, and the most the Reader
// inspects whatever MaxFrame says: the acp-go-sdk's longest line (10 MiB
// less the '\n') less the one byte a rename adds, so that a renamed frame
// is still one the SDK reads. A longer frame passes uninspected.
const DefaultMaxFrame = MaxLine - 1

// Options configures a Tap. The zero value is usable.
type Options struct {
	// OnEvent receives the normalized events of every frame the tap sees,
	// renamed vendor frames included (with the "reply" event of a
	// request), synchronously and in wire order, from inside Read and
	// Write, with the tap's lock held. It is the only way events come out:
	// one ordered stream, so that a client applying the merged states in
	// arrival order ends with the latest. It must not block and must not
	// call the Tap's methods other than Stats and Answer (hand the events off to a
	// channel if needed). nil drops the events.
	OnEvent func(acpdialect.Event)
	// MaxFrame is the longest frame the tap inspects, in bytes without the
	// line ending. Larger frames pass through unmodified and uninspected,
	// but for the head of a client request (method, id, sessionId), which
	// the Conn gets.
	// Default DefaultMaxFrame, which is also the Reader's most: a longer
	// agent frame, renamed, would be longer than the SDK reads.
	MaxFrame int
	// Outbound lists vendor methods the client sends to the agent
	// ("cursor/list_available_models"). The SDK only sends "_"-prefixed
	// extension methods, so the client calls
	// CallExtension(ctx, Alias(name), params) and the Writer removes the "_"
	// on the wire.
	Outbound []string
	// KeepEchoes delivers the agent's echo of the user's prompt
	// (acpdialect.Wire.Echo, Grok's user_message_chunk during a turn).
	// By default the tap drops it, so that a client that shows the prompt
	// itself does not show it twice.
	KeepEchoes bool
}

// Stats counts what a Tap did. Counters only grow.
type Stats struct {
	Frames        uint64 `json:"frames"`         // whole agent frames fed to the Conn
	Renamed       uint64 `json:"renamed"`        // agent frames renamed: vendor methods to their alias, quarantined updates, and notifications kept from HandleExtension
	PassedThrough uint64 `json:"passed_through"` // of Frames, those delivered byte for byte (Frames - Renamed - Rewritten - Echoes); Oversize and Ambiguous frames pass too
	Skipped       uint64 `json:"skipped"`        // allowed vendor frames left as they were: renaming was unsafe
	Oversize      uint64 `json:"oversize"`       // frames over MaxFrame passed uninspected, both directions
	Outbound      uint64 `json:"outbound"`       // whole client frames fed to the Conn
	Unaliased     uint64 `json:"unaliased"`      // client frames whose "_" alias was removed
	Quarantined   uint64 `json:"quarantined"`    // of Renamed, updates of a dialect's own kind, or of a draft kind every connection reads, moved to QuarantineMethod
	Rewritten     uint64 `json:"rewritten"`      // agent frames replaced by the dialect's rewrite (a response turned back)
	Echoes        uint64 `json:"echoes"`         // agent frames dropped as the echo of the user's prompt
	Redirected    uint64 `json:"redirected"`     // client frames sent to the agent in another form
	Refused       uint64 `json:"refused"`        // client requests answered by the tap, never sent to the agent
	// Ambiguous counts agent frames the SDK would read other than the
	// Conn (a repeated method, id, params, result or error, or one in
	// another case): passed as they were (one read as a dialect's "_"
	// alias loses the '_'), not fed to the Conn (not in Frames), so that
	// no event contradicts what the SDK does with them.
	Ambiguous uint64 `json:"ambiguous,omitempty"`
	// Undelivered counts the tap's responses to refused requests dropped
	// before the client read them: past 1,024 queued, or 16 MiB, the
	// oldest go (a client that writes without reading).
	Undelivered uint64 `json:"undelivered,omitempty"`
}

// Tap connects one acpdialect.Conn to the byte streams of one agent: it
// feeds every frame in both directions to the Conn in wire order, hands
// the events to Options.OnEvent, renames the vendor methods the agent's
// dialect allows to their "_" alias so that the SDK routes them to the
// client's HandleExtensionMethod, and answers them through
// HandleExtension.
//
// Use one Tap per connection, and call Reader and Writer once each.
type Tap struct {
	mu   sync.Mutex // guards conn, and orders OnEvent
	conn *acpdialect.Conn
	// dialect mirrors conn.Dialect() for HandleExtension, which must not
	// wait for the lock while Read works through a batch (and OnEvent).
	dialect atomic.Pointer[acpdialect.Dialect]

	onEvent  func(acpdialect.Event)
	maxFrame int             // the Writer's limit
	inMax    int             // the Reader's: maxFrame, at most DefaultMaxFrame
	aliases  map[string]bool // "_name" for each Options.Outbound name

	frames, renamed, skipped, oversize atomic.Uint64
	ambiguous                          atomic.Uint64
	outFrames, unaliased, quarantined  atomic.Uint64

	waits waits // blocking requests the client answers

	keepEchoes                             bool
	clientAnswers                          bool // the Conn's Options.ClientAnswers, for Answer's error
	rewritten, echoes, redirected, refused atomic.Uint64
	deliver                                deliveries // frames for the client the agent never sent
}

// New returns a tap that feeds conn. The tap owns conn from now on: use
// ConnStats rather than calling conn's methods while the streams run. It
// sets conn's LimitLine to the longest line the SDK reads.
func New(conn *acpdialect.Conn, opts Options) *Tap {
	if opts.MaxFrame <= 0 {
		opts.MaxFrame = DefaultMaxFrame
	}
	t := &Tap{
		conn:          conn,
		onEvent:       opts.OnEvent,
		maxFrame:      opts.MaxFrame,
		inMax:         min(opts.MaxFrame, DefaultMaxFrame),
		keepEchoes:    opts.KeepEchoes,
		clientAnswers: conn.ClientAnswers(),
		deliver:       deliveries{wake: make(chan struct{}, 1)},
	}
	// A response the dialect rewrites must be one the SDK reads: the Conn
	// refuses a longer one before it applies anything of it.
	conn.LimitLine(MaxLine)
	t.dialect.Store(conn.Dialect())
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

// QuarantineMethod is the method a session/update of a kind of the
// dialect's own (Cursor's subagent_spawned), or of a draft kind every
// connection reads (acpdialect.UpdateSubagent, acpdialect.UpdateState,
// identified agent or not), reaches the client on: the SDK would otherwise
// turn it into a message chunk or an empty update. It arrives at HandleExtensionMethod, in order
// with the other notifications, with the update's params as they were
// sent, and HandleExtension reports it handled.
const QuarantineMethod = "_session/update"

// Alias returns the extension method name the SDK uses for a vendor
// method: "cursor/task" -> "_cursor/task".
func Alias(method string) string { return "_" + method }

// Stats returns the counters. It takes no lock and may be called from
// OnEvent.
func (t *Tap) Stats() Stats {
	st := Stats{
		Frames:      t.frames.Load(),
		Renamed:     t.renamed.Load(),
		Skipped:     t.skipped.Load(),
		Oversize:    t.oversize.Load(),
		Outbound:    t.outFrames.Load(),
		Unaliased:   t.unaliased.Load(),
		Quarantined: t.quarantined.Load(),
		Rewritten:   t.rewritten.Load(),
		Echoes:      t.echoes.Load(),
		Redirected:  t.redirected.Load(),
		Refused:     t.refused.Load(),
		Ambiguous:   t.ambiguous.Load(),
		Undelivered: t.deliver.undelivered(),
	}
	changed := st.Renamed + st.Rewritten + st.Echoes
	st.PassedThrough = st.Frames - min(changed, st.Frames)
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
// (keeping its other optional SDK interfaces visible to the SDK). For the
// alias of a vendor method the connection's dialect allows, it returns the
// dialect's answer with handled true, and the client returns result and
// err to the SDK as they are: result is a json.RawMessage the SDK sends
// verbatim, or err an *acp.RequestError when the dialect answers with an
// error; both are nil for a notification-only method.
//
// The answer is computed again from method and params: methods are pure
// and the tap renames only frames whose params the SDK reads as the Conn
// did, so it is the reply the Conn gave (and sent to OnEvent as a "reply"
// event) when it read the frame. No state is kept per request, so nothing
// is lost however many requests are in flight. The frame's events went to
// OnEvent; none come back here.
//
// QuarantineMethod is always handled (nil, nil): the quarantined update's
// events went to OnEvent. handled is false for any other method, and
// before the agent is identified: the client does its own thing, typically
// returning acp.NewMethodNotFound(method).
func (t *Tap) HandleExtension(ctx context.Context, method string, params json.RawMessage) (result any, handled bool, err error) {
	name, ok := strings.CutPrefix(method, "_")
	if !ok {
		return nil, false, nil
	}
	d := t.dialect.Load()
	if d.Allows(method) {
		name = method // a dialect method whose own name starts with "_"
	}
	if method == QuarantineMethod {
		// Every connection quarantines the subagents draft's kinds, an
		// unknown agent's too: its events went to OnEvent, in order.
		return nil, true, nil
	}
	res, rpcErr, ok := d.Reply(name, params)
	switch {
	case rpcErr != nil:
		return nil, true, &acp.RequestError{Code: rpcErr.Code, Message: rpcErr.Message}
	case ok:
		if w := t.claim(name, params); w != nil {
			return t.await(ctx, w, res), true, nil
		}
		return res, true, nil
	case d.Allows(name):
		return nil, true, nil // a notification: the SDK sends nothing
	}
	return nil, false, nil
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
