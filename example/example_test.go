// Package example_test runs the example programs against scripted Cursor
// and Grok agents (this test binary, started again as the agent), so that
// the programs the README shows are known to work, not only to compile.
package example_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/tidwall/gjson"
)

func TestMain(m *testing.M) {
	if name := os.Getenv("ACPDIALECT_FAKE_AGENT"); name != "" {
		fakeAgent(name)
		return
	}
	os.Exit(m.Run())
}

// fakeAgent is a Cursor or Grok agent on stdin/stdout: one session, one
// turn. Cursor's has a subagent tool call, its cursor/task request, a
// question, a plan and an image request; Grok's has a question. It logs
// the client's replies to its vendor requests on stderr, and waits for
// each before it goes on, as an agent does.
func fakeAgent(name string) {
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
	ask := func(request string) { // a vendor request, and the client's reply
		fmt.Println(request)
		fmt.Fprintln(os.Stderr, "agent got:", next())
	}
	reply(next(), `{"protocolVersion":1,"agentInfo":{"name":"`+name+`"}}`)
	reply(next(), `{"sessionId":"s1"}`)
	prompt := next()
	switch name {
	case "cursor-agent":
		fmt.Println(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Task","status":"in_progress","rawInput":{"_toolName":"task"}}}}`)
		ask(`{"jsonrpc":"2.0","id":70,"method":"cursor/task","params":{"toolCallId":"t1","description":"Summarize src","model":"composer-2.5-fast"}}`)
		ask(`{"jsonrpc":"2.0","id":71,"method":"cursor/ask_question","params":{"toolCallId":"q1","questions":[{"id":"lang","prompt":"Which language?","options":[{"id":"go","label":"Go"}]}]}}`)
		ask(`{"jsonrpc":"2.0","id":72,"method":"cursor/create_plan","params":{"toolCallId":"p1","name":"Refactor","plan":"# Refactor","todos":[]}}`)
		ask(`{"jsonrpc":"2.0","id":73,"method":"cursor/generate_image","params":{"toolCallId":"i1","description":"A red fox","filePath":"fox.png"}}`)
	case "grok":
		ask(`{"jsonrpc":"2.0","id":"q1","method":"x.ai/ask_user_question","params":{"sessionId":"s1","toolCallId":"call_ask_1","questions":[{"question":"Which database?","options":[{"label":"Postgres"}]}]}}`)
	}
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
	// The defaults, as the dialects' builders write them.
	var (
		plan  = `agent got: {"jsonrpc":"2.0","id":72,"result":` + string(cursor.Cancelled()) + `}`
		image = `agent got: {"jsonrpc":"2.0","id":73,"result":` + string(cursor.Rejected(cursor.ImageRejectReason)) + `}`
		asked = `agent got: {"jsonrpc":"2.0","id":"q1","result":` + string(grok.Declined()) + `}`
	)
	tests := []struct {
		program, agent string
		out            []string // lines or starts of lines the program prints
		// What the agent got for its vendor requests, in order. sdkclient
		// picks the first option of Cursor's question and gives every
		// other blocking request its default at once; ownloop's Conn,
		// made without ClientAnswers, answers them all their default.
		got []string
	}{
		{"sdkclient", "cursor-agent", cursorOut, []string{
			`agent got: {"jsonrpc":"2.0","id":70,"result":{}}`,
			`agent got: {"jsonrpc":"2.0","id":71,"result":{"outcome":{"outcome":"answered","answers":[{"questionId":"lang","selectedOptionIds":["go"]}]}}}`,
			plan, image}},
		{"ownloop", "cursor-agent", cursorOut, []string{
			`agent got: {"jsonrpc":"2.0","id":70,"result":{}}`,
			`agent got: {"jsonrpc":"2.0","id":71,"result":{"outcome":{"outcome":"cancelled"}}}`,
			plan, image}},
		{"sdkclient", "grok", grokOut, []string{asked}},
		{"ownloop", "grok", grokOut, []string{asked}},
	}
	dir, bins := t.TempDir(), map[string]string{}
	for _, tc := range tests {
		t.Run(tc.program+"/"+tc.agent, func(t *testing.T) {
			bin := bins[tc.program]
			if bin == "" {
				bin = filepath.Join(dir, tc.program)
				if out, err := exec.Command("go", "build", "-o", bin, "./"+tc.program).CombinedOutput(); err != nil {
					t.Fatalf("go build: %v\n%s", err, out)
				}
				bins[tc.program] = bin
			}
			// A blocking request nobody answers waits 10 minutes for its
			// default: a program that leaves one unanswered fails here.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "-prompt", "go", self)
			cmd.Env = append(os.Environ(), "ACPDIALECT_FAKE_AGENT="+tc.agent)
			cmd.WaitDelay = time.Second
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\nstderr: %s", err, stderr.String())
			}
			for _, want := range tc.out {
				if !strings.Contains(string(out), want) {
					t.Errorf("output lacks %s\noutput:\n%s", want, out)
				}
			}
			var got []string
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(line, "agent got: ") {
					got = append(got, line)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.got, "\n") {
				t.Errorf("the agent got:\n%s\nwant:\n%s\nstderr:\n%s", strings.Join(got, "\n"), strings.Join(tc.got, "\n"), stderr.String())
			}
		})
	}
}

var (
	cursorOut = []string{
		`{"type":"tool_call_update","agent":"cursor","session_id":"s1","tool_call_id":"t1","payload":{"kind":"subagent_task","status":"in_progress","title":"Task","subagent_task":{"description":"Summarize src","model":"composer-2.5-fast"}}}`,
		`{"type":"question","agent":"cursor","session_id":"s1","tool_call_id":"q1","method":"cursor/ask_question","id":71,`,
		`{"type":"plan","agent":"cursor","session_id":"s1","tool_call_id":"p1","method":"cursor/create_plan","id":72,`,
		`{"type":"image","agent":"cursor","session_id":"s1","tool_call_id":"i1","method":"cursor/generate_image","id":73,`,
	}
	grokOut = []string{
		`{"type":"question","agent":"grok","session_id":"s1","tool_call_id":"call_ask_1","method":"x.ai/ask_user_question","id":"q1",`,
	}
)
