package acpdialect

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

func TestFastUpdateKind(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		kind  string
		ok    bool
	}{
		{"sdk layout", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`, "agent_message_chunk", true},
		{"tool call", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t"}}}`, "tool_call", true},
		{"params go on after update", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t"},"status":"failed"}}`, "tool_call", true},
		{"sorted keys", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"content":{},"sessionUpdate":"agent_message_chunk"}}}`, "", false},
		{"other method", `{"jsonrpc":"2.0","method":"session/updates","params":{"sessionId":"s1","update":{"sessionUpdate":"x"}}}`, "", false},
		{"escaped session id", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a\",\"update\":{\"sessionUpdate\":\"x","update":{"sessionUpdate":"tool_call"}}}`, "", false},
		{"escaped kind", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_c\u0061ll"}}}`, "", false},
		{"empty session id", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"","update":{"sessionUpdate":"x"}}}`, "", false},
		{"truncated", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent`, "", false},
		{"leading space", ` {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"x"}}}`, "", false},
		{"meta first", `{"jsonrpc":"2.0","method":"session/update","params":{"_meta":{},"sessionId":"s1","update":{"sessionUpdate":"x"}}}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := fastUpdateKind([]byte(tt.frame))
			if ok != tt.ok || string(f.kind) != tt.kind {
				t.Fatalf("fastUpdateKind = %q, %v; want %q, %v", f.kind, ok, tt.kind, tt.ok)
			}
			if ok && (string(f.sid) != "s1" || !bytes.HasPrefix(f.update, []byte(`{"sessionUpdate":"`))) {
				t.Fatalf("session %q, update %q", f.sid, f.update)
			}
		})
	}
}

// The fast path must agree with the gjson path on every valid frame it
// accepts, or it would skip a frame a dialect cares about.
func FuzzFastUpdateKind(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","sessionUpdate":"x"}},"params":{}}`))
	addCaptureLines(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		f, ok := fastUpdateKind(line)
		if !ok || !json.Valid(line) {
			return
		}
		kind := f.kind
		if s := gjson.GetBytes(line, "params.sessionId"); s.Str != string(f.sid) {
			t.Fatalf("fast path session %q, gjson %q", f.sid, s.Str)
		}
		want := frame.ReadToolUpdate(gjson.GetBytes(line, "params.update"))
		got := frame.ReadToolUpdate(gjson.Parse(scan.UnsafeString(f.update)))
		if got.Kind != want.Kind || got.ID.Raw != want.ID.Raw || got.Status.Raw != want.Status.Raw ||
			got.Title.Raw != want.Title.Raw || got.RawInput.Raw != want.RawInput.Raw || got.RawOutput.Raw != want.RawOutput.Raw {
			t.Fatalf("update read from the fast path differs:\n got %+v\nwant %+v", got, want)
		}
		if m := gjson.GetBytes(line, "method"); m.Str != "session/update" {
			t.Fatalf("fast path accepted method %q", m.Str)
		}
		if k := gjson.GetBytes(line, "params.update.sessionUpdate"); k.Str != string(kind) {
			t.Fatalf("fast path kind %q, gjson %q", kind, k.Str)
		}
	})
}

// The skip cache must let through every frame a dialect needs, even one
// that shares a remembered frame's session and most of its kind.
func TestSkipCache(t *testing.T) {
	c := NewRegistry().NewConn(Options{})
	chunk := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
	for range 3 {
		if r, err := c.Inbound([]byte(chunk)); err != nil || r.Events != nil {
			t.Fatalf("chunk: %v %v", r, err)
		}
	}
	if !c.skip.hit([]byte(chunk)) {
		t.Fatal("a repeated chunk is not remembered")
	}
	for _, f := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk_x","content":{}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s10","update":{"sessionUpdate":"agent_message_chunk","content":{}}}}`,
	} {
		if c.skip.hit([]byte(f)) {
			t.Errorf("skip cache hides %s", f)
		}
	}
	r, _ := c.Inbound([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read"}}}`))
	if len(r.Events) != 1 || r.Events[0].Type != EventToolCall {
		t.Fatalf("tool call after chunks: %+v", r.Events)
	}
	frame := []byte(chunk)
	if testing.AllocsPerRun(100, func() { _, _ = c.Inbound(frame) }) != 0 {
		t.Error("a remembered chunk allocates")
	}
}

func TestSortedUpdate(t *testing.T) {
	tests := []struct {
		name, frame, sid, update string
		ok                       bool
	}{
		{"sorted keys", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"content":{},"sessionUpdate":"agent_message_chunk"}}}`, "s1", `{"content":{},"sessionUpdate":"agent_message_chunk"}}}`, true},
		{"sdk layout too", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"x"}}}`, "s1", `{"sessionUpdate":"x"}}}`, true},
		{"empty session id", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"","update":{}}}`, "", `{}}}`, true},
		{"update not next", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","_meta":{},"update":{}}}`, "", "", false},
		{"escaped session id", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a\",\"update\":{\"x","update":{}}}`, "", "", false},
		{"other method", `{"jsonrpc":"2.0","method":"session/updated","params":{"sessionId":"s1","update":{}}}`, "", "", false},
		{"meta first", `{"jsonrpc":"2.0","method":"session/update","params":{"_meta":{},"sessionId":"s1","update":{}}}`, "", "", false},
		{"truncated", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1`, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sid, params, update, ok := sortedUpdate([]byte(tt.frame))
			if ok != tt.ok || string(sid) != tt.sid || string(update) != tt.update {
				t.Fatalf("sortedUpdate = %q, %q, %v; want %q, %q, %v", sid, update, ok, tt.sid, tt.update, tt.ok)
			}
			if ok && !bytes.HasPrefix(params, []byte(`{"sessionId":"`)) {
				t.Fatalf("params %q", params)
			}
		})
	}
}

// What sortedUpdate reads is what the walk it replaces reads (first
// occurrences): the session id and the update.
func FuzzSortedUpdate(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"_meta":{"claudeCode":{"toolName":"Agent"}},"sessionUpdate":"tool_call","toolCallId":"t"}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"a":1},"update":{}},"params":{}}`))
	addCaptureLines(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		sid, params, update, ok := sortedUpdate(line)
		if !ok || !json.Valid(line) {
			return
		}
		if s := gjson.GetBytes(line, "params.sessionId"); s.Str != string(sid) {
			t.Fatalf("session %q, gjson %q", sid, s.Str)
		}
		if u := gjson.GetBytes(line, "params.update"); !bytes.HasPrefix(update, []byte(u.Raw)) {
			t.Fatalf("update %q, gjson %q", update, u.Raw)
		}
		if p := gjson.GetBytes(line, "params"); !bytes.HasPrefix(params, []byte(p.Raw)) {
			t.Fatalf("params %q, gjson %q", params, p.Raw)
		}
	})
}

// plainString reads a string that has no escape, short or long, up to its
// quote; an escape anywhere before the quote, or no quote, refuses it.
func TestPlainString(t *testing.T) {
	long := "0123456789abcdef0123456789abcdef0123456789"
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{`s1",`, "s1", true},
		{`",`, "", true},
		{long + `"}`, long, true},
		{`a\"b",`, "", false},
		{long + `\n"`, "", false},
		{`\\"`, "", false},
		{`no quote`, "", false},
		{long, "", false},
		{``, "", false},
	} {
		got, ok := plainString([]byte(tt.in))
		if ok != tt.ok || string(got) != tt.want {
			t.Errorf("plainString(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// addCaptureLines seeds f with the Claude and Codex captures' session/update
// lines, whose layouts the fast paths meet most.
func addCaptureLines(f *testing.F) {
	for _, l := range testwire.CaptureSeeds(f, ".", "@this") {
		f.Add([]byte(l))
	}
}
