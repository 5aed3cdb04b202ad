package acpdialect_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// sizer rewrites session/set_config_option to x/set and answers with a
// result of the length the client set ("value": its length), which also
// becomes the session's state, with a config event; its session/new
// results gain a member of the length the result's "grow" says.
func sizer() *acpdialect.Dialect {
	config := func(state any) acpdialect.Step {
		return acpdialect.Step{State: state, Events: []acpdialect.Event{{Type: acpdialect.EventConfig, Object: &acpdialect.Config{}}}}
	}
	return &acpdialect.Dialect{
		ID:    "sizer",
		Match: func(name, _ string) bool { return name == "sizer" },
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(p gjson.Result, _ any) acpdialect.Redirect {
				return acpdialect.Redirect{Method: "x/set", Note: int(p.Get("value").Int())}
			},
			Response: func(_ acpdialect.AgentResponse, _, note any) acpdialect.Step {
				st := config(note)
				st.Result = json.RawMessage(`"` + strings.Repeat("r", note.(int)) + `"`)
				return st
			},
		}},
		Session: &acpdialect.SessionHooks{Result: func(_ string, result gjson.Result, _ any) acpdialect.Step {
			st := config("new")
			st.Result = json.RawMessage(`{"sessionId":"s1","pad":"` + strings.Repeat("p", int(result.Get("grow").Int())) + `"}`)
			return st
		}},
	}
}

// TestLimitLine: a rewritten response longer than the client reads is not
// made, and nothing of its step is applied: a Rewrite's response becomes
// -32603, a session result's rewrite is dropped for the agent's frame;
// neither gives events or keeps its state. One that fits, to the byte, is
// made as usual.
func TestLimitLine(t *testing.T) {
	const limit = 200
	// {"jsonrpc":"2.0","id":9,"result":"…"} is 36 bytes and the result.
	const fits = limit - 36
	tests := []struct {
		name     string
		value    int    // of the set_config_option, or grow of the session/new
		session  bool   // session/new rather than set_config_option
		wire     string // what the client gets: "result", "error" or "" (the agent's frame)
		events   int
		newState any
	}{
		{"rewrite fits", fits, false, "result", 1, fits},
		{"rewrite one byte over", fits + 1, false, "error", 0, "new"},
		{"session result fits", 10, true, "result", 1, "new"},
		{"session result over", limit, true, "", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen []any // the states the next request's hook gets
			d := sizer()
			req := d.Rewrites[0].Request
			d.Rewrites[0].Request = func(p gjson.Result, state any) acpdialect.Redirect {
				seen = append(seen, state)
				return req(p, state)
			}
			h := newHarness(t, acpdialect.NewRegistry(d), acpdialect.Options{})
			h.c.LimitLine(limit)
			h.initialize("sizer")
			var res acpdialect.Result
			if tt.session {
				h.out([]byte(`{"jsonrpc":"2.0","id":9,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`))
				res = h.in(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":9,"result":{"sessionId":"s1","grow":%d}}`, tt.value))
			} else {
				req, resp := testwire.SessionNew(2, "s1")
				h.out(req)
				h.in(resp) // the session's first state: "new"
				set := `{"jsonrpc":"2.0","id":9,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"c","value":%d}}`
				if _, err := h.c.Outbound(fmt.Appendf(nil, set, tt.value)); err != nil {
					t.Fatal(err)
				}
				res = h.in([]byte(`{"jsonrpc":"2.0","id":9,"result":{}}`))
			}
			var got string
			switch {
			case res.Wire == nil:
			case len(res.Wire.Frame)-1 > limit:
				t.Fatalf("a frame of %d bytes", len(res.Wire.Frame)-1)
			case gjson.GetBytes(res.Wire.Frame, "error.code").Int() == -32603:
				got = "error"
			case gjson.GetBytes(res.Wire.Frame, "result").Exists():
				got = "result"
			}
			if got != tt.wire || countType(res.Events, acpdialect.EventConfig) != tt.events {
				t.Errorf("wire %q (%s), %d config events; want %q, %d", got, res.Wire.Frame, countType(res.Events, acpdialect.EventConfig), tt.wire, tt.events)
			}
			if _, err := h.c.Outbound([]byte(`{"jsonrpc":"2.0","id":10,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"c","value":1}}`)); err != nil {
				t.Fatal(err)
			}
			if st := seen[len(seen)-1]; st != tt.newState {
				t.Errorf("the session's state is %v; want %v", st, tt.newState)
			}
		})
	}
}

func countType(evs []acpdialect.Event, typ string) int {
	n := 0
	for _, ev := range evs {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

// TestLimitLineRefusal: a dialect's refusal of a client request is
// delivered as it is when it fits, to the byte; one longer than the client
// reads (a large error data) becomes a short -32603 under the same id.
func TestLimitLineRefusal(t *testing.T) {
	const limit = 200
	const id = 9
	// {"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"no","data":"…"}}
	fixed := len(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32000,"message":"no","data":""}}`, id))
	tests := []struct {
		name string
		n    int // the refusal's length without '\n'
		code int64
	}{
		{"fits", limit, -32000},
		{"one byte over", limit + 1, -32603},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := acpdialect.RawJSON(`"` + strings.Repeat("d", tt.n-fixed) + `"`)
			d := &acpdialect.Dialect{
				ID:    "refuser",
				Match: func(name, _ string) bool { return name == "refuser" },
				Rewrites: []acpdialect.Rewrite{{
					Method: "session/set_config_option",
					Request: func(gjson.Result, any) acpdialect.Redirect {
						return acpdialect.Redirect{Error: &acpdialect.RPCError{Code: -32000, Message: "no", Data: data}}
					},
				}},
			}
			h := newHarness(t, acpdialect.NewRegistry(d), acpdialect.Options{})
			h.c.LimitLine(limit)
			h.initialize("refuser")
			res, err := h.c.Outbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"c","value":"v"}}`, id))
			if err != nil || res.Wire == nil || res.Wire.Deliver == nil {
				t.Fatalf("Outbound: %+v, %v; want a refusal to deliver", res.Wire, err)
			}
			f := res.Wire.Deliver
			if len(f)-1 > limit || gjson.GetBytes(f, "id").Int() != id || gjson.GetBytes(f, "error.code").Int() != tt.code {
				t.Errorf("delivered %d bytes: %.120s; want at most %d, id %d, code %d", len(f)-1, f, limit, id, tt.code)
			}
		})
	}
}
