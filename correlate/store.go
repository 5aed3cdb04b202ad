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
// Two bounds hold at once. Limits bound the entries of a session and of the
// store. A Budget (Limits.Budget), shared by all the stores of one owner,
// bounds their bytes together: each entry is charged a fixed overhead, its
// key's bytes and its value's size (Sizer), the oldest entries of any store
// sharing it are evicted first when it is full, and a value larger than the
// budget's MaxValue is cut to it or not kept. Without a Budget a value's
// size is not bounded, so neither are a store's bytes: the entry bounds
// alone let a flooding agent keep DefaultTotal values of any size. With
// one, everything the stores sharing it keep costs at most its limit (a
// Conn's Options.MaxBytes, 64 MiB by default) as the charges count it,
// which is what the heap holds give or take the allocator's rounding (the
// overheads are measured on 64-bit platforms), plus the empty maps and
// lists themselves.
//
// A Conn's Budget covers all it keeps: its Stores (tool call cards with
// every kind object, late halves, child links and parents, background
// aliases), and beside them, through Add, Hold and Share, its todo
// lists, subagent run links, the messages held for possible child
// sessions (one charge per session), blocking requests, sessions with
// their dialect's state, and tracked client requests with their rewrite
// notes. Evictable values go oldest first, whichever store holds them;
// held ones stay within a Share each. The bound holds across a Conn's
// stores, not across Conns, and not for what a caller keeps of the
// events handed out (wiretap bounds its own queue of responses apart).
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
// in flight; the bounds are generous for honest agents. They bound entries,
// not bytes: a Budget bounds the bytes.
const (
	DefaultPerSession = 1024
	DefaultTotal      = 4096
)

// EntryOverhead is what an entry costs beyond its key's bytes and its
// value's Size: the entry's links, key and charge, and its map slot with
// the map's spare room (measured on 64-bit platforms; a constant, so that
// the counts are the same everywhere).
const EntryOverhead = 224

// Limits bounds a Store. A zero field takes its default.
type Limits struct {
	PerSession int // entries kept for one session
	Total      int // entries kept for the whole connection
	// Budget, if set, bounds the bytes of this store and every other store
	// sharing it (see the package documentation).
	Budget *Budget
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
	Evicted uint64 `json:"evicted"` // halves dropped because a bound (entries or bytes) was reached
	// OverBudget counts the evictions (of Evicted) that made room in the
	// byte budget.
	OverBudget uint64 `json:"over_budget"`
	Swept      uint64 `json:"swept"`   // halves dropped at turn or session end
	Cut        uint64 `json:"cut"`     // values cut to the budget's MaxValue
	Refused    uint64 `json:"refused"` // values not kept: larger than MaxValue even when cut
	Live       int    `json:"live"`    // halves held now
	Bytes      int64  `json:"bytes"`   // bytes charged to the budget now
}

// entry is a node of two intrusive lists: all entries in insertion order
// (for the connection bound) and the entries of one session (for the
// session bound and sweeps). It is its budget charge's Holder.
type entry[V any] struct {
	key                Key
	val                V
	prev, next         *entry[V] // connection-wide order
	sessPrev, sessNext *entry[V] // order within the session
	charge             Charge
	s                  *Store[V]
}

// Evict drops the entry to make room in the budget.
func (e *entry[V]) Evict() {
	e.s.remove(e)
	e.s.stats.Evicted++
	e.s.stats.OverBudget++
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
	size       func(*V) int       // the value's own bytes (Sizer), for the budget
	cut        func(*V, int) bool // Sizer.Cut, or nil
}

// New returns an empty store with the given limits (zero fields default).
// With a Budget, a value is measured by its Sizer (*V implements it), and
// a string or Key value by its bytes and header; any other value costs
// only its entry.
func New[V any](lim Limits) *Store[V] {
	s := &Store[V]{
		lim:      lim.withDefaults(),
		byKey:    make(map[Key]*entry[V]),
		sessions: make(map[string]*sessionList[V]),
	}
	s.size, s.cut = measures[V]()
	return s
}

// measures returns how to measure and cut a V.
func measures[V any]() (size func(*V) int, cut func(*V, int) bool) {
	var v V
	switch any(&v).(type) {
	case Sizer:
		return func(p *V) int { return any(p).(Sizer).Size() },
			func(p *V, max int) bool { return any(p).(Sizer).Cut(max) }
	case *string:
		return func(p *V) int { return 16 + len(*any(p).(*string)) }, nil
	case *Key:
		return func(p *V) int { k := any(p).(*Key); return 32 + len(k.Session) + len(k.ID) }, nil
	}
	return func(*V) int { return 0 }, nil
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

// Budget returns the store's budget, or nil.
func (s *Store[V]) Budget() *Budget { return s.lim.Budget }

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
// oldest entry of the connection, so that both bounds hold, and with a
// Budget the oldest entries of the stores sharing it, so that it holds. A
// value larger than the budget's MaxValue is cut to it; one that cannot be
// cut that far is not kept (and an existing value under k is dropped):
// then the pointer is to a copy that no Get finds.
func (s *Store[V]) Put(k Key, v V) *V {
	if e := s.byKey[k]; e != nil {
		e.val = v
		s.Changed(k)
		return &e.val
	}
	e := &entry[V]{key: k, val: v, s: s}
	size, ok := s.measure(e)
	if !ok {
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
	s.link(e, sl)
	s.byKey[k] = e
	s.stats.Stored++
	if b := s.lim.Budget; b != nil {
		s.stats.Bytes += size
		b.Add(&e.charge, size, e)
	}
	return &e.val
}

// Changed measures the value under k again after a change made in place
// (through Get's or Put's pointer), keeping its age: with a Budget, the
// oldest entries of the stores sharing it may be evicted to make room, and
// a value grown past MaxValue is cut (or dropped, as by Put).
func (s *Store[V]) Changed(k Key) {
	e := s.byKey[k]
	if e == nil || s.lim.Budget == nil {
		return
	}
	size, ok := s.measure(e)
	if !ok {
		s.evict(e) // the half is dropped at a bound: the per-value one
		return
	}
	s.stats.Bytes += size - e.charge.Size()
	s.lim.Budget.Resize(&e.charge, size)
}

// measure returns what e costs in the budget, after cutting its value to
// MaxValue if need be; ok is false when it cannot be kept. Without a
// budget it costs nothing.
func (s *Store[V]) measure(e *entry[V]) (size int64, ok bool) {
	b := s.lim.Budget
	if b == nil {
		return 0, true
	}
	fixed := EntryOverhead + int64(len(e.key.Session)+len(e.key.ID))
	size = fixed + int64(s.size(&e.val))
	if size <= b.MaxValue() {
		return size, true
	}
	cut := fixed < b.MaxValue() && s.cut != nil && s.cut(&e.val, int(b.MaxValue()-fixed))
	if cut {
		size = fixed + int64(s.size(&e.val))
	}
	if size > b.MaxValue() {
		s.stats.Refused++
		b.CountRefused()
		return size, false
	}
	if cut {
		s.stats.Cut++
		b.CountCut()
	}
	return size, true
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

// Sweep drops k, counted as swept (as SweepSession counts), and reports
// whether it was there: for one value of a session that ends with another
// (a held subagent's background card with the session that holds it).
func (s *Store[V]) Sweep(k Key) bool {
	e := s.byKey[k]
	if e == nil {
		return false
	}
	s.remove(e)
	s.stats.Swept++
	return true
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
	if b := s.lim.Budget; b != nil {
		s.stats.Bytes -= e.charge.Size()
		b.Release(&e.charge)
	}
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
