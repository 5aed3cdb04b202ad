package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// escapedTranscript writes member names and ids escaped, as some JSON
// libraries do: replay compares ids and member names as written, so
// "\u006dethod" is no method and "p\u0031" is not the id "p1".
const escapedTranscript = `{"jsonrpc":"2.0","id":"i\u0030","method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"example-client"}}}
{"jsonrpc":"2.0","id":"i\u0030","result":{"protocolVersion":1,"agentInfo":{"name":"cursor-agent","title":"Cursor Agent"}}}
{"jsonrpc":"2.0","id":"n1","method":"session/new","params":{"cwd":"/home/alice/plan","mcpServers":[]}}
{"jsonrpc":"2.0","id":"n1","result":{"sessionId":"s\u0031"}}
{"jsonrpc":"2.0","id":"p\u0031","method":"session/prompt","params":{"sessionId":"s\u0031","prompt":[{"type":"text","text":"the quarterly numbers"}]}}
{"jsonrpc":"2.0","\u006dethod":"session/update","params":{"sessionId":"s\u0031","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hidden"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s\u0031","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"are bad"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t\u0031","title":"Read","kind":"read","status":"pending"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}}
{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}
{"jsonrpc":"2.0","id":"p\u0031","result":{"stopReason":"end_turn"}}
`

// TestEscapesKept: member names and the strings kept (ids, session ids,
// methods, kinds) keep their bytes, escapes included, so that the
// redacted transcript replays as the original does; the redacted text is
// still redacted.
func TestEscapesKept(t *testing.T) {
	var red bytes.Buffer
	if err := New().Copy(&red, strings.NewReader(escapedTranscript)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"quarterly", "hidden", "are bad", "alice"} {
		if strings.Contains(red.String(), s) {
			t.Errorf("%q survived:\n%s", s, red.String())
		}
	}
	for _, s := range []string{`"id":"i\u0030"`, `"\u006dethod":"session/update"`, `"sessionId":"s\u0031"`, `"toolCallId":"t\u0031"`, `"id":"p\u0031"`} {
		if !strings.Contains(red.String(), s) {
			t.Errorf("%s lost:\n%s", s, red.String())
		}
	}
	a, b := replayed(t, []byte(escapedTranscript)), replayed(t, red.Bytes())
	if len(a) != len(b) {
		t.Fatalf("%d output lines, redacted %d:\n%s\n---\n%s", len(a), len(b), strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	for i := range a {
		var x, y any
		json.Unmarshal([]byte(a[i]), &x)
		json.Unmarshal([]byte(b[i]), &y)
		if where := differs(x, y, ""); where != "" {
			t.Errorf("line %d differs at %s beyond redaction:\n%s\n%s", i+1, where, a[i], b[i])
		}
	}
}
