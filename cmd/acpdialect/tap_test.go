package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
)

// lockedBuffer is a bytes.Buffer safe for the SDK's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fakeEnv points the fake agent's logs into dir.
func fakeEnv(t *testing.T, mode, dir string) {
	t.Setenv("ACPDIALECT_FAKE_AGENT", mode)
	t.Setenv("ACPDIALECT_FAKE_IN", filepath.Join(dir, "agent-in"))
	t.Setenv("ACPDIALECT_FAKE_OUT", filepath.Join(dir, "agent-out"))
	t.Setenv("ACPDIALECT_FAKE_CHILD_PID", filepath.Join(dir, "child-pid"))
}

// TestTapSDK runs the real SDK as the editor against the fake agent
// through the tap: every byte passes unchanged both ways (with --answer,
// all but the requests the tap answers and its answers), the recorded
// transcript replays to the events of the live run, the tap exits with the
// agent's status, and no agent process is left.
func TestTapSDK(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, answer := range []bool{false, true} {
		t.Run("answer="+strconv.FormatBool(answer), func(t *testing.T) {
			dir := t.TempDir()
			fakeEnv(t, "cursor", dir)
			rec, evs := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "events.jsonl")
			args := []string{"tap", "--record", rec, "--events", evs}
			if answer {
				args = append(args, "--answer")
			}
			args = append(args, "--", self, "-test.run=^$")
			sent, got, code := runEditor(t, args)
			if code != 3 {
				t.Fatalf("tap exit %d, want the agent's 3", code)
			}
			agentIn, _ := os.ReadFile(filepath.Join(dir, "agent-in"))
			agentOut, _ := os.ReadFile(filepath.Join(dir, "agent-out"))
			wantIn, wantOut := string(agentIn), string(agentOut)
			if answer {
				// The tap answered 70 and 71 itself: the editor never saw
				// them, and the agent got the dialect's answers.
				wantIn = without(t, wantIn, `"id":70,"result":{}`, `"id":71,"result":{"outcome":{"outcome":"cancelled"}}`)
				wantOut = without(t, wantOut, `"id":70,"method":"cursor/task"`, `"id":71,"method":"cursor/ask_question"`)
			} else if !strings.Contains(wantIn, `"id":70,"error":{"code":-32601`) {
				t.Errorf("without --answer the editor (SDK) declines cursor/task; the agent got:\n%.2000s", wantIn)
			}
			if sent != wantIn {
				t.Errorf("editor -> agent bytes differ: sent %d, agent got %d (after the tap's own answers)", len(sent), len(wantIn))
			}
			if got != wantOut {
				t.Errorf("agent -> editor bytes differ: agent sent %d, editor got %d (after the answered requests)", len(wantOut), len(got))
			}
			sameEvents(t, rec, evs)
			noProcessLeft(t, filepath.Join(dir, "child-pid"))
		})
	}
}

// without removes the lines that contain each marker, which must be there.
func without(t *testing.T, s string, markers ...string) string {
	t.Helper()
	lines := strings.SplitAfter(s, "\n")
	var out strings.Builder
	for _, l := range lines {
		drop := false
		for _, m := range markers {
			drop = drop || strings.Contains(l, m)
		}
		if !drop {
			out.WriteString(l)
		}
	}
	for _, m := range markers {
		if !strings.Contains(s, m) {
			t.Errorf("no line with %s", m)
		}
	}
	return out.String()
}

// runEditor runs the tap in-process with the SDK as its editor: one
// session, one prompt, then the editor closes its side. It returns the
// bytes the editor wrote and read, and the tap's status.
func runEditor(t *testing.T, args []string) (sent, got string, code int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		c := runCtx(context.Background(), args, inR, outW, os.Stderr)
		outW.Close()
		inR.Close()
		done <- c
	}()
	var w, r lockedBuffer
	editor := acp.NewClientSideConnection(&editorClient{}, io.MultiWriter(inW, &w), io.TeeReader(outR, &r))
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if _, err := editor.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	sess, err := editor.NewSession(ctx, acp.NewSessionRequest{Cwd: "/tmp", McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := editor.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("go")}}); err != nil {
		t.Fatal(err)
	}
	inW.Close() // the editor goes away
	select {
	case code = <-done:
	case <-time.After(wait):
		t.Fatal("the tap did not end after the editor closed its side")
	}
	io.Copy(io.Discard, outR)
	return w.String(), r.String(), code
}

// sameEvents: the recorded transcript replays to the live run's events.
func sameEvents(t *testing.T, rec, evs string) {
	t.Helper()
	live, err := os.ReadFile(evs)
	if err != nil {
		t.Fatal(err)
	}
	code, replayed, errs := cli(t, "", "replay", "--json", "--strict", rec)
	if code != 0 || replayed != string(live) {
		t.Errorf("replay of the record (exit %d, %s) differs from the live events:\nreplay:\n%s\nlive:\n%s", code, errs, replayed, live)
	}
	if !strings.Contains(string(live), `"method":"cursor/task"`) {
		t.Errorf("no cursor/task reply among the live events:\n%s", live)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(live)), "\n") {
		if !json.Valid([]byte(l)) {
			t.Errorf("not a JSON line: %s", l)
		}
	}
}

// noProcessLeft: the agent's grandchild (in its group) is gone.
func noProcessLeft(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the fake agent left no grandchild pid: %v", err)
	}
	pid, _ := strconv.Atoi(string(b))
	deadline := time.Now().Add(wait)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("agent process %d left behind", pid)
		}
		time.Sleep(10 * time.Millisecond) // polls a process table: no event to wait on
	}
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// TestTapGrace: an agent that ignores the end of its stdin is ended, with
// its group, after the grace period.
func TestTapGrace(t *testing.T) {
	self, _ := os.Executable()
	dir := t.TempDir()
	fakeEnv(t, "stubborn", dir)
	// The client's stdin ends once the agent has started its grandchild:
	// a slow start (a race build on a busy machine) must not be ended
	// before there is a group to check.
	stdin, client := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runCtx(context.Background(), []string{"tap", "--grace", "50ms", "--", self, "-test.run=^$"},
			stdin, io.Discard, io.Discard)
	}()
	for deadline := time.Now().Add(wait); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "child-pid")); err == nil || time.Now().After(deadline) {
			break
		}
	}
	client.Close()
	select {
	case code := <-done:
		if !endedAfterGrace(code) {
			t.Errorf("exit %d, want %d (ended by SIGTERM, or SIGKILL after it)", code, 128+int(syscall.SIGTERM))
		}
	case <-time.After(wait):
		t.Fatal("the stubborn agent was not ended")
	}
	noProcessLeft(t, filepath.Join(dir, "child-pid"))
}

// endedAfterGrace reports whether the tap's exit code says the agent was
// ended after the grace period: by SIGTERM, or by the SIGKILL a grace
// later when the agent, on a loaded machine, had not run to take the
// SIGTERM in time.
func endedAfterGrace(code int) bool {
	return code == 128+int(syscall.SIGTERM) || code == 128+int(syscall.SIGKILL)
}

// TestTapSignal: SIGTERM and SIGHUP to the tap reach the agent's group;
// the tap exits with the agent's status, and every line that passed is in
// the record.
func TestTapSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) { tapSignal(t, sig) })
	}
}

func tapSignal(t *testing.T, sig syscall.Signal) {
	self, _ := os.Executable()
	dir := t.TempDir()
	fakeEnv(t, "cursor", dir)
	rec := filepath.Join(dir, "rec.jsonl")
	cmd := exec.Command(self, "-test.run=^$", "--", "tap", "--record", rec, "--", self, "-test.run=^$")
	cmd.Env = append(os.Environ(), "ACPDIALECT_CLI_CHILD=1")
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
	// Once the agent's answer is in the record, the agent is up.
	deadline := time.Now().Add(wait)
	for b, _ := os.ReadFile(rec); !bytes.Contains(b, []byte(`"agentInfo"`)); b, _ = os.ReadFile(rec) {
		if time.Now().After(deadline) {
			t.Fatal("the agent did not answer")
		}
		time.Sleep(10 * time.Millisecond) // polls a file: no event to wait on
	}
	cmd.Process.Signal(sig)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
		t.Errorf("tap ended with %v, want exit status %d", err, 128+int(sig))
	}
	if b, _ := os.ReadFile(rec); bytes.Count(b, []byte("\n")) != 2 {
		t.Errorf("record after the signal:\n%s", b)
	}
	noProcessLeft(t, filepath.Join(dir, "child-pid"))
}

// TestTapEditorStopsReading: an editor that closes the tap's stdout gets
// the tap's SIGPIPE caught: the tap ends the agent's whole group (its
// grandchild too) and says why (a write of stdout, named as every
// command names it), instead of dying and leaving them.
func TestTapEditorStopsReading(t *testing.T) {
	self, _ := os.Executable()
	dir := t.TempDir()
	fakeEnv(t, "cursor", dir)
	cmd := exec.Command(self, "-test.run=^$", "--", "tap", "--", self, "-test.run=^$")
	cmd.Env = append(os.Environ(), "ACPDIALECT_CLI_CHILD=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "child-pid")); err == nil || time.Now().After(deadline) {
			break
		}
	}
	stdout.Close() // the editor stops reading
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGTERM) || !strings.Contains(stderr.String(), "editor gone: write stdout: ") {
		t.Errorf("tap ended with %v (want the agent's SIGTERM, %d); stderr:\n%s", err, 128+int(syscall.SIGTERM), stderr.String())
	}
	noProcessLeft(t, filepath.Join(dir, "child-pid"))
}

// TestTapEndlessLine: an agent that writes a line without end is ended
// once the line is longer than the tap holds (maxTapLine), with the
// reason on stderr, instead of growing the tap's memory until the machine
// runs out; what the agent wrote before that line reached the editor.
func TestTapEndlessLine(t *testing.T) {
	self, _ := os.Executable()
	dir := t.TempDir()
	fakeEnv(t, "endless", dir)
	cmd := exec.Command(self, "-test.run=^$", "--", "tap", "--", self, "-test.run=^$")
	cmd.Env = append(os.Environ(), "ACPDIALECT_CLI_CHILD=1")
	var stderr, stdout bytes.Buffer
	cmd.Stderr, cmd.Stdout = &stderr, &stdout
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGTERM) {
			t.Errorf("tap ended with %v (want the agent's SIGTERM); stderr:\n%s", err, stderr.String())
		}
	case <-time.After(wait):
		cmd.Process.Kill()
		t.Fatalf("the tap still runs %v after the agent began a line without end; stderr:\n%s", wait, stderr.String())
	}
	if !strings.Contains(stderr.String(), "agent: a line longer than the tap holds (64 MiB without a newline): ending it") {
		t.Errorf("stderr does not say why the agent was ended:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), `"agentInfo"`) || stdout.Len() > 1<<20 {
		t.Errorf("the editor got %d bytes, want the initialize response alone:\n%.300s", stdout.Len(), stdout.String())
	}
	noProcessLeft(t, filepath.Join(dir, "child-pid"))
}

// TestTapDetachedChild: a process the agent started outside its group
// (setsid) keeps the agent's stdout open after the agent exits: the tap
// stops reading it after the grace period and exits with the agent's
// status, instead of waiting for that process.
func TestTapDetachedChild(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	// Its stderr goes elsewhere: the test's stderr is a buffer, which Wait
	// would wait to copy (the command's is the terminal's file). The agent
	// exits once the process has left its group (it wrote its pid after
	// setsid), or the group's end would still reach it.
	script := `setsid -f sh -c 'echo $$ > ` + pidFile + `; exec sleep 30' 2>/dev/null; ` +
		`while [ ! -s ` + pidFile + ` ]; do sleep 0.01; done; echo '{}'; exit 3`
	// The editor stays: at its EOF the grace period would end an agent
	// still waiting for setsid on a loaded machine (exit 143).
	editor, stay := io.Pipe()
	defer stay.Close()
	start := time.Now()
	var stderr lockedBuffer // the agent's stderr is copied in by another goroutine
	code := runCtx(context.Background(), []string{"tap", "--grace", "100ms", "--", "sh", "-c", script},
		editor, io.Discard, &stderr)
	if code != 3 || time.Since(start) > 10*time.Second || !strings.Contains(stderr.String(), "stopped reading") {
		t.Errorf("exit %d after %v; stderr: %s", code, time.Since(start), stderr.String())
	}
	// The editor is still there, but what writes the agent's stdin ends
	// with the agent.
	noGoroutine(t, "(*tap).sendAnswers")
}

// noGoroutine: no goroutine runs fn (a name as a stack trace gives it).
func noGoroutine(t *testing.T, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) { // polls the goroutines: no event to wait on
		stacks := buf[:runtime.Stack(buf, true)]
		if !bytes.Contains(stacks, []byte(fn)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a goroutine still runs %s:\n%s", fn, stacks)
		}
	}
}

// TestTapAgentClosesStdin: an agent that closes its stdin is not the
// editor going away: the tap says whose pipe closed, and the agent runs on
// (no grace period starts) while the editor is there; with --answer, the
// tap's answer that has nowhere to go too.
func TestTapAgentClosesStdin(t *testing.T) {
	const task = `{"jsonrpc":"2.0","id":70,"method":"cursor/task","params":{"toolCallId":"t1"}}`
	for _, tc := range []struct {
		name  string
		flags []string
		then  string // what the agent does after it closed its stdin
	}{
		{"editor's line", nil, ""},
		{"tap's answer", []string{"--answer", "--agent", "cursor"}, "echo '" + task + "'; "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			editor, client := io.Pipe()
			var out, stderr lockedBuffer // the agent's stderr is copied in by another goroutine
			waitFor := func(s string) {
				for deadline := time.Now().Add(wait); !strings.Contains(out.String(), s) && time.Now().Before(deadline); {
					time.Sleep(5 * time.Millisecond) // polls the output: no event to wait on
				}
			}
			go func() {
				io.WriteString(client, "{\"a\":1}\n")
				waitFor("started") // the agent has closed its stdin
				io.WriteString(client, "{\"b\":2}\n")
				waitFor("done") // it ran on, past the grace period
				client.Close()
			}()
			script := "exec 0<&-; echo started; " + tc.then + "sleep 0.5; echo done"
			args := append(append([]string{"tap", "--grace", "100ms"}, tc.flags...), "--", "sh", "-c", script)
			code := runCtx(context.Background(), args, editor, &out, &stderr)
			if code != 0 || out.String() != "started\ndone\n" || !strings.Contains(stderr.String(), "agent: its stdin is closed") ||
				strings.Contains(stderr.String(), "editor") {
				t.Errorf("exit %d, out %q, stderr:\n%s", code, out.String(), stderr.String())
			}
			noGoroutine(t, "(*tap).sendAnswers")
		})
	}
}

// TestTapStartFails: an agent that is not found exits 127, as a shell
// says it, and leaves an earlier record as it was.
func TestTapStartFails(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	os.WriteFile(rec, []byte("{}\n"), 0o644)
	code := runCtx(context.Background(), []string{"tap", "--record", rec, "--", filepath.Join(t.TempDir(), "no-such-agent")},
		strings.NewReader(""), io.Discard, io.Discard)
	if b, _ := os.ReadFile(rec); code != 127 || string(b) != "{}\n" {
		t.Errorf("exit %d, record %q; want 127 and the record kept", code, b)
	}
}

// TestTapFrameWithSpace: a frame with leading whitespace is read by the
// tap as replay reads its record: the same events.
func TestTapFrameWithSpace(t *testing.T) {
	dir := t.TempDir()
	rec, evs := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "events.jsonl")
	line := ` {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read","kind":"read","status":"pending"}}}`
	code := runCtx(context.Background(), []string{"tap", "--record", rec, "--events", evs, "--", "sh", "-c", "echo '" + line + "'"},
		strings.NewReader(""), io.Discard, io.Discard)
	got, _ := os.ReadFile(evs)
	if code != 0 || !bytes.Contains(got, []byte(`"tool_call_id":"t1"`)) {
		t.Errorf("exit %d, events:\n%s", code, got)
	}
	_, want, _ := cli(t, "", "replay", "--json", rec)
	if string(got) != want {
		t.Errorf("tap events:\n%s\nreplay of the record:\n%s", got, want)
	}
}

// editorClient is an editor that supports nothing beyond updates.
type editorClient struct{}

var errNo = errors.New("not supported")

func (*editorClient) SessionUpdate(context.Context, acp.SessionNotification) error { return nil }
func (*editorClient) RequestPermission(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{}}}, nil
}
func (*editorClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errNo
}
func (*editorClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errNo
}
func (*editorClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errNo
}
func (*editorClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNo
}
func (*editorClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNo
}
func (*editorClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNo
}
func (*editorClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNo
}

// TestTapEventsEscaped: --events escapes the controls encoding/json
// leaves raw, as replay --json does: the file is safe to cat and is the
// replay of the record.
func TestTapEventsEscaped(t *testing.T) {
	dir := t.TempDir()
	rec, evs, agent := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "events.jsonl"), filepath.Join(dir, "agent.jsonl")
	line := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s\u009b1","update":{"sessionUpdate":"tool_call","toolCallId":"t\u202e1","title":"x\u007f","kind":"read","status":"pending"}}}` + "\n"
	if err := os.WriteFile(agent, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	code := runCtx(context.Background(), []string{"tap", "--record", rec, "--events", evs, "--", "cat", agent},
		strings.NewReader(""), io.Discard, io.Discard)
	got, _ := os.ReadFile(evs)
	if code != 0 || !bytes.Contains(got, []byte(`"tool_call_id":"t\u202e1"`)) {
		t.Fatalf("exit %d, events:\n%s", code, got)
	}
	checkInert(t, string(got))
	if _, want, _ := cli(t, "", "replay", "--json", rec); string(got) != want {
		t.Errorf("tap events:\n%s\nreplay of the record:\n%s", got, want)
	}
}

// TestTapLimitLine: the tap's Conn has replay's line limit, so that its
// --events are the replay of its record even for a rewritten response
// too long for the acp-go-sdk (no config event for it in either).
func TestTapLimitLine(t *testing.T) {
	dir := t.TempDir()
	rec, evs, agent := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "events.jsonl"), filepath.Join(dir, "agent.jsonl")
	// The agent's response fits the SDK's line; its rewrite (the config
	// options added, some 140 bytes) does not.
	lines := strings.SplitAfter(grokNew(wiretap.MaxLine-200), "\n")
	tool := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read","kind":"read","status":"pending"}}}` + "\n"
	if err := os.WriteFile(agent, []byte(lines[1]+lines[3]+tool), 0o644); err != nil {
		t.Fatal(err)
	}
	// The agent answers each request once the tap has passed it on. The
	// editor's side ends at once, so the grace period runs while the tap
	// still passes lines of some 10 MB on: the default 2s is too short
	// under -race on a loaded machine (CI saw the agent ended, exit 143).
	script := `read l; head -n 1 "$0"; read l; tail -n +2 "$0"`
	code := runCtx(context.Background(), []string{"tap", "--grace", "2m", "--record", rec, "--events", evs, "--", "sh", "-c", script, agent},
		strings.NewReader(lines[0]+lines[2]), io.Discard, io.Discard)
	got, _ := os.ReadFile(evs)
	if code != 0 || bytes.Contains(got, []byte(`"type":"config"`)) || !bytes.Contains(got, []byte(`"tool_call_id":"t1"`)) {
		t.Fatalf("exit %d, events:\n%.500s", code, got)
	}
	if _, want, _ := cli(t, "", "replay", "--json", rec); string(got) != want {
		t.Errorf("tap events:\n%.500s\nreplay of the record:\n%.500s", got, want)
	}
}

// TestTapAnswersUnderscoreAlias: with --answer the tap answers a vendor
// request sent under its "_" alias (Grok CLI 1.0.41 sends
// _x.ai/ask_user_question), as the Conn reads it: before, the Conn made
// the answer but the tap, looking up the name as sent, passed the request
// to the editor and the agent waited.
func TestTapAnswersUnderscoreAlias(t *testing.T) {
	const ask = `{"jsonrpc":"2.0","id":7,"method":"_x.ai/ask_user_question","params":{"sessionId":"s1","toolCallId":"c1","questions":[{"question":"Q","options":[{"label":"A"}]}]}}`
	editor, client := io.Pipe()
	var out, stderr lockedBuffer
	go func() {
		for deadline := time.Now().Add(wait); !strings.Contains(out.String(), "got:") && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond) // polls the output: no event to wait on
		}
		client.Close()
	}()
	script := "echo '" + ask + "'; read -r line; echo \"got:$line\""
	code := runCtx(context.Background(), []string{"tap", "--answer", "--agent", "grok", "--", "sh", "-c", script}, editor, &out, &stderr)
	if want := `got:{"jsonrpc":"2.0","id":7,"result":{"outcome":"cancelled"}}`; code != 0 || strings.TrimSpace(out.String()) != want {
		t.Errorf("exit %d, editor got %q, want only %q; stderr:\n%s", code, out.String(), want, stderr.String())
	}
}
