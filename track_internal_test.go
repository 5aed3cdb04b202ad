package acpdialect

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// A client that reuses an answered id while another request waits: the
// eviction order keeps one entry per tracked request (it grew by one per
// reuse, and was then compacted on every request), and the oldest request
// is the one forgotten, not the reused id's newer one.
func TestTrackReusedIDs(t *testing.T) {
	c := NewRegistry().NewConn(Options{MaxRequests: 4})
	out := func(id, method string) {
		t.Helper()
		f := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{"sessionId":"s1"}}`, id, method)
		if _, err := c.Outbound([]byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	in := func(id string) {
		t.Helper()
		if _, err := c.Inbound([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`)); err != nil {
			t.Fatal(err)
		}
	}
	out("100", "session/set_mode") // waits throughout
	for range 50_000 {
		out("1", "session/set_mode")
		in("1")
	}
	if n := len(c.reqOrder); n > 2*c.opts.MaxRequests {
		t.Fatalf("eviction order holds %d entries; bound %d", n, 2*c.opts.MaxRequests)
	}

	// x answered, then a waits, then x again: the next requests push out
	// a first, then x.
	c = NewRegistry().NewConn(Options{MaxRequests: 2})
	out("7", "session/set_mode")
	in("7")
	out("8", "session/set_mode")
	out("7", "session/set_mode")
	out("9", "session/set_mode")
	if got := slices.Sorted(maps.Keys(c.requests)); !slices.Equal(got, []string{"7", "9"}) {
		t.Errorf("tracked %q; want the newest two, 7 and 9", got)
	}
}
