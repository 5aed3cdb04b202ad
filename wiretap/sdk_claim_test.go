package wiretap_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// TestSDKNotificationNeverTakesAWait: a notification whose method and
// params are those of a blocking request the client answers never reaches
// HandleExtensionMethod, where the tap, given no id, would take it for the
// request (which then got its default at once, and the client's answer
// ErrNotPending), whether it comes before or after the request, renamed by
// the tap or sent under the alias. The request gets the client's answer;
// OnEvent still gets the notification's question.
func TestSDKNotificationNeverTakesAWait(t *testing.T) {
	tests := []struct {
		name      string
		method    string
		noteFirst bool
	}{
		{"renamed, after the request", cursor.MethodAskQuestion, false},
		{"renamed, before the request", cursor.MethodAskQuestion, true},
		{"alias, after the request", wiretap.Alias(cursor.MethodAskQuestion), false},
		{"alias, before the request", wiretap.Alias(cursor.MethodAskQuestion), true},
		// The SDK decodes an escaped '_' to the same alias.
		{"escaped alias, after the request", `\u005f` + cursor.MethodAskQuestion, false},
		{"escaped alias, before the request", `\u005F` + cursor.MethodAskQuestion, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
			h.handshake("cursor-agent")
			end := h.prompt()
			req := testwire.Request(7, cursor.MethodAskQuestion, questionParams)
			note := testwire.Notify("method", questionParams)
			note = bytes.Replace(note, []byte(`"method":"method"`), []byte(`"method":"`+tt.method+`"`), 1)
			if tt.noteFirst {
				h.send(note, req)
			} else {
				h.send(req, note)
			}
			methods := answerQuestion7(h)
			if len(methods) != 1 {
				t.Errorf("extension calls for the question: %q; want the request's alone", methods)
			}
			questions := 0
			for _, ev := range h.rec.all() {
				if ev.Type == acpdialect.EventQuestion {
					questions++
				}
			}
			if questions != 2 {
				t.Errorf("%d question events; want the request's and the notification's", questions)
			}
			end()
		})
	}
}

// answerQuestion7 answers the waiting question 7 once the frames sent
// before have been handled, checks that the agent got that answer, and
// returns the extension calls the client got for the question.
func answerQuestion7(h *harness) (methods []string) {
	h.t.Helper()
	// Notifications are handled in order: once the marker is delivered,
	// so is every notification before it.
	h.send(testwire.SessionUpdate(h.sid, map[string]any{"sessionUpdate": "agent_message_chunk",
		"content": map[string]any{"type": "text", "text": "marker"}}))
	waitLog(h, "chunk:marker")
	answer := cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}})
	if err := h.tap.Answer(json.RawMessage(`7`), answer); err != nil {
		h.t.Fatalf("Answer: %v", err)
	}
	reply := h.next()
	var want bytes.Buffer
	mustNoErr(h.t, json.Compact(&want, answer))
	if gjson.GetBytes(reply, "id").Raw != "7" || gjson.GetBytes(reply, "result").Raw != want.String() {
		h.t.Fatalf("agent got %s\nwant the answer %s", reply, want.String())
	}
	_, ext := h.client.calls()
	for _, c := range ext {
		if strings.HasSuffix(c.method, cursor.MethodAskQuestion) {
			methods = append(methods, c.method)
		}
	}
	return methods
}

// waitLog waits until the client's log has entry.
func waitLog(h *harness, entry string) {
	h.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		if log, _ := h.client.calls(); slices.Contains(log, entry) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	h.t.Fatalf("the client never got %s", entry)
}

// TestSDKRepeatedKeys: a frame whose method, id or params the SDK reads
// other than the Conn (encoding/json takes a key's last occurrence, in
// any case; the Conn the first, exact one) is not fed to the Conn: the SDK
// declines it, and OnEvent gets no reply or question that says otherwise.
func TestSDKRepeatedKeys(t *testing.T) {
	q := string(testwire.Request(5, cursor.MethodAskQuestion, questionParams))
	params := q[strings.Index(q, `"params":`)+len(`"params":`) : len(q)-1]
	tests := []struct {
		name  string
		frame string
		id    string // the id the SDK answers
	}{
		{"method twice", `{"jsonrpc":"2.0","id":5,"method":"cursor/task","method":"cursor/task","params":{"toolCallId":"t"}}`, "5"},
		{"method in another case", `{"jsonrpc":"2.0","id":5,"method":"cursor/task","Method":"cursor/task","params":{"toolCallId":"t"}}`, "5"},
		{"id twice", `{"jsonrpc":"2.0","id":5,"method":"cursor/task","params":{"toolCallId":"t"},"id":6}`, "6"},
		{"id in another case", `{"jsonrpc":"2.0","ID":5,"method":"cursor/task","params":{"toolCallId":"t"}}`, "5"},
		{"question with params twice", `{"jsonrpc":"2.0","id":5,"method":"cursor/ask_question","params":` + params + `,"params":` + params + `}`, "5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
			h.handshake("cursor-agent")
			end := h.prompt()
			before := len(h.rec.all())
			h.send([]byte(tt.frame))
			reply := h.next()
			if gjson.GetBytes(reply, "id").Raw != tt.id || gjson.GetBytes(reply, "error.code").Int() != -32601 {
				t.Fatalf("agent got %s; want -32601 for id %s", reply, tt.id)
			}
			if evs := h.rec.all()[before:]; len(evs) != 0 {
				t.Errorf("OnEvent got %+v for a frame the SDK declined", evs)
			}
			if st := h.tap.Stats(); st.Ambiguous != 1 {
				t.Errorf("stats %+v", st)
			}
			end()
		})
	}
}

// TestSDKAmbiguousAliasNeverTakesAWait: a notification under a repeated or
// miscased method key, which the SDK reads as a dialect's alias, is not
// fed to the Conn (it reads such frames otherwise) and must not reach
// HandleExtension either, where it could take the waiting request's place.
func TestSDKAmbiguousAliasNeverTakesAWait(t *testing.T) {
	alias := wiretap.Alias(cursor.MethodAskQuestion)
	tests := []struct{ name, method string }{
		{"miscased key", `"Method":"` + alias + `"`},
		{"repeated key", `"method":"x","method":"` + alias + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
			h.handshake("cursor-agent")
			end := h.prompt()
			req := testwire.Request(7, cursor.MethodAskQuestion, questionParams)
			note := bytes.Replace(testwire.Notify("method", questionParams), []byte(`"method":"method"`), []byte(tt.method), 1)
			h.send(req, note)
			n := len(answerQuestion7(h))
			if n != 1 || h.tap.Stats().Ambiguous != 1 {
				t.Errorf("%d extension calls for the question, %d ambiguous frames; want 1 and 1", n, h.tap.Stats().Ambiguous)
			}
			end()
		})
	}
}
