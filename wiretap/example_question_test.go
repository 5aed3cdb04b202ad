package wiretap_test

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// A question the user answers: with ClientAnswers the request waits in
// HandleExtension on the SDK's goroutine until the client calls Answer
// (here from OnEvent, handing off to a goroutine as a UI would), and the
// agent gets the answer under the id it sent.
func Example_question() {
	agentStdin, clientOut := io.Pipe()
	clientIn, agentStdout := io.Pipe()

	reg := acpdialect.NewRegistry(cursor.Dialect())
	var tap *wiretap.Tap // OnEvent needs the tap: declare it first
	tap = wiretap.New(reg.NewConn(acpdialect.Options{ClientAnswers: true}), wiretap.Options{
		OnEvent: func(ev acpdialect.Event) {
			if q := ev.Question(); q != nil {
				fmt.Println("asked:", q.Questions[0].Prompt)
				go func() { // a UI answers later; OnEvent must not block
					pick := cursor.Answer{QuestionID: q.Questions[0].ID, OptionIDs: []string{"go"}}
					if err := tap.Answer(ev.ID, cursor.Answered(pick)); err != nil {
						fmt.Println(err)
					}
				}()
			}
		},
	})
	conn := acp.NewClientSideConnection(&editor{tap: tap}, tap.Writer(clientOut), tap.Reader(clientIn))

	done, prompted := make(chan struct{}), make(chan struct{})
	go func() { // the agent
		defer close(done)
		in := bufio.NewScanner(agentStdin)
		reply := func(result string) {
			fmt.Fprintf(agentStdout, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", gjson.Get(in.Text(), "id").Raw, result)
		}
		in.Scan()
		reply(`{"protocolVersion":1,"agentInfo":{"name":"cursor-agent"}}`)
		in.Scan()
		reply(`{"sessionId":"s1"}`)
		in.Scan() // session/prompt
		prompt := in.Text()
		fmt.Fprint(agentStdout, `{"jsonrpc":"2.0","id":"q-1","method":"cursor/ask_question","params":{"toolCallId":"t1","questions":[{"id":"lang","prompt":"Which language?","options":[{"id":"go","label":"Go"},{"id":"rust","label":"Rust"}]}]}}`+"\n")
		in.Scan()
		fmt.Println("agent got:", in.Text())
		fmt.Fprintf(agentStdout, `{"jsonrpc":"2.0","id":%s,"result":{"stopReason":"end_turn"}}`+"\n", gjson.Get(prompt, "id").Raw)
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
	// Output:
	// asked: Which language?
	// agent got: {"jsonrpc":"2.0","id":"q-1","result":{"outcome":{"outcome":"answered","answers":[{"questionId":"lang","selectedOptionIds":["go"]}]}}}
}
