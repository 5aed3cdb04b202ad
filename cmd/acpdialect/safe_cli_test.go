package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/google/go-cmp/cmp"
)

// hostile is a transcript whose agent puts terminal controls and newlines
// in every string the view and audit print unquoted: its name, a session
// id, tool call ids, kinds, update kinds, keys, statuses, option kinds,
// method names and an error message. \u001b is ESC, \u009b the one-byte
// CSI, \u202e a bidi override, \u2067 a bidi isolate, \u007f DEL, \n a
// forged row.
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
{"jsonrpc":"2.0","method":"vendor/\u009b2J\u2067x\u007f","params":{"sessionId":"s1"}}
{"jsonrpc":"2.0","id":9,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"m"}}
{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"no\u001b[2J\n94  forged"}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
`

// hostileEverywhere puts $X (ESC, CSI, a bidi override and a forged row)
// in every text of a Cursor session the view shows: prompt, chunks,
// plan, ACP v2's plans and whole messages, usage, mode, commands, tool
// call, vendor requests and their answers, permission, errors, stop
// reason.
var hostileEverywhere = strings.ReplaceAll(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"cursor-agent","version":"1"}}}
{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}
{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s$X"}}
{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi$X"},{"type":"resource_link","name":"n$X","uri":"u"}]}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"m$X"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"image","uri":"$X"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"status":"$X","content":"c$X"}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"planId":"$X","type":"items","entries":[{"status":"$X","content":"$X"}]}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"planId":"p","type":"markdown","content":"$X"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"planId":"p","type":"file","uri":"$X"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"planId":"p","type":"$X"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message","messageId":"$X","content":[{"type":"text","text":"$X"},{"type":"image","uri":"$X"}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":1,"size":"$X","cost":{"amount":1,"currency":"$X"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"$X"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"$X","description":"d"}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"$X","kind":"$X","status":"$X"}}}
{"jsonrpc":"2.0","id":70,"method":"cursor/task","params":{"toolCallId":"t2","description":"$X","model":"$X"}}
{"jsonrpc":"2.0","id":70,"result":{}}
{"jsonrpc":"2.0","id":71,"method":"cursor/ask_question","params":{"toolCallId":"q1","title":"$X","questions":[{"id":"$X","prompt":"$X","options":[{"id":"$X","label":"$X"}]}]}}
{"jsonrpc":"2.0","id":71,"result":{"outcome":{"outcome":"$X","reason":"$X","planUri":"$X","answers":[{"questionId":"$X","selectedOptionIds":["$X"]}]}}}
{"jsonrpc":"2.0","id":72,"method":"cursor/create_plan","params":{"toolCallId":"q2","name":"$X","plan":"$X","todos":[{"id":"$X","content":"$X","status":"$X"}]}}
{"jsonrpc":"2.0","id":72,"error":{"code":1,"message":"$X"}}
{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"toolCallId":"q3","todos":[{"id":"$X","content":"$X","status":"$X"}]}}
{"jsonrpc":"2.0","id":73,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"$X","title":"$X"},"options":[{"optionId":"$X","name":"$X","kind":"$X"}]}}
{"jsonrpc":"2.0","id":73,"result":{"outcome":{"outcome":"selected","optionId":"$X"}}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"$X","usage":{"x":"$X"}}}
{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"$X"}}
{"jsonrpc":"2.0","id":3,"method":"x$X","params":{"a":"$X"}}
`, "$X", `\u001b[31m\u009b2J\u202e\n93  forged`)

// TestHostileTextIsInert: every output of the agent's text (the view,
// the JSON lines, the audit) shows it with its controls escaped: no
// terminal control reaches the output and no line is forged; the bytes
// still say what the agent sent.
func TestHostileTextIsInert(t *testing.T) {
	for _, transcript := range []string{hostile, hostileEverywhere} {
		hostileIsInert(t, writeTemp(t, transcript))
	}
}

func hostileIsInert(t *testing.T, path string) {
	t.Helper()
	for _, tt := range []struct {
		args  []string
		shown string // how the output escapes ESC
	}{
		{[]string{"replay", path}, `\x1b[`},
		{[]string{"replay", "--json", path}, `\u001b[`},
		{[]string{"replay", "--final", path}, `\u001b[`},
		{[]string{"audit", path}, `\x1b[`},
		{[]string{"audit", "--json", path}, `\u001b[`},
	} {
		t.Run(strings.Join(tt.args[:len(tt.args)-1], " "), func(t *testing.T) {
			code, out, errs := cli(t, "", tt.args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errs)
			}
			checkInert(t, out+errs)
			if !strings.Contains(out, tt.shown) {
				t.Errorf("the escaped control is not shown:\n%s", out)
			}
		})
	}
}

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var forged = regexp.MustCompile(`(?m)^9[3-9] `)

func checkInert(t *testing.T, out string) {
	t.Helper()
	checkControls(t, out)
	if m := forged.FindString(out); m != "" {
		t.Errorf("a forged row %q:\n%s", m, out)
	}
}

// checkControls fails when out holds a terminal control other than a
// newline, a bidi control or an invalid byte.
func checkControls(t *testing.T, out string) {
	t.Helper()
	for i, r := range out {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r) ||
			(r == utf8.RuneError && isInvalid(out[i:])) {
			t.Fatalf("control %U at byte %d reaches the terminal:\n%q", r, i, out)
		}
	}
}

// FuzzView: whatever frames follow a session's start (ACP v1 or v2), the
// replay view prints no terminal control and fails on none. The input is
// a few lines after a fixed start, seeded two lines at a time: a whole
// transcript as an input left a 10-second run to minimizing.
func FuzzView(f *testing.F) {
	seeds := []string{hostile, hostileEverywhere, hostileRaw}
	for _, path := range []string{"sample.jsonl",
		filepath.Join("..", "..", "claude", "testdata", "v2-background-work-0.101.jsonl"),
		filepath.Join("..", "..", "claude", "testdata", "v2__bash-background.jsonl")} {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	for i, s := range seeds {
		for _, w := range testwire.Windows([]byte(s), 2, 1<<10) {
			f.Add(i >= 4, w) // the Claude captures are ACP v2
		}
	}
	const (
		v1 = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"some-agent","version":"1"}}}
`
		v2 = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"some-agent","version":"2"}}}
`
		session = `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}
{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}
`
	)
	f.Fuzz(func(t *testing.T, isV2 bool, frames []byte) {
		start := v1 + session
		if isV2 {
			start = v2 + session
		}
		var out, errs bytes.Buffer
		w := bufio.NewWriter(&out)
		o, err := newOutput(replayFlags{}, w, false)
		if err != nil {
			t.Fatal(err)
		}
		// replayStream without its large buffers (the writer's, and
		// Feed's 256 KiB reader) and GC setting, which cost a short run
		// most of its time.
		s := stdio{out: w, err: &errs}
		stream, err := replay.NewStream(replay.Builtins(), replay.Options{LimitLine: wiretap.MaxLine}, o.sink(s), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.Feed(bufio.NewReaderSize(strings.NewReader(start+string(frames)), 4<<10)); err != nil {
			t.Fatal(err)
		}
		if err := o.finish(stream.Finish()); err != nil {
			t.Fatal(err)
		}
		checkControls(t, out.String()+errs.String())
	})
}

// hostileRaw adds what encoding/json leaves raw to a Cursor turn: DEL, C1
// controls, bidi controls and a supplementary format character in decoded
// strings, and invalid bytes in JSON that goes out as the agent sent it
// (a reply's result).
const hostileRaw = `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}
{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s\u009b1\u007f"}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s\u009b1\u007f","update":{"sessionUpdate":"tool_call","toolCallId":"t\u202e\u2066\u200f\u061c","title":"x\u0085\udb40\udc01y","kind":"execute","status":"pending"}}}
{"jsonrpc":"2.0","id":5,"method":"cursor/ask_question","params":{"sessionId":"s1","title":"q\u009b","questions":[{"id":"a","prompt":"p\u2069","options":[{"id":"o","label":"l"}]}]}}
{"jsonrpc":"2.0","id":5,"result":{"outcome":{"outcome":"answered","x":"` + "\x9b\xe2\x80" + `\u009b"}}}
`

// TestJSONOutputIsTheEvents: the JSON outputs escape every control and
// invalid byte, and still decode to the events and final state the
// library writes.
func TestJSONOutputIsTheEvents(t *testing.T) {
	path := writeTemp(t, hostileRaw)
	final, events, err := replay.FileAs(replay.Builtins(), path, "cursor")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		flag string
		want []byte
	}{{"--json", events}, {"--final", final}} {
		t.Run(tt.flag, func(t *testing.T) {
			code, out, errs := cli(t, "", "replay", "--agent", "cursor", tt.flag, path)
			if code != 0 || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			checkInert(t, out)
			for _, esc := range []string{`\u009b`, `\u007f`, `\u202e`, `\u0085`, `\udb40\udc01`, `\ufffd\ufffd\ufffd\u009b`} {
				if !strings.Contains(out, esc) {
					t.Errorf("no %s in:\n%s", esc, out)
				}
			}
			if diff := cmp.Diff(decodeLines(t, tt.want), decodeLines(t, []byte(out))); diff != "" {
				t.Errorf("decoded output differs from the library's (-want +got):\n%s", diff)
			}
		})
	}
}

func decodeLines(t *testing.T, b []byte) []any {
	t.Helper()
	var out []any
	for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		out = append(out, v)
	}
	return out
}
