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
// (the same, but it ignores the end of its stdin); "flood" and "deaf"
// (see floodAgent and deafAgent); "unread" (it answers initialize and never
// reads its stdin again, nor exits); "late" (it answers initialize, reads
// nothing more until the file ACPDIALECT_FAKE_GO exists, then reads its
// stdin to the end and exits with status 3); "sleep" (the grandchild).
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
	switch mode {
	case "flood":
		return floodAgent(next, say)
	case "deaf":
		return deafAgent(say)
	case "unread":
		time.Sleep(time.Hour)
		return 3
	case "endless":
		// A line that never ends: 'x' without a newline, until killed.
		chunk := []byte(strings.Repeat("x", 64<<10))
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return 3
			}
		}
	case "late":
		for _, err := os.Stat(os.Getenv("ACPDIALECT_FAKE_GO")); err != nil; _, err = os.Stat(os.Getenv("ACPDIALECT_FAKE_GO")) {
			time.Sleep(10 * time.Millisecond) // polls a file: no event to wait on
		}
		for sc.Scan() {
		}
		return 3
	}
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

// floodAgent, once its stdin pipe is full (the tap is blocked writing the
// editor's lines), sends a cursor/task request and then floodLines lines
// to stdout before it reads stdin again: until the answer to the request,
// then to its end. An editor that reads stdout while it writes stdin does
// not stall it; a tap that stops reading stdout until it can answer does.
// It exits with status 3 when its stdin ends, 4 if it did not fill.
func floodAgent(next func() string, say func(string)) int {
	if !waitStdinFull(5 * time.Second) {
		return 4 // not the case it is for
	}
	say(`{"jsonrpc":"2.0","id":70,"method":"cursor/task","params":{"toolCallId":"t1","description":"Summarize src","model":"composer-2.5-fast"}}`)
	for i := range floodLines {
		say(floodLine(i))
	}
	for !strings.Contains(next(), `"id":70`) {
	}
	next() // until stdin ends
	return 3
}

// floodLines lines of about padLine bytes: more than any pipe buffer.
const floodLines, padLine = 300, 1024

// floodLine is the agent's i-th line of the flood.
func floodLine(i int) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` +
		strconv.Itoa(i) + strings.Repeat("x", padLine) + `"}}}}`
}

// deafAgent sends deafRequests cursor/task requests, whose answers are more
// than its stdin pipe holds, and never reads stdin again (nor exits when it
// ends). Once the pipe is full it creates the file ACPDIALECT_FAKE_FULL.
func deafAgent(say func(string)) int {
	go func() {
		if waitStdinFull(5 * time.Second) {
			os.WriteFile(os.Getenv("ACPDIALECT_FAKE_FULL"), nil, 0o644)
		}
	}()
	for i := range deafRequests {
		say(`{"jsonrpc":"2.0","id":` + strconv.Itoa(100+i) + `,"method":"cursor/task","params":{"toolCallId":"t` + strconv.Itoa(i) + `"}}`)
	}
	time.Sleep(time.Hour)
	return 3
}

const deafRequests = 4000

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
