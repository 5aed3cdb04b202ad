package wiretap_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// The end-to-end figure: the mixed transcript through the SDK's own read
// loop (scanner, JSON decode, typed session/update decode, the client's
// handler), with and without the tap in front of it.
//
// The SDK queues notifications for one goroutine and closes the connection
// when 1024 are pending, and an in-memory agent writes faster than the
// queue drains. A real agent is paced by its model; here the agent's
// stream is paced by credit instead: the source hands out a session/update
// line only while fewer than creditMax are undelivered, so the queue never
// overflows and the figure is the pipeline's steady throughput. A source
// out of credit waits until the client is down to creditLow, so that the
// SDK's goroutine wakes it once per batch rather than once per update.
const (
	creditMax = 512
	creditLow = 256
)

// credit counts the session/updates handed out and not yet delivered.
type credit struct {
	mu    sync.Mutex
	out   int
	wake  chan struct{} // non-nil while the source waits
	abort <-chan struct{}
}

// take gets a credit, waiting for the client to catch up only when wait
// is set; false if it got none.
func (c *credit) take(wait bool) bool {
	c.mu.Lock()
	if c.out < creditMax {
		c.out++
		c.mu.Unlock()
		return true
	}
	if !wait {
		c.mu.Unlock()
		return false
	}
	wake := make(chan struct{})
	c.wake = wake
	c.mu.Unlock()
	select {
	case <-wake:
	case <-c.abort:
		return false
	}
	c.mu.Lock()
	c.out++
	c.mu.Unlock()
	return true
}

// give returns the credit of a delivered update.
func (c *credit) give() {
	c.mu.Lock()
	if c.out > 0 {
		c.out--
	}
	if c.wake != nil && c.out <= creditLow {
		close(c.wake)
		c.wake = nil
	}
	c.mu.Unlock()
}

// sdkClient is a minimal client: it counts what the SDK delivers. The
// methods the transcript never calls are testClient's stubs.
type sdkClient struct {
	testClient
	tapped *wiretap.Tap // nil without a tap

	updates atomic.Int64
	exts    atomic.Int64
	want    int64         // session/updates in the whole run
	all     chan struct{} // closed at the want-th update
	credit  *credit
}

func (c *sdkClient) SessionUpdate(context.Context, acp.SessionNotification) error {
	c.credit.give()
	if c.updates.Add(1) == c.want {
		close(c.all)
	}
	return nil
}

func (c *sdkClient) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	c.exts.Add(1)
	if c.tapped == nil {
		return json.RawMessage("{}"), nil
	}
	res, handled, err := c.tapped.HandleExtension(ctx, method, params)
	if !handled {
		return nil, acp.NewMethodNotFound(method)
	}
	return res, err
}

var errAborted = errors.New("benchmark aborted")

// sdkScript is a transcript split into lines, each marked with whether
// the SDK delivers it to SessionUpdate; built once, outside the timer.
type sdkScript struct {
	data    []byte
	starts  []int  // offset of each line
	update  []bool // whether line i reaches SessionUpdate (takes a credit)
	updates int    // SessionUpdate calls per transcript
}

func newSDKScript(data []byte) *sdkScript {
	sc := &sdkScript{data: data}
	off := 0
	for l := range bytes.Lines(data) {
		sc.starts = append(sc.starts, off)
		d := deliverable(l)
		sc.update = append(sc.update, d)
		if d {
			sc.updates++
		}
		off += len(l)
	}
	return sc
}

// pacedSource is the agent's stdout: the script reps times over, a
// session/update line only against a credit, and EOF only once
// every update was delivered (so that Done before then means the
// connection failed).
type pacedSource struct {
	*sdkScript
	reps int // repetitions left after the current one
	line int // next line to start
	off  int // read offset in data

	credit *credit
	all    <-chan struct{}
	gate   <-chan struct{} // closed when the connection is set up
	abort  <-chan struct{}
}

func newPacedSource(sc *sdkScript, reps int, c *sdkClient, gate, abort <-chan struct{}) *pacedSource {
	return &pacedSource{sdkScript: sc, reps: reps, off: len(sc.data), line: len(sc.starts),
		credit: c.credit, all: c.all, gate: gate, abort: abort}
}

// deliverable reports whether the SDK hands line to SessionUpdate: a
// session/update notification whose params it decodes and validates. (One
// real capture's "user_message" update is not: the SDK drops it, tap or
// not.) An undeliverable line takes no credit but a queue slot, briefly;
// there is one per transcript, far below the queue's slack.
func deliverable(line []byte) bool {
	if gjson.GetBytes(line, "method").Str != "session/update" || gjson.GetBytes(line, "id").Exists() {
		return false
	}
	var n acp.SessionNotification
	return json.Unmarshal([]byte(gjson.GetBytes(line, "params").Raw), &n) == nil && n.Validate() == nil
}

func (s *pacedSource) Read(p []byte) (int, error) {
	select {
	case <-s.gate:
	case <-s.abort:
		return 0, errAborted
	}
	n := 0
	for n < len(p) {
		if s.off == len(s.data) {
			if s.reps == 0 {
				break
			}
			s.reps--
			s.off, s.line = 0, 0
		}
		if s.line < len(s.starts) && s.off == s.starts[s.line] {
			if s.update[s.line] && !s.credit.take(n == 0) {
				break // hand out what we have; the SDK catches up meanwhile
			}
			s.line++
		}
		end := len(s.data)
		if s.line < len(s.starts) {
			end = s.starts[s.line]
		}
		k := copy(p[n:], s.data[s.off:end])
		s.off += k
		n += k
	}
	if n > 0 {
		return n, nil
	}
	select {
	case <-s.all:
		return 0, io.EOF
	case <-s.abort:
		return 0, errAborted
	}
}

// runSDK runs the script reps times through the SDK's client connection, with a
// Cursor tap in front when tapped, and returns once every session/update
// was delivered and the connection saw EOF. agentIn gets what the SDK
// writes to the agent.
func runSDK(tb testing.TB, sc *sdkScript, reps int, tapped bool, agentIn io.Writer) *sdkClient {
	tb.Helper()
	abort, gate := make(chan struct{}), make(chan struct{})
	c := &sdkClient{all: make(chan struct{}), credit: &credit{abort: abort}}
	c.want = int64(sc.updates * reps)
	var in io.Writer = agentIn
	var out io.Reader = newPacedSource(sc, reps, c, gate, abort)
	if tapped {
		c.tapped, _ = newTap("cursor", wiretap.Options{OnEvent: func(acpdialect.Event) {}})
		in, out = c.tapped.Writer(in), c.tapped.Reader(out)
	}
	conn := acp.NewClientSideConnection(c, in, out)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	close(gate) // SetLogger races with the SDK's goroutines once they read

	limit := time.NewTimer(waitLimit + time.Duration(reps)*time.Second)
	defer limit.Stop()
	select {
	case <-c.all:
	case <-conn.Done():
		close(abort)
		tb.Fatalf("connection closed after %d of %d updates", c.updates.Load(), c.want)
	case <-limit.C:
		close(abort)
		tb.Fatalf("timed out after %d of %d updates", c.updates.Load(), c.want)
	}
	select {
	case <-conn.Done():
	case <-time.After(waitLimit):
		close(abort)
		tb.Fatal("connection did not close at EOF")
	}
	return c
}

func benchmarkSDK(b *testing.B, tapped bool) {
	sc := newSDKScript(mixedTranscript(b))
	b.SetBytes(int64(len(sc.data)))
	b.ReportAllocs()
	b.ResetTimer()
	runSDK(b, sc, b.N, tapped, io.Discard)
}

// BenchmarkSDKMixed is the client's read loop alone: the SDK on the
// agent's stream (one transcript per op).
func BenchmarkSDKMixed(b *testing.B) { benchmarkSDK(b, false) }

// BenchmarkSDKMixedTap is the same with a tap on a Cursor connection on
// both streams, the client answering cursor/task through HandleExtension.
func BenchmarkSDKMixedTap(b *testing.B) { benchmarkSDK(b, true) }

// lockedBuffer is the agent's stdin in the test: the SDK writes replies
// from several goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) lines() [][]byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out [][]byte
	for line := range bytes.Lines(l.buf.Bytes()) {
		out = append(out, bytes.TrimSuffix(line, []byte("\n")))
	}
	return out
}

// TestSDKMixed keeps the SDK benchmarks honest: both ways, every
// session/update of every repetition reaches the client, and each
// cursor/task gets one reply: -32601 from the SDK alone, the tap's empty
// result through HandleExtensionMethod with the tap.
func TestSDKMixed(t *testing.T) {
	sc := newSDKScript(mixedTranscript(t))
	const reps = 2
	tasks := bytes.Count(sc.data, []byte(`"method":"cursor/task"`))
	tests := []struct {
		tapped bool
		exts   int
		reply  string // the path in each reply and its raw value
		value  string
	}{
		{false, 0, "error.code", "-32601"},
		{true, tasks * reps, "result", "{}"},
	}
	for _, tt := range tests {
		agentIn := &lockedBuffer{}
		c := runSDK(t, sc, reps, tt.tapped, agentIn)
		if got, want := c.updates.Load(), int64(sc.updates*reps); got != want || want == 0 {
			t.Errorf("tapped %v: %d session/updates delivered, want %d", tt.tapped, got, want)
		}
		if got := c.exts.Load(); got != int64(tt.exts) {
			t.Errorf("tapped %v: %d extension calls, want %d", tt.tapped, got, tt.exts)
		}
		replies := agentIn.lines()
		if len(replies) != tasks*reps || tasks == 0 {
			t.Fatalf("tapped %v: agent got %d frames, want %d replies", tt.tapped, len(replies), tasks*reps)
		}
		for _, r := range replies {
			if gjson.GetBytes(r, tt.reply).Raw != tt.value {
				t.Errorf("tapped %v: agent got %s", tt.tapped, r)
			}
		}
	}
}
