package redact

import (
	"bytes"
	"strings"
	"testing"
)

// escapedTranscript writes member names and ids escaped, as some JSON
// libraries do. Replay prints an id as the agent wrote it (the reply to
// "task\u002d7" is not printed as the reply to "task-7"), so escapes
// must survive redaction for the redacted transcript to replay exactly
// as the original. What it redacts is not in the replay's output.
const escapedTranscript = `{"jsonrpc":"2.0","id":"i\u0030","method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"example-client"}}}
{"jsonrpc":"2.0","id":"i\u0030","result":{"protocolVersion":1,"agentInfo":{"name":"cursor-agent","title":"Cursor Agent"}}}
{"jsonrpc":"2.0","id":"n1","method":"session/new","params":{"cwd":"/home/alice/plan","mcpServers":[]}}
{"jsonrpc":"2.0","id":"n1","result":{"sessionId":"s\u0031"}}
{"jsonrpc":"2.0","id":"p\u0031","method":"session/prompt","params":{"sessionId":"s\u0031","prompt":[{"type":"text","text":"the quarterly numbers"}]}}
{"jsonrpc":"2.0","\u006dethod":"session/update","params":{"sessionId":"s\u0031","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hidden"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s\u0031","update":{"sessionUpdate":"tool_call","toolCallId":"t\u0031","title":"Read","kind":"read","status":"pending","rawInput":{"path":"/home/alice/plan/q3.md"}}}}
{"jsonrpc":"2.0","id":"task\u002d7","method":"cursor/task","params":{"sessionId":"s\u0031","toolCallId":"t\u0031"}}
{"jsonrpc":"2.0","id":"task\u002d7","result":{}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}}
{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}
{"jsonrpc":"2.0","id":"p\u0031","result":{"stopReason":"end_turn"}}
`

// TestEscapesKept: member names and the strings kept (ids, session ids,
// methods, kinds) keep their bytes, escapes included, so that the
// redacted transcript replays (replay --json, then --final) to the very
// bytes the original does; the text is still redacted.
func TestEscapesKept(t *testing.T) {
	var red bytes.Buffer
	if err := New().Copy(&red, strings.NewReader(escapedTranscript)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"quarterly", "hidden", "alice", "q3.md"} {
		if strings.Contains(red.String(), s) {
			t.Errorf("%q survived:\n%s", s, red.String())
		}
	}
	for _, s := range []string{`"id":"i\u0030"`, `"\u006dethod":"session/update"`, `"sessionId":"s\u0031"`, `"toolCallId":"t\u0031"`, `"id":"p\u0031"`, `"id":"task\u002d7"`} {
		if !strings.Contains(red.String(), s) {
			t.Errorf("%s lost:\n%s", s, red.String())
		}
	}
	a, b := replayed(t, []byte(escapedTranscript)), replayed(t, red.Bytes())
	if want, got := strings.Join(a, "\n"), strings.Join(b, "\n"); got != want {
		t.Errorf("redacted replays differently:\n%s\n---\n%s", want, got)
	}
}
