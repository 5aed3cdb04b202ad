package wiretap_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// questionParams is a cursor/ask_question with two questions.
var questionParams = map[string]any{
	"toolCallId": "q-1", "title": "Before I start",
	"questions": []any{
		map[string]any{"id": "lang", "prompt": "Which language?", "options": []any{
			map[string]any{"id": "go", "label": "Go"}, map[string]any{"id": "rust", "label": "Rust"}}},
		map[string]any{"id": "tests", "prompt": "Which suites?", "allowMultiple": true, "options": []any{
			map[string]any{"id": "unit", "label": "Unit"}, map[string]any{"id": "e2e", "label": "End to end"}}},
	},
}

// waitEvent waits until OnEvent has delivered an event of type typ.
func (h *harness) waitEvent(typ string) acpdialect.Event {
	h.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		for _, ev := range h.rec.all() {
			if ev.Type == typ {
				return ev
			}
		}
		time.Sleep(time.Millisecond)
	}
	h.t.Fatalf("no %s event", typ)
	return acpdialect.Event{}
}

// replyEvents returns the reply events for method.
func replyEvents(events []acpdialect.Event, method string) []acpdialect.Event {
	var out []acpdialect.Event
	for _, ev := range events {
		if ev.Type == acpdialect.EventReply && ev.Method == method {
			out = append(out, ev)
		}
	}
	return out
}

// TestSDKBlockingAnswered: a client that answers questions and plans gets
// the typed event with the request's id, answers through the tap with a
// response builder, and the agent gets that answer once, with the id it
// sent; a second answer is refused.
func TestSDKBlockingAnswered(t *testing.T) {
	plan := map[string]any{"toolCallId": "p-1", "name": "Refactor", "plan": "# Steps", "todos": []any{
		map[string]any{"id": "1", "content": "split", "status": "pending"}}}
	tests := []struct {
		method string
		id     json.RawMessage
		params map[string]any
		event  string
		answer json.RawMessage
	}{
		{cursor.MethodAskQuestion, json.RawMessage(`20`), questionParams, acpdialect.EventQuestion,
			cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}}, cursor.Answer{QuestionID: "tests", OptionIDs: []string{"unit", "e2e"}})},
		{cursor.MethodAskQuestion, json.RawMessage(`"q-abc"`), questionParams, acpdialect.EventQuestion, cursor.Skipped("not now")},
		{cursor.MethodCreatePlan, json.RawMessage(`1.0e0`), plan, acpdialect.EventPlan, cursor.Accepted("file:///plans/refactor.md")},
		{cursor.MethodCreatePlan, json.RawMessage(`21`), plan, acpdialect.EventPlan, cursor.Rejected("too broad")},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s", tt.method, tt.answer), func(t *testing.T) {
			h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
			h.handshake("cursor-agent")
			end := h.prompt()
			h.send(testwire.Request(tt.id, tt.method, tt.params))
			ev := h.waitEvent(tt.event)
			if string(ev.ID) != string(tt.id) || ev.Method != tt.method || ev.SessionID != h.sid {
				t.Fatalf("event %+v", ev)
			}
			if err := h.tap.Answer(ev.ID, tt.answer); err != nil {
				t.Fatal(err)
			}
			reply := h.next()
			if want := `{"jsonrpc":"2.0","id":` + string(tt.id) + `,"result":` + string(tt.answer) + `}`; string(reply) != want {
				t.Fatalf("agent got %s\nwant %s", reply, want)
			}
			if err := h.tap.Answer(ev.ID, cursor.Cancelled()); !errors.Is(err, acpdialect.ErrNotPending) {
				t.Fatalf("second answer: %v", err)
			}
			end()
			if rest := h.rest(); len(rest) != 0 {
				t.Fatalf("agent got more frames: %q", rest)
			}
			replies := replyEvents(h.rec.all(), tt.method)
			if len(replies) != 1 || string(replies[0].Result) != string(tt.answer) || string(replies[0].ID) != string(tt.id) {
				t.Fatalf("reply events %+v", replies)
			}
		})
	}
}

// TestSDKBlockingDefaults: without a handler the agent gets the default at
// once (cancelled; rejected for an image), never -32601 and never silence;
// a client that answers but never does gets the default at the deadline.
func TestSDKBlockingDefaults(t *testing.T) {
	image := map[string]any{"toolCallId": "i-1", "description": "a logo"}
	tests := []struct {
		name    string
		copts   acpdialect.Options
		method  string
		params  map[string]any
		want    json.RawMessage
		minWait time.Duration
	}{
		{"question, no handler", acpdialect.Options{}, cursor.MethodAskQuestion, questionParams, cursor.Cancelled(), 0},
		{"image, no handler", acpdialect.Options{}, cursor.MethodGenerateImage, image, cursor.Rejected(cursor.ImageRejectReason), 0},
		{"question, deadline", acpdialect.Options{ClientAnswers: true, AnswerTimeout: 80 * time.Millisecond},
			cursor.MethodAskQuestion, questionParams, cursor.Cancelled(), 80 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startConn(t, tt.copts, wiretap.Options{})
			h.handshake("cursor-agent")
			end := h.prompt()
			sent := time.Now()
			h.send(testwire.Request(7, tt.method, tt.params))
			reply := h.next()
			if want := `{"jsonrpc":"2.0","id":7,"result":` + string(tt.want) + `}`; string(reply) != want {
				t.Fatalf("agent got %s\nwant %s", reply, want)
			}
			if waited := time.Since(sent); waited < tt.minWait {
				t.Fatalf("default after %v, before the deadline", waited)
			}
			// Without ClientAnswers the error names the option the client
			// forgot; still an ErrNotPending either way.
			err := h.tap.Answer(json.RawMessage(`7`), cursor.Answered())
			if !errors.Is(err, acpdialect.ErrNotPending) || errors.Is(err, acpdialect.ErrNoClientAnswers) == tt.copts.ClientAnswers {
				t.Fatalf("answer after the default: %v", err)
			}
			end()
			if rest := h.rest(); len(rest) != 0 {
				t.Fatalf("agent got more frames: %q", rest)
			}
			if replies := replyEvents(h.rec.all(), tt.method); len(replies) != 1 {
				t.Fatalf("reply events %+v", replies)
			}
		})
	}
}

// TestSDKQuarantine: Cursor's native subagent updates, which the SDK would
// turn into mis-typed standard updates, reach the client on the quarantine
// method with their params as sent, in order with the other updates; the
// subagent card reaches OnEvent.
func TestSDKQuarantine(t *testing.T) {
	h := start(t, wiretap.Options{})
	h.handshake("cursor-agent")
	end := h.prompt()
	chunk := func(text string) []byte {
		return testwire.SessionUpdate(h.sid, map[string]any{"sessionUpdate": "agent_message_chunk",
			"content": map[string]any{"type": "text", "text": text}})
	}
	spawned := testwire.SessionUpdate(h.sid, map[string]any{"sessionUpdate": "subagent_spawned",
		"subagentSessionId": "child-1", "task": "Explore the repo", "name": "explore",
		"_meta": map[string]any{"cursor": map[string]any{"model": "composer-2.5-fast", "toolCallId": "toolCallId-x"}}})
	state := testwire.SessionUpdate(h.sid, map[string]any{"sessionUpdate": "subagent_state_update",
		"subagentSessionId": "child-1", "state": "completed"})
	h.send(chunk("a"), spawned, chunk("b"), state, chunk("c"))
	end()
	if rest := h.rest(); len(rest) != 0 {
		t.Fatalf("agent got frames: %q", rest)
	}
	log, ext := h.client.calls()
	want := "chunk:a ext:_session/update: chunk:b ext:_session/update: chunk:c"
	if got := strings.Join(log, " "); got != want {
		t.Fatalf("client saw %s\nwant      %s", got, want)
	}
	if len(ext) != 2 || !ext[0].handled || ext[0].result != nil || ext[0].err != nil {
		t.Fatalf("extension calls %+v", ext)
	}
	if got := gjson.Get(ext[0].params, "update.subagentSessionId").Str; got != "child-1" {
		t.Fatalf("quarantined params %s", ext[0].params)
	}
	if wantParams := gjson.GetBytes(state, "params").Raw; ext[1].params != wantParams {
		t.Fatalf("params %s, want as sent: %s", ext[1].params, wantParams)
	}
	var card *acpdialect.Payload
	for _, ev := range h.rec.all() {
		if ev.ToolCallID == "toolCallId-x" {
			card = ev.Payload
		}
	}
	if card == nil || card.SubagentTask == nil || card.SubagentTask.ChildSessionID != "child-1" ||
		card.SubagentTask.Status != "completed" || card.Status != acpdialect.StatusCompleted {
		t.Fatalf("card %+v", card)
	}
	if st := h.tap.Stats(); st.Quarantined != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// TestSDKBlockingCancelled: the client cancels the turn while a question
// waits for its answer: the agent no longer waits, so it gets the default
// at once (as ACP asks of permission requests), and a later answer is
// refused.
func TestSDKBlockingCancelled(t *testing.T) {
	h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
	h.handshake("cursor-agent")
	end := h.prompt()
	h.send(testwire.Request(20, cursor.MethodAskQuestion, questionParams))
	ev := h.waitEvent(acpdialect.EventQuestion)
	// The pipe has no buffer: the agent reads the cancel while the SDK
	// writes it.
	cancelled := call(h, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, h.csc.Cancel(ctx, acp.CancelNotification{SessionId: acp.SessionId(h.sid)})
	})
	if f := h.next(); gjson.GetBytes(f, "method").Str != "session/cancel" {
		t.Fatalf("agent got %s", f)
	}
	cancelled()
	if reply, want := string(h.next()), `{"jsonrpc":"2.0","id":20,"result":`+string(cursor.Cancelled())+`}`; reply != want {
		t.Fatalf("agent got %s\nwant %s", reply, want)
	}
	if err := h.tap.Answer(ev.ID, cursor.Skipped("")); !errors.Is(err, acpdialect.ErrNotPending) {
		t.Fatalf("answer after the cancel: %v", err)
	}
	end()
	if rest := h.rest(); len(rest) != 0 {
		t.Fatalf("agent got more frames: %q", rest)
	}
	if replies := replyEvents(h.rec.all(), cursor.MethodAskQuestion); len(replies) != 1 {
		t.Fatalf("reply events %+v", replies)
	}
}
