package acpdialect_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
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

// Payload.Equal must notice a difference in any field of any kind object,
// and Clone must copy every one deeply: a change to a clone's object never
// shows in the original.
func TestPayloadEqualAndCloneSeeEveryField(t *testing.T) {
	ptyp := reflect.TypeFor[acpdialect.Payload]()
	for i := range ptyp.NumField() {
		kf := ptyp.Field(i)
		if kf.Type.Kind() != reflect.Pointer {
			continue
		}
		otyp := kf.Type.Elem()
		for j := range otyp.NumField() {
			var a, b acpdialect.Payload
			reflect.ValueOf(&a).Elem().Field(i).Set(reflect.New(otyp))
			reflect.ValueOf(&b).Elem().Field(i).Set(reflect.New(otyp))
			setField(t, reflect.ValueOf(&b).Elem().Field(i).Elem().Field(j), kf.Name+"."+otyp.Field(j).Name)
			if a.Equal(b) || b.Equal(a) {
				t.Errorf("Payload.Equal misses %s.%s", kf.Name, otyp.Field(j).Name)
			}
			c := b.Clone()
			if !c.Equal(b) {
				t.Errorf("Clone of %s.%s is not Equal", kf.Name, otyp.Field(j).Name)
			}
			mutate(reflect.ValueOf(&c).Elem().Field(i).Elem().Field(j))
			if c.Equal(b) {
				t.Errorf("Clone shares %s.%s with the original", kf.Name, otyp.Field(j).Name)
			}
		}
	}
}

// setField gives a field a non-zero value.
func setField(t *testing.T, f reflect.Value, name string) {
	switch f.Kind() {
	case reflect.String:
		f.SetString("x")
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Int64:
		f.SetInt(1)
	case reflect.Pointer:
		f.Set(reflect.New(f.Type().Elem()))
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		if f.Type().Elem().Kind() == reflect.String {
			f.Index(0).SetString("x")
		} else {
			f.Index(0).Set(reflect.ValueOf(byte('1')).Convert(f.Type().Elem()))
		}
	default:
		t.Fatalf("field %s: kind %s not covered by this test", name, f.Kind())
	}
}

// mutate changes a set field through what it points to, where it points,
// or in place.
func mutate(f reflect.Value) {
	switch f.Kind() {
	case reflect.Pointer:
		e := f.Elem()
		e.Set(reflect.ValueOf(int64(99)).Convert(e.Type()))
	case reflect.Slice:
		if f.Type().Elem().Kind() == reflect.String {
			f.Index(0).SetString("changed")
		} else {
			f.Index(0).Set(reflect.ValueOf(byte('2')).Convert(f.Type().Elem()))
		}
	case reflect.String:
		f.SetString("changed")
	case reflect.Bool:
		f.SetBool(false)
	case reflect.Int64:
		f.SetInt(99)
	}
}

// ReadTokens reads ACP's turn token counts; the first of a repeated key
// counts, and a wrong type is absent.
func TestUsageReadTokens(t *testing.T) {
	var u acpdialect.Usage
	u.ReadTokens(gjson.Parse(`{"inputTokens":2,"outputTokens":"4","thoughtTokens":-1,"cachedReadTokens":0,"cachedWriteTokens":9,"totalTokens":15,"totalTokens":99,"other":1}`))
	b, _ := json.Marshal(u)
	if want := `{"input_tokens":2,"cached_read_tokens":0,"cached_write_tokens":9,"total_tokens":15}`; string(b) != want {
		t.Errorf("ReadTokens: %s; want %s", b, want)
	}
}

// Cut reports a change only when it made one: a payload with no long
// strings is left alone, whatever the limit, and one with a long title is
// cut to the limit.
func TestPayloadCut(t *testing.T) {
	var zero acpdialect.Payload
	if zero.Cut(0) || zero.Cut(-1) {
		t.Errorf("a zero payload reports a cut: %+v", zero)
	}
	long := make([]byte, 4096)
	for i := range long {
		long[i] = 'a'
	}
	p := acpdialect.Payload{Kind: acpdialect.KindGeneric, Title: string(long)}
	limit := p.Size() - 1000
	if !p.Cut(limit) || p.Size() > limit || len(p.Title) != 3096 || p.Kind != acpdialect.KindGeneric {
		t.Errorf("cut to %d: size %d, title %d bytes, kind %q", limit, p.Size(), len(p.Title), p.Kind)
	}
	if p.Cut(limit) {
		t.Error("a second cut to the same limit reports a change")
	}
}

// HasCounts sees each of the six turn counts, a zero included, and
// nothing else.
func TestUsageHasCounts(t *testing.T) {
	zero := int64(0)
	if (&acpdialect.Usage{Turn: true, Model: "m", Used: &zero}).HasCounts() {
		t.Error("a usage without turn counts has counts")
	}
	for i, u := range []acpdialect.Usage{{InputTokens: &zero}, {OutputTokens: &zero}, {ThoughtTokens: &zero},
		{CachedReadTokens: &zero}, {CachedWriteTokens: &zero}, {TotalTokens: &zero}} {
		if !u.HasCounts() {
			t.Errorf("count %d not seen", i)
		}
	}
}

// Size must count every string a payload holds, and Cut must bound it,
// including strings added to a kind object later: a string Size misses
// escapes the byte budget, one Cut misses escapes the per-value cap. The
// strings a card is found by (Kind, Status, WireToolCallID, a monitor's
// TaskID) are counted but never cut.
func TestPayloadSizeAndCutSeeEveryString(t *testing.T) {
	uncut := map[string]bool{"Kind": true, "Status": true, "WireToolCallID": true, "Monitor.TaskID": true}
	const long = 4096
	for _, f := range payloadStrings(t) {
		t.Run(f.name, func(t *testing.T) {
			var p acpdialect.Payload
			s := f.set(&p)
			base := p.Size()
			*s = strings.Repeat("a", long)
			if got := p.Size(); got < base+long {
				t.Fatalf("Size %d with %d bytes in %s, %d without: not counted", got, long, f.name, base)
			}
			limit := base + 100
			p.Cut(limit)
			s = f.find(&p) // Cut copies the kind object before cutting
			switch {
			case uncut[f.name] && len(*s) != long:
				t.Errorf("Cut shortened %s, which it must keep, to %d bytes", f.name, len(*s))
			case !uncut[f.name] && (p.Size() > limit || len(*s) == long):
				t.Errorf("Cut to %d left %s at %d bytes, the payload at %d", limit, f.name, len(*s), p.Size())
			}
		})
	}
}

// payloadString is one string a payload can hold: set gives the payload
// the kind object that holds it (a list of one string for a list) and
// returns where the string is; find finds it again.
type payloadString struct {
	name string
	set  func(p *acpdialect.Payload) *string
	find func(p *acpdialect.Payload) *string
}

// payloadStrings lists, by reflection, every string field of Payload and
// of its kind objects, and each first element of a list of strings.
func payloadStrings(t *testing.T) []payloadString {
	var out []payloadString
	ptyp := reflect.TypeFor[acpdialect.Payload]()
	for i := range ptyp.NumField() {
		kf := ptyp.Field(i)
		if kf.Type.Kind() == reflect.String {
			at := func(p *acpdialect.Payload) *string {
				return reflect.ValueOf(p).Elem().Field(i).Addr().Interface().(*string)
			}
			out = append(out, payloadString{kf.Name, at, at})
			continue
		}
		if kf.Type.Kind() != reflect.Pointer || kf.Type.Elem().Kind() != reflect.Struct {
			continue
		}
		otyp := kf.Type.Elem()
		for j := range otyp.NumField() {
			ft := otyp.Field(j).Type
			list := ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.String
			if ft.Kind() != reflect.String && !list {
				continue
			}
			find := func(p *acpdialect.Payload) *string {
				f := reflect.ValueOf(p).Elem().Field(i).Elem().Field(j)
				if list {
					f = f.Index(0)
				}
				return f.Addr().Interface().(*string)
			}
			set := func(p *acpdialect.Payload) *string {
				obj := reflect.New(otyp)
				reflect.ValueOf(p).Elem().Field(i).Set(obj)
				if list {
					obj.Elem().Field(j).Set(reflect.MakeSlice(ft, 1, 1))
				}
				return find(p)
			}
			out = append(out, payloadString{kf.Name + "." + otyp.Field(j).Name, set, find})
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d strings found", len(out))
	}
	return out
}
