package acpdialect

import (
	"encoding/json"
	"testing"

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
			kind, ok := fastUpdateKind([]byte(tt.frame))
			if ok != tt.ok || string(kind) != tt.kind {
				t.Fatalf("fastUpdateKind = %q, %v; want %q, %v", kind, ok, tt.kind, tt.ok)
			}
		})
	}
}

// The fast path must agree with the gjson path on every valid frame it
// accepts, or it would skip a frame a dialect cares about.
func FuzzFastUpdateKind(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","sessionUpdate":"x"}},"params":{}}`))
	f.Fuzz(func(t *testing.T, frame []byte) {
		kind, ok := fastUpdateKind(frame)
		if !ok || !json.Valid(frame) {
			return
		}
		if m := gjson.GetBytes(frame, "method"); m.Str != "session/update" {
			t.Fatalf("fast path accepted method %q", m.Str)
		}
		if k := gjson.GetBytes(frame, "params.update.sessionUpdate"); k.Str != string(kind) {
			t.Fatalf("fast path kind %q, gjson %q", kind, k.Str)
		}
	})
}
