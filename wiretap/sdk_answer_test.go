package wiretap_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// At the Conn's bound (MaxRequests waiting at once) the oldest question is
// answered its default now: the Conn emits its reply event (cancelled),
// the agent gets that default through the SDK, and the client's later
// answer is refused.
func TestTapDefaultAtTheBound(t *testing.T) {
	h := startConn(t, acpdialect.Options{ClientAnswers: true, MaxRequests: 1}, wiretap.Options{})
	h.handshake("cursor-agent")
	end := h.prompt()
	// Distinct params: the tap pairs the SDK's call with its request by
	// method and params, and identical ones may swap (see the package
	// doc), which here would hand 21 the default meant for 20.
	second := map[string]any{"toolCallId": "q-2", "questions": questionParams["questions"]}
	h.send(testwire.Request(20, cursor.MethodAskQuestion, questionParams))
	h.waitEvent(acpdialect.EventQuestion)
	h.send(testwire.Request(21, cursor.MethodAskQuestion, second))
	deadline := time.Now().Add(waitLimit)
	for len(replyEvents(h.rec.all(), cursor.MethodAskQuestion)) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if r := replyEvents(h.rec.all(), cursor.MethodAskQuestion); len(r) != 1 || string(r[0].ID) != "20" {
		t.Fatalf("reply events %+v, want the default for 20", r)
	}
	err := h.tap.Answer([]byte(`20`), cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}}))
	if err == nil {
		reply := h.next()
		t.Errorf("Answer(20) after the Conn answered its default: nil error; agent got %s, OnEvent said %s",
			reply, replyEvents(h.rec.all(), cursor.MethodAskQuestion)[0].Result)
	} else if !errors.Is(err, acpdialect.ErrNotPending) {
		t.Fatal(err)
	} else if reply := h.next(); gjson.GetBytes(reply, "id").Raw != "20" {
		t.Errorf("agent got %s, want the default for 20", reply)
	}
	if err := h.tap.Answer([]byte(`21`), cursor.Cancelled()); err != nil {
		t.Fatal(err)
	}
	h.next()
	end()
	h.rest()
}

// direct is a tap driven frame by frame, without the SDK.
type direct struct {
	t   *testing.T
	tap *wiretap.Tap
	rec *recorder
	w   io.Writer
}

func newDirect(t *testing.T, copts acpdialect.Options) *direct {
	return newDirectOn(t, copts, nil)
}

// newDirectOn is newDirect whose OnEvent also calls on (when not nil)
// after recording each event.
func newDirectOn(t *testing.T, copts acpdialect.Options, on func(*direct, acpdialect.Event)) *direct {
	d := &direct{t: t, rec: &recorder{}}
	d.tap = wiretap.New(registry().NewConn(copts), wiretap.Options{OnEvent: func(ev acpdialect.Event) {
		d.rec.add(ev)
		if on != nil {
			on(d, ev)
		}
	}})
	d.w = d.tap.Writer(io.Discard)
	req, resp := testwire.Initialize(1, "cursor-agent")
	d.out(req)
	d.in(resp)
	req, resp = testwire.SessionNew(2, "s1")
	d.out(req)
	d.in(resp)
	d.out(testwire.Prompt(3, "s1", "go"))
	return d
}

// in reads one agent frame through the tap and returns what the SDK reads.
func (d *direct) in(f []byte) []byte {
	b, err := io.ReadAll(d.tap.Reader(bytes.NewReader(append(f, '\n'))))
	if err != nil {
		d.t.Fatal(err)
	}
	return b
}

func (d *direct) out(f []byte) {
	if _, err := d.w.Write(append(f, '\n')); err != nil {
		d.t.Fatal(err)
	}
}

// The client answers a question before the SDK got to the request, then
// cancels the turn: the answer came first, so it is the reply, on the wire
// and in OnEvent's one reply event.
func TestTapAnswerThenCancel(t *testing.T) {
	d := newDirect(t, acpdialect.Options{ClientAnswers: true})
	q := testwire.Request(20, cursor.MethodAskQuestion, questionParams)
	d.in(q)
	answer := cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}})
	if err := d.tap.Answer([]byte(`20`), answer); err != nil {
		t.Fatal(err)
	}
	d.out(testwire.Notify("session/cancel", map[string]any{"sessionId": "s1"}))
	res, handled, err := d.tap.HandleExtension(context.Background(), "_"+cursor.MethodAskQuestion,
		json.RawMessage(gjson.GetBytes(q, "params").Raw))
	if !handled || err != nil {
		t.Fatal(handled, err)
	}
	sent := res.(json.RawMessage)
	d.out(testwire.Response(20, sent)) // the SDK writes the reply
	replies := replyEvents(d.rec.all(), cursor.MethodAskQuestion)
	if len(replies) != 1 || string(replies[0].Result) != string(sent) {
		t.Errorf("agent got %s; reply events: %d, first %s", sent, len(replies), replies[0].Result)
	}
}

// A string id with '<' (valid JSON-RPC): the SDK writes its reply with the
// id HTML-escaped (encoding/json); it is still the answer to the question,
// and no default follows at the turn's end.
func TestTapHTMLEscapedID(t *testing.T) {
	h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
	h.handshake("cursor-agent")
	end := h.prompt()
	id := json.RawMessage(`"q<1>"`)
	h.send(testwire.Request(id, cursor.MethodAskQuestion, questionParams))
	ev := h.waitEvent(acpdialect.EventQuestion)
	answer := cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}})
	if err := h.tap.Answer(ev.ID, answer); err != nil {
		t.Fatal(err)
	}
	reply := h.next()
	end()
	h.rest()
	replies := replyEvents(h.rec.all(), cursor.MethodAskQuestion)
	if len(replies) != 1 || string(replies[0].Result) != string(answer) {
		t.Errorf("agent got %s; reply events %d:", reply, len(replies))
		for _, r := range replies {
			t.Errorf("  id %s result %s", r.ID, r.Result)
		}
	}
}

// The agent sends the "_" alias of a blocking method (which the Conn
// accepts as the method): the SDK routes it to HandleExtensionMethod as it
// is, and it waits for the client's answer like a renamed one.
func TestTapAliasQuestionAnswered(t *testing.T) {
	d := newDirect(t, acpdialect.Options{ClientAnswers: true})
	q := testwire.Request(20, "_"+cursor.MethodAskQuestion, questionParams)
	d.in(q)
	evs := d.rec.all()
	ev := evs[len(evs)-1]
	if ev.Type != acpdialect.EventQuestion {
		t.Fatalf("event %+v", ev)
	}
	got := make(chan any, 1)
	go func() {
		res, _, _ := d.tap.HandleExtension(context.Background(), "_"+cursor.MethodAskQuestion,
			json.RawMessage(gjson.GetBytes(q, "params").Raw))
		got <- res
	}()
	answer := cursor.Skipped("later")
	if err := d.tap.Answer(ev.ID, answer); err != nil {
		t.Fatalf("Answer: %v", err)
	}
	select {
	case res := <-got:
		if string(res.(json.RawMessage)) != string(answer) {
			t.Errorf("HandleExtension returned %s, want the answer", res)
		}
	case <-time.After(waitLimit):
		t.Fatal("HandleExtension did not return")
	}
}

// Answer finds a request by its id as Conn.Answer does: a string id the
// agent wrote with an escape matches the same id written plainly.
func TestTapAnswerEscapedID(t *testing.T) {
	h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
	h.handshake("cursor-agent")
	end := h.prompt()
	h.send([]byte(`{"jsonrpc":"2.0","id":"q\u0031","method":"` + cursor.MethodAskQuestion + `","params":` + mustJSON(t, questionParams) + `}`))
	h.waitEvent(acpdialect.EventQuestion)
	if err := h.tap.Answer([]byte(`"q1"`), cursor.Cancelled()); err != nil {
		t.Fatalf("Answer(\"q1\") for the request \"q\\u0031\": %v", err)
	}
	if reply := h.next(); gjson.GetBytes(reply, "id").Str != "q1" || !gjson.GetBytes(reply, "result").Exists() {
		t.Errorf("agent got %s", reply)
	}
	end()
	h.rest()
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
