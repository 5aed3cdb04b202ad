package correlate_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/google/go-cmp/cmp"
)

// doc is a value that measures and cuts itself, as a Conn's cards do.
type doc struct{ title, body string }

func (d *doc) Size() int { return 32 + len(d.title) + len(d.body) }

func (d *doc) Cut(max int) bool { return correlate.CutStrings(max-32, &d.title, &d.body) }

// kib is a string of n KiB.
func kib(n int) string { return strings.Repeat("x", n<<10) }

// budgetOp is one step against two stores (a and b) sharing a budget.
type budgetOp struct {
	store   byte // 'a' or 'b'
	kind    byte // 'p'ut, 'c'hanged (resize in place), 't'ake, 's'weep, 'h'old, 'u'nhold
	id      string
	title   int // KiB, for put and changed
	body    int // KiB
	session string
	held    int64 // bytes, for hold and unhold
}

func bput(store byte, id string, title, body int) budgetOp {
	return budgetOp{store: store, kind: 'p', id: id, title: title, body: body, session: "s"}
}

func bgrow(store byte, id string, title, body int) budgetOp {
	return budgetOp{store: store, kind: 'c', id: id, title: title, body: body, session: "s"}
}

// entrySize is what a doc entry costs: see Store and doc.Size.
func entrySize(session, id string, title, body int) int64 {
	return correlate.EntryOverhead + int64(len(session)+len(id)) + 32 + int64(title+body)<<10
}

// The byte bound, with every outcome counted: a 1 MiB budget (MaxValue
// 64 KiB, less the entry's own cost for the strings) shared by two stores.
func TestBudgetScenarios(t *testing.T) {
	const limit = correlate.MinBudget
	tests := []struct {
		name    string
		ops     []budgetOp
		live    map[byte][]string // ids per store, oldest first
		stats   correlate.BudgetStats
		storeA  correlate.Stats
		wantCut map[string]int // id -> expected title+body bytes after a cut
	}{
		{
			name:   "values within the limit are all kept",
			ops:    []budgetOp{bput('a', "1", 10, 10), bput('b', "1", 10, 10), bput('a', "2", 20, 20)},
			live:   map[byte][]string{'a': {"1", "2"}, 'b': {"1"}},
			stats:  correlate.BudgetStats{Limit: limit},
			storeA: correlate.Stats{Stored: 2, Live: 2},
		},
		{
			// 20 values of 60 KiB: 16 fit in 1 MiB with their overhead;
			// the first four, of both stores, are evicted, oldest first.
			name: "when full the oldest of either store is evicted first",
			ops: func() []budgetOp {
				var ops []budgetOp
				for i := range 20 {
					ops = append(ops, bput("ab"[i%2], fmt.Sprint(i), 30, 30))
				}
				return ops
			}(),
			live: map[byte][]string{
				'a': {"4", "6", "8", "10", "12", "14", "16", "18"},
				'b': {"5", "7", "9", "11", "13", "15", "17", "19"},
			},
			stats:  correlate.BudgetStats{Limit: limit, Evicted: 4},
			storeA: correlate.Stats{Stored: 10, Evicted: 2, OverBudget: 2, Live: 8},
		},
		{
			name:    "a value larger than MaxValue is cut: its longest string first",
			ops:     []budgetOp{bput('a', "big", 1, 500)},
			live:    map[byte][]string{'a': {"big"}},
			stats:   correlate.BudgetStats{Limit: limit, Cut: 1},
			storeA:  correlate.Stats{Stored: 1, Cut: 1, Live: 1},
			wantCut: map[string]int{"big": limit/correlate.ValueShare - int(entrySize("s", "big", 0, 0))},
		},
		{
			name: "a key larger than MaxValue is not kept, and nothing is evicted for it",
			ops: []budgetOp{
				bput('a', "1", 1, 1),
				{store: 'a', kind: 'p', id: kib(65), session: "s"},
			},
			live:   map[byte][]string{'a': {"1"}},
			stats:  correlate.BudgetStats{Limit: limit, Refused: 1},
			storeA: correlate.Stats{Stored: 1, Refused: 1, Live: 1},
		},
		{
			name: "a value that grows in place keeps its age; the others make room",
			ops: func() []budgetOp {
				ops := []budgetOp{bput('a', "old", 1, 1)}
				for i := range 16 {
					ops = append(ops, bput('b', fmt.Sprint(i), 30, 30))
				}
				// old grows to 60 KiB: the budget is over, and old is
				// the oldest, but the value just changed stays: b's
				// oldest go.
				return append(ops, bgrow('a', "old", 30, 30))
			}(),
			live: map[byte][]string{
				'a': {"old"},
				'b': {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"},
			},
			stats:  correlate.BudgetStats{Limit: limit, Evicted: 1},
			storeA: correlate.Stats{Stored: 1, Live: 1},
		},
		{
			// Put over an existing key measures the new value: it makes
			// room as a growth in place does.
			name: "a value replaced by Put is measured again",
			ops: func() []budgetOp {
				ops := []budgetOp{bput('a', "old", 1, 1)}
				for i := range 16 {
					ops = append(ops, bput('b', fmt.Sprint(i), 30, 30))
				}
				return append(ops, bput('a', "old", 30, 30))
			}(),
			live: map[byte][]string{
				'a': {"old"},
				'b': {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"},
			},
			stats:  correlate.BudgetStats{Limit: limit, Evicted: 1},
			storeA: correlate.Stats{Stored: 1, Live: 1},
		},
		{
			name:    "a value that grows past MaxValue in place is cut",
			ops:     []budgetOp{bput('a', "1", 1, 1), bgrow('a', "1", 100, 1)},
			live:    map[byte][]string{'a': {"1"}},
			stats:   correlate.BudgetStats{Limit: limit, Cut: 1},
			storeA:  correlate.Stats{Stored: 1, Cut: 1, Live: 1},
			wantCut: map[string]int{"1": limit/correlate.ValueShare - int(entrySize("s", "1", 0, 0))},
		},
		{
			name: "take and sweep give the bytes back",
			ops: []budgetOp{
				bput('a', "1", 30, 30), bput('a', "2", 30, 30), {store: 'a', kind: 't', id: "1", session: "s"},
				{store: 'b', kind: 'p', id: "x", title: 30, body: 30, session: "t"}, {store: 'b', kind: 's', session: "t"},
			},
			live:   map[byte][]string{'a': {"2"}},
			stats:  correlate.BudgetStats{Limit: limit},
			storeA: correlate.Stats{Stored: 2, Matched: 1, Live: 1},
		},
		{
			name: "held bytes count and make the charges make room, and are never evicted",
			ops: []budgetOp{
				bput('a', "1", 30, 30), bput('b', "2", 30, 30),
				{kind: 'h', held: limit - 100<<10}, // room for one of the two
			},
			live:   map[byte][]string{'b': {"2"}},
			stats:  correlate.BudgetStats{Limit: limit, Evicted: 1},
			storeA: correlate.Stats{Stored: 1, Evicted: 1, OverBudget: 1},
		},
		{
			name: "a budget filled exactly to its limit evicts nothing",
			ops: []budgetOp{
				bput('a', "1", 1, 1),
				{kind: 'h', held: limit - entrySize("s", "1", 1, 1) - entrySize("s", "2", 1, 1)},
				bput('a', "2", 1, 1),
			},
			live:   map[byte][]string{'a': {"1", "2"}},
			stats:  correlate.BudgetStats{Limit: limit},
			storeA: correlate.Stats{Stored: 2, Live: 2},
		},
		{
			name: "unheld bytes leave room again",
			ops: []budgetOp{
				{kind: 'h', held: limit - 100<<10}, {kind: 'u', held: limit - 100<<10},
				bput('a', "1", 30, 30), bput('b', "2", 30, 30),
			},
			live:   map[byte][]string{'a': {"1"}, 'b': {"2"}},
			stats:  correlate.BudgetStats{Limit: limit},
			storeA: correlate.Stats{Stored: 1, Live: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := correlate.NewBudget(limit)
			stores := map[byte]*correlate.Store[doc]{
				'a': correlate.New[doc](correlate.Limits{Budget: b}),
				'b': correlate.New[doc](correlate.Limits{Budget: b}),
			}
			var held int64
			for _, o := range tc.ops {
				held += runBudgetOp(b, stores[o.store], o)
			}
			got := map[byte][]string{}
			var bytes int64
			for name, st := range stores {
				st.Each("s", func(k correlate.Key, v *doc) bool {
					got[name] = append(got[name], k.ID)
					if want, ok := tc.wantCut[k.ID]; ok && len(v.title)+len(v.body) != want {
						t.Errorf("%s cut to %d bytes; want %d", k.ID, len(v.title)+len(v.body), want)
					}
					return true
				})
				bytes += st.Stats().Bytes
			}
			if d := cmp.Diff(tc.live, got); d != "" {
				t.Errorf("live (-want +got):\n%s", d)
			}
			want := tc.stats
			want.Used = bytes + held
			if d := cmp.Diff(want, b.Stats()); d != "" {
				t.Errorf("budget stats (-want +got):\n%s", d)
			}
			gotA := stores['a'].Stats()
			gotA.Bytes = 0
			if d := cmp.Diff(tc.storeA, gotA); d != "" {
				t.Errorf("store a stats (-want +got):\n%s", d)
			}
			if b.Stats().Used > limit {
				t.Errorf("used %d > limit %d", b.Stats().Used, limit)
			}
		})
	}
}

// runBudgetOp applies one step and returns the bytes it held (or, negative,
// gave back).
func runBudgetOp(b *correlate.Budget, st *correlate.Store[doc], o budgetOp) int64 {
	k := correlate.Key{Session: o.session, ID: o.id}
	switch o.kind {
	case 'p':
		st.Put(k, doc{title: kib(o.title), body: kib(o.body)})
	case 'c':
		if v := st.Get(k); v != nil {
			*v = doc{title: kib(o.title), body: kib(o.body)}
			st.Changed(k)
		}
	case 't':
		st.Take(k)
	case 's':
		st.SweepSession(o.session)
	case 'h':
		b.Hold(o.held)
		return o.held
	case 'u':
		b.Unhold(o.held)
		return -o.held
	}
	return 0
}

// The limit's defaults and floor.
func TestNewBudget(t *testing.T) {
	for _, tc := range []struct{ in, want int64 }{
		{0, correlate.DefaultBudget}, {-1, correlate.DefaultBudget}, {1, correlate.MinBudget},
		{correlate.MinBudget, correlate.MinBudget}, {1 << 30, 1 << 30},
	} {
		b := correlate.NewBudget(tc.in)
		if b.Limit() != tc.want || b.MaxValue() != tc.want/correlate.ValueShare || b.Share() != tc.want/correlate.HeldShare {
			t.Errorf("NewBudget(%d): limit %d, max value %d, share %d", tc.in, b.Limit(), b.MaxValue(), b.Share())
		}
	}
}

func TestCutStrings(t *testing.T) {
	tests := []struct {
		name  string
		in    []string
		limit int
		want  []string
		cut   bool
	}{
		{"within the limit: nothing", []string{"abc", "de"}, 5, []string{"abc", "de"}, false},
		{"the longest only", []string{"id", "0123456789"}, 8, []string{"id", "012345"}, true},
		{"two long ones to the same length", []string{"id", "0123456789", "abcdefghij"}, 12, []string{"id", "01234", "abcde"}, true},
		{"short ones are cut last", []string{"ab", "cdef"}, 2, []string{"a", "c"}, true},
		{"a negative limit empties all", []string{"ab", "c"}, -3, []string{"", ""}, true},
		{"back to a rune boundary", []string{"aé€"}, 4, []string{"aé"}, true},
		{"nothing to cut", nil, 0, nil, false},
		{"nothing to cut, a negative limit", nil, -1, nil, false},
		{"only empty fields, a negative limit", []string{"", ""}, -5, []string{"", ""}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := append([]string(nil), tc.in...)
			ptrs := make([]*string, len(got))
			for i := range got {
				ptrs[i] = &got[i]
			}
			if cut := correlate.CutStrings(tc.limit, ptrs...); cut != tc.cut {
				t.Errorf("CutStrings = %v; want %v", cut, tc.cut)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			for i, s := range got {
				if !utf8.ValidString(s) {
					t.Errorf("%q is not valid UTF-8", s)
				}
				if s != tc.in[i] && s != "" && unsafe.StringData(s) == unsafe.StringData(tc.in[i]) {
					t.Errorf("%q shares its bytes with the string it was cut from", s)
				}
			}
		})
	}
}

// Under a random mix of operations on two stores sharing a small budget,
// the budget holds after every step, its bytes are the stores', and every
// entry is accounted for.
func TestBudgetAccounting(t *testing.T) {
	b := correlate.NewBudget(correlate.MinBudget)
	stores := []*correlate.Store[doc]{
		correlate.New[doc](correlate.Limits{PerSession: 50, Total: 80, Budget: b}),
		correlate.New[doc](correlate.Limits{PerSession: 50, Total: 80, Budget: b}),
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var deleted [2]uint64
	titles, bodies := strings.Repeat("t", 2000), kib(128) // values are views of these
	for i := range 20_000 {
		n := rng.IntN(2)
		st := stores[n]
		k := key(fmt.Sprint("s", rng.IntN(3)), fmt.Sprint(rng.IntN(40)))
		v := doc{title: titles[:rng.IntN(len(titles))], body: bodies[:rng.IntN(len(bodies))]}
		switch rng.IntN(6) {
		case 0, 1:
			st.Put(k, v)
		case 2:
			if p := st.Get(k); p != nil {
				*p = v
				st.Changed(k)
			}
		case 3:
			st.Take(k)
		case 4:
			if st.Get(k) != nil {
				deleted[n]++
			}
			st.Delete(k)
		case 5:
			st.SweepSession(k.Session)
		}
		bs := b.Stats()
		if bs.Used > bs.Limit || bs.Used != stores[0].Stats().Bytes+stores[1].Stats().Bytes {
			t.Fatalf("step %d: used %d, limit %d, stores %d + %d", i, bs.Used, bs.Limit,
				stores[0].Stats().Bytes, stores[1].Stats().Bytes)
		}
	}
	var evicted uint64
	for n, st := range stores {
		s := st.Stats()
		if out := s.Matched + s.Evicted + s.Swept + deleted[n] + uint64(s.Live); out != s.Stored {
			t.Errorf("store %d: stored %d != matched+evicted+swept+deleted+live %d (%+v)", n, s.Stored, out, s)
		}
		evicted += s.OverBudget
	}
	bs := b.Stats()
	if bs.Evicted != evicted || bs.Evicted == 0 || bs.Cut == 0 {
		t.Errorf("budget %+v; the stores evicted %d for it", bs, evicted)
	}
}

// An entry costs about what it is charged: the charge is not an
// underestimate (by more than the allocator's rounding), so that the
// budget bounds the heap.
func TestEntryOverheadMeasured(t *testing.T) {
	const n = 2000
	b := correlate.NewBudget(0)
	st := correlate.New[string](correlate.Limits{PerSession: n, Total: n, Budget: b})
	keys := make([]correlate.Key, n)
	for i := range keys {
		keys[i] = key("s", fmt.Sprintf("k-%06d", i))
	}
	heap := func() int64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	before := heap()
	for _, k := range keys {
		st.Put(k, "v")
	}
	grown := heap() - before
	used := b.Stats().Used
	t.Logf("%d entries: heap %d B each, charged %d B each", n, grown/n, used/n)
	if grown > used+used/8 {
		t.Errorf("heap grew %d B an entry; charged %d B", grown/n, used/n)
	}
	runtime.KeepAlive(st)
}

// Misuse degrades instead of panicking or going negative: a value charged
// with no Holder is evicted by releasing its charge, negative sizes count
// as zero, and a nil Budget reports zero stats.
func TestBudgetMisuse(t *testing.T) {
	b := correlate.NewBudget(correlate.MinBudget)
	var orphan, big correlate.Charge
	b.Add(&orphan, 1000, nil)
	if !orphan.Charged() {
		t.Fatal("a value charged with a nil Holder is not charged")
	}
	b.Add(&big, correlate.MinBudget, nil) // pushes the orphan out
	if orphan.Charged() || b.Stats().Evicted != 1 || b.Stats().Used != correlate.MinBudget {
		t.Errorf("after eviction: orphan charged %v, stats %+v", orphan.Charged(), b.Stats())
	}
	b.Release(&big)
	var neg correlate.Charge
	b.Add(&neg, -5, nil)
	if st := b.Stats(); st.Used != 0 || neg.Size() != 0 {
		t.Errorf("a negative Add: used %d, charge %d; want 0, 0", st.Used, neg.Size())
	}
	b.Resize(&neg, -7)
	b.Hold(-9)
	b.Unhold(-11)
	if st := b.Stats(); st.Used != 0 || neg.Size() != 0 {
		t.Errorf("negative sizes: used %d, charge %d; want 0, 0", st.Used, neg.Size())
	}
	var none *correlate.Budget
	if st := none.Stats(); st != (correlate.BudgetStats{}) {
		t.Errorf("nil budget stats: %+v", st)
	}
}

// A value that grows in place past MaxValue and cannot be cut (a string
// has no Cut) is dropped at the per-value bound: evicted, and refused.
func TestChangedPastMaxValueEvicts(t *testing.T) {
	b := correlate.NewBudget(correlate.MinBudget)
	st := correlate.New[string](correlate.Limits{Budget: b})
	k := correlate.Key{Session: "s", ID: "1"}
	*st.Put(k, "x") = kib(65)
	st.Changed(k)
	got := st.Stats()
	if st.Get(k) != nil || got.Evicted != 1 || got.Refused != 1 || got.Bytes != 0 || b.Stats().Used != 0 {
		t.Errorf("kept %v; stats %+v, budget %+v", st.Get(k) != nil, got, b.Stats())
	}
}
