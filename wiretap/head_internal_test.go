package wiretap

import (
	"encoding/json"
	"testing"
)

// TestFrameHead: the head of an oversize client frame keeps its first id,
// method and params.sessionId, only those that are there, and is always
// JSON, also for a notification (no id) and a frame cut inside params.
func TestFrameHead(t *testing.T) {
	tests := []struct {
		name, frame, head, method string
	}{
		{"request", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"prompt":[],"sessionId":"s1"}}`,
			`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1"}}`, "session/prompt"},
		{"notification", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1","pad":"xx"}}`,
			`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`, "session/cancel"},
		{"notification without a session", `{"jsonrpc":"2.0","method":"_x/ping","params":{"pad":"xx"}}`,
			`{"jsonrpc":"2.0","method":"_x/ping"}`, "_x/ping"},
		{"cut inside params", `{"jsonrpc":"2.0","id":"a","method":"session/prompt","params":{"sessionId":"s2","prompt":[{"type":"text","text":"abc`,
			`{"jsonrpc":"2.0","id":"a","method":"session/prompt","params":{"sessionId":"s2"}}`, "session/prompt"},
		{"first of each", `{"id":1,"id":2,"method":"a","method":"b","params":{"sessionId":"s1"}}`,
			`{"jsonrpc":"2.0","id":1,"method":"a","params":{"sessionId":"s1"}}`, "a"},
		{"a response", `{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s1"}}`, "", ""},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":7}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, method := frameHead(tt.frame)
			if string(head) != tt.head || method != tt.method {
				t.Fatalf("frameHead = %s, %q; want %s, %q", head, method, tt.head, tt.method)
			}
			if head != nil && !json.Valid(head) {
				t.Errorf("head %s is not JSON", head)
			}
		})
	}
}
