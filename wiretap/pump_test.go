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
func pumps() int { return running("wiretap.readOnce") }

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

// TestTapGoroutinesEnd: for a dialect that rewrites requests (Grok) the
// Reader reads the agent's stream on a goroutine of its own; the tap starts
// no other. Whichever side ends first, every goroutine the tap and the SDK
// started ends once the agent's stream has ended, while the application
// still holds the SDK's connection (nothing waits for the garbage
// collector): the agent exits while the SDK reads, or the SDK stops
// reading first (a line longer than it reads) and the agent exits later.
func TestTapGoroutinesEnd(t *testing.T) {
	long := `{"jsonrpc":"2.0","method":"session/update","params":{"pad":"` + strings.Repeat("x", 11<<20) + `"}}` + "\n"
	tests := []struct {
		name     string
		sdkFirst bool // the SDK stops reading before the agent's stream ends
	}{
		{"agent ends", false},
		{"SDK stops reading, then the agent ends", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			tap := wiretap.New(registry().NewConn(acpdialect.Options{Agent: "grok-build"}), wiretap.Options{})
			c2aR, c2aW := io.Pipe()
			a2cR, a2cW := io.Pipe()
			go func() { _, _ = io.Copy(io.Discard, c2aR) }()
			csc := acp.NewClientSideConnection(&testClient{tap: tap}, tap.Writer(c2aW), tap.Reader(a2cR))
			csc.SetLogger(slog.New(slog.DiscardHandler))
			if tt.sdkFirst {
				go func() { _, _ = a2cW.Write([]byte(long)) }()
				select {
				case <-csc.Done():
				case <-time.After(waitLimit):
					t.Fatal("the SDK read a line longer than its limit")
				}
			} else {
				waitFor(t, "a goroutine reading the agent's stream", func() bool { return pumps() > 0 })
			}
			// The agent exits; the application closes its pipes.
			_ = a2cW.Close()
			_ = c2aR.Close()
			<-csc.Done()
			waitFor(t, "the goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
			runtime.KeepAlive(csc)
		})
	}
}

// waitFor polls cond until it holds, or fails the test after waitLimit
// with every goroutine's stack.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("waited %v for %s:\n%s", waitLimit, what, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
