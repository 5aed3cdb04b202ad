package wiretap_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// chunkReader returns data in reads of the sizes sizes cycles through.
type chunkReader struct {
	data  []byte
	sizes []byte
	i     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := len(c.data)
	if len(c.sizes) > 0 {
		n = 1 + int(c.sizes[c.i%len(c.sizes)])%97
		c.i++
	}
	n = min(n, len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// FuzzReader: whatever the bytes and however they are split, the Reader
// never panics, ends with io.EOF, and delivers its input with only the
// renamed frames changed, each by one '_' right after the opening quote of
// its top-level method, and never in a frame over MaxFrame.
//
// Its seeds are single capture lines and pairs of them, at most a few KB,
// never a whole transcript: with those (up to 10 KB) the first inputs that
// found new coverage were as long, and minimizing one (a pass quadratic in
// its length) took the whole run, 86 executions in 60 s.
func FuzzReader(f *testing.F) {
	lines := captureLines(f)
	for i, l := range lines {
		f.Add(append(l, '\n'), []byte(nil), uint16(64), uint16(0))
		if i > 0 {
			// Two frames, read in odd chunks: a frame's end and the next
			// one's start in one read.
			pair := append(append(append([]byte(nil), lines[i-1]...), '\n'), l...)
			f.Add(append(pair, '\n'), []byte{3, 200, 17}, uint16(4096), uint16(0))
		}
	}
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"cursor/task","params":` + taskParams + "}\n",
		`{"jsonrpc":"2.0","method":"cursor/task","params":{"toolCallId":"x"}}`,
		`{"id":"a","method":"cursor\/task"}` + "\r\n" + chunk + "\n",
		`{"id":1,"method":"cursor/task","method":"cursor/task"}` + "\n" + `[{"method":"cursor/task"}]`,
		`{"id":1.0e0,"params":{"method":"cursor/task"},"method":"cursor/task"}`,
		"\n\n{\"method\":\"cursor/task\"\n",
		`{"jsonrpc":"2.0","id":20,"method":"cursor/ask_question","params":{"toolCallId":"q","questions":[{"id":"a","prompt":"?","options":[{"id":"x","label":"X"}]}]}}` + "\n",
		`{"jsonrpc":"2.0","id":"p","method":"cursor/create_plan","params":{"toolCallId":"p","plan":"# x","todos":[{"id":"1","content":"c","status":"pending"}]}}`,
		`{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"todos":[{"id":"1"}],"merge":true}}` + "\n",
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"subagent_spawned","subagentSessionId":"c","_meta":{"cursor":{"toolCallId":"t"}}}}}` + "\n",
		`{"jsonrpc":"2.0","params":{"update":{"sessionUpdate":"subagent_state_update","subagentSessionId":"c","state":"failed"},"sessionId":"s"},"method":"session/update"}` + "\n",
		`{"jsonrpc":"2.0","id":3,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"subagent_spawned"}}}` + "\n",
		// A blocking method's notification under its alias loses the '_';
		// so does an ambiguous frame the SDK reads as an alias.
		`{"jsonrpc":"2.0","method":"_cursor/ask_question","params":{"toolCallId":"q"}}` + "\n" +
			`{"jsonrpc":"2.0","method":"\u005fcursor/ask_question","params":{}}` + "\n",
		`{"jsonrpc":"2.0","Method":"_cursor/ask_question","params":{}}` + "\n" +
			`{"jsonrpc":"2.0","method":"x","method":"_cursor/ask_question","id":4}` + "\n",
	} {
		f.Add([]byte(s), []byte{1}, uint16(1), uint16(5))
		f.Add([]byte(s), []byte(nil), uint16(4096), uint16(0))
	}
	f.Fuzz(func(t *testing.T, data, sizes []byte, bufSize, maxFrame uint16) {
		max := 0 // the default
		if maxFrame%3 != 0 {
			max = 8 + int(maxFrame)%512
		}
		tap, _ := newTap("cursor", wiretap.Options{MaxFrame: max})
		got, err := drain(tap.Reader(&chunkReader{data: data, sizes: sizes}), 1+int(bufSize)%4096)
		if err != io.EOF {
			t.Fatalf("err = %v, want io.EOF", err)
		}
		if max == 0 {
			max = wiretap.DefaultMaxFrame
		}
		renamed, err := diffRenames(data, got, max)
		if err != nil {
			t.Fatal(err)
		}
		if st := tap.Stats(); st.Renamed != uint64(renamed) {
			t.Fatalf("%d frames renamed, Stats says %d", renamed, st.Renamed)
		}
	})
}

// diffRenames checks that out is in with some frames renamed, and counts
// them.
func diffRenames(in, out []byte, maxFrame int) (renamed int, err error) {
	inLines, outLines := bytes.Split(in, []byte("\n")), bytes.Split(out, []byte("\n"))
	if len(inLines) != len(outLines) {
		return 0, fmt.Errorf("%d lines in, %d out", len(inLines), len(outLines))
	}
	for i, a := range inLines {
		b := outLines[i]
		if bytes.Equal(a, b) {
			continue
		}
		switch {
		case len(a) > maxFrame:
		case isRename(a, b), isRename(b, a):
			// A '_' put in (a vendor method renamed), or taken out (a
			// notification of a blocking method kept from HandleExtension).
			renamed++
			continue
		case disarmed(a, b):
			continue // counted as Ambiguous
		}
		return 0, fmt.Errorf("line %d changed beyond a rename:\n in  %q\n out %q", i+1, a, b)
	}
	return renamed, nil
}

// isRename says whether b is a with a '_' (or its escape \u005f) put in
// at the start of its method's value.
func isRename(a, b []byte) bool {
	m := gjson.GetBytes(a, "method")
	if m.Index == 0 {
		return false
	}
	at := m.Index + 1
	for _, u := range []string{"_", `\u005f`, `\u005F`} {
		if len(b) == len(a)+len(u) && bytes.Equal(b[:at], a[:at]) &&
			string(b[at:at+len(u)]) == u && bytes.Equal(b[at+len(u):], a[at:]) {
			return true
		}
	}
	return false
}

// disarmed says whether b is a frame whose method the SDK reads as an
// alias ("_" and a name), written again as the SDK reads it without the
// '_'.
func disarmed(a, b []byte) bool {
	var in, out struct{ Method string }
	if json.Unmarshal(a, &in) != nil || json.Unmarshal(b, &out) != nil {
		return false
	}
	return in.Method == "_"+out.Method && out.Method != ""
}
