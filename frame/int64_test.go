package frame_test

import (
	"math/big"
	"regexp"
	"testing"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Int64 reads every whole number that fits an int64, exactly, however it
// is written: a float64 rounds an integer past 2^53, and 2^63-1 up to
// 2^63, and turns a tiny fraction whole. A fraction, however small, and a
// malformed number are refused.
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
		// written with a fraction or an exponent
		{`1.5e3`, 1500, true},
		{`1500e-3`, 0, false},
		{`1500e-2`, 15, true},
		{`-2.50E+1`, -25, true},
		{`0.1e1`, 1, true},
		{`120.0e-1`, 12, true},
		{`0.000e99999`, 0, true},
		{`-0.0`, 0, true},
		{`9007199254740993.0`, 9007199254740993, true},
		{`9007199254740993.5`, 0, false},
		{`1234567890123e6`, 1234567890123000000, true},
		{`9.223372036854775807e18`, 9223372036854775807, true},
		{`-9.223372036854775808e18`, -9223372036854775808, true},
		{`9.223372036854775808e18`, 0, false},
		{`12345678901234567890.0`, 0, false},
		{`1.0000000000000001`, 0, false},
		{`1e-400`, 0, false},
		{`1.5e-330`, 0, false},
		{`1e99999999999999999999`, 0, false},
		{`1e-99999999999999999999`, 0, false},
		{`00000000000000000000000042.000`, 42, true},
		// malformed: gjson calls them numbers
		{`1.`, 0, false},
		{`1.e5`, 0, false},
		{`1e`, 0, false},
		{`1e+`, 0, false},
		{`-`, 0, false},
		{`-.5`, 0, false},
	}
	for _, tt := range tests {
		got, ok := frame.Int64(gjson.Parse(tt.in))
		if ok != tt.ok || got != tt.want {
			t.Errorf("Int64(%s) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzInt64 checks Int64 against math/big on JSON number literals: ok
// exactly when the value is whole and fits an int64, and then the value.
func FuzzInt64(f *testing.F) {
	for _, s := range []string{"0", "-12", "1.5e3", "9007199254740993.0", "9.223372036854775807e18", "1e-400", "120.0e-1"} {
		f.Add(s)
	}
	number := regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]{1,4})?$`) // big.Rat is slow on huge exponents
	f.Fuzz(func(t *testing.T, s string) {
		if !number.MatchString(s) {
			return
		}
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("big.Rat cannot read %q", s)
		}
		want := r.IsInt() && r.Num().IsInt64()
		got, gotOK := frame.Int64(gjson.Parse(s))
		if gotOK != want || (want && got != r.Num().Int64()) {
			t.Errorf("Int64(%s) = %d, %v; want %s, %v", s, got, gotOK, r.Num(), want)
		}
	})
}
