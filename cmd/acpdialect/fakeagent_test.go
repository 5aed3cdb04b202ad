package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// fakeAgent is a Cursor agent on stdin/stdout for the tap's tests (this
// test binary, started again). It logs every byte it reads and writes to
// the files named by ACPDIALECT_FAKE_IN and _OUT, starts a grandchild in
// its process group (its pid in _CHILD_PID), runs one turn with chunks,
// a long line, a tool call, a cursor/task request and a question, and
// exits with status 3 when its stdin ends. Modes: "cursor"; "stubborn"
// (the same, but it ignores the end of its stdin); "sleep" (the
// grandchild).
func fakeAgent(mode string) int {
	if mode == "sleep" {
		time.Sleep(time.Hour)
		return 0
	}
	in, out := logged(os.Stdin, "ACPDIALECT_FAKE_IN"), logWriter(os.Stdout, "ACPDIALECT_FAKE_OUT")
	startGrandchild()
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 16<<20)
	next := func() string { // the next frame with an id
		for sc.Scan() {
			if gjson.Get(sc.Text(), "id").Exists() {
				return sc.Text()
			}
		}
		if mode == "stubborn" {
			time.Sleep(time.Hour)
		}
		os.Exit(3)
		return ""
	}
	say := func(s string) { fmt.Fprintln(out, s) }
	reply := func(req, result string) {
		say(`{"jsonrpc":"2.0","id":` + gjson.Get(req, "id").Raw + `,"result":` + result + `}`)
	}
	reply(next(), `{"protocolVersion":1,"agentInfo":{"name":"cursor-agent","version":"1.0"}}`)
	reply(next(), `{"sessionId":"s1"}`)
	prompt := next()
	turn(say)
	say(`{"jsonrpc":"2.0","id":70,"method":"cursor/task","params":{"toolCallId":"t1","description":"Summarize src","model":"composer-2.5-fast"}}`)
	next() // the editor's answer: the tests read it in the log
	say(`{"jsonrpc":"2.0","id":71,"method":"cursor/ask_question","params":{"toolCallId":"q1","questions":[{"id":"lang","prompt":"Which language?","options":[{"id":"go","label":"Go"}]}]}}`)
	next() // the editor's answer: the tests read it in the log
	say(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","rawOutput":{"durationMs":42}}}}`)
	reply(prompt, `{"stopReason":"end_turn"}`)
	next() // until stdin ends
	return 3
}

// turn is the body of the turn: chunks, a line of 1 MB, a subagent tool
// call.
func turn(say func(string)) {
	for i := range 400 {
		say(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"word ` + strconv.Itoa(i) + ` é\u2028 "}}}}`)
	}
	say(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"` + strings.Repeat("x", 1<<20) + `"}}}}`)
	say(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Task","status":"in_progress","rawInput":{"_toolName":"task"}}}}`)
}

func logged(r io.Reader, env string) io.Reader {
	if f, err := os.Create(os.Getenv(env)); err == nil {
		return io.TeeReader(r, f)
	}
	return r
}

func logWriter(w io.Writer, env string) io.Writer {
	if f, err := os.Create(os.Getenv(env)); err == nil {
		return io.MultiWriter(w, f)
	}
	return w
}

// startGrandchild leaves a process in the agent's group that outlives the
// agent unless the tap ends the group.
func startGrandchild() {
	path := os.Getenv("ACPDIALECT_FAKE_CHILD_PID")
	if path == "" {
		return
	}
	self, _ := os.Executable()
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), "ACPDIALECT_FAKE_AGENT=sleep")
	if cmd.Start() == nil {
		os.WriteFile(path, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
	}
}
