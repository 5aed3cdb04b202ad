package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// hostile is a transcript whose agent puts terminal controls and newlines
// in every string the view and audit print unquoted: its name, a session
// id, tool call ids, kinds, update kinds, keys, statuses, option kinds,
// method names and an error message. \u001b is ESC, \u009b the one-byte
// CSI, \u202e a bidi override, \n a forged row.
const hostile = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"evil\u001b]0;owned\u0007","version":"1\n99  agent  forged"}}}
{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}
{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s\u001b[2J\n98  forged"}}
{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s\u001b[2J\n98  forged","prompt":[{"type":"text","text":"hi"}]}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s\u001b[2J\n98  forged","update":{"sessionUpdate":"tool_call","toolCallId":"t\u001b[31m\n97  forged","title":"x","kind":"\u009b31m","status":"pending"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"evil\u001b[2J","k\u001b[1m":"v","n\n96  forged":1}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"status":"\u001b[5m","content":"c"}]}}}
{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p\u202e1","title":"t"},"options":[{"optionId":"a","name":"Allow","kind":"allow\u001b[8m"}]}}
{"jsonrpc":"2.0","id":7,"result":{"outcome":{"outcome":"selected","optionId":"a"}}}
{"jsonrpc":"2.0","id":8,"method":"vendor/\u001b[2Jmethod\n95  forged","params":{"sessionId":"s1","x":"y"}}
{"jsonrpc":"2.0","id":9,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"m"}}
{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"no\u001b[2J\n94  forged"}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
`

// TestHostileTextIsInert: the view and audit show the agent's text with
// its controls escaped: no terminal control reaches the output and no
// line is forged; the bytes still say what the agent sent.
func TestHostileTextIsInert(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(path, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"replay", path}, {"audit", path}} {
		t.Run(args[0], func(t *testing.T) {
			code, out, errs := cli(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errs)
			}
			checkInert(t, out+errs)
			if !strings.Contains(out, `\x1b[2J`) {
				t.Errorf("the escaped control is not shown:\n%s", out)
			}
		})
	}
}

var forged = regexp.MustCompile(`(?m)^9[4-9] `)

func checkInert(t *testing.T, out string) {
	t.Helper()
	for i, r := range out {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' {
			t.Fatalf("control %U at byte %d reaches the terminal:\n%q", r, i, out)
		}
	}
	if m := forged.FindString(out); m != "" {
		t.Errorf("a forged row %q:\n%s", m, out)
	}
}
