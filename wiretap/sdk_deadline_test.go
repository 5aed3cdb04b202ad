package wiretap_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// fakeClock is a Conn clock the test moves by hand; safe for concurrent
// use (the tap reads it from the SDK's goroutines too).
type fakeClock struct{ ns atomic.Int64 }

func newFakeClock(t time.Time) *fakeClock {
	c := &fakeClock{}
	c.set(t)
	return c
}

func (c *fakeClock) now() time.Time  { return time.Unix(0, c.ns.Load()) }
func (c *fakeClock) set(t time.Time) { c.ns.Store(t.UnixNano()) }

// TestSDKAnswerAsDeadlinePasses: a question's deadline passes while the
// client answers it from OnEvent, before the Conn has given the default:
// from the question's own event, or from the event of the frame after it.
// Answer accepts the answer (nil), so it is what the agent gets, through
// the real SDK, and the one reply event says so; no default follows.
//
// The clock is the Conn's (Options.Now), moved by the OnEvent hook itself
// just before it answers, so the order is fixed: no sleep races a timer.
// It starts two hours in the past with a one hour timeout, so the
// deadline has passed on the real clock as well.
func TestSDKAnswerAsDeadlinePasses(t *testing.T) {
	answer := cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}})
	tests := []struct {
		name    string
		trigger func(acpdialect.Event) bool // the event the client answers from
		next    bool                        // the agent sends a frame after the question
	}{
		{"from the question's event", func(ev acpdialect.Event) bool { return ev.Type == acpdialect.EventQuestion }, false},
		{"from the next frame's event", func(ev acpdialect.Event) bool { return ev.ToolCallID == "tool-9" }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now().Add(-2 * time.Hour)
			clock := newFakeClock(start)
			var tap atomic.Pointer[wiretap.Tap]
			answered := make(chan error, 1)
			onEvent := func(ev acpdialect.Event) {
				if !tt.trigger(ev) {
					return
				}
				clock.set(start.Add(2 * time.Hour)) // the deadline (start + 1h) passes now
				answered <- tap.Load().Answer(json.RawMessage(`20`), answer)
			}
			h := startConn(t, acpdialect.Options{ClientAnswers: true, AnswerTimeout: time.Hour, Now: clock.now},
				wiretap.Options{OnEvent: onEvent})
			tap.Store(h.tap)
			h.handshake("cursor-agent")
			end := h.prompt()
			h.send(testwire.Request(20, cursor.MethodAskQuestion, questionParams))
			if tt.next {
				h.waitEvent(acpdialect.EventQuestion)
				h.send(testwire.CursorTaskToolCall(h.sid, "tool-9"))
			}
			var err error
			select {
			case err = <-answered:
			case <-time.After(waitLimit):
				t.Fatal("OnEvent never answered")
			}
			if err != nil {
				t.Fatalf("Answer before the Conn gave the default: %v", err)
			}
			want := `{"jsonrpc":"2.0","id":20,"result":` + string(answer) + `}`
			if reply := string(h.next()); reply != want {
				t.Errorf("Answer returned nil, but the agent got %s\nwant %s", reply, want)
			}
			if err := h.tap.Answer(json.RawMessage(`20`), cursor.Cancelled()); !errors.Is(err, acpdialect.ErrNotPending) {
				t.Errorf("second answer: %v", err)
			}
			end()
			if rest := h.rest(); len(rest) != 0 {
				t.Errorf("agent got more frames: %q", rest)
			}
			replies := replyEvents(h.rec.all(), cursor.MethodAskQuestion)
			if len(replies) != 1 || string(replies[0].Result) != string(answer) {
				for _, r := range replies {
					t.Logf("reply event: id %s result %s", r.ID, r.Result)
				}
				t.Errorf("%d reply events, want one with the answer", len(replies))
			}
		})
	}
}

// TestTapAnswersRaceExpiry: many clients' goroutines answer questions
// while frames keep coming and the Conn's clock keeps passing deadlines.
// Whichever wins, each request gets one reply, and it is the client's
// answer exactly when Answer returned nil: HandleExtension (what the SDK
// sends) and the reply event agree with Answer's verdict. The schedule
// varies from run to run; the rule must hold in every one.
func TestTapAnswersRaceExpiry(t *testing.T) {
	const n = 300
	clock := newFakeClock(time.Now())
	d := newDirect(t, acpdialect.Options{ClientAnswers: true, AnswerTimeout: time.Hour, Now: clock.now})
	type outcome struct {
		err    error
		result json.RawMessage
	}
	answers := make([]chan error, n)
	results := make([]chan json.RawMessage, n)
	for i := range n {
		answers[i], results[i] = make(chan error, 1), make(chan json.RawMessage, 1)
		params := map[string]any{"toolCallId": fmt.Sprintf("q-%d", i), "questions": questionParams["questions"]}
		q := testwire.Request(i, cursor.MethodAskQuestion, params)
		d.in(q)
		go func() { // the SDK's goroutine for the request
			res, _, _ := d.tap.HandleExtension(context.Background(), "_"+cursor.MethodAskQuestion,
				json.RawMessage(gjson.GetBytes(q, "params").Raw))
			results[i] <- res.(json.RawMessage)
		}()
		go func() { answers[i] <- d.tap.Answer(json.RawMessage(strconv.Itoa(i)), raceAnswer(i)) }()
		if i%7 == 0 {
			clock.set(clock.now().Add(2 * time.Hour)) // every open question is due
			d.in(testwire.CursorTaskToolCall("s1", fmt.Sprintf("tool-%d", i)))
		}
	}
	clock.set(clock.now().Add(2 * time.Hour))
	d.in(testwire.CursorTaskToolCall("s1", "tool-last"))
	replies := map[string][]string{}
	for _, ev := range replyEvents(d.rec.all(), cursor.MethodAskQuestion) {
		replies[string(ev.ID)] = append(replies[string(ev.ID)], string(ev.Result))
	}
	for i := range n {
		var o outcome
		select {
		case o.err = <-answers[i]:
		case <-time.After(waitLimit):
			t.Fatalf("Answer(%d) did not return", i)
		}
		select {
		case o.result = <-results[i]:
		case <-time.After(waitLimit):
			t.Fatalf("HandleExtension for %d did not return", i)
		}
		want := string(cursor.Cancelled())
		if o.err == nil {
			want = string(raceAnswer(i))
		} else if !errors.Is(o.err, acpdialect.ErrNotPending) {
			t.Fatalf("Answer(%d): %v", i, o.err)
		}
		id := strconv.Itoa(i)
		if string(o.result) != want || len(replies[id]) != 1 || replies[id][0] != want {
			t.Errorf("request %d: Answer returned %v; the SDK sends %s; reply events %q; want %s",
				i, o.err, o.result, replies[id], want)
		}
	}
}

// raceAnswer is the client's answer to question i.
func raceAnswer(i int) json.RawMessage {
	return cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{strconv.Itoa(i)}})
}

// TestTapReusedIDKeepsItsWait: the agent reuses the id of a question still
// waiting. The first gets its default (each request gets one reply); the
// second waits for its own answer, and gets it, rather than the first
// one's default.
func TestTapReusedIDKeepsItsWait(t *testing.T) {
	d := newDirect(t, acpdialect.Options{ClientAnswers: true})
	ask := func(toolCallID string) func() json.RawMessage {
		q := testwire.Request(20, cursor.MethodAskQuestion, map[string]any{"toolCallId": toolCallID, "questions": questionParams["questions"]})
		d.in(q)
		return handleAsync(t, d, q)
	}
	first := ask("q-1")
	second := ask("q-2")
	if r := first(); string(r) != string(cursor.Cancelled()) {
		t.Errorf("first question got %s; want the default", r)
	}
	answer := cursor.Skipped("later")
	if err := d.tap.Answer(json.RawMessage(`20`), answer); err != nil {
		t.Fatalf("Answer for the second question: %v", err)
	}
	if r := second(); string(r) != string(answer) {
		t.Errorf("second question got %s; want the answer", r)
	}
}

// TestTapPermissionReusesWaitingID: the agent reuses the id of a question
// still waiting for a permission request, which the client serves itself.
// The question gets its default at once, and the client's response to the
// permission request passes through: it is not taken for the question's
// answer, which left the permission request without its reply.
func TestTapPermissionReusesWaitingID(t *testing.T) {
	d := newDirect(t, acpdialect.Options{ClientAnswers: true})
	q := testwire.Request(20, cursor.MethodAskQuestion, questionParams)
	d.in(q)
	question := handleAsync(t, d, q)
	d.in(testwire.Request(20, "session/request_permission", map[string]any{"sessionId": "s1",
		"toolCall": map[string]any{"toolCallId": "t1"}, "options": []any{}}))
	if r := question(); string(r) != string(cursor.Cancelled()) {
		t.Errorf("the question got %s; want the default", r)
	}
	d.out([]byte(`{"jsonrpc":"2.0","id":20,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`))
	replies := 0
	for _, ev := range d.rec.all() {
		if ev.Type == acpdialect.EventReply && string(ev.ID) == "20" {
			replies++
			if ev.Method != cursor.MethodAskQuestion || string(ev.Result) != string(cursor.Cancelled()) {
				t.Errorf("reply event %+v; want the question's default", ev)
			}
		}
	}
	if replies != 1 {
		t.Errorf("%d reply events for id 20; want the question's default alone", replies)
	}
	if err := d.tap.Answer(json.RawMessage(`20`), cursor.Skipped("late")); !errors.Is(err, acpdialect.ErrNotPending) {
		t.Errorf("Answer to the question after its default: %v", err)
	}
}

// handleAsync calls the tap's HandleExtension for the question q, as the
// SDK does, in a goroutine of its own; the function it returns waits for
// the result (at most waitLimit).
func handleAsync(t *testing.T, d *direct, q []byte) func() json.RawMessage {
	got := make(chan json.RawMessage, 1)
	go func() {
		res, _, _ := d.tap.HandleExtension(context.Background(), "_"+gjson.GetBytes(q, "method").Str,
			json.RawMessage(gjson.GetBytes(q, "params").Raw))
		got <- res.(json.RawMessage)
	}()
	return func() json.RawMessage {
		t.Helper()
		select {
		case r := <-got:
			return r
		case <-time.After(waitLimit):
			t.Fatalf("HandleExtension for %s did not return", gjson.GetBytes(q, "params.toolCallId").Str)
		}
		return nil
	}
}
