package acpdialect

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFrameLen: the lengths that size a rewrite's frame before it is
// written are those of the frames written, so that a new frame is one
// allocation, exactly its size.
func FuzzFrameLen(f *testing.F) {
	f.Add(`7`, "session/set_model", `{"sessionId":"s1"}`, -32602, "unknown model \"x\"\n", `{"code":"A"}`)
	f.Add(`"a\"b"`, "", "", 0, "", `{`)
	f.Add(`-1`, "m\x01\\", "[]", -9223372036854775807, "\\\"\t", ``)
	f.Add(`1`, "m\xff", "{}", 1, "a\xe2\x82\xff\u2603\xed\xa0\x80", ``)
	f.Fuzz(func(t *testing.T, id, method, payload string, code int, message, data string) {
		e := RPCError{Code: code, Message: message, Data: RawJSON(data)}
		for _, tt := range []struct {
			name string
			n    int
			b    []byte
		}{
			{"reply", replyLen(id, []byte(payload)), appendReply(nil, id, []byte(payload))},
			{"error", errorLen(id, e), appendError(nil, id, e)},
			{"request", requestLen(id, method, []byte(payload)), appendRequest(nil, id, method, []byte(payload))},
		} {
			if tt.n != len(tt.b) {
				t.Fatalf("%s: length %d, written %d: %q", tt.name, tt.n, len(tt.b), tt.b)
			}
		}
		// A message or method is written as valid UTF-8 that reads as
		// encoding/json's string: its bad bytes are U+FFFD each.
		for _, s := range []string{method, message} {
			var got, want string
			b := appendJSONString(nil, s)
			m, _ := json.Marshal(s)
			if !utf8.Valid(b) || json.Unmarshal(b, &got) != nil || json.Unmarshal(m, &want) != nil || got != want {
				t.Fatalf("%q written %q; want it read as %q", s, b, m)
			}
		}
		for _, n := range []int{len(payload), len(payload) << 8} {
			w, b := newWire(n)
			if w == nil || len(b) != 0 || cap(b) != n {
				t.Fatalf("newWire(%d): room %d", n, cap(b))
			}
		}
	})
}

// A frame has room for exactly its bytes, whatever its length, and is one
// allocation with its Wire up to 1 MiB.
func TestWireRoom(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 257, 4 << 10, 32 << 10, 32<<10 + 1, 100 << 10, 1 << 20, 1<<20 + 1} {
		want := 1.0
		if n > 1<<20 {
			want = 2
		}
		x := strings.Repeat("x", n)
		got := testing.AllocsPerRun(20, func() {
			w, b := newWire(n)
			w.Frame = append(b, x...)
			sinkWire = w
		})
		if got != want || len(sinkWire.Frame) != n || cap(sinkWire.Frame) != n {
			t.Errorf("a frame of %d bytes: %.0f allocs, want %.0f; len %d cap %d", n, got, want, len(sinkWire.Frame), cap(sinkWire.Frame))
		}
	}
}

var sinkWire *Wire
