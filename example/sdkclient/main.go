// Command sdkclient is a client on the upstream ACP SDK that gets its
// agent's vendor methods through a tap: it sends one prompt and prints
// every normalized event as a JSON line.
//
//	go run ./example/sdkclient -prompt "Summarize src" agent acp
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"log"
	"os"
	"os/exec"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
)

func main() {
	prompt := flag.String("prompt", "Summarize this repository", "the prompt to send")
	flag.Parse()
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...) // the agent, e.g. "agent acp"
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}

	out := json.NewEncoder(os.Stdout)
	client := &client{}
	conn := dialects.Registry().NewConn(acpdialect.Options{ClientAnswers: true})
	client.tap = wiretap.New(conn, wiretap.Options{
		// Every event of every frame, in wire order, from inside the SDK's
		// reads and writes: keep it quick, never block here.
		OnEvent: func(ev acpdialect.Event) {
			_ = out.Encode(ev) // ev and its payload stay valid: keep them if you like, read-only
			if ev.Type == acpdialect.EventReply || ev.ID == nil {
				return // a reply, or no agent request's event: nothing to answer
			}
			// With ClientAnswers every blocking request waits for
			// tap.Answer, up to AnswerTimeout (10 minutes), so answer each
			// one: here Cursor's questions, and the others their default.
			switch ev.Method {
			case cursor.MethodAskQuestion:
				go client.answer(ev.ID, ev.Question()) // a person would answer later, from a UI
			case cursor.MethodCreatePlan:
				client.give(ev.ID, cursor.Cancelled())
			case cursor.MethodGenerateImage:
				client.give(ev.ID, cursor.Rejected(cursor.ImageRejectReason))
			case grok.MethodAskUserQuestion:
				client.give(ev.ID, grok.Declined())
			}
		},
	})
	sdk := acp.NewClientSideConnection(client, client.tap.Writer(stdin), client.tap.Reader(stdout))

	ctx := context.Background()
	if _, err := sdk.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		log.Fatal(err)
	}
	cwd, _ := os.Getwd()
	sess, err := sdk.NewSession(ctx, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
	if err != nil {
		log.Fatal(err)
	}
	_, err = sdk.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock(*prompt)}})
	if err != nil {
		log.Fatal(err)
	}
	_ = stdin.Close()
	_ = cmd.Wait()
}

// client is an acp.Client. It must also implement acp.ExtensionMethodHandler:
// that is where the SDK delivers the vendor methods the tap renamed.
type client struct {
	tap *wiretap.Tap
}

func (c *client) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	result, handled, err := c.tap.HandleExtension(ctx, method, params)
	if !handled {
		return nil, acp.NewMethodNotFound(method) // your own "_" extensions go here
	}
	return result, err // the dialect's answer, or the client's for a blocking request
}

// answer answers a Cursor question with the first option of each item.
func (c *client) answer(id json.RawMessage, q *acpdialect.Question) {
	var picks []cursor.Answer
	for _, item := range q.Questions {
		if len(item.Options) > 0 {
			picks = append(picks, cursor.Answer{QuestionID: item.ID, OptionIDs: []string{item.Options[0].ID}})
		}
	}
	c.give(id, cursor.Answered(picks...))
}

// give sends the answer to the blocking request id. Tap.Answer may be
// called from OnEvent and from any goroutine; a second answer gets
// acpdialect.ErrNotPending.
func (c *client) give(id, result json.RawMessage) {
	if err := c.tap.Answer(id, result); err != nil {
		log.Print(err)
	}
}

func (c *client) SessionUpdate(context.Context, acp.SessionNotification) error { return nil }

func (c *client) RequestPermission(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{}}}, nil
}

var errUnsupported = errors.New("not supported by this client")

func (c *client) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errUnsupported
}

func (c *client) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errUnsupported
}

func (c *client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errUnsupported
}

func (c *client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errUnsupported
}

func (c *client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errUnsupported
}

func (c *client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errUnsupported
}

func (c *client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errUnsupported
}
