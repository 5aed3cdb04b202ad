package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect/internal/replay"
)

// stall is how long a tap test waits for the tap to exit before it calls
// it stalled and kills it: its runs take well under a second.
const stall = 10 * time.Second

// tapProc is the tap run as a process (this test binary again) for the
// fake agent, its stderr in dir/stderr.
type tapProc struct {
	cmd    *exec.Cmd
	dir    string
	stdin  io.WriteCloser
	stdout io.Reader
}

func startTap(t *testing.T, dir string, args ...string) *tapProc {
	t.Helper()
	self, _ := os.Executable()
	args = append(append([]string{"-test.run=^$", "--", "tap"}, args...), "--", self, "-test.run=^$")
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "ACPDIALECT_CLI_CHILD=1")
	// A file, not a buffer: Wait would wait for the agent's group to
	// close a pipe.
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd.Stderr = stderr
	p := &tapProc{cmd: cmd, dir: dir}
	p.stdin, _ = cmd.StdinPipe()
	p.stdout, _ = cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return p
}

// wait returns the tap's exit status and stderr once it and the reading
// of its stdout (read) have ended; a tap that takes longer than stall is killed,
// with the agent's group, and the test fails.
func (p *tapProc) wait(t *testing.T, read <-chan struct{}) (int, string) {
	t.Helper()
	select {
	case <-read:
	case <-time.After(stall):
		p.kill()
		<-read
		p.cmd.Wait()
		stderr, _ := os.ReadFile(filepath.Join(p.dir, "stderr"))
		t.Fatalf("the tap stalled: still running after %v; stderr:\n%.2000s", stall, stderr)
	}
	err := p.cmd.Wait()
	stderr, _ := os.ReadFile(filepath.Join(p.dir, "stderr"))
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(stderr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(stderr)
}

// kill ends the tap and the agent's group (the group of its grandchild).
func (p *tapProc) kill() {
	p.cmd.Process.Kill()
	if b, err := os.ReadFile(filepath.Join(p.dir, "child-pid")); err == nil {
		pid, _ := strconv.Atoi(string(b))
		if pgid, err := syscall.Getpgid(pid); err == nil {
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
}

const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}` + "\n"

// TestTapAnswerNoStall: with --answer, the tap reads the agent's stdout
// while the answer it owes the agent waits for the agent's stdin. The
// editor writes more than the agent's stdin pipe holds; the agent, its
// stdin full, sends a cursor/task request and then more than its stdout
// pipe holds before it reads stdin again. An editor that reads while it
// writes does not stall such an agent, and neither does the tap: every
// line passes, the answer reaches the agent, and the record replays to
// the live events.
func TestTapAnswerNoStall(t *testing.T) {
	if !canFillStdin {
		t.Skip("cannot see a pipe fill on " + runtime.GOOS)
	}
	dir := t.TempDir()
	fakeEnv(t, "flood", dir)
	rec, evs := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "events.jsonl")
	p := startTap(t, dir, "--answer", "--record", rec, "--events", evs)
	go func() {
		defer p.stdin.Close()
		io.WriteString(p.stdin, initialize)
		pad := strings.Repeat("y", padLine)
		for i := range floodLines {
			line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"_editor/pad","params":{"n":%d,"pad":"%s"}}`+"\n", i, pad)
			if _, err := io.WriteString(p.stdin, line); err != nil {
				return
			}
		}
	}()
	var chunks, tasks int
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(p.stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			chunks += strings.Count(sc.Text(), "agent_message_chunk")
			tasks += strings.Count(sc.Text(), "cursor/task")
		}
	}()
	if code, stderr := p.wait(t, read); code != 3 {
		t.Errorf("tap exit %d, want the agent's 3 (4: its stdin did not fill); stderr:\n%.2000s", code, stderr)
	}
	if chunks != floodLines || tasks != 0 {
		t.Errorf("the editor got %d of the agent's %d lines and %d cursor/task requests (want none: the tap answers them)", chunks, floodLines, tasks)
	}
	agentIn, _ := os.ReadFile(filepath.Join(dir, "agent-in"))
	if n := strings.Count(string(agentIn), `"_editor/pad"`); n != floodLines || !strings.Contains(string(agentIn), `"id":70,"result":{}`) {
		t.Errorf("the agent got %d of the editor's %d lines; the tap's answer to 70: %v", n, floodLines, strings.Contains(string(agentIn), `"id":70,"result":{}`))
	}
	sameEvents(t, rec, evs)
	noProcessLeft(t, filepath.Join(dir, "child-pid"))
}

// TestTapEditorLeavesDeafAgent: with --answer, an agent that never reads
// its stdin again, and sends more requests than its stdin pipe and the
// tap's queue hold answers for, is still ended once the editor closes its side: the grace
// period starts even while an answer waits for the agent's stdin, and the
// tap exits with the agent's SIGTERM.
func TestTapEditorLeavesDeafAgent(t *testing.T) {
	if !canFillStdin {
		t.Skip("cannot see a pipe fill on " + runtime.GOOS)
	}
	dir := t.TempDir()
	fakeEnv(t, "deaf", dir)
	full := filepath.Join(dir, "full")
	t.Setenv("ACPDIALECT_FAKE_FULL", full)
	p := startTap(t, dir, "--answer", "--grace", "100ms")
	io.WriteString(p.stdin, initialize)
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(io.Discard, p.stdout)
	}()
	for deadline := time.Now().Add(stall); ; time.Sleep(10 * time.Millisecond) { // polls a file: no event to wait on
		if _, err := os.Stat(full); err == nil {
			break
		}
		if time.Now().After(deadline) {
			p.kill()
			t.Fatal("the agent's stdin did not fill")
		}
	}
	p.stdin.Close() // the editor goes away
	// Its answers are more than the pipe and the queue hold: the last
	// are dropped.
	// The drop is said when the queue fills, and again only once the
	// pipe has taken all those queued, which it may do before it fills
	// when the tap's writer lags on a loaded machine: a few times at
	// most, never once per dropped answer (some 3,000 here).
	code, stderr := p.wait(t, read)
	if n := strings.Count(stderr, "are dropped"); !endedAfterGrace(code) || n < 1 || n > 3 {
		t.Errorf("tap exit %d, want %d (the agent ended by SIGTERM), and the drop of answers said %d times, want 1-3; stderr:\n%.2000s", code, 128+int(syscall.SIGTERM), n, stderr)
	}
	noProcessLeft(t, filepath.Join(dir, "child-pid"))
}

// TestTapAnswerQueueBounds: the answers queued for an agent that does not
// read its stdin are bounded in count and in bytes; beyond, they are
// dropped, said once until the agent has read all those queued.
func TestTapAnswerQueueBounds(t *testing.T) {
	small := []byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n")
	big := make([]byte, maxAnswerBytes/2)
	for _, tc := range []struct {
		name   string
		send   [][]byte
		queued int // answers in the queue after send
		said   int // times the drop is said
	}{
		{"under the bounds", [][]byte{small, big, small}, 3, 0},
		{"count", repeat(small, maxAnswers+5), maxAnswers, 1},
		{"bytes", [][]byte{big, big, small, big}, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			tp, _ := newTap(stdio{err: &stderr}, tapFlags{answer: true})
			for _, r := range tc.send {
				tp.queueAnswer(r)
			}
			said := strings.Count(stderr.String(), "are dropped")
			if len(tp.answers) != tc.queued || said != tc.said {
				t.Fatalf("%d queued, the drop said %d times; want %d and %d:\n%s", len(tp.answers), said, tc.queued, tc.said, stderr.String())
			}
			if tc.said == 0 {
				return
			}
			// Once the agent has read them all, a new drop is said again.
			for len(tp.answers) > 0 {
				tp.queued.Add(-int64(len(<-tp.answers)))
			}
			tp.queueAnswer(small)
			for _, r := range tc.send {
				tp.queueAnswer(r)
			}
			if said := strings.Count(stderr.String(), "are dropped"); said != 2*tc.said {
				t.Errorf("the drop said %d times after the queue was read, want %d:\n%s", said, 2*tc.said, stderr.String())
			}
		})
	}
}

// TestTapEventsDroppedAnswers: --events has a reply event only for an
// answer the tap queued for the agent; an answer dropped (the queue is
// full, or the agent's stdin closed) has none, while the request still
// does not reach the editor.
func TestTapEventsDroppedAnswers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		requests int
		closed   bool // the agent's stdin is closed
		replies  int
	}{
		{"queued", 3, false, 3},
		{"queue full", maxAnswers + 3, false, maxAnswers},
		{"stdin closed", 3, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			tp, _ := newTap(stdio{err: &stderr}, tapFlags{answer: true, agent: "cursor"})
			evs := filepath.Join(t.TempDir(), "events.jsonl")
			var err error
			if tp.events, err = os.Create(evs); err != nil {
				t.Fatal(err)
			}
			defer tp.close()
			tp.inClosed.Store(tc.closed)
			for i := range tc.requests {
				req := `{"jsonrpc":"2.0","id":` + strconv.Itoa(100+i) + `,"method":"cursor/task","params":{"toolCallId":"t` + strconv.Itoa(i) + `"}}` + "\n"
				if !tp.observe([]byte(req), replay.AgentToClient) {
					t.Fatalf("request %d would reach the editor; the tap answers it", i)
				}
			}
			b, _ := os.ReadFile(evs)
			if n := strings.Count(string(b), `"type":"reply"`); n != tc.replies || len(tp.answers) != tc.replies {
				t.Errorf("%d reply events, %d answers queued; want %d of each; stderr:\n%s", n, len(tp.answers), tc.replies, stderr.String())
			}
		})
	}
}

func repeat(b []byte, n int) [][]byte {
	s := make([][]byte, n)
	for i := range s {
		s[i] = b
	}
	return s
}

// padEditor writes initialize and n lines of about padLine bytes to the
// tap's stdin, then closes it (the editor goes away); closed is closed
// once it has.
func padEditor(p *tapProc, n int) (closed <-chan struct{}) {
	c := make(chan struct{})
	go func() {
		defer close(c)
		defer p.stdin.Close()
		io.WriteString(p.stdin, initialize)
		pad := strings.Repeat("y", padLine)
		for i := range n {
			line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"_editor/pad","params":{"n":%d,"pad":"%s"}}`+"\n", i, pad)
			if _, err := io.WriteString(p.stdin, line); err != nil {
				return
			}
		}
	}()
	return c
}

// waitFile waits for the file at path, or kills the tap and fails.
func waitFile(t *testing.T, p *tapProc, path string) {
	t.Helper()
	for deadline := time.Now().Add(stall); ; time.Sleep(10 * time.Millisecond) { // polls a file: no event to wait on
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			p.kill()
			t.Fatalf("no %s", path)
		}
	}
}

// TestTapEditorLeavesUnreadLines: an agent that never reads its stdin
// again, while the editor writes more than the agent's stdin pipe holds
// and closes its side: the tap sees the editor's end although a write to
// the agent is held up, gives the agent the grace period, ends it (the
// tap exits with the agent's SIGTERM) and says what the agent left unread.
func TestTapEditorLeavesUnreadLines(t *testing.T) {
	dir := t.TempDir()
	fakeEnv(t, "unread", dir)
	p := startTap(t, dir, "--grace", "100ms")
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(io.Discard, p.stdout)
	}()
	// The editor goes away once the agent has started its grandchild: a
	// slow start (a race build on a busy machine) must not be ended
	// before there is a group to check.
	waitFile(t, p, filepath.Join(dir, "child-pid"))
	closed := padEditor(p, 120) // some 130 KiB: more than a pipe holds
	code, stderr := p.wait(t, read)
	<-closed
	if !endedAfterGrace(code) || !strings.Contains(stderr, "has not read the editor's last") {
		t.Errorf("tap exit %d, want %d (the agent ended by SIGTERM) and the unread lines said; stderr:\n%.2000s", code, 128+int(syscall.SIGTERM), stderr)
	}
	noProcessLeft(t, filepath.Join(dir, "child-pid"))
}

// TestTapEditorLeavesSlowAgent: the editor writes more than the agent's
// stdin pipe holds and closes its side before the agent reads again;
// the agent reads within the grace period and gets every line, then its
// stdin ends: the tap exits with the agent's status and loses nothing.
func TestTapEditorLeavesSlowAgent(t *testing.T) {
	dir := t.TempDir()
	fakeEnv(t, "late", dir)
	goFile := filepath.Join(dir, "go")
	t.Setenv("ACPDIALECT_FAKE_GO", goFile)
	rec := filepath.Join(dir, "rec.jsonl")
	// The grace period starts when the editor closes its side, maybe
	// before the agent has even started (a race build on a busy
	// machine): it must not end an agent that is only slow. The tap
	// still has stall to exit.
	p := startTap(t, dir, "--record", rec, "--grace", "1m")
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(io.Discard, p.stdout)
	}()
	const n = 300 // some 330 KiB
	select {
	case <-padEditor(p, n):
	case <-time.After(stall):
		p.kill()
		t.Fatal("the tap held the editor's writes up")
	}
	os.WriteFile(goFile, nil, 0o644) // the agent reads now
	code, stderr := p.wait(t, read)
	agentIn, _ := os.ReadFile(filepath.Join(dir, "agent-in"))
	record, _ := os.ReadFile(rec)
	got, recorded := strings.Count(string(agentIn), `"_editor/pad"`), strings.Count(string(record), `"_editor/pad"`)
	if code != 3 || got != n || recorded != n {
		t.Errorf("tap exit %d (want the agent's 3); the agent got %d of the editor's %d lines, the record has %d; stderr:\n%.2000s", code, got, n, recorded, stderr)
	}
	noProcessLeft(t, filepath.Join(dir, "child-pid"))
}
