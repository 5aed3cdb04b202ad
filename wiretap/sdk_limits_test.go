package wiretap_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// taskOfLen is a cursor/task request of exactly n bytes (without '\n').
func taskOfLen(t *testing.T, id, n int) []byte {
	t.Helper()
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"cursor/task","params":{"toolCallId":"t%d","pad":"`, id, id)
	tail := `"}}`
	pad := n - len(head) - len(tail)
	if pad < 0 {
		t.Fatalf("no frame of %d bytes", n)
	}
	return []byte(head + strings.Repeat("x", pad) + tail)
}

// TestSDKRenameAtTheLineLimit: the SDK reads lines of at most 10 MiB - 1
// bytes. A vendor frame the tap renames grows by one byte, so the longest
// frame it renames is one byte shorter (DefaultMaxFrame); the next size up
// passes as it was sent, which the SDK still reads and declines. Either
// way the SDK's connection stays up (a renamed 10 MiB - 1 frame used to
// become a line it cannot read, which closed it).
func TestSDKRenameAtTheLineLimit(t *testing.T) {
	h := start(t, wiretap.Options{})
	h.handshake("cursor-agent")
	end := h.prompt()
	tests := []struct {
		n      int
		result bool // renamed and answered by the dialect, else -32601
	}{
		{wiretap.DefaultMaxFrame + 1, false},
		{wiretap.DefaultMaxFrame, true},
	}
	for i, tt := range tests {
		id := 100 + i
		sendAsync(h, taskOfLen(t, id, tt.n))
		reply := h.next()
		if got := gjson.GetBytes(reply, "id").Int(); got != int64(id) {
			t.Fatalf("%d bytes: agent got %.200s; want the reply to %d", tt.n, reply, id)
		}
		if got := gjson.GetBytes(reply, "result").Exists(); got != tt.result {
			t.Errorf("%d bytes: agent got %.200s; want result %v", tt.n, reply, tt.result)
		}
		select {
		case <-h.csc.Done():
			t.Fatalf("%d bytes: the SDK closed the connection", tt.n)
		default:
		}
	}
	end()
	if st := h.tap.Stats(); st.Oversize != 1 || st.Renamed != 1 {
		t.Errorf("stats %+v; want one oversize, one renamed", st)
	}
}

// sendAsync writes a frame to the client without waiting for the SDK to
// read it: an SDK that stopped reading fails the test in next, instead of
// blocking the agent's write for ever.
func sendAsync(h *harness, f []byte) {
	go func() { _, _ = h.a2cW.Write(append(f, '\n')) }()
}

// TestSDKOversizePromptStartsATurn: a prompt longer than MaxFrame (an 11
// MB image) reaches the agent as the SDK wrote it, and the Conn still
// learns of it from its head: the turn starts, and its end gives a
// question nobody answered its default at once, on the wire and in
// OnEvent, instead of leaving it to wait for the answer timeout.
func TestSDKOversizePromptStartsATurn(t *testing.T) {
	h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
	h.handshake("cursor-agent")
	image := strings.Repeat("A", 11<<20)
	wait := call(h, func(ctx context.Context) (acp.PromptResponse, error) {
		return h.csc.Prompt(ctx, acp.PromptRequest{SessionId: acp.SessionId(h.sid),
			Prompt: []acp.ContentBlock{acp.ImageBlock(image, "image/png")}})
	})
	f := h.next()
	if gjson.GetBytes(f, "method").Str != "session/prompt" || gjson.GetBytes(f, "params.prompt.0.data").Str != image {
		t.Fatalf("agent got %.200s; want the prompt with its image", f)
	}
	id := json.RawMessage(gjson.GetBytes(f, "id").Raw)
	h.send(testwire.Request(7, cursor.MethodAskQuestion, questionParams))
	h.waitEvent(acpdialect.EventQuestion)
	h.send(testwire.PromptResponse(id, ""))
	wait()
	reply := h.next()
	if gjson.GetBytes(reply, "id").Raw != "7" || !gjson.GetBytes(reply, "result").Exists() {
		t.Fatalf("agent got %.200s; want the question's default", reply)
	}
	if evs := replyEvents(h.rec.all(), cursor.MethodAskQuestion); len(evs) != 1 || string(evs[0].Result) != gjson.GetBytes(reply, "result").Raw {
		t.Errorf("reply events %+v; want one, with the default the agent got", evs)
	}
	if st := h.tap.Stats(); st.Oversize != 1 {
		t.Errorf("stats %+v; want the prompt oversize", st)
	}
}

// TestSDKRewrittenResponseTooLong: a dialect's rewritten response longer
// than the SDK reads would close the SDK's connection; the client gets an
// error for its request instead, and the connection stays up. The
// rewrite's step is not applied: OnEvent gets none of its events (no
// config event for a change the client was told failed), and the session
// keeps its state (the next request's hook sees the old one). A response
// that fits is applied as usual.
func TestSDKRewrittenResponseTooLong(t *testing.T) {
	huge, _ := json.Marshal(map[string]any{"configOptions": []any{}, "pad": strings.Repeat("z", 11<<20)})
	var states []any // the state each request's hook is given
	bigger := &acpdialect.Dialect{
		ID:    "bigger",
		Match: func(name, _ string) bool { return name == "bigger" },
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(params gjson.Result, state any) acpdialect.Redirect {
				states = append(states, state)
				return acpdialect.Redirect{Method: "x/set", Params: json.RawMessage(`{}`), Note: params.Get("value").Str}
			},
			Response: func(_ acpdialect.AgentResponse, _, note any) acpdialect.Step {
				value := note.(string)
				st := acpdialect.Step{State: value, Result: json.RawMessage(`{"configOptions":[]}`),
					Events: []acpdialect.Event{{Type: acpdialect.EventConfig, Object: &acpdialect.Config{Options: json.RawMessage(`[]`)}}}}
				if value == "huge" {
					st.Result = huge
				}
				return st
			},
		}},
	}
	h := startReg(t, acpdialect.NewRegistry(bigger), acpdialect.Options{}, wiretap.Options{})
	h.handshake("bigger")
	configs := func() int { return len(eventsOf(h.rec.all(), acpdialect.EventConfig)) }

	wait := setOption(h, "model", "small")
	h.send(testwire.Response(h.expect("x/set"), nil))
	if _, err := wait(); err != nil || configs() != 1 {
		t.Fatalf("a response that fits: err %v, %d config events; want nil, 1", err, configs())
	}

	wait = setOption(h, "model", "huge")
	h.send(testwire.Response(h.expect("x/set"), nil))
	_, err := wait()
	var re *acp.RequestError
	if !errors.As(err, &re) || re.Code != -32603 {
		t.Fatalf("SetSessionConfigOption: %v; want a -32603 error", err)
	}
	if n := configs(); n != 1 {
		t.Errorf("%d config events; want only the first change's: the client got an error for the second", n)
	}
	select {
	case <-h.csc.Done():
		t.Fatal("the SDK closed the connection")
	default:
	}

	wait = setOption(h, "model", "last")
	h.send(testwire.Response(h.expect("x/set"), nil))
	if _, err := wait(); err != nil {
		t.Fatal(err)
	}
	if want := []any{nil, "small", "small"}; !slices.Equal(states, want) {
		t.Errorf("the requests' hooks saw states %v; want %v: the refused change is not kept", states, want)
	}
	end := h.prompt() // the connection still works
	end()
}

// eventsOf returns the events of one type.
func eventsOf(evs []acpdialect.Event, typ string) []acpdialect.Event {
	var out []acpdialect.Event
	for _, ev := range evs {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

// TestSDKRewrittenResponseAtTheLineLimit: the SDK reads a line of at
// most MaxLine bytes (its scanner's 10 MiB buffer holds the '\n' too), and
// the Conn's limit is exactly that: a rewritten response of MaxLine - 1 or
// MaxLine bytes reaches the client, one of MaxLine + 1 becomes -32603, and
// the SDK's connection stays up in all three cases.
func TestSDKRewrittenResponseAtTheLineLimit(t *testing.T) {
	var frameLen int // the rewritten frame's length, set before the agent answers
	var idLen int
	sized := &acpdialect.Dialect{
		ID:    "sized",
		Match: func(name, _ string) bool { return name == "sized" },
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(gjson.Result, any) acpdialect.Redirect {
				return acpdialect.Redirect{Method: "x/set", Params: json.RawMessage(`{}`)}
			},
			Response: func(acpdialect.AgentResponse, any, any) acpdialect.Step {
				// {"jsonrpc":"2.0","id":ID,"result":{"configOptions":[],"pad":"…"}}
				const fixed = len(`{"jsonrpc":"2.0","id":,"result":{"configOptions":[],"pad":""}}`)
				pad := strings.Repeat("z", frameLen-fixed-idLen)
				return acpdialect.Step{Result: json.RawMessage(`{"configOptions":[],"pad":"` + pad + `"}`)}
			},
		}},
	}
	h := startReg(t, acpdialect.NewRegistry(sized), acpdialect.Options{}, wiretap.Options{})
	h.handshake("sized")
	tests := []struct {
		n  int
		ok bool // the client gets the result, else -32603
	}{
		{wiretap.MaxLine - 1, true},
		{wiretap.MaxLine, true},
		{wiretap.MaxLine + 1, false},
	}
	for _, tt := range tests {
		wait := setOption(h, "model", "m")
		id := h.expect("x/set")
		frameLen, idLen = tt.n, len(id)
		h.send(testwire.Response(id, nil))
		_, err := wait()
		var re *acp.RequestError
		switch {
		case tt.ok && err != nil:
			t.Errorf("%d bytes: %v; want the result", tt.n, err)
		case !tt.ok && (!errors.As(err, &re) || re.Code != -32603):
			t.Errorf("%d bytes: %v; want a -32603 error", tt.n, err)
		}
		select {
		case <-h.csc.Done():
			t.Fatalf("%d bytes: the SDK closed the connection", tt.n)
		default:
		}
	}
	end := h.prompt() // the connection still works
	end()
}
