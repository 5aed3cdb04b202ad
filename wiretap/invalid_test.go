package wiretap_test

import (
	"bytes"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
)

// TestTapInvalidJSON: a line that is not JSON passes byte for byte (the
// SDK drops it), is never renamed, gives OnEvent nothing (no reply event
// for a reply nobody sends) and registers no wait; the Conn counts it
// malformed.
func TestTapInvalidJSON(t *testing.T) {
	for _, tc := range testwire.InvalidFrames {
		t.Run(tc.Name, func(t *testing.T) {
			d := newDirect(t, acpdialect.Options{ClientAnswers: true})
			events, malformed := len(d.rec.all()), d.tap.ConnStats().Malformed
			if got := d.in([]byte(tc.Frame)); !bytes.Equal(got, []byte(tc.Frame+"\n")) {
				t.Errorf("the SDK reads %q; want the line as sent", got)
			}
			if evs := d.rec.all()[events:]; len(evs) != 0 {
				t.Errorf("OnEvent got %+v; want nothing", evs)
			}
			if st := d.tap.Stats(); st.Renamed != 0 {
				t.Errorf("stats %+v", st)
			}
			if got := d.tap.ConnStats().Malformed; got != malformed+1 {
				t.Errorf("malformed %d; want %d", got, malformed+1)
			}
		})
	}
}

// TestSDKInvalidJSON: through the real SDK, an invalid request gets no
// reply (the SDK drops the line and the tap does not answer it): the next
// frame the agent reads answers the valid request after it.
func TestSDKInvalidJSON(t *testing.T) {
	h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
	h.handshake("cursor-agent")
	end := h.prompt()
	for _, tc := range testwire.InvalidFrames {
		h.send([]byte(tc.Frame))
	}
	h.send(testwire.CursorTask(99, map[string]any{"toolCallId": "tool-x"}))
	if reply, want := string(h.next()), `{"jsonrpc":"2.0","id":99,"result":{}}`; reply != want {
		t.Fatalf("agent got %s\nwant %s", reply, want)
	}
	end()
	if rest := h.rest(); len(rest) != 0 {
		t.Fatalf("agent got more frames: %q", rest)
	}
	for _, ev := range h.rec.all() {
		if ev.Type == acpdialect.EventReply && string(ev.ID) != "99" {
			t.Errorf("reply event for an invalid line: %+v", ev)
		}
	}
	if st := h.tap.ConnStats(); st.Malformed != uint64(len(testwire.InvalidFrames)) {
		t.Errorf("malformed %d; want %d", st.Malformed, len(testwire.InvalidFrames))
	}
}
