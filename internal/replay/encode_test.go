package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/acpdialect/acpdialect"
)

// sameEncoding fails unless WriteEvent writes ev as MarshalJSON does, and
// appendEvent, where it writes ev, writes the same bytes.
func sameEncoding(t *testing.T, ev acpdialect.Event) {
	t.Helper()
	want, werr := ev.MarshalJSON()
	var got bytes.Buffer
	bw := bufio.NewWriter(&got)
	gerr := WriteEvent(bw, ev)
	bw.Flush()
	if (gerr != nil) != (werr != nil) {
		t.Fatalf("WriteEvent error %v, MarshalJSON error %v (%#v)", gerr, werr, ev)
	}
	if werr != nil {
		return
	}
	if !bytes.Equal(got.Bytes(), append(want, '\n')) {
		t.Fatalf("WriteEvent\n%s\nMarshalJSON\n%s", got.Bytes(), want)
	}
	if b, ok := appendEvent([]byte("x"), ev); ok && !bytes.Equal(b, append([]byte("x"), want...)) {
		t.Fatalf("appendEvent\n%s\nMarshalJSON\n%s", b, want)
	}
}

// TestAppendEventGoldens: every event of every transcript in the
// repository's testdata, and every event its goldens hold, is written as
// MarshalJSON writes it.
func TestAppendEventGoldens(t *testing.T) {
	transcripts, _ := filepath.Glob("../../*/testdata/*.jsonl")
	more, _ := filepath.Glob("../../testdata/*.jsonl")
	transcripts = append(transcripts, more...)
	n := 0
	for _, p := range transcripts {
		for _, agent := range []string{"", "unknown"} {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Run(Builtins(), f, Options{Agent: agent})
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, rec := range r.Events {
				sameEncoding(t, rec.Event)
				n++
			}
		}
	}
	goldens, _ := filepath.Glob("../../*/testdata/*.events.golden")
	for _, p := range goldens {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var ev acpdialect.Event
			if err := json.Unmarshal(line, &ev); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			sameEncoding(t, ev)
			n++
		}
	}
	if len(transcripts) < 100 || len(goldens) < 100 || n < 1000 {
		t.Fatalf("%d transcripts, %d goldens, %d events: the globs missed the testdata", len(transcripts), len(goldens), n)
	}
}

// FuzzAppendEvent: an event with every field filled from the input (by
// reflection, so a field added to Event or Payload is filled too, and
// fails here until appendEvent writes it) is written as MarshalJSON
// writes it.
func FuzzAppendEvent(f *testing.F) {
	f.Add([]byte("\x05\x01typeX\x03\x04abcd\x10\x0512345\x07\x02 \t\x00\x01\x02"))
	f.Add([]byte("\x03\x06\xe2\x80\xa8\xe2\x80\xa9\x04\x03\xff\xfe<>&\x01\x05\x02\x03\x04\x05\x06\x07\x08\x09"))
	f.Add(bytes.Repeat([]byte{1, 7, 'a', '"', '\\', '\n', 0x7f, 0xc3, 0xa9}, 40))
	// Every byte odd: every bool true, every string and number set, so a
	// bool appendEvent forgets (Shell.Cancellable once) shows.
	f.Add(bytes.Repeat([]byte{'7'}, 1200))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ev acpdialect.Event
		(&filler{t: t, data: data}).fill(reflect.ValueOf(&ev).Elem())
		sameEncoding(t, ev)
		ev.Object, ev.Error = nil, nil // the events appendEvent writes
		sameEncoding(t, ev)
	})
}

// filler fills values from its data, a byte at a time; past its end,
// with zero values.
type filler struct {
	t    *testing.T
	data []byte
}

func (f *filler) byte() byte {
	if len(f.data) == 0 {
		return 0
	}
	c := f.data[0]
	f.data = f.data[1:]
	return c
}

// str takes a length byte and that many bytes, as they are: control
// characters, invalid UTF-8 and U+2028 included.
func (f *filler) str() string {
	n := min(int(f.byte()%48), len(f.data))
	s := string(f.data[:n])
	f.data = f.data[n:]
	return s
}

// raws are the json.RawMessage values a filler picks from: compact or
// not, and some that are not JSON.
var raws = []string{"", `1`, `"id-1"`, ` { "a" : [ 1, 2 ], "b":"x y" } `, "{\n\t\"k\": null}", `{`, `nul`, `[]`, `"\u2028<&>"`}

func (f *filler) fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f.str())
	case reflect.Bool:
		v.SetBool(f.byte()&1 == 1)
	case reflect.Int, reflect.Int64:
		x := int64(int8(f.byte()))
		for range f.byte() % 4 {
			x = x<<16 | int64(f.byte())<<8 | int64(f.byte())
		}
		v.SetInt(x)
	case reflect.Pointer:
		if f.byte()%3 != 0 {
			p := reflect.New(v.Type().Elem())
			f.fill(p.Elem())
			v.Set(p)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i))
			}
		}
	case reflect.Slice:
		f.fillSlice(v)
	case reflect.Interface:
		if f.byte()%8 == 7 { // an object: left to MarshalJSON
			v.Set(reflect.ValueOf(&acpdialect.Question{ToolCallID: f.str()}))
		}
	default:
		f.t.Fatalf("filler: no rule for %s: teach it, and appendEvent", v.Type())
	}
}

func (f *filler) fillSlice(v reflect.Value) {
	switch {
	case v.Type() == reflect.TypeFor[json.RawMessage]():
		if raw := raws[int(f.byte())%len(raws)]; raw != "" {
			v.SetBytes([]byte(raw))
		}
	case v.Type().Elem().Kind() == reflect.String:
		n := int(f.byte() % 4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			f.fill(s.Index(i))
		}
		if n > 0 || f.byte()&1 == 1 {
			v.Set(s) // empty but not nil sometimes: omitted all the same
		}
	default:
		f.t.Fatalf("filler: no rule for %s: teach it, and appendEvent", v.Type())
	}
}

// FuzzAppendString: strings of any length and bytes are quoted as
// encoding/json quotes them without HTML escaping.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain text of some length", "tab\there \"quoted\" back\\slash", "\x00\x1f\x7f", "é\u2028\u2029\xff\xc3", "<a href=\"x\">&amp;</a>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); string(got)+"\n" != want.String() {
			t.Fatalf("appendString(%q) = %s, encoding/json %s", s, got, want.Bytes())
		}
	})
}
