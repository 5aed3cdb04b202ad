package main

import (
	"bytes"
	"testing"
	"time"
)

// TestLineQueue: the editor's lines read ahead are bounded in bytes (a
// single longer line is taken alone); a put waits for room, the end of
// input still yields the lines queued, and stop releases a waiting put.
func TestLineQueue(t *testing.T) {
	q := newLineQueue(10)
	long := bytes.Repeat([]byte("x"), 25)
	if !q.put(long) {
		t.Fatal("a line longer than the bound is refused in an empty queue")
	}
	put := make(chan bool, 1)
	go func() { put <- q.put([]byte("abc\n")) }()
	select {
	case <-put:
		t.Fatal("a put did not wait for room")
	case <-time.After(50 * time.Millisecond):
	}
	if line, ok := q.next(); !ok || !bytes.Equal(line, long) {
		t.Fatalf("next = %q, %v", line, ok)
	}
	if n, size := q.pending(); n != 1 || size != 25 {
		t.Errorf("pending %d lines %d bytes while the line is written, want 1 and 25", n, size)
	}
	q.done()
	if !<-put {
		t.Fatal("the put was refused once there was room")
	}
	q.end()
	if line, ok := q.next(); !ok || string(line) != "abc\n" {
		t.Fatalf("after the end, next = %q, %v; want the line queued", line, ok)
	}
	q.done()
	if _, ok := q.next(); ok {
		t.Fatal("next after the end and the last line")
	}

	q = newLineQueue(10)
	q.put(long)
	go func() { put <- q.put([]byte("abc\n")) }()
	time.Sleep(20 * time.Millisecond)
	q.stop()
	if <-put {
		t.Error("a put waiting in a stopped queue was taken")
	}
	if _, ok := q.next(); ok {
		t.Error("next in a stopped queue")
	}
}
