package frame_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Int64 reads every whole number that fits an int64, exactly: a float64
// rounds an integer past 2^53, and 2^63-1 up to 2^63.
func TestInt64(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{`0`, 0, true},
		{`-0`, 0, true},
		{`42`, 42, true},
		{`-42`, -42, true},
		{`1e3`, 1000, true},
		{`2.0`, 2, true},
		{`1.5`, 0, false},
		{`"7"`, 0, false},
		{`null`, 0, false},
		{`9007199254740993`, 9007199254740993, true},
		{`9223372036854775295`, 9223372036854775295, true},
		{`9223372036854775807`, 9223372036854775807, true},
		{`-9223372036854775808`, -9223372036854775808, true},
		{`9223372036854775808`, 0, false},
		{`-9223372036854775809`, 0, false},
		{`99999999999999999999`, 0, false},
		{`1e19`, 0, false},
	}
	for _, tt := range tests {
		got, ok := frame.Int64(gjson.Parse(tt.in))
		if ok != tt.ok || got != tt.want {
			t.Errorf("Int64(%s) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
