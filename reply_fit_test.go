package acpdialect_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// A third-party dialect's hooks may return JSON that spans lines, or that
// is not JSON: the frames the Conn writes stay one valid JSON line each.
// A result that spans lines is compacted; one that is not one JSON value,
// or not valid UTF-8 (which json.Valid passes), becomes a -32603 error that
// says so; error data that is not JSON in valid UTF-8 is left out.
func TestDialectValuesFitTheWire(t *testing.T) {
	ret := func(a acpdialect.Action) func(gjson.Result) acpdialect.Action {
		return func(gjson.Result) acpdialect.Action { return a }
	}
	d := &acpdialect.Dialect{
		ID:    "loose",
		Match: func(name, _ string) bool { return name == "loose" },
		Methods: []acpdialect.Method{
			{Name: "x/lines", Kind: acpdialect.Request, Handle: ret(acpdialect.Action{Result: json.RawMessage("{\n  \"a\": [1,\r\n 2]\n}\n")})},
			{Name: "x/broken", Kind: acpdialect.Request, Handle: ret(acpdialect.Action{Result: json.RawMessage(`{"a":`)})},
			{Name: "x/two", Kind: acpdialect.Request, Handle: ret(acpdialect.Action{Result: json.RawMessage(`{} {}`)})},
			{Name: "x/data-lines", Kind: acpdialect.Request, Handle: ret(acpdialect.Action{Error: &acpdialect.RPCError{Code: -32000, Message: "m", Data: "{\n\"k\": 1}"}})},
			{Name: "x/utf8", Kind: acpdialect.Request, Handle: ret(acpdialect.Action{Result: json.RawMessage("{\"a\":\"\xff\xfe\"}")})},
			{Name: "x/data-utf8", Kind: acpdialect.Request, Handle: ret(acpdialect.Action{Error: &acpdialect.RPCError{Code: -32000, Message: "m", Data: "\"\xff\""}})},
			{Name: "x/data-broken", Kind: acpdialect.Request, Handle: ret(acpdialect.Action{Error: &acpdialect.RPCError{Code: -32000, Message: "m", Data: "nope"}})},
			{Name: "x/message-utf8", Kind: acpdialect.Request, Handle: ret(acpdialect.Action{Error: &acpdialect.RPCError{Code: -32000, Message: "m\xff\xe2\x82"}})},
		},
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(gjson.Result, any) acpdialect.Redirect {
				return acpdialect.Redirect{Method: "x/set", Params: json.RawMessage("{\n\"v\": 1\n}")}
			},
			Response: func(acpdialect.AgentResponse, any, any) acpdialect.Step {
				return acpdialect.Step{Result: json.RawMessage("{\n\"configOptions\": []\n}")}
			},
		}},
	}
	reg := acpdialect.NewRegistry(d)
	h := newHarness(t, reg, acpdialect.Options{Agent: "loose"})
	for _, tc := range []struct{ method, reply, event string }{
		{"x/lines", `{"jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}`, `"result":{"a":[1,2]}`},
		{"x/broken", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"acpdialect: the loose dialect's result for x/broken is not one JSON value"}}`, `"code":-32603`},
		{"x/two", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"acpdialect: the loose dialect's result for x/two is not one JSON value"}}`, `"code":-32603`},
		{"x/utf8", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"acpdialect: the loose dialect's result for x/utf8 is not valid UTF-8"}}`, `"code":-32603`},
		{"x/data-utf8", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m"}}`, `"message":"m"}`},
		{"x/data-lines", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m","data":{"k":1}}}`, `"data":{"k":1}`},
		{"x/data-broken", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m"}}`, `"message":"m"}`},
		// A message is text: its bad bytes become U+FFFD, as encoding/json
		// (and so wiretap's SDK) writes them.
		{"x/message-utf8", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m\ufffd\ufffd\ufffd"}}`, `"message":"m\ufffd\ufffd\ufffd"`},
	} {
		r := h.in([]byte(`{"jsonrpc":"2.0","id":1,"method":"` + tc.method + `"}`))
		if string(r.Reply) != tc.reply+"\n" {
			t.Errorf("%s: reply %q; want %q", tc.method, r.Reply, tc.reply)
		}
		if ev := strings.Join(eventLines(t, r.Events), "\n"); !strings.Contains(ev, tc.event) {
			t.Errorf("%s: events %s; want %s in them", tc.method, ev, tc.event)
		}
		// wiretap answers from the dialect alone: the same values.
		res, e, ok := d.Reply(tc.method, nil)
		var got []byte
		if e != nil {
			got, _ = json.Marshal(e)
		} else {
			got = res
		}
		if !ok || !json.Valid(got) || !strings.Contains(tc.reply, string(got)) {
			t.Errorf("%s: Dialect.Reply gave %s, %v; want a part of %s", tc.method, got, ok, tc.reply)
		}
	}

	r, err := h.c.Outbound([]byte(`{"jsonrpc":"2.0","id":9,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"c","value":"v"}}`))
	if err != nil || r.Wire == nil || string(r.Wire.Frame) != `{"jsonrpc":"2.0","id":9,"method":"x/set","params":{"v":1}}`+"\n" {
		t.Fatalf("redirected request: %v, %+v", err, r.Wire)
	}
	r = h.in([]byte(`{"jsonrpc":"2.0","id":9,"result":{}}`))
	if r.Wire == nil || string(r.Wire.Frame) != `{"jsonrpc":"2.0","id":9,"result":{"configOptions":[]}}`+"\n" {
		t.Errorf("rewritten response: %+v", r.Wire)
	}
}

// A Rewrite's values that are not valid UTF-8 (json.Valid passes them)
// never reach the wire either: params refuse the request with -32603, a
// result is ignored as if unset, and error data is left out.
func TestRewriteValuesFitTheWire(t *testing.T) {
	const bad = "\"\xff\""
	d := &acpdialect.Dialect{
		ID:    "loose",
		Match: func(name, _ string) bool { return name == "loose" },
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(p gjson.Result, _ any) acpdialect.Redirect {
				switch p.Get("value").Str {
				case "refuse":
					return acpdialect.Redirect{Error: &acpdialect.RPCError{Code: -32000, Message: "m", Data: bad}}
				case "params":
					return acpdialect.Redirect{Method: "x/set", Params: json.RawMessage(`{"v":` + bad + `}`)}
				}
				return acpdialect.Redirect{Method: "x/set", Note: p.Get("value").Str}
			},
			Response: func(_ acpdialect.AgentResponse, _, note any) acpdialect.Step {
				if note == "error" {
					return acpdialect.Step{Error: &acpdialect.RPCError{Code: -32000, Message: "m", Data: bad}}
				}
				return acpdialect.Step{Result: json.RawMessage(`{"configOptions":` + bad + `}`)}
			},
		}},
	}
	const refused = `{"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"acpdialect: the dialect built no request for session/set_config_option"}}` + "\n"
	for _, tc := range []struct{ value, deliver, response string }{
		{"refuse", `{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"m"}}` + "\n", ""},
		{"params", refused, ""},
		{"error", "", `{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"m"}}` + "\n"},
		{"result", "", `{"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"acpdialect: no response for session/set_config_option"}}` + "\n"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			h := newHarness(t, acpdialect.NewRegistry(d), acpdialect.Options{Agent: "loose"})
			r, err := h.c.Outbound([]byte(`{"jsonrpc":"2.0","id":9,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"c","value":"` + tc.value + `"}}`))
			if err != nil || r.Wire == nil {
				t.Fatalf("Outbound: %v, %+v", err, r.Wire)
			}
			if string(r.Wire.Deliver) != tc.deliver {
				t.Errorf("delivered %q; want %q", r.Wire.Deliver, tc.deliver)
			}
			if tc.response == "" {
				return
			}
			r = h.in([]byte(`{"jsonrpc":"2.0","id":9,"result":{}}`))
			if r.Wire == nil || string(r.Wire.Frame) != tc.response {
				t.Errorf("response %+v; want %q", r.Wire, tc.response)
			}
		})
	}
}

// A redirected request is refused as too large to keep by what the Conn
// keeps of its id, the string id's value, as every tracked request is: an
// id long only in its escapes is redirected, one long in its value too is
// refused.
func TestRewriteKeepsEscapedID(t *testing.T) {
	d := &acpdialect.Dialect{
		ID:    "loose",
		Match: func(name, _ string) bool { return name == "loose" },
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(gjson.Result, any) acpdialect.Redirect {
				return acpdialect.Redirect{Method: "x/set"}
			},
			Response: func(acpdialect.AgentResponse, any, any) acpdialect.Step { return acpdialect.Step{} },
		}},
	}
	const maxBytes = 1 << 20 // a value may take 64 KiB of it
	for _, tc := range []struct {
		name, id string
		refused  bool
	}{
		{"escaped", `"` + strings.Repeat(`\u0041`, 11_000) + `"`, false},
		{"long", `"` + strings.Repeat(`A`, 70_000) + `"`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, acpdialect.NewRegistry(d), acpdialect.Options{Agent: "loose", MaxBytes: maxBytes})
			r, err := h.c.Outbound([]byte(`{"jsonrpc":"2.0","id":` + tc.id + `,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"c","value":"v"}}`))
			if err != nil || r.Wire == nil {
				t.Fatalf("Outbound: %v, %+v", err, r.Wire)
			}
			if got := r.Wire.Deliver != nil; got != tc.refused {
				t.Errorf("refused %v (%.80q); want %v", got, r.Wire.Deliver, tc.refused)
			}
		})
	}
}
