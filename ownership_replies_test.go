package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// replyLedger is a client's count of the replies it owes the agent, for
// FuzzOwnership's every dialect and any frames: README, "Every request
// gets exactly one reply". A request the Conn answers is owed from its
// frame until a reply frame under its id (Result.Reply of Inbound or
// Expire); one that waits for the client (ClientAnswers) until that, or
// until the client's response the Conn takes as the answer (Outbound's
// reply event). Ids are counted by the bytes the agent wrote, which every
// reply echoes (Result.Reply, Event.ID).
type replyLedger struct {
	t    *testing.T
	owed map[string]int
}

func newReplyLedger(t *testing.T) *replyLedger {
	return &replyLedger{t: t, owed: map[string]int{}}
}

// inbound counts an agent frame the Conn owes a reply, then the replies
// its Result writes: a waiting request's default may come first, under
// the id the new one reuses (Result.Reply).
func (l *replyLedger) inbound(line []byte, res acpdialect.Result) {
	l.t.Helper()
	if id, ok := owedReply(line); ok {
		l.owed[id]++
	}
	l.replies(line, res)
}

// owedReply returns the id of a frame the Conn must answer: a valid JSON
// object with a method of no standard client method (the client answers
// those) and a non-null id (checkReplyRule's rule).
func owedReply(line []byte) (string, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || !json.Valid(line) {
		return "", false
	}
	method, id := gjson.GetBytes(line, "method"), gjson.GetBytes(line, "id")
	if method.Type != gjson.String || standard(method.Str) || !id.Exists() || id.Type == gjson.Null {
		return "", false
	}
	return id.Raw, true
}

// outbound counts the client's response the Conn took as the answer to a
// waiting request: its reply event.
func (l *replyLedger) outbound(line []byte, res acpdialect.Result) {
	l.t.Helper()
	for _, e := range res.Events {
		if e.Type == acpdialect.EventReply {
			l.paid(string(e.ID), line)
		}
	}
}

// replies checks that each reply frame of res is one JSON line with its
// reply event, in order, and pays what it answers.
func (l *replyLedger) replies(cause []byte, res acpdialect.Result) {
	l.t.Helper()
	var evs []acpdialect.Event
	for _, e := range res.Events {
		if e.Type == acpdialect.EventReply {
			evs = append(evs, e)
		}
	}
	n := 0
	for fr := range strings.Lines(string(res.Reply)) {
		if !strings.HasSuffix(fr, "\n") || !json.Valid([]byte(fr)) {
			l.t.Fatalf("after %s: the reply %q is not one JSON line", cause, fr)
		}
		id := gjson.Get(fr, "id").Raw
		if n >= len(evs) || string(evs[n].ID) != id || (evs[n].Error != nil) != gjson.Get(fr, "error").Exists() {
			l.t.Fatalf("after %s: the reply %q has no reply event of its own (events %+v)", cause, fr, evs)
		}
		n++
		l.paid(id, cause)
	}
	if n != len(evs) {
		l.t.Fatalf("after %s: %d reply events for %d reply frames %q", cause, len(evs), n, res.Reply)
	}
}

// paid counts a reply under id: the agent must still await one.
func (l *replyLedger) paid(id string, cause []byte) {
	l.t.Helper()
	if l.owed[id] == 0 {
		l.t.Fatalf("after %s: a reply under %s, which no request awaits (a second reply?)", cause, id)
	}
	l.owed[id]--
}

// settled checks, once every waiting request has expired, that no
// request is left without its reply.
func (l *replyLedger) settled() {
	l.t.Helper()
	for id, n := range l.owed {
		if n != 0 {
			l.t.Fatalf("%d requests under %s got no reply", n, id)
		}
	}
}
