package wiretap_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// editor is a client on the upstream SDK. It asks the tap for the answer
// to extension methods from its own HandleExtensionMethod; the events come
// through Options.OnEvent.
type editor struct {
	acp.Client // the rest of a real client, elided here
	tap        *wiretap.Tap
}

func (e *editor) SessionUpdate(context.Context, acp.SessionNotification) error { return nil }

func (e *editor) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	result, handled, err := e.tap.HandleExtension(ctx, method, params)
	if !handled {
		return nil, acp.NewMethodNotFound(method)
	}
	return result, err
}

// render shows the events, all of them, in wire order. It runs inside the
// tap's Read and Write: a real client hands them to its UI loop instead.
func render(ev acpdialect.Event) {
	if ev.Type == acpdialect.EventReply {
		fmt.Printf("reply to %s %s: %s\n", ev.Method, ev.ID, ev.Result)
		return
	}
	if ev.Payload == nil {
		return
	}
	line := fmt.Sprintf("%s %s %s", ev.Type, ev.ToolCallID, ev.Payload.Status)
	if st := ev.Payload.SubagentTask; st != nil && st.Description != "" {
		line += fmt.Sprintf(": %s (%s)", st.Description, st.Model)
		if st.DurationMs != nil {
			line += fmt.Sprintf(" in %d ms", *st.DurationMs)
		}
	}
	fmt.Println(line)
}

// Wire a tap between the SDK and a Cursor agent (scripted here over pipes;
// a real client uses the agent process's stdin and stdout).
func Example() {
	agentStdin, clientOut := io.Pipe()
	clientIn, agentStdout := io.Pipe()

	reg := acpdialect.NewRegistry(cursor.Dialect())
	tap := wiretap.New(reg.NewConn(acpdialect.Options{}), wiretap.Options{OnEvent: render})
	conn := acp.NewClientSideConnection(&editor{tap: tap}, tap.Writer(clientOut), tap.Reader(clientIn))

	done, prompted := make(chan struct{}), make(chan struct{})
	go func() { // the agent
		defer close(done)
		in := bufio.NewScanner(agentStdin)
		reply := func(result string) { // to the request just read
			fmt.Fprintf(agentStdout, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", gjson.Get(in.Text(), "id").Raw, result)
		}
		in.Scan()
		reply(`{"protocolVersion":1,"agentInfo":{"name":"cursor-agent"}}`)
		in.Scan()
		reply(`{"sessionId":"s1"}`)
		in.Scan() // session/prompt
		prompt := in.Text()
		// Three frames in one write: the SDK reads them all before it
		// runs the cursor/task handler, yet the events keep this order.
		fmt.Fprint(agentStdout, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-1","title":"Task","status":"in_progress","rawInput":{"_toolName":"task"}}}}`+"\n"+
			`{"jsonrpc":"2.0","id":7,"method":"cursor/task","params":{"toolCallId":"tool-1","description":"Summarize src","model":"composer-2.5-fast"}}`+"\n"+
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"tool-1","status":"completed","rawOutput":{"durationMs":1200}}}}`+"\n")
		in.Scan()
		fmt.Println("agent got:", in.Text())
		fmt.Fprintf(agentStdout, `{"jsonrpc":"2.0","id":%s,"result":{"stopReason":"end_turn"}}`+"\n", gjson.Get(prompt, "id").Raw)
		// Hang up only once the client has the prompt's response: the
		// SDK fails a response whose connection closes while it still
		// delivers the notifications that came before it.
		<-prompted
		agentStdout.Close()
	}()

	ctx := context.Background()
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		fmt.Println(err)
	}
	if _, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: "/work", McpServers: []acp.McpServer{}}); err != nil {
		fmt.Println(err)
	}
	if _, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: "s1", Prompt: []acp.ContentBlock{acp.TextBlock("go")}}); err != nil {
		fmt.Println(err)
	}
	close(prompted)
	<-done
	<-conn.Done()
	fmt.Println("renamed:", tap.Stats().Renamed)
	// Output:
	// tool_call tool-1 in_progress
	// tool_call_update tool-1 in_progress: Summarize src (composer-2.5-fast)
	// reply to cursor/task 7: {}
	// tool_call_update tool-1 completed: Summarize src (composer-2.5-fast) in 1200 ms
	// agent got: {"jsonrpc":"2.0","id":7,"result":{}}
	// renamed: 1
}
