package wiretap_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// TestSDKHostileAgent: agents that misbehave on the wire, with the real
// SDK, for a dialect read inline (Cursor) and one read by the tap's own
// goroutine (Grok). Each case must leave the connection usable or, if the
// agent ended it, end the SDK's connection; the harness then checks that
// no goroutine is left once it is done. Nothing may panic or hang.
func TestSDKHostileAgent(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, h *harness, agent string)
	}{
		{"response to no request", func(t *testing.T, h *harness, agent string) {
			h.send([]byte(`{"jsonrpc":"2.0","id":999,"result":{}}`),
				[]byte(`{"jsonrpc":"2.0","id":"nope","error":{"code":-32000,"message":"x"}}`))
			h.prompt()()
		}},
		{"response after the call was cancelled", func(t *testing.T, h *harness, agent string) {
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := h.csc.Prompt(ctx, acp.PromptRequest{SessionId: acp.SessionId(h.sid), Prompt: []acp.ContentBlock{acp.TextBlock("go")}})
				errc <- err
			}()
			id := h.expect("session/prompt")
			cancel()
			// The SDK tells the agent twice, in either order: $/cancel_request
			// for the request, session/cancel for the turn.
			got := map[string]bool{}
			for range 2 {
				got[gjson.GetBytes(h.next(), "method").Str] = true
			}
			if !got["$/cancel_request"] || !got["session/cancel"] {
				t.Fatalf("agent got %v; want the SDK's two cancels", got)
			}
			select {
			case err := <-errc:
				if err == nil {
					t.Error("a cancelled Prompt returned no error")
				}
			case <-time.After(waitLimit):
				t.Fatal("a cancelled Prompt did not return")
			}
			h.send(testwire.PromptResponse(id, "cancelled"))
			h.prompt()()
		}},
		{"CRLF line ends", func(t *testing.T, h *harness, agent string) {
			end := h.prompt()
			h.send(append(testwire.CursorTask(json.RawMessage(`41`), map[string]any{"toolCallId": "t1", "prompt": "p"}), '\r'))
			if agent == "cursor-agent" {
				if reply := h.next(); gjson.GetBytes(reply, "id").Raw != "41" || !gjson.GetBytes(reply, "result").Exists() {
					t.Fatalf("agent got %s; want the reply to 41", reply)
				}
			}
			end()
		}},
		{"byte-order mark", func(t *testing.T, h *harness, agent string) {
			end := h.prompt()
			h.send(append([]byte("\xef\xbb\xbf"), testwire.CursorTask(json.RawMessage(`42`), map[string]any{"toolCallId": "t2", "prompt": "p"})...))
			end()
			// The SDK cannot parse the frame and drops it: no reply went
			// out, so no event may say one did.
			if evs := replyEvents(h.rec.all(), "cursor/task"); len(evs) != 0 {
				t.Errorf("reply events %+v for a frame the SDK dropped", evs)
			}
		}},
		{"frames at the SDK's line limit", func(t *testing.T, h *harness, agent string) {
			end := h.prompt()
			for _, n := range []int{wiretap.DefaultMaxFrame, wiretap.DefaultMaxFrame + 1} {
				head := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`
				tail := `"}}}}`
				sendAsync(h, []byte(head+strings.Repeat("x", n-len(head)-len(tail))+tail))
			}
			end()
			select {
			case <-h.csc.Done():
				t.Fatal("the SDK closed the connection")
			default:
			}
		}},
		{"stdout closed mid-frame", func(t *testing.T, h *harness, agent string) {
			errc := make(chan error, 1)
			go func() {
				_, err := h.csc.Prompt(context.Background(), acp.PromptRequest{SessionId: acp.SessionId(h.sid), Prompt: []acp.ContentBlock{acp.TextBlock("go")}})
				errc <- err
			}()
			h.expect("session/prompt")
			_, _ = h.a2cW.Write([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","upd`))
			_ = h.a2cW.Close()
			select {
			case <-h.csc.Done():
			case <-time.After(waitLimit):
				t.Fatal("the SDK did not see the agent's EOF")
			}
			select {
			case err := <-errc:
				if err == nil {
					t.Error("Prompt returned no error once the agent was gone")
				}
			case <-time.After(waitLimit):
				t.Fatal("Prompt did not return once the agent was gone")
			}
			// The tap's goroutine (Grok's) ends with the agent's stream,
			// though the client has not closed its side yet.
			settle(t, "wiretap.readOnce")
		}},
		{"stdout closed while a question waits", func(t *testing.T, h *harness, agent string) {
			h.prompt() // never ends: the agent goes
			if agent == "cursor-agent" {
				h.send(testwire.Request(7, cursor.MethodAskQuestion, questionParams))
			} else {
				h.send(testwire.Request(7, grok.MethodAskUserQuestion, map[string]any{"sessionId": "s1", "toolCallId": "call_q",
					"questions": []any{map[string]any{"question": "Which database?", "options": []any{map[string]any{"label": "Postgres"}}}}}))
			}
			h.waitEvent(acpdialect.EventQuestion)
			for deadline := time.Now().Add(waitLimit); running("wiretap.(*Tap).await") == 0; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("HandleExtension does not wait for the client's answer")
				}
			}
			_ = h.a2cW.Close()
			select {
			case <-h.csc.Done():
			case <-time.After(waitLimit):
				t.Fatal("the SDK did not see the agent's EOF")
			}
			// The client never answered: the wait ends with the SDK's
			// connection, not at the answer timeout.
			settle(t, "wiretap.(*Tap).await")
		}},
	}
	for _, agent := range []string{"cursor-agent", "grok-build"} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%s", agent, tt.name), func(t *testing.T) {
				h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
				h.handshake(agent)
				tt.run(t, h, agent)
			})
		}
	}
}

// settle waits until no goroutine runs fn, and fails the test if one
// still does after waitLimit.
func settle(t *testing.T, fn string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for running(fn) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines still in %s", running(fn), fn)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
