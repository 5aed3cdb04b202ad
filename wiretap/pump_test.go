package wiretap_test

import (
	"bytes"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
)

// pumps counts the goroutines reading an agent's stream for a tap.
func pumps() int { return running("wiretap.(*pump).run") }

// running counts the goroutines with fn on their stack.
func running(fn string) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte(fn))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestPumpEndsWhenSDKStopsReading: for a dialect that rewrites requests
// (Grok) the Reader reads the agent's stream on a goroutine of its own. A
// line longer than the SDK reads ends the SDK's connection, and the SDK
// never reads again; once the agent is gone and the connection dropped,
// that goroutine ends too instead of waiting for ever for the SDK to take
// its chunk.
func TestPumpEndsWhenSDKStopsReading(t *testing.T) {
	before := pumps()
	func() {
		tap := wiretap.New(registry().NewConn(acpdialect.Options{Agent: "grok-build"}), wiretap.Options{})
		c2aR, c2aW := io.Pipe()
		a2cR, a2cW := io.Pipe()
		go func() { _, _ = io.Copy(io.Discard, c2aR) }()
		csc := acp.NewClientSideConnection(&testClient{tap: tap}, tap.Writer(c2aW), tap.Reader(a2cR))
		csc.SetLogger(slog.New(slog.DiscardHandler))
		long := `{"jsonrpc":"2.0","method":"session/update","params":{"pad":"` + strings.Repeat("x", 11<<20) + `"}}` + "\n"
		go func() { _, _ = a2cW.Write([]byte(long)) }()
		select {
		case <-csc.Done():
		case <-time.After(waitLimit):
			t.Fatal("the SDK read a line longer than its limit")
		}
		if got := pumps(); got != before+1 {
			t.Fatalf("%d pumps running; want %d", got, before+1)
		}
		// The agent exits.
		_ = a2cW.Close()
		_ = a2cR.Close()
		_ = c2aW.Close()
		_ = c2aR.Close()
	}()
	deadline := time.Now().Add(waitLimit)
	for pumps() > before {
		if time.Now().After(deadline) {
			t.Fatalf("the pump is still running once the SDK's connection is gone")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
