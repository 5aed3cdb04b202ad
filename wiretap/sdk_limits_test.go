package wiretap_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
// error for its request instead, and the connection stays up.
func TestSDKRewrittenResponseTooLong(t *testing.T) {
	huge, _ := json.Marshal(map[string]any{"configOptions": []any{}, "pad": strings.Repeat("z", 11<<20)})
	bigger := &acpdialect.Dialect{
		ID:    "bigger",
		Match: func(name, _ string) bool { return name == "bigger" },
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(gjson.Result, any) acpdialect.Redirect {
				return acpdialect.Redirect{Method: "x/set", Params: json.RawMessage(`{}`)}
			},
			Response: func(acpdialect.AgentResponse, any, any) acpdialect.Step {
				return acpdialect.Step{Result: huge}
			},
		}},
	}
	h := startReg(t, acpdialect.NewRegistry(bigger), acpdialect.Options{}, wiretap.Options{})
	h.handshake("bigger")
	wait := setOption(h, "model", "m")
	h.send(testwire.Response(h.expect("x/set"), nil))
	_, err := wait()
	var re *acp.RequestError
	if !errors.As(err, &re) || re.Code != -32603 {
		t.Fatalf("SetSessionConfigOption: %v; want a -32603 error", err)
	}
	select {
	case <-h.csc.Done():
		t.Fatal("the SDK closed the connection")
	default:
	}
	end := h.prompt() // the connection still works
	end()
}
