package acpdialect_test

import (
	"reflect"
	"testing"

	"github.com/acpdialect/acpdialect"
)

// Equal must notice a difference in any field, including ones added later.
func TestSubagentTaskEqualSeesEveryField(t *testing.T) {
	typ := reflect.TypeFor[acpdialect.SubagentTask]()
	for i := range typ.NumField() {
		var a, b acpdialect.SubagentTask
		f := reflect.ValueOf(&b).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			f.Set(reflect.ValueOf(count(0)))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", typ.Field(i).Name, f.Kind())
		}
		if a.Equal(b) || b.Equal(a) {
			t.Errorf("Equal misses field %s", typ.Field(i).Name)
		}
		if !b.Equal(b) {
			t.Errorf("Equal(itself) false with %s set", typ.Field(i).Name)
		}
	}
	x, y := acpdialect.SubagentTask{DurationMs: count(5)}, acpdialect.SubagentTask{DurationMs: count(5)}
	if !x.Equal(y) {
		t.Error("counters compare by value")
	}
}

// count returns a pointer to v, for a payload's optional counters.
func count(v int64) *int64 { return &v }
