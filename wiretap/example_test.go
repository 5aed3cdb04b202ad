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
)

// editor is a client on the upstream SDK. It asks the tap about extension
// methods from its own HandleExtensionMethod.
type editor struct {
	acp.Client // the rest of a real client, elided here
	tap        *wiretap.Tap
}

func (e *editor) SessionUpdate(context.Context, acp.SessionNotification) error { return nil }

func (e *editor) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	result, events, handled, err := e.tap.HandleExtension(ctx, method, params)
	if !handled {
		return nil, acp.NewMethodNotFound(method)
	}
	for _, ev := range events {
		if ev.Payload != nil && ev.Payload.SubagentTask != nil {
			st := ev.Payload.SubagentTask
			fmt.Printf("subagent %s: %s (%s)\n", ev.ToolCallID, st.Description, st.Model)
		}
	}
	return result, err
}

// Wire a tap between the SDK and a Cursor agent (scripted here over pipes;
// a real client uses the agent process's stdin and stdout).
func Example() {
	agentStdin, clientOut := io.Pipe()
	clientIn, agentStdout := io.Pipe()

	reg := acpdialect.NewRegistry(cursor.Dialect())
	tap := wiretap.New(reg.NewConn(acpdialect.Options{}), wiretap.Options{})
	conn := acp.NewClientSideConnection(&editor{tap: tap}, tap.Writer(clientOut), tap.Reader(clientIn))

	done := make(chan struct{})
	go func() { // the agent
		defer close(done)
		in := bufio.NewScanner(agentStdin)
		in.Scan() // initialize
		fmt.Fprintln(agentStdout, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"cursor-agent"}}}`)
		fmt.Fprintln(agentStdout, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-1","title":"Task","status":"in_progress","rawInput":{"_toolName":"task"}}}}`)
		fmt.Fprintln(agentStdout, `{"jsonrpc":"2.0","id":7,"method":"cursor/task","params":{"toolCallId":"tool-1","description":"Summarize src","model":"composer-2.5-fast"}}`)
		in.Scan()
		fmt.Println("agent got:", in.Text())
		agentStdout.Close()
	}()

	if _, err := conn.Initialize(context.Background(), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		fmt.Println(err)
	}
	<-done
	<-conn.Done()
	fmt.Println("renamed:", tap.Stats().Renamed)
	// Output:
	// subagent tool-1: Summarize src (composer-2.5-fast)
	// agent got: {"jsonrpc":"2.0","id":7,"result":{}}
	// renamed: 1
}
