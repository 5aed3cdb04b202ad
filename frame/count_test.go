package frame_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

func TestCount(t *testing.T) {
	seven := int64(7)
	tests := []struct {
		prev *int64
		raw  string
		want any // int64, or nil for absent
	}{
		{nil, `42`, int64(42)},
		{nil, `0`, int64(0)},
		{nil, `-1`, nil},
		{nil, `1.5`, nil},
		{nil, `"3"`, nil},
		{nil, `null`, nil},
		{nil, ``, nil},
		{&seven, `42`, int64(7)}, // the first occurrence counts
	}
	for _, tc := range tests {
		got := frame.Count(tc.prev, gjson.Parse(tc.raw))
		switch want := tc.want.(type) {
		case nil:
			if got != nil {
				t.Errorf("Count(%v, %s) = %d; want absent", tc.prev, tc.raw, *got)
			}
		case int64:
			if got == nil || *got != want {
				t.Errorf("Count(%v, %s) = %v; want %d", tc.prev, tc.raw, got, want)
			}
		}
	}
}

// sinkCount keeps a count, as the objects hooks fill do.
var sinkCount *int64

// A count that is absent or wrong costs no allocation; one that is read
// costs its own.
func TestCountAllocs(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want float64
	}{{`"3"`, 0}, {`-1`, 0}, {``, 0}, {`42`, 1}} {
		r := gjson.Parse(tc.raw)
		if n := testing.AllocsPerRun(100, func() { sinkCount = frame.Count(nil, r) }); n != tc.want {
			t.Errorf("Count(nil, %s): %.0f allocs, want %.0f", tc.raw, n, tc.want)
		}
	}
}
