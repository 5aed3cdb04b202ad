package wiretap_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// captureLines returns the lines of the real transcripts in testdata.
func captureLines(tb testing.TB) [][]byte {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no transcripts in testdata: %v", err)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for l := range bytes.Lines(b) {
			if l = bytes.TrimRight(l, "\r\n"); len(l) > 0 {
				out = append(out, l)
			}
		}
	}
	return out
}

// jsonString encodes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// sdkUpdate is a session/update in the layout the ACP SDKs write.
func sdkUpdate(sid, kind, rest string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid +
		`","update":{"sessionUpdate":"` + kind + `",` + rest + `}}}`
}

// mixedTranscript is what a Cursor agent's stdout carries over a few turns:
// mostly message and thought chunks, tool calls with outputs of a few
// hundred bytes to tens of KB, a subagent with its cursor/task request, and
// the real captures' session updates.
func mixedTranscript(tb testing.TB) []byte {
	var b strings.Builder
	line := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	for _, l := range captureLines(tb) {
		// ACP v2's state_update and terminal updates are left out: every
		// tap quarantines them, and the tests count what the SDK reads as
		// a session update.
		switch gjson.GetBytes(l, "params.update.sessionUpdate").Str {
		case acpdialect.UpdateState, acpdialect.UpdateTerminal, acpdialect.UpdateTerminalOutput:
			continue
		}
		if gjson.GetBytes(l, "method").Str == "session/update" {
			line(string(l))
		}
	}
	const sid = "0f6c1a52-3c1e-4c55-9a3f-8d1f2b7e9c41"
	words := strings.Fields("the tap renames vendor methods so that the upstream SDK routes them to the client and every other byte passes through unchanged")
	outputs := []int{400, 2 << 10, 8 << 10, 30 << 10}
	for turn := range 4 {
		for i := range 300 {
			text := strings.Join(words[i%7:i%7+1+i%9], " ") + " "
			line(sdkUpdate(sid, "agent_message_chunk", `"content":{"type":"text","text":`+jsonString(text)+`}`))
			if i%5 == 0 {
				line(sdkUpdate(sid, "agent_thought_chunk", `"content":{"type":"text","text":`+jsonString("thinking about "+text)+`}`))
			}
			if i%40 == 0 {
				id := fmt.Sprintf("call-%d-%d", turn, i)
				out := strings.Repeat("line of output from the tool\n", outputs[(turn+i/40)%len(outputs)]/29)
				line(sdkUpdate(sid, "tool_call", `"toolCallId":"`+id+`","title":"Read src/main.go","kind":"read","status":"pending","rawInput":{"path":"/work/project/src/main.go"}`))
				line(sdkUpdate(sid, "tool_call_update", `"toolCallId":"`+id+`","status":"in_progress"`))
				line(sdkUpdate(sid, "tool_call_update", `"toolCallId":"`+id+`","status":"completed","content":[{"type":"content","content":{"type":"text","text":`+jsonString(out)+`}}],"rawOutput":{"output":`+jsonString(out)+`}`))
			}
		}
		task := fmt.Sprintf("task-%d", turn)
		line(sdkUpdate(sid, "tool_call", `"toolCallId":"`+task+`","title":"Task: Summarize src","kind":"other","status":"in_progress","rawInput":{"_toolName":"task","description":"Summarize src","prompt":"Read every file under src"}`))
		line(`{"jsonrpc":"2.0","id":` + fmt.Sprint(100+turn) + `,"method":"cursor/task","params":{"toolCallId":"` + task + `","description":"Summarize src","prompt":"Read every file under src","model":"composer-2.5-fast","agentId":"eaa1","subagentType":{"custom":{"unspecified":{}}}}}`)
		line(sdkUpdate(sid, "tool_call_update", `"toolCallId":"`+task+`","status":"completed","rawOutput":{"durationMs":8123,"isBackground":false}`))
	}
	return []byte(b.String())
}

// repeatReader serves data n times over, as one stream.
type repeatReader struct {
	data []byte
	off  int
	n    int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.off == len(r.data) {
		if r.n == 0 {
			return 0, io.EOF
		}
		r.n--
		r.off = 0
	}
	k := copy(p, r.data[r.off:])
	r.off += k
	return k, nil
}

// scanAll consumes r as the SDK does: bufio.Scanner, 1 MiB buffer, 10 MiB
// lines.
func scanAll(tb testing.TB, r io.Reader) (lines int) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 10<<20)
	for sc.Scan() {
		lines++
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return lines
}

// benchRead serves data b.N times through wrap and consumes it as the SDK
// does; one op is one pass over data.
func benchRead(b *testing.B, data []byte, wrap func(io.Reader) io.Reader) {
	src := &repeatReader{data: data, off: len(data), n: b.N}
	r := wrap(src)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	scanAll(b, r)
}

// tapReader wraps r in a tap's Reader on a Cursor connection.
func tapReader(r io.Reader) io.Reader {
	tap, _ := newTap("cursor", wiretap.Options{OnEvent: func(acpdialect.Event) {}})
	return tap.Reader(r)
}

// BenchmarkReaderMixed reads the mixed transcript through a tap on a
// Cursor connection (one transcript per op).
func BenchmarkReaderMixed(b *testing.B) {
	benchRead(b, mixedTranscript(b), tapReader)
}

// BenchmarkLineCopyMixed is the baseline the target refers to: the
// same bytes through a plain line-copying reader (whole lines, no
// inspection), consumed the same way.
func BenchmarkLineCopyMixed(b *testing.B) {
	benchRead(b, mixedTranscript(b), newLineCopy)
}

// BenchmarkScanMixed is the floor: the SDK's scanner straight on the
// agent's stream, with no reader in between.
func BenchmarkScanMixed(b *testing.B) {
	benchRead(b, mixedTranscript(b), func(r io.Reader) io.Reader { return r })
}

// lineCopy is a plain line-by-line copying reader: what a tap that
// inspects nothing would cost.
type lineCopy struct {
	br   *bufio.Reader
	pend []byte // the rest of the current line
	err  error
}

func newLineCopy(r io.Reader) io.Reader {
	return &lineCopy{br: bufio.NewReaderSize(r, 64<<10)}
}

func (l *lineCopy) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(l.pend) == 0 {
			if l.err != nil || (n > 0 && l.br.Buffered() == 0) {
				break
			}
			l.pend, l.err = l.br.ReadSlice('\n')
			if l.err == bufio.ErrBufferFull {
				l.err = nil
			}
		}
		k := copy(p[n:], l.pend)
		l.pend = l.pend[k:]
		n += k
	}
	if n == 0 && l.err != nil {
		return 0, l.err
	}
	return n, nil
}

// chunkTranscript is the hot path alone: message chunks, which the Conn
// passes on its fast path, so the tap's own per-frame cost shows.
func chunkTranscript() []byte {
	var b strings.Builder
	for i := range 5000 {
		b.WriteString(sdkUpdate("0f6c1a52-3c1e-4c55-9a3f-8d1f2b7e9c41", "agent_message_chunk",
			`"content":{"type":"text","text":`+jsonString(strings.Repeat("word ", i%15+1))+`}`))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func BenchmarkReaderChunks(b *testing.B) {
	benchRead(b, chunkTranscript(), tapReader)
}

func BenchmarkLineCopyChunks(b *testing.B) {
	benchRead(b, chunkTranscript(), newLineCopy)
}

// TestMixedTranscript keeps the benchmark honest: the tap delivers the
// transcript with exactly its cursor/task frames renamed.
func TestMixedTranscript(t *testing.T) {
	data := mixedTranscript(t)
	tap, _ := newTap("cursor", wiretap.Options{})
	got, err := io.ReadAll(tap.Reader(bytes.NewReader(data)))
	mustNoErr(t, err)
	want := bytes.ReplaceAll(data, []byte(`"method":"cursor/task"`), []byte(`"method":"_cursor/task"`))
	if !bytes.Equal(got, want) {
		t.Fatal("output differs from the transcript beyond the renames")
	}
	st := tap.Stats()
	if st.Renamed != 4 || st.Frames != uint64(bytes.Count(data, []byte("\n"))) {
		t.Fatalf("stats %+v", st)
	}
	t.Logf("mixed transcript: %d bytes, %d frames", len(data), st.Frames)
}

// TestLineCopy checks the baseline reader delivers its input unchanged.
func TestLineCopy(t *testing.T) {
	data := mixedTranscript(t)
	if err := iotest.TestReader(newLineCopy(bytes.NewReader(data)), data); err != nil {
		t.Fatal(err)
	}
}
