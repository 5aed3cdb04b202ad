package wiretap_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// Tap.Answer accepts and refuses what Conn.Answer does: an id that is the
// request's by value (20.0 for 20, an escaped string) is its answer, and
// an answer that is not valid JSON in UTF-8 is refused with
// ErrInvalidResult, the request still waiting for a valid one. Before,
// the tap refused 20.0 with ErrNotPending, and accepted invalid UTF-8,
// which the agent then got (and a valid answer after it was refused).
func TestTapAnswerMatchesConn(t *testing.T) {
	valid := cursor.Skipped("later")
	for _, tc := range []struct {
		name, reqID, ansID string
		first              json.RawMessage // refused with ErrInvalidResult, when set
	}{
		{name: "same id", reqID: `20`, ansID: `20`},
		{name: "number as a fraction", reqID: `20`, ansID: `20.0`},
		{name: "number with an exponent", reqID: `20`, ansID: `2e1`},
		{name: "escaped string", reqID: `"q1"`, ansID: `"q\u0031"`},
		{name: "invalid UTF-8", reqID: `20`, ansID: `20`,
			first: json.RawMessage("{\"outcome\":{\"outcome\":\"skipped\",\"reason\":\"\xff\"}}")},
		{name: "not JSON", reqID: `20`, ansID: `20`, first: json.RawMessage(`{"outcome":`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDirect(t, acpdialect.Options{ClientAnswers: true})
			q := testwire.Request(json.RawMessage(tc.reqID), cursor.MethodAskQuestion, questionParams)
			d.in(q)
			if tc.first != nil {
				if err := d.tap.Answer(json.RawMessage(tc.ansID), tc.first); !errors.Is(err, acpdialect.ErrInvalidResult) {
					t.Fatalf("Answer(%q) = %v; want ErrInvalidResult", tc.first, err)
				}
			}
			if err := d.tap.Answer(json.RawMessage(tc.ansID), valid); err != nil {
				t.Fatalf("Answer(%s) = %v; want nil", tc.ansID, err)
			}
			res, handled, err := d.tap.HandleExtension(context.Background(), "_"+cursor.MethodAskQuestion,
				json.RawMessage(gjson.GetBytes(q, "params").Raw))
			if !handled || err != nil {
				t.Fatal(handled, err)
			}
			if got := res.(json.RawMessage); string(got) != string(valid) {
				t.Errorf("the agent gets %s; want %s", got, valid)
			}
			replies := replyEvents(d.rec.all(), cursor.MethodAskQuestion)
			if len(replies) != 1 || string(replies[0].Result) != string(valid) || string(replies[0].ID) != tc.reqID {
				t.Errorf("reply events %+v; want one, id %s, %s", replies, tc.reqID, valid)
			}
		})
	}
}
