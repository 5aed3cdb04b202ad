package wiretap_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// These tests run the real acp.ClientSideConnection over io.Pipe (no
// buffer at all: the worst case for deadlocks) against a scripted agent:
// the test body plays the agent, and the client's calls run in goroutines.

// waitLimit is how long a test waits for what should come before it calls
// it a hang: long, as only a hang reaches it, and the race detector on a
// loaded machine takes over 10 s for the 10 MiB frames at the SDK's limit.
const waitLimit = 30 * time.Second

// testClient is an SDK client that asks the tap about extension methods
// and logs what the SDK delivers, in delivery order.
type testClient struct {
	tap     *wiretap.Tap
	slow    time.Duration // per session/update, to back the SDK's queue up
	slowExt time.Duration // per extension call, as a busy client

	mu  sync.Mutex
	log []string
	ext []extCall
}

type extCall struct {
	method  string
	params  string
	handled bool
	result  any
	err     error
}

func (c *testClient) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if c.slowExt > 0 {
		time.Sleep(c.slowExt)
	}
	res, handled, err := c.tap.HandleExtension(ctx, method, params)
	c.mu.Lock()
	c.log = append(c.log, "ext:"+method+":"+gjson.GetBytes(params, "toolCallId").Str)
	c.ext = append(c.ext, extCall{method, string(params), handled, res, err})
	c.mu.Unlock()
	if !handled {
		return nil, acp.NewMethodNotFound(method)
	}
	return res, err
}

func (c *testClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	if c.slow > 0 {
		time.Sleep(c.slow)
	}
	u := n.Update
	var entry string
	switch {
	case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
		entry = "chunk:" + u.AgentMessageChunk.Content.Text.Text
	case u.ToolCall != nil:
		entry = "tool_call:" + string(u.ToolCall.ToolCallId)
	case u.ToolCallUpdate != nil:
		entry = "tool_call_update:" + string(u.ToolCallUpdate.ToolCallId)
	default:
		entry = "other"
	}
	c.mu.Lock()
	c.log = append(c.log, entry)
	c.mu.Unlock()
	return nil
}

func (c *testClient) calls() ([]string, []extCall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.log...), append([]extCall(nil), c.ext...)
}

var errUnused = errors.New("not used by the test")

func (*testClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errUnused
}

func (*testClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errUnused
}

func (*testClient) RequestPermission(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	return acp.RequestPermissionResponse{}, errUnused
}

func (*testClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errUnused
}

func (*testClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errUnused
}

func (*testClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errUnused
}

func (*testClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errUnused
}

func (*testClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errUnused
}

// harness wires a tap, the SDK and a scripted agent over two pipes.
type harness struct {
	t      *testing.T
	tap    *wiretap.Tap
	rec    *recorder
	client *testClient
	csc    *acp.ClientSideConnection

	c2aR *io.PipeReader // the agent's stdin
	c2aW *io.PipeWriter
	a2cR *io.PipeReader // the agent's stdout
	a2cW *io.PipeWriter

	want  chan struct{} // asks the agent's reader for one line
	lines chan []byte
	quit  chan struct{} // closed at shutdown
	sid   string
}

func start(t *testing.T, opts wiretap.Options) *harness {
	return startConn(t, acpdialect.Options{}, opts)
}

// startConn is start with the Conn's options given. A non-nil
// opts.OnEvent runs after the harness records each event.
func startConn(t *testing.T, copts acpdialect.Options, opts wiretap.Options) *harness {
	return startReg(t, registry(), copts, opts)
}

// startReg is startConn with the registry given.
func startReg(t *testing.T, reg *acpdialect.Registry, copts acpdialect.Options, opts wiretap.Options) *harness {
	before := runtime.NumGoroutine()
	h := &harness{t: t, rec: &recorder{}, want: make(chan struct{}), lines: make(chan []byte), quit: make(chan struct{})}
	// The recorder sees every event first; a test's own OnEvent (a client
	// that answers from it) runs after.
	if on := opts.OnEvent; on != nil {
		opts.OnEvent = func(ev acpdialect.Event) { h.rec.add(ev); on(ev) }
	} else {
		opts.OnEvent = h.rec.add
	}
	h.tap = wiretap.New(reg.NewConn(copts), opts)
	h.client = &testClient{tap: h.tap}
	h.c2aR, h.c2aW = io.Pipe()
	h.a2cR, h.a2cW = io.Pipe()
	h.csc = acp.NewClientSideConnection(h.client, h.tap.Writer(h.c2aW), h.tap.Reader(h.a2cR))
	h.csc.SetLogger(slog.New(slog.DiscardHandler))
	go h.agentReader()
	t.Cleanup(func() { h.shutdown(before) })
	return h
}

// agentReader reads the agent's stdin one line per request, so that the
// agent reads only when the script says so.
func (h *harness) agentReader() {
	sc := bufio.NewScanner(h.c2aR)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	defer close(h.lines)
	for {
		select {
		case <-h.want:
		case <-h.quit:
			return
		}
		if !sc.Scan() {
			return
		}
		select {
		case h.lines <- append([]byte(nil), sc.Bytes()...):
		case <-h.quit:
			return
		}
	}
}

// next is the agent reading the client's next frame.
func (h *harness) next() []byte {
	h.t.Helper()
	select {
	case h.want <- struct{}{}:
	case <-time.After(waitLimit):
		h.t.Fatal("agent: stdin reader gone")
	}
	select {
	case line, ok := <-h.lines:
		if !ok {
			h.t.Fatal("agent: stdin closed")
		}
		return line
	case <-time.After(waitLimit):
		h.t.Fatal("agent: no frame from the client")
	}
	return nil
}

// expect reads the next frame and checks its method, returning its id.
func (h *harness) expect(method string) json.RawMessage {
	h.t.Helper()
	f := h.next()
	if m := gjson.GetBytes(f, "method").Str; m != method {
		h.t.Fatalf("agent: got %s, want method %s", f, method)
	}
	return json.RawMessage(gjson.GetBytes(f, "id").Raw)
}

// send writes frames to the client, one Write each.
func (h *harness) send(frames ...[]byte) {
	h.t.Helper()
	for _, f := range frames {
		if _, err := h.a2cW.Write(append(f, '\n')); err != nil {
			h.t.Fatalf("agent: write: %v", err)
		}
	}
}

// call runs a client call in a goroutine; the returned func waits for it.
func call[T any](h *harness, f func(context.Context) (T, error)) func() T {
	type res struct {
		v   T
		err error
	}
	ch := make(chan res, 1)
	go func() {
		v, err := f(context.Background())
		ch <- res{v, err}
	}()
	return func() T {
		h.t.Helper()
		select {
		case r := <-ch:
			if r.err != nil {
				h.t.Fatalf("client call: %v", r.err)
			}
			return r.v
		case <-time.After(waitLimit):
			h.t.Fatal("client call did not return")
		}
		var zero T
		return zero
	}
}

// handshake runs initialize (the agent names itself agentName) and
// session/new.
func (h *harness) handshake(agentName string) {
	h.t.Helper()
	wait := call(h, func(ctx context.Context) (acp.InitializeResponse, error) {
		return h.csc.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	})
	_, resp := testwire.Initialize(h.expect("initialize"), agentName)
	h.send(resp)
	if got := wait(); got.AgentInfo == nil || got.AgentInfo.Name != agentName {
		h.t.Fatalf("initialize: %+v", got)
	}
	h.sid = "s1"
	waitNew := call(h, func(ctx context.Context) (acp.NewSessionResponse, error) {
		return h.csc.NewSession(ctx, acp.NewSessionRequest{Cwd: "/work", McpServers: []acp.McpServer{}})
	})
	_, resp = testwire.SessionNew(h.expect("session/new"), h.sid)
	h.send(resp)
	waitNew()
}

// prompt starts a turn; the returned func ends it (the agent answers the
// prompt) and waits for Prompt to return.
func (h *harness) prompt() (end func()) {
	h.t.Helper()
	wait := call(h, func(ctx context.Context) (acp.PromptResponse, error) {
		return h.csc.Prompt(ctx, acp.PromptRequest{SessionId: acp.SessionId(h.sid), Prompt: []acp.ContentBlock{acp.TextBlock("go")}})
	})
	id := h.expect("session/prompt")
	return func() {
		h.t.Helper()
		h.send(testwire.PromptResponse(id, ""))
		wait()
	}
}

// rest closes the client's side of the agent's stdout and returns every
// frame the client still sent.
func (h *harness) rest() []string {
	h.t.Helper()
	_ = h.a2cW.Close()
	select {
	case <-h.csc.Done():
	case <-time.After(waitLimit):
		h.t.Fatal("SDK did not see the agent's EOF")
	}
	_ = h.c2aW.Close()
	var out []string
	for {
		select {
		case h.want <- struct{}{}:
		case <-time.After(waitLimit):
			h.t.Fatal("agent: stdin reader gone")
		}
		line, ok := <-h.lines
		if !ok {
			return out
		}
		out = append(out, string(line))
	}
}

// drain makes the agent read and drop the client's frames until the
// returned func is called.
func (h *harness) drain() (stop func()) {
	done, quit := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case h.want <- struct{}{}:
			case <-quit:
				return
			}
			select {
			case _, ok := <-h.lines:
				if !ok {
					return
				}
			case <-quit:
				return
			}
		}
	}()
	return func() { close(quit); <-done }
}

// shutdown closes everything and checks that no goroutine is left.
func (h *harness) shutdown(before int) {
	_ = h.a2cW.Close()
	_ = h.c2aW.Close()
	_ = h.c2aR.Close()
	_ = h.a2cR.Close()
	close(h.quit)
	<-h.csc.Done()
	deadline := time.Now().Add(waitLimit)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			h.t.Fatalf("%d goroutines left behind (%d before):\n%s", runtime.NumGoroutine()-before, before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSDKCursorTask: with the real SDK, a cursor/task request reaches the
// client's HandleExtensionMethod whatever its id's type and whether it
// comes before or after its tool call; the agent gets exactly one reply,
// with the id bytes it sent; OnEvent gets every event in wire order, the
// subagent card and the reply included, even though the agent writes the
// three frames at once and the SDK answers the request later on its own
// goroutine.
func TestSDKCursorTask(t *testing.T) {
	params := map[string]any{"toolCallId": "tool-1", "description": "Summarize src", "prompt": "Read src",
		"model": "composer-2.5-fast", "agentId": "a1", "subagentType": map[string]any{"custom": map[string]any{}}}
	ids := []json.RawMessage{json.RawMessage(`7`), json.RawMessage(`"abc"`), json.RawMessage(`1.0e0`)}
	for _, id := range ids {
		for _, taskFirst := range []bool{false, true} {
			t.Run(fmt.Sprintf("id %s task first %v", id, taskFirst), func(t *testing.T) {
				h := start(t, wiretap.Options{})
				h.handshake("cursor-agent")
				end := h.prompt()
				toolCall := testwire.CursorTaskToolCall(h.sid, "tool-1")
				task := testwire.CursorTask(id, params)
				completed := testwire.ToolCallCompleted(h.sid, "tool-1", map[string]any{"durationMs": 1200})
				// One write: the SDK reads all three frames before it runs
				// the request's handler.
				burst := [][]byte{toolCall, task, completed}
				want := []string{"tool_call:in_progress:-:-", "tool_call_update:in_progress:composer-2.5-fast:-",
					"reply:" + string(id), "tool_call_update:completed:composer-2.5-fast:1200"}
				if taskFirst {
					burst = [][]byte{task, toolCall, completed}
					want = []string{"reply:" + string(id), "tool_call:in_progress:composer-2.5-fast:-",
						"tool_call_update:completed:composer-2.5-fast:1200"}
				}
				h.send(bytes.Join(burst, []byte("\n")))
				if reply := string(h.next()); reply != `{"jsonrpc":"2.0","id":`+string(id)+`,"result":{}}` {
					t.Fatalf("agent got %s", reply)
				}
				end()
				if rest := h.rest(); len(rest) != 0 {
					t.Fatalf("agent got more frames: %q", rest)
				}

				_, ext := h.client.calls()
				if len(ext) != 1 || !ext[0].handled || ext[0].method != "_cursor/task" || ext[0].err != nil ||
					string(ext[0].result.(json.RawMessage)) != "{}" {
					t.Fatalf("extension calls %+v", ext)
				}
				events := toolEvents(h.rec.all(), "tool-1")
				if got := summarize(events); strings.Join(got, " ") != strings.Join(want, " ") {
					t.Fatalf("OnEvent got %v\nwant        %v", got, want)
				}
				if reply := events[slices.IndexFunc(events, isReply)]; reply.Method != "cursor/task" || string(reply.Result) != "{}" {
					t.Fatalf("reply event %+v", reply)
				}
				card := events[len(events)-1].Payload.SubagentTask
				if card.Description != "Summarize src" || card.Prompt != "Read src" || card.AgentID != "a1" {
					t.Fatalf("card %+v", card)
				}
				if st := h.tap.Stats(); st.Renamed != 1 {
					t.Fatalf("stats %+v", st)
				}
			})
		}
	}
}

func isReply(ev acpdialect.Event) bool { return ev.Type == acpdialect.EventReply }

// toolEvents keeps the events about the tool call id and the replies.
func toolEvents(events []acpdialect.Event, id string) []acpdialect.Event {
	var out []acpdialect.Event
	for _, ev := range events {
		if ev.ToolCallID == id || isReply(ev) {
			out = append(out, ev)
		}
	}
	return out
}

// summarize names each event by type, status, model and duration, or a
// reply by its id.
func summarize(events []acpdialect.Event) []string {
	var out []string
	for _, ev := range events {
		if isReply(ev) {
			out = append(out, "reply:"+string(ev.ID))
			continue
		}
		model, dur := "-", "-"
		if st := ev.Payload.SubagentTask; st != nil {
			if st.Model != "" {
				model = st.Model
			}
			if st.DurationMs != nil {
				dur = fmt.Sprint(*st.DurationMs)
			}
		}
		out = append(out, ev.Type+":"+ev.Payload.Status+":"+model+":"+dur)
	}
	return out
}

// lastCard returns the subagent payload of the last tool event for id.
func lastCard(events []acpdialect.Event, id string) *acpdialect.SubagentTask {
	var st *acpdialect.SubagentTask
	for _, ev := range events {
		if ev.ToolCallID == id && ev.Payload != nil && ev.Payload.SubagentTask != nil {
			st = ev.Payload.SubagentTask
		}
	}
	return st
}

// TestSDKNoStaleCard is the review's ordering reproducer: a client that
// renders the merged states in the order it receives them, with a slow
// HandleExtensionMethod, ends with the completed card. (When the card of a
// cursor/task came back through HandleExtension, it arrived after the
// completion had gone to OnEvent, and the client showed in_progress.)
func TestSDKNoStaleCard(t *testing.T) {
	h := start(t, wiretap.Options{})
	h.client.slowExt = 20 * time.Millisecond
	h.handshake("cursor-agent")
	end := h.prompt()
	h.send([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Task","status":"in_progress","rawInput":{"_toolName":"task"}}}}` + "\n" +
		`{"jsonrpc":"2.0","id":7,"method":"cursor/task","params":{"toolCallId":"t1","description":"D","model":"m"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","rawOutput":{"durationMs":1200}}}}`))
	if reply := string(h.next()); reply != `{"jsonrpc":"2.0","id":7,"result":{}}` {
		t.Fatalf("agent got %s", reply)
	}
	end()
	// Every state, in wire order, in the one stream: on the old design the
	// metadata update and the reply were missing here, and came back
	// later through HandleExtension, after the completion.
	want := []string{"tool_call:in_progress:-:-", "tool_call_update:in_progress:m:-", "reply:7", "tool_call_update:completed:m:1200"}
	if got := summarize(toolEvents(h.rec.all(), "t1")); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("OnEvent got %v\nwant        %v", got, want)
	}
	// The card as the client renders it: the last state it received.
	var card *acpdialect.Payload
	for _, ev := range h.rec.all() {
		if ev.ToolCallID == "t1" {
			card = ev.Payload
		}
	}
	if card == nil || card.Status != "completed" || card.SubagentTask == nil || card.SubagentTask.DurationMs == nil ||
		*card.SubagentTask.DurationMs != 1200 || card.SubagentTask.Description != "D" || card.SubagentTask.Model != "m" {
		t.Fatalf("the client shows %+v", card)
	}
}

// TestSDKTaskBurst is the review's eviction reproducer: a burst of
// cursor/task requests, more than the old bound of 256 parked results,
// against a slow client. Every one is answered {} exactly once.
func TestSDKTaskBurst(t *testing.T) {
	const tasks = 2000
	h := start(t, wiretap.Options{})
	h.client.slowExt = time.Millisecond
	h.handshake("cursor-agent")
	var burst bytes.Buffer
	for i := range tasks {
		fmt.Fprintf(&burst, `{"jsonrpc":"2.0","id":%d,"method":"cursor/task","params":{"toolCallId":"t%d"}}`+"\n", i, i)
	}
	sent := make(chan error, 1)
	go func() { // the SDK's replies block on the agent's stdin meanwhile
		_, err := h.a2cW.Write(burst.Bytes())
		sent <- err
	}()
	replies := map[string]int{}
	for range tasks {
		f := h.next()
		if gjson.GetBytes(f, "result").Raw != "{}" {
			t.Fatalf("agent got %s", f)
		}
		replies[gjson.GetBytes(f, "id").Raw]++
	}
	mustNoErr(t, <-sent)
	if rest := h.rest(); len(rest) != 0 {
		t.Fatalf("agent got more frames: %d, first %s", len(rest), rest[0])
	}
	for i := range tasks {
		if n := replies[fmt.Sprint(i)]; n != 1 {
			t.Fatalf("id %d got %d replies", i, n)
		}
	}
	if got := len(slices.DeleteFunc(h.rec.all(), func(ev acpdialect.Event) bool { return !isReply(ev) })); got != tasks {
		t.Fatalf("%d reply events, want %d", got, tasks)
	}
}

// TestSDKDeclined: vendor requests the connection's dialect does not allow
// are answered -32601 by the SDK, naming the method as the agent sent it.
func TestSDKDeclined(t *testing.T) {
	tests := []struct {
		agent, method string
	}{
		{"cursor-agent", "cursor/unknown"},
		{"cursor-agent", "vendor/x"},
		{"claude-agent-acp", "cursor/task"},
	}
	for _, tt := range tests {
		t.Run(tt.agent+" "+tt.method, func(t *testing.T) {
			h := start(t, wiretap.Options{})
			h.handshake(tt.agent)
			end := h.prompt()
			h.send(testwire.Request(42, tt.method, map[string]any{"toolCallId": "t"}))
			reply := h.next()
			if gjson.GetBytes(reply, "id").Raw != "42" || gjson.GetBytes(reply, "error.code").Int() != -32601 ||
				gjson.GetBytes(reply, "error.data.method").Str != tt.method {
				t.Fatalf("agent got %s", reply)
			}
			end()
			if st := h.tap.Stats(); st.Renamed != 0 {
				t.Fatalf("stats %+v", st)
			}
			if _, ext := h.client.calls(); len(ext) != 0 {
				t.Fatalf("extension calls %+v", ext)
			}
		})
	}
}

// TestSDKTaskNotification: a cursor/task notification gets no reply, the
// client's HandleExtensionMethod sees it in wire order among the session
// updates, and its metadata merges into the later tool call.
func TestSDKTaskNotification(t *testing.T) {
	h := start(t, wiretap.Options{})
	h.handshake("cursor-agent")
	end := h.prompt()
	chunk := func(text string) []byte {
		return testwire.SessionUpdate(h.sid, map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}})
	}
	h.send(
		chunk("a"),
		testwire.CursorTask(nil, map[string]any{"toolCallId": "t1", "description": "one"}),
		chunk("b"),
		testwire.CursorTaskToolCall(h.sid, "t1"),
		testwire.CursorTask(nil, map[string]any{"toolCallId": "t2"}),
		chunk("c"),
	)
	end()
	if rest := h.rest(); len(rest) != 0 {
		t.Fatalf("agent got frames: %q", rest)
	}
	log, ext := h.client.calls()
	want := []string{"chunk:a", "ext:_cursor/task:t1", "chunk:b", "tool_call:t1", "ext:_cursor/task:t2", "chunk:c"}
	if strings.Join(log, " ") != strings.Join(want, " ") {
		t.Fatalf("client saw %v\nwant       %v", log, want)
	}
	for _, e := range ext {
		// HandleExtension cannot tell a notification from a request: it
		// answers cursor/task's {} and the SDK sends nothing (rest above).
		if !e.handled || e.err != nil {
			t.Fatalf("extension call %+v", e)
		}
	}
	if card := lastCard(h.rec.all(), "t1"); card == nil || card.Description != "one" {
		t.Fatalf("tool_call did not merge the earlier cursor/task: %+v", h.rec.all())
	}
}

// TestSDKOutboundAlias: a client-to-agent vendor request goes through
// CallExtension as its alias and reaches the agent under its own name.
func TestSDKOutboundAlias(t *testing.T) {
	h := start(t, wiretap.Options{Outbound: []string{"cursor/list_available_models"}})
	h.handshake("cursor-agent")
	wait := call(h, func(ctx context.Context) (json.RawMessage, error) {
		return h.csc.CallExtension(ctx, wiretap.Alias("cursor/list_available_models"), map[string]any{})
	})
	id := h.expect("cursor/list_available_models")
	result := map[string]any{"availableModels": []any{
		map[string]any{"modelId": "composer-2.5-fast", "name": "Composer"}, "claude-opus-4-8[effort=max]"}}
	h.send(testwire.Response(id, result))
	if got := string(wait()); !strings.HasPrefix(got, `{"availableModels":[`) {
		t.Fatalf("CallExtension = %s", got)
	}
	// The Conn saw the request under its own name, and reads the result
	// whichever of its shapes comes back.
	var models *acpdialect.Event
	for _, ev := range h.rec.all() {
		if ev.Type == acpdialect.EventModels {
			models = &ev
		}
	}
	if models == nil || models.Method != "cursor/list_available_models" || string(models.ID) != string(id) ||
		len(models.Models().Items) != 2 || models.Models().Items[0].ID != "composer-2.5-fast" ||
		models.Models().Items[1].ID != "claude-opus-4-8[effort=max]" {
		t.Fatalf("models event %+v", models)
	}
}

// TestSDKFloodNoDeadlock: the agent writes a long burst without reading
// while the client is slow and also writes; nothing deadlocks, every
// cursor/task gets exactly one reply, every update arrives in order.
func TestSDKFloodNoDeadlock(t *testing.T) {
	const chunks, tasks = 600, 150
	h := start(t, wiretap.Options{})
	h.handshake("cursor-agent")
	h.client.slow = 20 * time.Microsecond
	end := h.prompt()

	// The client keeps writing too: cancel notifications, each blocked on
	// the pipe until the agent reads.
	stop := make(chan struct{})
	var cancels sync.WaitGroup
	cancels.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if h.csc.Cancel(context.Background(), acp.CancelNotification{SessionId: acp.SessionId(h.sid)}) != nil {
				return
			}
		}
	})

	var wantLog []string
	for i := range chunks {
		text := fmt.Sprint(i)
		h.send(testwire.SessionUpdate(h.sid, map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}}))
		wantLog = append(wantLog, "chunk:"+text)
		if i%(chunks/tasks) == 0 {
			n := i / (chunks / tasks)
			tc := fmt.Sprintf("tool-%d", n)
			h.send(testwire.CursorTaskToolCall(h.sid, tc), testwire.CursorTask(1000+n, map[string]any{"toolCallId": tc, "model": "m"}))
			wantLog = append(wantLog, "tool_call:"+tc)
		}
	}
	// Only now read: the replies, among the cancels.
	replies := map[string]int{}
	for len(replies) < tasks {
		f := h.next()
		if gjson.GetBytes(f, "method").Str == "session/cancel" {
			continue
		}
		if gjson.GetBytes(f, "result").Raw != "{}" {
			t.Fatalf("agent got %s", f)
		}
		replies[gjson.GetBytes(f, "id").Raw]++
	}
	close(stop)
	stopDrain := h.drain() // the cancels still in flight
	cancels.Wait()
	end()
	stopDrain()
	for id, n := range replies {
		if n != 1 {
			t.Fatalf("id %s got %d replies", id, n)
		}
	}
	log, ext := h.client.calls()
	var updates []string
	for _, l := range log {
		if !strings.HasPrefix(l, "ext:") {
			updates = append(updates, l)
		}
	}
	if strings.Join(updates, " ") != strings.Join(wantLog, " ") {
		t.Fatalf("updates out of order or missing: got %d, want %d", len(updates), len(wantLog))
	}
	if len(ext) != tasks {
		t.Fatalf("%d extension calls, want %d", len(ext), tasks)
	}
	for _, e := range ext {
		if !e.handled {
			t.Fatalf("unhandled %+v", e)
		}
	}
}
