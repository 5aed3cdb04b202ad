package correlate

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Budget bounds in bytes what the stores of one owner (a Conn) keep, all
// together. Every value a store keeps is charged to it at its size; when the
// bytes in use pass the limit, the oldest charges, of whichever store, are
// evicted first, so that a flood in one store makes room from the others'
// oldest values too, not only from its own.
//
// A value too large for its share is never kept whole: a Sizer is cut to
// MaxValue (see Sizer.Cut), and one that cannot be cut that far is not
// kept (counted as refused). So a single value never costs more than
// MaxValue, and no single value flushes the whole budget.
//
// Some values cannot simply be dropped (a request that waits for an answer
// must get exactly one reply; a session's turn state). Their store Holds
// their bytes instead: they count towards the limit, so that the others
// make room, and the store keeps them within a share of its own
// (Share) by its own rule. Holding never evicts a held value.
//
// A Budget is not safe for concurrent use: its owner serializes access.
type Budget struct {
	limit      int64
	used       int64
	head, tail *Charge // evictable charges, oldest first
	stats      BudgetStats
}

// Budget defaults. A Conn's stores hold a few kilobytes for an honest
// session; the limit only matters to a flooding or broken agent.
const (
	// DefaultBudget is the limit NewBudget gives for zero: 64 MiB.
	DefaultBudget = 64 << 20
	// MinBudget is the smallest limit: below it the per-value cap would cut
	// ordinary titles and prompts.
	MinBudget = 1 << 20
	// ValueShare is the fraction of the limit one value may take
	// (MaxValue = limit / ValueShare).
	ValueShare = 16
	// HeldShare is the fraction of the limit each store that holds its
	// values (Hold) keeps them within (Share = limit / HeldShare).
	HeldShare = 8
)

// BudgetStats counts what a Budget did.
type BudgetStats struct {
	Limit   int64  `json:"limit"`   // bytes
	Used    int64  `json:"used"`    // bytes charged or held now
	Evicted uint64 `json:"evicted"` // values evicted to keep within the limit
	Cut     uint64 `json:"cut"`     // values whose strings were cut to MaxValue
	Refused uint64 `json:"refused"` // values not kept: larger than MaxValue even when cut
}

// NewBudget returns a budget of limit bytes: DefaultBudget when limit is
// zero or negative, MinBudget when it is smaller than that.
func NewBudget(limit int64) *Budget {
	switch {
	case limit <= 0:
		limit = DefaultBudget
	case limit < MinBudget:
		limit = MinBudget
	}
	return &Budget{limit: limit}
}

// Limit returns the budget's limit in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// MaxValue is the most one value may cost: larger ones are cut or refused.
func (b *Budget) MaxValue() int64 { return b.limit / ValueShare }

// Share is the most a store that holds its values (Hold) keeps.
func (b *Budget) Share() int64 { return b.limit / HeldShare }

// Stats reports the counters; a nil Budget reports zeros.
func (b *Budget) Stats() BudgetStats {
	if b == nil {
		return BudgetStats{}
	}
	st := b.stats
	st.Limit, st.Used = b.limit, b.used
	return st
}

// CountCut counts a value cut to MaxValue, for a store that cuts its own.
func (b *Budget) CountCut() { b.stats.Cut++ }

// CountRefused counts a value not kept because it is larger than MaxValue,
// for a store that checks its own.
func (b *Budget) CountRefused() { b.stats.Refused++ }

// Holder owns an evictable charge. Evict drops the value; it may release
// the value's charge (the budget releases it otherwise), and must not add,
// resize or release any other.
type Holder interface {
	Evict()
}

// Charge is one evictable value's place in a Budget; embed it in the value's
// entry. Its zero value is uncharged. It does not name its budget (an entry
// is 8 bytes smaller for it): its owner knows the one budget it uses.
type Charge struct {
	size       int64
	prev, next *Charge
	h          Holder
}

// Charged reports whether c is charged to a budget now.
func (c *Charge) Charged() bool { return c.h != nil }

// Size returns the bytes c is charged for (0 when uncharged).
func (c *Charge) Size() int64 { return c.size }

// Add charges size bytes to b for the value h owns, as the newest charge
// (a c charged to b is released first), then evicts the oldest other charges
// while b is over its limit. A negative size counts as zero, and a nil h as
// a value with nothing to free: evicting it only releases its charge.
func (b *Budget) Add(c *Charge, size int64, h Holder) {
	b.Release(c)
	if h == nil {
		h = noHolder{}
	}
	c.size, c.h = max(size, 0), h
	c.prev, c.next = b.tail, nil
	if b.tail != nil {
		b.tail.next = c
	} else {
		b.head = c
	}
	b.tail = c
	b.used += c.size
	b.fit(c)
}

// Resize charges c at a new size (a negative one counts as zero), keeping
// its age, and evicts the oldest other charges while the budget is over its
// limit. It does nothing to an uncharged c.
func (b *Budget) Resize(c *Charge, size int64) {
	if c.h == nil {
		return
	}
	size = max(size, 0)
	b.used += size - c.size
	c.size = size
	if size > 0 {
		b.fit(c)
	}
}

// Release removes c from b; it does nothing to an uncharged c.
func (b *Budget) Release(c *Charge) {
	if c.h == nil {
		return
	}
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		b.head = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		b.tail = c.prev
	}
	b.used -= c.size
	*c = Charge{}
}

// Hold counts n bytes of values a store keeps within its Share by its own
// rule, and evicts the oldest charges while the budget is over its limit.
// Unhold gives them back. A negative n counts as zero.
func (b *Budget) Hold(n int64) {
	b.used += max(n, 0)
	b.fit(nil)
}

// Unhold gives back n bytes counted with Hold. A negative n counts as zero.
func (b *Budget) Unhold(n int64) { b.used -= max(n, 0) }

// noHolder is the Holder of a value charged with none: nothing to free.
type noHolder struct{}

func (noHolder) Evict() {}

// fit evicts the oldest charges but keep while the budget is over its
// limit. keep, the value just charged, stays: it is at most MaxValue, and
// the held values at most a Share for each store that holds, so that
// evicting the others makes room for it.
func (b *Budget) fit(keep *Charge) {
	for c := b.head; b.used > b.limit && c != nil; {
		next := c.next
		if c != keep {
			b.stats.Evicted++
			c.h.Evict()
			b.Release(c) // unless Evict did
		}
		c = next
	}
}

// Sizer is a value that a Store measures for its Budget, through a pointer
// (*V implements it). A Store charges each entry a fixed overhead, its
// key's bytes and Size.
type Sizer interface {
	// Size returns the bytes the value keeps: its own struct, the lengths
	// of its strings and the sizes of the objects it points to.
	Size() int
	// Cut shortens the value's longest strings so that Size is at most max
	// (CutStrings), and reports whether it changed anything. A cut string
	// must be a copy, not a view of the original: the original is what the
	// cut is for.
	Cut(max int) bool
}

// CutStrings shortens the longest of fields so that their lengths add up to
// at most limit: every string longer than some length L is cut to its first
// L bytes (back to a UTF-8 boundary), L as large as limit allows. The short
// strings, ids and enums, are left whole unless max is tiny. Each cut string
// is a copy, so that it pins nothing of the string it was cut from. It
// reports whether it cut anything: a limit under zero empties every field,
// and with none, or only empty ones, there is nothing to cut.
func CutStrings(limit int, fields ...*string) bool {
	total := 0
	for _, f := range fields {
		total += len(*f)
	}
	if total <= max(limit, 0) {
		return false
	}
	level := cutLevel(limit, fields)
	for _, f := range fields {
		if len(*f) > level {
			*f = strings.Clone(prefix(*f, level))
		}
	}
	return true
}

// cutLevel returns the largest L with sum(min(len, L)) <= limit.
func cutLevel(limit int, fields []*string) int {
	lens := make([]int, len(fields))
	for i, f := range fields {
		lens[i] = len(*f)
	}
	slices.Sort(lens)
	left := max(limit, 0)
	for i, l := range lens {
		rest := len(lens) - i
		if l*rest > left {
			return left / rest
		}
		left -= l
	}
	return lens[len(lens)-1]
}

// prefix returns s's first n bytes or fewer, ending at a rune boundary.
func prefix(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
