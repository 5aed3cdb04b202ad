package codex_test

import (
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
)

// command is codex-acp's tool call for a command run in a terminal.
func command(id, cmd string) string {
	return update(`{"sessionUpdate":"tool_call","toolCallId":"` + id + `","kind":"execute","title":"` + cmd + `","status":"in_progress",` +
		`"content":[{"type":"terminal","terminalId":"` + id + `"}],"rawInput":{"command":"` + cmd + `","cwd":"/w"},` +
		`"_meta":{"terminal_info":{"cwd":"/w","terminal_id":"` + id + `"}}}`)
}

// output is a tool call update of id with the given _meta and, when not
// empty, the other members rest.
func output(id, meta, rest string) string {
	if rest != "" {
		rest = "," + rest
	}
	return update(`{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `"` + rest + `,"_meta":` + meta + `}`)
}

func TestShellRules(t *testing.T) {
	big := strings.Repeat("x", 100)
	tests := []struct {
		name    string
		opts    acpdialect.Options
		frames  []string
		want    []string
		notWant []string
	}{
		{"started", acpdialect.Options{}, []string{command("c1", "make")}, []string{
			`{"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"c1","payload":{"kind":"shell","status":"in_progress","title":"make","shell":{"command":"make","cwd":"/w","terminal_id":"c1"}}}`,
		}, []string{`"generic"`}},
		{"delta appended", acpdialect.Options{}, []string{
			command("c1", "make"),
			output("c1", `{"terminal_output_delta":{"data":"cc a.o\n","terminal_id":"c1"}}`, ""),
			output("c1", `{"terminal_output_delta":{"data":"ld app\n","terminal_id":"c1"}}`, ""),
		}, []string{`"shell":{"command":"make","cwd":"/w","terminal_id":"c1","output":"cc a.o\nld app\n"}}`}, nil},
		// codex-acp sends chunks only: one that repeats the output so far
		// (a command that prints the same line twice) is appended, and the
		// final formatted_output agrees with what was kept.
		{"a chunk that repeats the output appended", acpdialect.Options{}, []string{
			command("c1", "make"),
			output("c1", `{"terminal_output":{"data":"a","terminal_id":"c1"}}`, ""),
			output("c1", `{"terminal_output":{"data":"ab","terminal_id":"c1"}}`, ""),
			output("c1", `{"terminal_output":{"data":"ab","terminal_id":"c1"}}`, ""),
			output("c1", `{"terminal_exit":{"exit_code":0,"signal":null,"terminal_id":"c1"}}`, `"status":"completed","rawOutput":{"formatted_output":"aabab","exit_code":0}`),
		}, []string{`"output":"aab"}}`, `"output":"aabab","exit_code":0}}`}, []string{`"output":"ab"}}`}},
		{"a chunk in terminal_output appended", acpdialect.Options{}, []string{
			command("c1", "make"),
			output("c1", `{"terminal_output":{"data":"cc a.o\n","terminal_id":"c1"}}`, ""),
			output("c1", `{"terminal_output":{"data":"cc b.o\n","terminal_id":"c1"}}`, ""),
		}, []string{`"output":"cc a.o\ncc b.o\n"}}`}, []string{`"output":"cc b.o\n"}}`}},
		{"exit 0 completes", acpdialect.Options{}, []string{
			command("c1", "make"),
			output("c1", `{"terminal_output":{"data":"ok\n","terminal_id":"c1"},"terminal_exit":{"exit_code":0,"signal":null,"terminal_id":"c1"}}`,
				`"status":"completed","rawOutput":{"formatted_output":"ok\n","exit_code":0}`),
		}, []string{`{"type":"tool_call_update","agent":"codex","session_id":"s1","tool_call_id":"c1","payload":{"kind":"shell","status":"completed","title":"make","shell":{"command":"make","cwd":"/w","terminal_id":"c1","output":"ok\n","exit_code":0}}}`},
			[]string{`"failed"`}},
		{"non-zero fails", acpdialect.Options{}, []string{
			command("c1", "make"),
			// The adapter's status says completed; the exit code wins.
			output("c1", `{"terminal_exit":{"exit_code":2,"signal":null,"terminal_id":"c1"}}`,
				`"status":"completed","rawOutput":{"formatted_output":"make: *** Error 2\n","exit_code":2}`),
			// A later update without an exit keeps the call failed.
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`),
		}, []string{`"payload":{"kind":"shell","status":"failed","title":"make","shell":{"command":"make","cwd":"/w","terminal_id":"c1","output":"make: *** Error 2\n","exit_code":2}}`},
			[]string{`"status":"completed"`}},
		{"a cancelled call stays cancelled", acpdialect.Options{}, []string{
			command("c1", "sleep 9"),
			output("c1", `{"terminal_exit":{"exit_code":130,"signal":"SIGINT","terminal_id":"c1"}}`, `"status":"cancelled"`),
		}, []string{`"status":"cancelled","title":"sleep 9","shell":{"command":"sleep 9","cwd":"/w","terminal_id":"c1","exit_code":130,"signal":"SIGINT"}}`}, []string{`"failed"`}},
		{"legacy formatted_output", acpdialect.Options{}, []string{
			// A client without the terminal channel: no _meta at all.
			update(`{"sessionUpdate":"tool_call","toolCallId":"c1","kind":"execute","title":"ls","status":"in_progress","rawInput":{"command":"ls","cwd":"/w"}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","rawOutput":{"formatted_output":"ls: x: No such file\n","exit_code":1}}`),
		}, []string{
			`{"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"c1","payload":{"kind":"shell","status":"in_progress","title":"ls","shell":{"command":"ls","cwd":"/w"}}}`,
			`{"type":"tool_call_update","agent":"codex","session_id":"s1","tool_call_id":"c1","payload":{"kind":"shell","status":"failed","title":"ls","shell":{"command":"ls","cwd":"/w","output":"ls: x: No such file\n","exit_code":1}}}`,
		}, nil},
		{"the whole output extends the streamed one", acpdialect.Options{}, []string{
			command("c1", "make"),
			output("c1", `{"terminal_output":{"data":"cc a.o\n","terminal_id":"c1"}}`, ""),
			output("c1", `{"terminal_exit":{"exit_code":0,"signal":null,"terminal_id":"c1"}}`, `"status":"completed","rawOutput":{"formatted_output":"cc a.o\nDone\n","exit_code":0}`),
		}, []string{`"output":"cc a.o\nDone\n","exit_code":0}`}, nil},
		{"the legacy Rust adapter: argv, aggregated_output", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"call-a","kind":"execute","title":"echo a b","status":"in_progress",` +
				`"rawInput":{"call_id":"call-a","turn_id":"1","command":["bash","-lc","echo a b"],"cwd":"/w","parsed_cmd":[{"type":"unknown","cmd":"echo a b"}]},` +
				`"_meta":{"terminal_info":{"terminal_id":"call-a","cwd":"/w"}}}`),
			output("call-a", `{"terminal_output":{"terminal_id":"call-a","data":"a b\n"}}`, ""),
			output("call-a", `{"terminal_exit":{"terminal_id":"call-a","exit_code":0,"signal":null}}`,
				`"status":"completed","rawOutput":{"call_id":"call-a","stdout":"a b\n","stderr":"","aggregated_output":"a b\n","exit_code":0,"formatted_output":"a b\n","status":"completed"}`),
		}, []string{`"payload":{"kind":"shell","status":"completed","title":"echo a b","shell":{"command":"bash -lc 'echo a b'","cwd":"/w","terminal_id":"call-a","output":"a b\n","exit_code":0}}`}, nil},
		{"an update for a command never announced", acpdialect.Options{}, []string{
			output("c9", `{"terminal_output_delta":{"data":"late\n","terminal_id":"c9"}}`, ""),
		}, []string{`{"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"c9","payload":{"kind":"shell","shell":{"terminal_id":"c9","output":"late\n"}}}`}, nil},
		{"bounded output, tail kept", acpdialect.Options{MaxOutput: 64}, []string{
			command("c1", "yes"),
			output("c1", `{"terminal_output_delta":{"data":"`+big+`","terminal_id":"c1"}}`, ""),
			output("c1", `{"terminal_output_delta":{"data":"END","terminal_id":"c1"}}`, ""),
			output("c1", `{"terminal_exit":{"exit_code":0,"signal":null,"terminal_id":"c1"}}`, `"status":"completed","rawOutput":{"formatted_output":"`+big+`END","exit_code":0}`),
		}, []string{
			`"output":"` + strings.Repeat("x", 64) + `","output_truncated":true}`,
			`"output":"` + strings.Repeat("x", 61) + `END","output_truncated":true}`,
			`"status":"completed","title":"yes","shell":{"command":"yes","cwd":"/w","terminal_id":"c1","output":"` + strings.Repeat("x", 61) + `END","output_truncated":true,"exit_code":0}`,
		}, []string{`"output":"` + strings.Repeat("x", 65)}},
		// An ACP v2 client of codex-acp 2.x: the terminal's own updates
		// (base64 output) come before the tool call's, under its id.
		{"v2: the terminal first, a chunk, a non-zero exit fails the call", acpdialect.Options{}, []string{
			`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}`,
			`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"codex-acp"}}}`,
			update(`{"sessionUpdate":"terminal_update","terminalId":"c1","command":"make","cwd":"/w"}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","kind":"execute","title":"make","status":"in_progress",` +
				`"content":[{"type":"terminal","terminalId":"c1"}],"rawInput":{"command":"make","cwd":"/w"}}`),
			update(`{"sessionUpdate":"terminal_output_chunk","terminalId":"c1","data":"Y2MgYS5vCg=="}`),
			update(`{"sessionUpdate":"terminal_update","terminalId":"c1","exitStatus":{"exitCode":2,"signal":null}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`),
		}, []string{
			`{"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"c1","payload":{"kind":"shell","status":"in_progress","title":"make","shell":{"command":"make","cwd":"/w","terminal_id":"c1"}}}`,
			`"payload":{"kind":"shell","status":"in_progress","title":"make","shell":{"command":"make","cwd":"/w","terminal_id":"c1","output":"cc a.o\n"}}`,
			`"payload":{"kind":"shell","status":"failed","title":"make","shell":{"command":"make","cwd":"/w","terminal_id":"c1","output":"cc a.o\n","exit_code":2}}`,
		}, []string{`"status":"completed"`}},
		{"v2: a command that did not stream: its whole output with the exit", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"terminal_update","terminalId":"c1","command":"ls","cwd":"/w"}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","kind":"execute","title":"ls","status":"in_progress","rawInput":{"command":"ls","cwd":"/w"}}`),
			update(`{"sessionUpdate":"terminal_update","terminalId":"c1","output":{"data":"YQpiCg=="},"exitStatus":{"exitCode":0,"signal":null}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`),
		}, []string{`"payload":{"kind":"shell","status":"completed","title":"ls","shell":{"command":"ls","cwd":"/w","terminal_id":"c1","output":"a\nb\n","exit_code":0}}`}, []string{`"failed"`}},
		{"a command parsed into a read stays generic", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"r1","status":"in_progress","kind":"read","title":"Read file 'README.md'","locations":[{"path":"README.md"}]}`),
			output("r1", `{"terminal_output_delta":{"data":"# Project\n","terminal_id":"r1"}}`, ""),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"r1","status":"completed","rawOutput":{"formatted_output":"# Project\n","exit_code":0}}`),
		}, []string{`"payload":{"kind":"generic","status":"completed","title":"Read file 'README.md'","generic":{"acp_kind":"read"}}`}, []string{`"shell"`}},
		{"a call of another ACP kind with a command's result stays generic", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"o1","status":"in_progress","kind":"other","title":"tool"}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"o1","status":"completed","rawOutput":{"formatted_output":"done\n","exit_code":0}}`),
		}, []string{`"payload":{"kind":"generic","status":"completed","title":"tool","generic":{"acp_kind":"other"}}`}, []string{`"shell"`}},
		{"an execute call that is not a command", acpdialect.Options{}, []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"d1","kind":"execute","title":"dynamic","status":"in_progress","rawInput":{"arguments":{"a":1}}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"d1","status":"completed","rawOutput":{"output":"done"}}`),
		}, []string{`"payload":{"kind":"generic","status":"completed","title":"dynamic","generic":{"acp_kind":"execute"}}`}, []string{`"shell"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			has(t, feed(t, conn(t, tt.opts), tt.frames...), tt.want, tt.notWant)
		})
	}
}
