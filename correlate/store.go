// Package correlate holds the small, bounded state that pairing needs: values
// keyed by (session, toolCallId) that wait for their other half.
//
// A Store pairs two halves that share a key and may arrive in either order.
// The half that arrives first is Put; the half that arrives second Takes it
// and produces the merge. Whatever is never matched is evicted when a bound
// is reached or swept when its turn or session ends, and every one of those
// outcomes is counted. The store starts no goroutines and every operation but
// a sweep is O(1); a sweep is O(entries swept).
//
// A Store is not safe for concurrent use; its owner (a Conn) serializes access.
package correlate

// Key identifies one half: the session it belongs to and the tool call id
// it is correlated by. Tool call ids are only unique within a session.
type Key struct {
	Session string
	ID      string
}

// Default bounds. A Cursor turn rarely has more than a handful of subagents
// in flight; the bounds are generous for honest agents and small enough that
// a flooding agent costs a few megabytes at most.
const (
	DefaultPerSession = 1024
	DefaultTotal      = 4096
)

// Limits bounds a Store. A zero field takes its default.
type Limits struct {
	PerSession int // entries kept for one session
	Total      int // entries kept for the whole connection
}

func (l Limits) withDefaults() Limits {
	if l.PerSession <= 0 {
		l.PerSession = DefaultPerSession
	}
	if l.Total <= 0 {
		l.Total = DefaultTotal
	}
	return l
}

// Stats counts what happened to the halves a Store was given.
type Stats struct {
	Stored  uint64 `json:"stored"`  // halves Put under a new key
	Matched uint64 `json:"matched"` // halves Taken by their other half
	Evicted uint64 `json:"evicted"` // halves dropped because a bound was reached
	Swept   uint64 `json:"swept"`   // halves dropped at turn or session end
	Live    int    `json:"live"`    // halves held now
}

// entry is a node of two intrusive lists: all entries in insertion order
// (for the connection bound) and the entries of one session (for the
// session bound and sweeps).
type entry[V any] struct {
	key                Key
	val                V
	prev, next         *entry[V] // connection-wide order
	sessPrev, sessNext *entry[V] // order within the session
}

type sessionList[V any] struct {
	head, tail *entry[V]
	n          int
}

// Store is a bounded map from Key to V that remembers insertion order.
type Store[V any] struct {
	lim        Limits
	byKey      map[Key]*entry[V]
	sessions   map[string]*sessionList[V]
	head, tail *entry[V]
	stats      Stats
}

// New returns an empty store with the given limits (zero fields default).
func New[V any](lim Limits) *Store[V] {
	return &Store[V]{
		lim:      lim.withDefaults(),
		byKey:    make(map[Key]*entry[V]),
		sessions: make(map[string]*sessionList[V]),
	}
}

// Len reports how many halves are held.
func (s *Store[V]) Len() int { return len(s.byKey) }

// SessionLen reports how many halves are held for one session.
func (s *Store[V]) SessionLen(session string) int {
	if l := s.sessions[session]; l != nil {
		return l.n
	}
	return 0
}

// Stats reports the counters.
func (s *Store[V]) Stats() Stats {
	st := s.stats
	st.Live = len(s.byKey)
	return st
}

// Get returns a pointer to the value held under k, for an in-place update,
// or nil. The pointer is valid until the entry is taken, evicted or swept.
func (s *Store[V]) Get(k Key) *V {
	if e := s.byKey[k]; e != nil {
		return &e.val
	}
	return nil
}

// Put stores v under k and returns a pointer to the stored value (valid as
// Get's is). An existing value under k is replaced in place (it keeps its
// age). A new key may evict the oldest entry of its session, then the
// oldest entry of the connection, so that both bounds hold.
func (s *Store[V]) Put(k Key, v V) *V {
	if e := s.byKey[k]; e != nil {
		e.val = v
		return &e.val
	}
	sl := s.sessions[k.Session]
	if sl == nil {
		sl = &sessionList[V]{}
		s.sessions[k.Session] = sl
	}
	if sl.n >= s.lim.PerSession {
		s.evict(sl.head)
	}
	if len(s.byKey) >= s.lim.Total {
		s.evict(s.head)
	}
	// The session list may have been emptied and deleted by an eviction.
	if s.sessions[k.Session] == nil {
		s.sessions[k.Session] = sl
	}
	e := &entry[V]{key: k, val: v}
	s.link(e, sl)
	s.byKey[k] = e
	s.stats.Stored++
	return &e.val
}

// Take removes and returns the value under k: the second half has arrived.
func (s *Store[V]) Take(k Key) (V, bool) {
	e := s.byKey[k]
	if e == nil {
		var zero V
		return zero, false
	}
	s.remove(e)
	s.stats.Matched++
	return e.val, true
}

// Delete removes k without counting it as matched, evicted or swept; for an
// owner that replaces a value it no longer wants (a reused tool call id).
func (s *Store[V]) Delete(k Key) {
	if e := s.byKey[k]; e != nil {
		s.remove(e)
	}
}

// SweepSession drops every half held for session and returns how many.
// Call it at turn end (for vendors that reuse ids across turns) and at
// session end.
func (s *Store[V]) SweepSession(session string) int {
	sl := s.sessions[session]
	if sl == nil {
		return 0
	}
	n := 0
	for e := sl.head; e != nil; {
		next := e.sessNext
		s.remove(e)
		n++
		e = next
	}
	s.stats.Swept += uint64(n)
	return n
}

// Each calls fn for every half of session, oldest first, until fn returns
// false. fn must not modify the store.
func (s *Store[V]) Each(session string, fn func(k Key, v *V) bool) {
	sl := s.sessions[session]
	if sl == nil {
		return
	}
	for e := sl.head; e != nil; e = e.sessNext {
		if !fn(e.key, &e.val) {
			return
		}
	}
}

func (s *Store[V]) evict(e *entry[V]) {
	if e == nil {
		return
	}
	s.remove(e)
	s.stats.Evicted++
}

func (s *Store[V]) link(e *entry[V], sl *sessionList[V]) {
	e.prev = s.tail
	if s.tail != nil {
		s.tail.next = e
	} else {
		s.head = e
	}
	s.tail = e

	e.sessPrev = sl.tail
	if sl.tail != nil {
		sl.tail.sessNext = e
	} else {
		sl.head = e
	}
	sl.tail = e
	sl.n++
}

func (s *Store[V]) remove(e *entry[V]) {
	delete(s.byKey, e.key)
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		s.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		s.tail = e.prev
	}
	sl := s.sessions[e.key.Session]
	if e.sessPrev != nil {
		e.sessPrev.sessNext = e.sessNext
	} else {
		sl.head = e.sessNext
	}
	if e.sessNext != nil {
		e.sessNext.sessPrev = e.sessPrev
	} else {
		sl.tail = e.sessPrev
	}
	sl.n--
	if sl.n == 0 {
		delete(s.sessions, e.key.Session)
	}
	e.prev, e.next, e.sessPrev, e.sessNext = nil, nil, nil, nil
}
