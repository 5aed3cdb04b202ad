package wiretap_test

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/grok"
	_ "github.com/acpdialect/acpdialect/internal/testwire" // registers -update for go test ./...
	"github.com/acpdialect/acpdialect/wiretap"
)

// registry is what the tests' clients support.
func registry() *acpdialect.Registry {
	return acpdialect.NewRegistry(cursor.Dialect(), grok.Dialect())
}

// recorder collects OnEvent's events; safe for concurrent use.
type recorder struct {
	mu     sync.Mutex
	events []acpdialect.Event
}

func (r *recorder) add(ev acpdialect.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recorder) all() []acpdialect.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]acpdialect.Event(nil), r.events...)
}

// newTap returns a tap whose connection is Cursor's (or agent's, when
// given), with its events recorded.
func newTap(agent string, opts wiretap.Options) (*wiretap.Tap, *recorder) {
	rec := &recorder{}
	if opts.OnEvent == nil {
		opts.OnEvent = rec.add
	}
	conn := registry().NewConn(acpdialect.Options{Agent: agent})
	return wiretap.New(conn, opts), rec
}

// readers are the ways the SDK's side may be fed: the agent's stream in
// odd chunks, the caller's buffer of odd sizes.
var readers = []struct {
	name string
	wrap func(io.Reader) io.Reader // around the agent's stream
	buf  int                       // the caller's buffer size
}{
	{"whole", nil, 64 << 10},
	{"one byte", iotest.OneByteReader, 64 << 10},
	{"half", iotest.HalfReader, 64 << 10},
	{"data err", iotest.DataErrReader, 64 << 10},
	{"small caller buffer", nil, 7},
	{"one byte both", iotest.OneByteReader, 1},
}

// drain reads r to the end with a buffer of size n, as a caller would.
func drain(r io.Reader, n int) ([]byte, error) {
	var out bytes.Buffer
	p := make([]byte, n)
	for {
		k, err := r.Read(p)
		out.Write(p[:k])
		if err != nil {
			return out.Bytes(), err
		}
	}
}

// oneWriteSink records each Write it gets as one element.
type oneWriteSink struct {
	mu     sync.Mutex
	writes []string
	fail   error
}

func (s *oneWriteSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return 0, s.fail
	}
	s.writes = append(s.writes, string(p))
	return len(p), nil
}

func (s *oneWriteSink) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.writes...)
}

func mustNoErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
