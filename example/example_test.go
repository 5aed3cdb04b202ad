// Package example_test runs the example programs against a scripted Cursor
// agent (this test binary, started again as the agent), so that the
// programs the README shows are known to work, not only to compile.
package example_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestMain(m *testing.M) {
	if os.Getenv("ACPDIALECT_FAKE_AGENT") == "1" {
		fakeAgent()
		return
	}
	os.Exit(m.Run())
}

// fakeAgent is a Cursor agent on stdin/stdout: one session, one turn with
// a subagent tool call, its cursor/task request and a question. It logs
// the client's replies to its vendor requests on stderr.
func fakeAgent() {
	in := bufio.NewScanner(os.Stdin)
	next := func() string { // the next client frame that is not a notification
		for in.Scan() {
			if gjson.Get(in.Text(), "id").Exists() {
				return in.Text()
			}
		}
		os.Exit(0)
		return ""
	}
	reply := func(req, result string) {
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", gjson.Get(req, "id").Raw, result)
	}
	reply(next(), `{"protocolVersion":1,"agentInfo":{"name":"cursor-agent"}}`)
	reply(next(), `{"sessionId":"s1"}`)
	prompt := next()
	fmt.Println(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Task","status":"in_progress","rawInput":{"_toolName":"task"}}}}`)
	fmt.Println(`{"jsonrpc":"2.0","id":70,"method":"cursor/task","params":{"toolCallId":"t1","description":"Summarize src","model":"composer-2.5-fast"}}`)
	fmt.Fprintln(os.Stderr, "agent got:", next())
	fmt.Println(`{"jsonrpc":"2.0","id":71,"method":"cursor/ask_question","params":{"toolCallId":"q1","questions":[{"id":"lang","prompt":"Which language?","options":[{"id":"go","label":"Go"}]}]}}`)
	fmt.Fprintln(os.Stderr, "agent got:", next())
	reply(prompt, `{"stopReason":"end_turn"}`)
	for in.Scan() { // until the client closes stdin
	}
}

func TestPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example programs")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		program string
		// The question's answer: sdkclient picks the first option;
		// ownloop's Conn answers the default at once.
		answer string
	}{
		{"sdkclient", `"outcome":"answered"`},
		{"ownloop", `"outcome":"cancelled"`},
	}
	for _, tc := range tests {
		t.Run(tc.program, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), tc.program)
			if out, err := exec.Command("go", "build", "-o", bin, "./"+tc.program).CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			cmd := exec.Command(bin, "-prompt", "go", self)
			cmd.Env = append(os.Environ(), "ACPDIALECT_FAKE_AGENT=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\nstderr: %s", err, stderr.String())
			}
			for _, want := range []string{
				`{"type":"tool_call_update","agent":"cursor","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task","subagent_task":{"description":"Summarize src","model":"composer-2.5-fast"}}}`,
				`{"type":"question","agent":"cursor","session_id":"s1","tool_call_id":"q1","method":"cursor/ask_question","id":71,`,
			} {
				if !strings.Contains(string(out), want) {
					t.Errorf("output lacks %s\noutput:\n%s", want, out)
				}
			}
			got := stderr.String()
			if !strings.Contains(got, `agent got: {"jsonrpc":"2.0","id":70,"result":{}}`) || !strings.Contains(got, tc.answer) {
				t.Errorf("the agent got:\n%s\nwant {} for cursor/task and %s for the question", got, tc.answer)
			}
		})
	}
}
