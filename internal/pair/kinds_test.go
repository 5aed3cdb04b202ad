package pair

import (
	"strings"
	"testing"
)

// TestOver: the kinds slower than their base, largest excess first, with
// their excess per line and their share of the whole excess.
func TestOver(t *testing.T) {
	k := NewKinds([]Line{{Kind: "a"}, {Kind: "a"}, {Kind: "b"}, {Kind: "c"}})
	k.rounds = 2
	k.by["a"].run, k.by["a"].base = 600, 200 // 100 ns over per line
	k.by["b"].run, k.by["b"].base = 1400, 200
	k.by["c"].run, k.by["c"].base = 100, 160 // faster than its base
	k.run, k.base = 2100, 560
	rows := strings.Split(strings.TrimSpace(k.Over()), "\n")
	want := [][]string{
		{"kind", "lines", "ns/line", "over", "ns", "over%"},
		{"b", "1", "700", "600", "75.0%"},
		{"a", "2", "150", "100", "25.0%"},
	}
	if len(rows) != len(want)+1 {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want)+1, k.Over())
	}
	for i, w := range want {
		if got := strings.Fields(rows[i]); strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("row %d: %q, want %q", i, got, w)
		}
	}
	if !strings.HasPrefix(rows[3], "all 4 lines: base/run 0.27 over 2 rounds") {
		t.Errorf("last row: %q", rows[3])
	}
}
