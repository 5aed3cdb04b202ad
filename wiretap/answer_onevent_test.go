package wiretap_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// A client that answers a question from OnEvent, before the SDK hands the
// request to HandleExtension: the answer reaches the Conn right after the
// frame that asked (afterFrame settles it), so its reply event comes with
// that frame's Read, not with the agent's next frame.
func TestAnswerFromOnEventSettlesWithItsFrame(t *testing.T) {
	answer := cursor.Answered(cursor.Answer{QuestionID: "lang", OptionIDs: []string{"go"}})
	var answerErr error
	d := newDirectOn(t, acpdialect.Options{ClientAnswers: true}, func(d *direct, ev acpdialect.Event) {
		if ev.Type == acpdialect.EventQuestion {
			answerErr = d.tap.Answer([]byte(`20`), answer)
		}
	})
	d.in(testwire.Request(20, cursor.MethodAskQuestion, questionParams))
	if answerErr != nil {
		t.Fatal(answerErr)
	}
	replies := replyEvents(d.rec.all(), cursor.MethodAskQuestion)
	if len(replies) != 1 || string(replies[0].Result) != string(answer) {
		t.Fatalf("reply events after the question's frame: %+v, want one with the answer", replies)
	}
}
