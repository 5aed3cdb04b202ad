package wiretap

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// The delivery queue's bounds, exactly: maxDeliveries frames, and
// maxDeliveryBytes bytes, are kept; one more pushes out the oldest.
func TestDeliveriesBounds(t *testing.T) {
	d := deliveries{wake: make(chan struct{}, 1)}
	for range maxDeliveries {
		d.push([]byte("x"))
	}
	if d.undelivered() != 0 {
		t.Fatalf("%d frames: %d dropped, want none", maxDeliveries, d.undelivered())
	}
	d.push([]byte("y"))
	if got := d.take(); len(got) != maxDeliveries || string(got[len(got)-1]) != "y" || d.undelivered() != 1 {
		t.Errorf("one more frame: %d kept, %d dropped; want %d, 1", len(got), d.undelivered(), maxDeliveries)
	}

	d = deliveries{wake: make(chan struct{}, 1)}
	d.push(make([]byte, maxDeliveryBytes-1))
	d.push([]byte("z")) // exactly maxDeliveryBytes in all
	if d.undelivered() != 0 {
		t.Fatalf("%d bytes: %d dropped, want none", maxDeliveryBytes, d.undelivered())
	}
	d.push([]byte("w"))
	if got := d.take(); len(got) != 2 || d.undelivered() != 1 {
		t.Errorf("one byte more: %d kept, %d dropped; want 2, 1", len(got), d.undelivered())
	}
}

// dropOldest forgets the oldest wait nobody waits on yet, not a claimed
// one, and wakes it with the default (nil).
func TestDropOldestSparesClaimed(t *testing.T) {
	mk := func(id string, claimed bool) *wait {
		return &wait{id: id, claimed: claimed, answer: make(chan json.RawMessage, 1)}
	}
	claimed, first, second := mk("1", true), mk("2", false), mk("3", false)
	tap := &Tap{}
	tap.waits.list = []*wait{claimed, first, second}
	tap.dropOldest()
	if len(tap.waits.list) != 2 || tap.waits.list[0] != claimed || tap.waits.list[1] != second {
		t.Fatalf("left %d waits, want the claimed one and the newest", len(tap.waits.list))
	}
	if !first.done || len(first.answer) != 1 || <-first.answer != nil {
		t.Errorf("the dropped wait was not ended with the default")
	}
	tap.waits.list = []*wait{claimed}
	tap.dropOldest()
	if len(tap.waits.list) != 0 || !claimed.done {
		t.Errorf("with every wait claimed, the oldest is not dropped")
	}
}

// A blocking request past maxWaits remembered ones makes the tap forget
// the oldest: the table never holds more than maxWaits.
func TestWaitsBound(t *testing.T) {
	tap := New(acpdialect.NewRegistry(cursor.Dialect()).NewConn(acpdialect.Options{ClientAnswers: true}), Options{})
	w := tap.Writer(io.Discard)
	in := func(f []byte) {
		if _, err := io.ReadAll(tap.Reader(bytes.NewReader(append(f, '\n')))); err != nil {
			t.Fatal(err)
		}
	}
	out := func(f []byte) {
		if _, err := w.Write(append(f, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	req, resp := testwire.Initialize(1, "cursor-agent")
	out(req)
	in(resp)
	req, resp = testwire.SessionNew(2, "s1")
	out(req)
	in(resp)
	out(testwire.Prompt(3, "s1", "go"))
	oldest := &wait{id: "old", answer: make(chan json.RawMessage, 1)}
	tap.waits.list = []*wait{oldest}
	for len(tap.waits.list) < maxWaits {
		tap.waits.list = append(tap.waits.list, &wait{id: "x", answer: make(chan json.RawMessage, 1)})
	}
	in(testwire.Request(20, cursor.MethodAskQuestion, map[string]any{"toolCallId": "q", "questions": []any{}}))
	if n := len(tap.waits.list); n != maxWaits || tap.waits.list[0] == oldest || !oldest.done {
		t.Errorf("%d waits, the oldest forgotten %v; want %d, true", n, oldest.done, maxWaits)
	}
}
