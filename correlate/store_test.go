package correlate_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect/correlate"
	_ "github.com/acpdialect/acpdialect/internal/testwire" // registers -update for `go test ./... -update`
	"github.com/google/go-cmp/cmp"
)

func key(session, id string) correlate.Key { return correlate.Key{Session: session, ID: id} }

// op is one step of a table-driven scenario against a Store[string].
type op struct {
	kind byte // 'p'ut, 't'ake, 'd'elete, 'g'et, 's'weep, sweep 'o'ne
	k    correlate.Key
	val  string // for put
	// wantVal/wantOK are checked for take and get (wantOK for sweep one);
	// wantN for sweep.
	wantVal string
	wantOK  bool
	wantN   int
}

func put(s, id, v string) op { return op{kind: 'p', k: key(s, id), val: v} }
func take(s, id, want string, ok bool) op {
	return op{kind: 't', k: key(s, id), wantVal: want, wantOK: ok}
}
func get(s, id, want string, ok bool) op {
	return op{kind: 'g', k: key(s, id), wantVal: want, wantOK: ok}
}
func del(s, id string) op      { return op{kind: 'd', k: key(s, id)} }
func sweep(s string, n int) op { return op{kind: 's', k: key(s, ""), wantN: n} }
func sweepOne(s, id string, ok bool) op {
	return op{kind: 'o', k: key(s, id), wantOK: ok}
}

func apply(t *testing.T, st *correlate.Store[string], i int, o op) {
	t.Helper()
	switch o.kind {
	case 'p':
		st.Put(o.k, o.val)
	case 't':
		v, ok := st.Take(o.k)
		if v != o.wantVal || ok != o.wantOK {
			t.Fatalf("step %d: Take(%v) = %q, %v; want %q, %v", i, o.k, v, ok, o.wantVal, o.wantOK)
		}
	case 'g':
		p := st.Get(o.k)
		if (p != nil) != o.wantOK || (p != nil && *p != o.wantVal) {
			t.Fatalf("step %d: Get(%v) = %v; want %q, %v", i, o.k, p, o.wantVal, o.wantOK)
		}
	case 'd':
		st.Delete(o.k)
	case 's':
		if n := st.SweepSession(o.k.Session); n != o.wantN {
			t.Fatalf("step %d: SweepSession(%q) = %d; want %d", i, o.k.Session, n, o.wantN)
		}
	case 'o':
		if ok := st.Sweep(o.k); ok != o.wantOK {
			t.Fatalf("step %d: Sweep(%v) = %v; want %v", i, o.k, ok, o.wantOK)
		}
	}
}

// contents lists every session's entries oldest first, through Each.
func contents(st *correlate.Store[string], sessions ...string) map[string][]string {
	out := map[string][]string{}
	for _, s := range sessions {
		st.Each(s, func(k correlate.Key, v *string) bool {
			out[s] = append(out[s], k.ID+"="+*v)
			return true
		})
	}
	return out
}

func TestStoreScenarios(t *testing.T) {
	tests := []struct {
		name  string
		lim   correlate.Limits
		ops   []op
		want  map[string][]string // per session, oldest first
		stats correlate.Stats
	}{
		{
			name: "put then get and take",
			ops: []op{
				put("s1", "a", "A"), get("s1", "a", "A", true),
				take("s1", "a", "A", true), get("s1", "a", "", false),
				take("s1", "a", "", false),
			},
			want:  map[string][]string{},
			stats: correlate.Stats{Stored: 1, Matched: 1},
		},
		{
			name: "put on an existing key replaces in place and is not counted again",
			ops:  []op{put("s1", "a", "A"), put("s1", "b", "B"), put("s1", "a", "A2")},
			want: map[string][]string{"s1": {"a=A2", "b=B"}},
			// a keeps its age: it stays first.
			stats: correlate.Stats{Stored: 2, Live: 2},
		},
		{
			name: "replaced key keeps its age for eviction",
			lim:  correlate.Limits{PerSession: 2, Total: 10},
			ops:  []op{put("s1", "a", "A"), put("s1", "b", "B"), put("s1", "a", "A2"), put("s1", "c", "C")},
			want: map[string][]string{"s1": {"b=B", "c=C"}},
			// a was the oldest although it was written last but one.
			stats: correlate.Stats{Stored: 3, Evicted: 1, Live: 2},
		},
		{
			name: "delete is not counted as matched, evicted or swept",
			ops:  []op{put("s1", "a", "A"), del("s1", "a"), del("s1", "a"), del("nope", "x"), get("s1", "a", "", false)},
			want: map[string][]string{}, stats: correlate.Stats{Stored: 1},
		},
		{
			name: "sweep one key is counted as swept, once",
			ops:  []op{put("s1", "a", "A"), put("s1", "b", "B"), sweepOne("s1", "a", true), sweepOne("s1", "a", false), sweepOne("nope", "x", false)},
			want: map[string][]string{"s1": {"b=B"}}, stats: correlate.Stats{Stored: 2, Swept: 1, Live: 1},
		},
		{
			name: "sessions are isolated: same id, two sessions",
			ops: []op{
				put("s1", "a", "one"), put("s2", "a", "two"),
				get("s1", "a", "one", true), get("s2", "a", "two", true),
				take("s1", "a", "one", true), get("s2", "a", "two", true),
			},
			want:  map[string][]string{"s2": {"a=two"}},
			stats: correlate.Stats{Stored: 2, Matched: 1, Live: 1},
		},
		{
			name: "per-session bound evicts that session's oldest only",
			lim:  correlate.Limits{PerSession: 2, Total: 100},
			ops: []op{
				put("s1", "a", "A"), put("s2", "x", "X"), put("s1", "b", "B"),
				put("s1", "c", "C"), put("s1", "d", "D"),
			},
			want:  map[string][]string{"s1": {"c=C", "d=D"}, "s2": {"x=X"}},
			stats: correlate.Stats{Stored: 5, Evicted: 2, Live: 3},
		},
		{
			name: "total bound evicts the connection's oldest, across sessions",
			lim:  correlate.Limits{PerSession: 100, Total: 3},
			ops: []op{
				put("s1", "a", "A"), put("s2", "x", "X"), put("s1", "b", "B"),
				put("s3", "m", "M"), put("s3", "n", "N"),
			},
			want:  map[string][]string{"s1": {"b=B"}, "s3": {"m=M", "n=N"}},
			stats: correlate.Stats{Stored: 5, Evicted: 2, Live: 3},
		},
		{
			name: "per-session bound of one empties and refills the session",
			lim:  correlate.Limits{PerSession: 1, Total: 1},
			ops:  []op{put("s1", "a", "A"), put("s1", "b", "B"), put("s2", "c", "C"), put("s1", "d", "D")},
			want: map[string][]string{"s1": {"d=D"}}, stats: correlate.Stats{Stored: 4, Evicted: 3, Live: 1},
		},
		{
			name: "sweep drops one session and counts",
			ops: []op{
				put("s1", "a", "A"), put("s1", "b", "B"), put("s2", "a", "Z"),
				sweep("s1", 2), sweep("s1", 0), sweep("never", 0),
				get("s1", "a", "", false), get("s2", "a", "Z", true),
			},
			want:  map[string][]string{"s2": {"a=Z"}},
			stats: correlate.Stats{Stored: 3, Swept: 2, Live: 1},
		},
		{
			name: "a swept session starts afresh",
			lim:  correlate.Limits{PerSession: 2, Total: 10},
			ops: []op{
				put("s1", "a", "A"), put("s1", "b", "B"), sweep("s1", 2),
				put("s1", "c", "C"), put("s1", "d", "D"),
			},
			want:  map[string][]string{"s1": {"c=C", "d=D"}},
			stats: correlate.Stats{Stored: 4, Swept: 2, Live: 2},
		},
		{
			name: "take from the middle keeps the order of the rest",
			lim:  correlate.Limits{PerSession: 3, Total: 10},
			ops: []op{
				put("s1", "a", "A"), put("s1", "b", "B"), put("s1", "c", "C"),
				take("s1", "b", "B", true), put("s1", "d", "D"), put("s1", "e", "E"),
			},
			want:  map[string][]string{"s1": {"c=C", "d=D", "e=E"}},
			stats: correlate.Stats{Stored: 5, Matched: 1, Evicted: 1, Live: 3},
		},
		{
			name: "empty ids and sessions are ordinary keys",
			ops:  []op{put("", "", "E"), get("", "", "E", true), sweep("", 1)},
			want: map[string][]string{}, stats: correlate.Stats{Stored: 1, Swept: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := correlate.New[string](tc.lim)
			for i, o := range tc.ops {
				apply(t, st, i, o)
			}
			got := contents(st, "s1", "s2", "s3", "")
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("contents (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.stats, st.Stats()); d != "" {
				t.Errorf("stats (-want +got):\n%s", d)
			}
			if st.Len() != tc.stats.Live {
				t.Errorf("Len() = %d; want %d", st.Len(), tc.stats.Live)
			}
			for s, l := range tc.want {
				if n := st.SessionLen(s); n != len(l) {
					t.Errorf("SessionLen(%q) = %d; want %d", s, n, len(l))
				}
			}
		})
	}
}

// Get returns a pointer into the store: an owner merges in place.
func TestStoreGetUpdatesInPlace(t *testing.T) {
	st := correlate.New[int](correlate.Limits{})
	k := key("s", "a")
	st.Put(k, 1)
	*st.Get(k) += 41
	if v, ok := st.Take(k); !ok || v != 42 {
		t.Fatalf("Take = %d, %v; want 42, true", v, ok)
	}
}

func TestStoreEachStopsEarly(t *testing.T) {
	st := correlate.New[string](correlate.Limits{})
	for _, id := range []string{"a", "b", "c"} {
		st.Put(key("s", id), id)
	}
	var seen []string
	st.Each("s", func(k correlate.Key, v *string) bool {
		seen = append(seen, k.ID)
		return len(seen) < 2
	})
	if d := cmp.Diff([]string{"a", "b"}, seen); d != "" {
		t.Errorf("Each visited (-want +got):\n%s", d)
	}
	st.Each("none", func(correlate.Key, *string) bool {
		t.Error("Each called fn for a session with no entries")
		return true
	})
}

// A zero Limits takes the documented defaults.
func TestStoreDefaults(t *testing.T) {
	st := correlate.New[int](correlate.Limits{PerSession: -1})
	for i := range correlate.DefaultPerSession + 10 {
		st.Put(key("s", fmt.Sprint(i)), i)
	}
	if n := st.SessionLen("s"); n != correlate.DefaultPerSession {
		t.Errorf("per-session default: SessionLen = %d; want %d", n, correlate.DefaultPerSession)
	}
	for i := range correlate.DefaultTotal + 10 {
		st.Put(key(fmt.Sprint("t", i%100), fmt.Sprint(i)), i)
	}
	if n := st.Len(); n != correlate.DefaultTotal {
		t.Errorf("total default: Len = %d; want %d", n, correlate.DefaultTotal)
	}
}

// Every counter adds up: whatever was stored is live, matched, evicted,
// swept or deleted, under a random mix of operations on many sessions.
func TestStoreAccounting(t *testing.T) {
	st := correlate.New[int](correlate.Limits{PerSession: 7, Total: 20})
	var deleted uint64
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 100_000 {
		k := key(fmt.Sprint("s", rng.IntN(4)), fmt.Sprint(rng.IntN(8)))
		switch rng.IntN(11) {
		case 0, 1, 2, 3, 4, 5:
			st.Put(k, i)
		case 6, 7:
			st.Take(k)
		case 8:
			if st.Get(k) != nil {
				deleted++
			}
			st.Delete(k)
		case 9:
			st.SweepSession(k.Session)
		case 10:
			_ = st.Get(k)
		}
		if st.Len() > 20 || st.SessionLen(k.Session) > 7 {
			t.Fatalf("step %d: bounds broken: Len %d, SessionLen %d", i, st.Len(), st.SessionLen(k.Session))
		}
	}
	s := st.Stats()
	if out := s.Matched + s.Evicted + s.Swept + deleted + uint64(s.Live); out != s.Stored {
		t.Errorf("stored %d != matched+evicted+swept+deleted+live %d (%+v, deleted %d)", s.Stored, out, s, deleted)
	}
	if s.Evicted == 0 || s.Swept == 0 || s.Matched == 0 {
		t.Errorf("mix did not exercise every outcome: %+v", s)
	}
}

// opsTime runs n Put/Get/Take rounds against a store already holding size
// entries (each Put evicting once the store is full).
func opsTime(size, n int) time.Duration {
	st := correlate.New[int](correlate.Limits{PerSession: size, Total: size})
	keys := make([]correlate.Key, size+n)
	for i := range keys {
		keys[i] = key("s", fmt.Sprint(i))
	}
	for _, k := range keys[:size] {
		st.Put(k, 0)
	}
	start := time.Now()
	for i, k := range keys[size:] {
		st.Put(k, i)
		_ = st.Get(keys[i])
		st.Take(keys[i+size/2])
	}
	return time.Since(start)
}

// Operations are O(1): the same work against a store 10,000 times larger
// costs about the same (map and cache effects allow a generous factor; an
// O(n) step would make it thousands of times slower).
func TestStoreLargeStaysFast(t *testing.T) {
	const n = 20_000
	small := opsTime(16, n)
	large := opsTime(160_000, n)
	t.Logf("%d ops: large store %v, small store %v", n, large, small)
	if large > 50*small+50*time.Millisecond {
		t.Errorf("%d ops: large store %v, small store %v: not O(1)", n, large, small)
	}
}

// The store owns no goroutines: using and dropping many leaves none behind.
func TestStoreStartsNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	for i := range 100 {
		st := correlate.New[int](correlate.Limits{PerSession: 3, Total: 5})
		for j := range 20 {
			st.Put(key(fmt.Sprint(j%4), fmt.Sprint(i, j)), j)
		}
		st.SweepSession("1")
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("goroutines: %d before, %d after", before, after)
	}
}
