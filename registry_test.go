package acpdialect_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestRegistry(t *testing.T) {
	other := &acpdialect.Dialect{ID: "Cursor", Match: func(string, string) bool { return true }}
	vendor := &acpdialect.Dialect{ID: "vendor", Methods: []acpdialect.Method{
		{Name: "vendor/a", Kind: acpdialect.Notification}, {Name: cursor.MethodTask, Kind: acpdialect.Request},
	}}
	reg := acpdialect.NewRegistry(nil, cursor.Dialect(), claude(), other, vendor)

	ids := func(ds []*acpdialect.Dialect) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.ID)
		}
		return out
	}
	// nil is skipped and the second "Cursor" (same ID, any case) dropped.
	if d := cmp.Diff([]string{"cursor", "claude", "vendor"}, ids(reg.Dialects())); d != "" {
		t.Errorf("Dialects (-want +got):\n%s", d)
	}
	// The union, in registry order, each name once (vendor's cursor/task
	// is Cursor's).
	var want []string
	for _, m := range cursor.Dialect().Methods {
		want = append(want, m.Name)
	}
	want = append(want, "vendor/a")
	if d := cmp.Diff(want, reg.Allowlist()); d != "" {
		t.Errorf("Allowlist (-want +got):\n%s", d)
	}
	tests := []struct {
		call, arg, arg2, want string
	}{
		{"ByID", "cursor", "", "cursor"},
		{"ByID", "CLAUDE", "", "claude"},
		{"ByID", "cursor-agent", "", ""},
		{"ByAgent", "cursor-agent", "", "cursor"},
		{"ByAgent", "", "Cursor", "cursor"},
		{"ByAgent", "claude-code", "", "claude"},
		{"ByAgent", "", "", ""},
		{"ByAgent", "vendor", "", ""}, // no Match: never identified
		{"Options.Agent", "vendor", "", "vendor"},
		{"Options.Agent", "Cursor Agent", "", "cursor"},
		{"Options.Agent", "nope", "", ""},
	}
	for _, tc := range tests {
		var d *acpdialect.Dialect
		switch tc.call {
		case "ByID":
			d = reg.ByID(tc.arg)
		case "ByAgent":
			d = reg.ByAgent(tc.arg, tc.arg2)
		case "Options.Agent":
			d = reg.NewConn(acpdialect.Options{Agent: tc.arg}).Dialect()
		}
		got := ""
		if d != nil {
			got = d.ID
		}
		if got != tc.want {
			t.Errorf("%s(%q, %q) = %q; want %q", tc.call, tc.arg, tc.arg2, got, tc.want)
		}
	}
	// Modifying the returned slice does not change the registry.
	reg.Dialects()[0] = nil
	if reg.Dialects()[0] == nil {
		t.Error("Dialects returned the registry's own slice")
	}
	var none *acpdialect.Registry
	if none.ByID("cursor") != nil || none.ByAgent("cursor", "") != nil {
		t.Error("a nil registry found a dialect")
	}
}

func TestDialectAllows(t *testing.T) {
	d := &acpdialect.Dialect{Methods: []acpdialect.Method{
		{Name: "r", Kind: acpdialect.Request}, {Name: "n", Kind: acpdialect.Notification},
		{Name: "both", Kind: acpdialect.RequestOrNotification},
	}}
	for name, want := range map[string]bool{"r": true, "n": true, "both": true, "x": false, "": false} {
		if got := d.Allows(name); got != want {
			t.Errorf("Allows(%q) = %v", name, got)
		}
	}
	var none *acpdialect.Dialect
	if none.Allows("r") || none.Accepts("_r") {
		t.Error("a nil dialect allows a method")
	}
	// Accepts takes a method's "_" alias as the method, as the Conn does.
	d.Methods = append(d.Methods, acpdialect.Method{Name: "_own", Kind: acpdialect.Request})
	for name, want := range map[string]bool{"r": true, "_r": true, "_both": true, "__r": false, "_x": false, "_": false,
		"_own": true, "own": false, "x": false} {
		if got := d.Accepts(name); got != want {
			t.Errorf("Accepts(%q) = %v", name, got)
		}
	}
}

// A method allowed only as a request is declined as a request-less
// notification the other way round, and vice versa.
func TestMethodKinds(t *testing.T) {
	d := &acpdialect.Dialect{ID: "k", Match: func(n, _ string) bool { return n == "k" }, Methods: []acpdialect.Method{
		{Name: "only/request", Kind: acpdialect.Request}, {Name: "only/notification", Kind: acpdialect.Notification},
	}}
	h := newHarness(t, acpdialect.NewRegistry(d), acpdialect.Options{Agent: "k"})
	tests := []struct {
		frame, reply string
		ignored      uint64
	}{
		{`{"id":1,"method":"only/request"}`, `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", 0},
		{`{"method":"only/request"}`, ``, 1},
		{`{"id":2,"method":"only/notification"}`, `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}` + "\n", 1},
		{`{"method":"only/notification"}`, ``, 1},
	}
	for _, tc := range tests {
		r := h.in([]byte(tc.frame))
		if string(r.Reply) != tc.reply || h.c.Stats().IgnoredNotifications != tc.ignored {
			t.Errorf("%s: reply %q, stats %+v; want %q, %d ignored", tc.frame, r.Reply, h.c.Stats(), tc.reply, tc.ignored)
		}
	}
}

// A Method's Action decides the reply: a result, or an error.
func TestActionReply(t *testing.T) {
	d := &acpdialect.Dialect{ID: "k", Methods: []acpdialect.Method{
		{Name: "x/result", Kind: acpdialect.Request, Handle: func(gjson.Result) acpdialect.Action {
			return acpdialect.Action{Result: json.RawMessage(`{"outcome":{"outcome":"completed"}}`)}
		}},
		{Name: "x/error", Kind: acpdialect.Request, Handle: func(gjson.Result) acpdialect.Action {
			return acpdialect.Action{Error: &acpdialect.RPCError{Code: -32000, Message: "no \"way\"\n"}}
		}},
	}}
	h := newHarness(t, acpdialect.NewRegistry(d), acpdialect.Options{Agent: "k"})
	r := h.in([]byte(`{"id":1,"method":"x/result"}`))
	if want := `{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"completed"}}}` + "\n"; string(r.Reply) != want {
		t.Errorf("reply %q; want %q", r.Reply, want)
	}
	r = h.in([]byte(`{"id":2,"method":"x/error"}`))
	if want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no \"way\"\u000a"}}` + "\n"; string(r.Reply) != want {
		t.Errorf("reply %q; want %q", r.Reply, want)
	}
	wantEvents(t, r.Events, `{"type":"reply","agent":"k","method":"x/error","id":2,"error":{"code":-32000,"message":"no \"way\"\n"}}`)
}

func TestStr(t *testing.T) {
	for raw, want := range map[string]string{`"a"`: "a", `"a\"b"`: `a"b`, `5`: "", `true`: "", `null`: "", `{}`: "", ``: ""} {
		if got := frame.Str(gjson.Parse(raw)); got != want {
			t.Errorf("Str(%s) = %q; want %q", raw, got, want)
		}
	}
}

func TestInt64(t *testing.T) {
	tests := []struct {
		raw  string
		want int64
		ok   bool
	}{
		{`0`, 0, true}, {`-3`, -3, true}, {`4200`, 4200, true}, {`1e3`, 1000, true}, {`2.0`, 2, true},
		{`9007199254740992`, 9007199254740992, true},
		{`-9223372036854775808`, math.MinInt64, true},
		{`9007199254740993`, 9007199254740993, true}, // read exactly, not through a float
		{`9223372036854775807`, math.MaxInt64, true}, // fits, though a float rounds it to 2^63
		{`9223372036854775808`, 0, false},
		{`1e19`, 0, false}, {`-1e19`, 0, false}, {`2.5`, 0, false},
		{`"5"`, 0, false}, {`true`, 0, false}, {`null`, 0, false}, {``, 0, false},
	}
	for _, tc := range tests {
		got, ok := frame.Int64(gjson.Parse(tc.raw))
		if got != tc.want || ok != tc.ok {
			t.Errorf("Int64(%s) = %d, %v; want %d, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPayloadCloneAndEqual(t *testing.T) {
	p := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: "completed", SubagentTask: &acpdialect.SubagentTask{
		Description: "d", DurationMs: count(5), TotalTokens: count(0), ToolUseCount: count(2),
	}}
	q := p.Clone()
	if !p.Equal(q) || !cmp.Equal(p, q) {
		t.Fatalf("clone differs: %+v", q)
	}
	*q.SubagentTask.DurationMs = 6
	q.SubagentTask.Description = "e"
	if *p.SubagentTask.DurationMs != 5 || p.SubagentTask.Description != "d" {
		t.Errorf("Clone shares state with the original")
	}
	tests := []struct {
		name string
		a, b acpdialect.Payload
		want bool
	}{
		{"zero", acpdialect.Payload{}, acpdialect.Payload{}, true},
		{"status", acpdialect.Payload{Status: "a"}, acpdialect.Payload{Status: "b"}, false},
		{"nil vs empty object", acpdialect.Payload{SubagentTask: &acpdialect.SubagentTask{}}, acpdialect.Payload{}, false},
		{"same counts, other pointers", acpdialect.Payload{SubagentTask: &acpdialect.SubagentTask{DurationMs: count(1)}},
			acpdialect.Payload{SubagentTask: &acpdialect.SubagentTask{DurationMs: count(1)}}, true},
		{"zero count vs unknown", acpdialect.Payload{SubagentTask: &acpdialect.SubagentTask{TotalTokens: count(0)}},
			acpdialect.Payload{SubagentTask: &acpdialect.SubagentTask{}}, false},
		{"generic kind", acpdialect.Payload{Generic: &acpdialect.Generic{ACPKind: "read"}},
			acpdialect.Payload{Generic: &acpdialect.Generic{ACPKind: "edit"}}, false},
	}
	for _, tc := range tests {
		if got := tc.a.Equal(tc.b); got != tc.want {
			t.Errorf("%s: Equal = %v", tc.name, got)
		}
		if got := tc.b.Equal(tc.a); got != tc.want {
			t.Errorf("%s: Equal is not symmetric", tc.name)
		}
	}
}

func TestFill(t *testing.T) {
	s := "kept"
	frame.Fill(&s, "")
	if s != "kept" {
		t.Errorf("empty blanked the field: %q", s)
	}
	frame.Fill(&s, "new")
	if s != "new" {
		t.Errorf("non-empty did not replace: %q", s)
	}
}

func TestDialectReply(t *testing.T) {
	d := &acpdialect.Dialect{ID: "x", Methods: []acpdialect.Method{
		{Name: "x/ok", Kind: acpdialect.Request},
		{Name: "x/result", Kind: acpdialect.Request, Handle: func(p gjson.Result) acpdialect.Action {
			return acpdialect.Action{Result: json.RawMessage(`{"echo":` + p.Get("v").Raw + `}`)}
		}},
		{Name: "x/err", Kind: acpdialect.Request, Handle: func(gjson.Result) acpdialect.Action {
			return acpdialect.Action{Error: &acpdialect.RPCError{Code: -32000, Message: "no"}}
		}},
		{Name: "x/note", Kind: acpdialect.Notification},
	}}
	tests := []struct {
		method, params, result string
		err                    *acpdialect.RPCError
		ok                     bool
	}{
		{"x/ok", `{}`, `{}`, nil, true},
		{"x/result", `{"v":7}`, `{"echo":7}`, nil, true},
		{"x/err", `{}`, ``, &acpdialect.RPCError{Code: -32000, Message: "no"}, true},
		{"x/note", `{}`, ``, nil, false},
		{"y/other", `{}`, ``, nil, false},
	}
	for _, tt := range tests {
		res, err, ok := d.Reply(tt.method, []byte(tt.params))
		if string(res) != tt.result || ok != tt.ok || (err == nil) != (tt.err == nil) || (err != nil && *err != *tt.err) {
			t.Errorf("Reply(%s) = %s, %v, %v; want %s, %v, %v", tt.method, res, err, ok, tt.result, tt.err, tt.ok)
		}
	}
	var none *acpdialect.Dialect
	if _, _, ok := none.Reply("x/ok", nil); ok {
		t.Error("a nil dialect replied")
	}
}
