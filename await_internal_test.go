package acpdialect

import (
	"encoding/json"
	"testing"

	"github.com/tidwall/gjson"
)

// Ids the agent reuses once answered keep one place in the table, which
// stays within twice its bound however many requests come.
func TestAwaitTableBoundedWithReusedIDs(t *testing.T) {
	d := &Dialect{ID: "asker", Methods: []Method{{Name: "vendor/ask", Kind: Request,
		Handle: func(gjson.Result) Action {
			return Action{Await: true, Event: &Event{Type: EventQuestion, Object: &Question{}}}
		}}}}
	c := NewRegistry(d).NewConn(Options{Agent: "asker", ClientAnswers: true, MaxRequests: 4})
	for i := range 1000 {
		ids := []string{"0"} // one id reused, then several
		if i >= 500 {
			ids = []string{"0", `"a"`, "1"}
		}
		for _, id := range ids {
			r, err := c.Inbound([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"vendor/ask","params":{}}`))
			if err != nil || !r.Awaiting || r.Reply != nil {
				t.Fatalf("request %d: %v, awaiting %v, reply %q", i, err, r.Awaiting, r.Reply)
			}
			if _, err := c.Answer(json.RawMessage(id), json.RawMessage(`{}`)); err != nil {
				t.Fatalf("answer %d: %v", i, err)
			}
		}
	}
	if n := len(c.awaitOrder); n > 2*c.opts.MaxRequests {
		t.Errorf("%d ids in the order, bound %d", n, 2*c.opts.MaxRequests)
	}
	if n := len(c.awaiting); n > 2*c.opts.MaxRequests {
		t.Errorf("%d entries in the table, bound %d", n, 2*c.opts.MaxRequests)
	}
}
