package main

import "sync"

// maxAhead bounds the editor's lines the tap reads ahead of an agent that
// is slow to read its stdin: as the answers' queue (maxAnswerBytes), enough
// for the editor's requests of a turn, prompts with files included.
const maxAhead = 1 << 20

// lineQueue holds the editor's lines from their reading to their writing
// to the agent: at most max bytes, the line being written included, or a
// single longer line.
type lineQueue struct {
	mu      sync.Mutex
	cond    sync.Cond
	lines   [][]byte // lines[0] is being written once next returned it
	size    int      // the bytes in lines
	max     int
	ended   bool // the editor's side ended: no more lines
	stopped bool // the agent exited: the lines left have nowhere to go
}

func newLineQueue(max int) *lineQueue {
	q := &lineQueue{max: max}
	q.cond.L = &q.mu
	return q
}

// put adds a line, waiting while the queue is full; false once stopped.
func (q *lineQueue) put(line []byte) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.stopped && q.size > 0 && q.size+len(line) > q.max {
		q.cond.Wait()
	}
	if q.stopped {
		return false
	}
	q.lines = append(q.lines, line)
	q.size += len(line)
	q.cond.Broadcast()
	return true
}

// next waits for the oldest line, which stays queued until done; false
// once the editor's lines have all been taken, or the queue is stopped.
func (q *lineQueue) next() ([]byte, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.stopped && !q.ended && len(q.lines) == 0 {
		q.cond.Wait()
	}
	if q.stopped || len(q.lines) == 0 {
		return nil, false
	}
	return q.lines[0], true
}

// done removes the line next returned.
func (q *lineQueue) done() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.size -= len(q.lines[0])
	q.lines[0] = nil
	q.lines = q.lines[1:]
	q.cond.Broadcast()
}

// end says the editor's side ended: next returns the lines left, then false.
func (q *lineQueue) end() { q.set(&q.ended) }

// stop ends the queue at once: put and next return false.
func (q *lineQueue) stop() { q.set(&q.stopped) }

func (q *lineQueue) set(flag *bool) {
	q.mu.Lock()
	*flag = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// pending returns the lines not yet written, and their bytes.
func (q *lineQueue) pending() (n, size int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.lines), q.size
}
