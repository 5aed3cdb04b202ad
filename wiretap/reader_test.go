package wiretap_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/wiretap"
)

const (
	taskParams = `{"toolCallId":"tool-1","description":"Summarize src","prompt":"Read src","model":"composer-2.5-fast","agentId":"a1"}`
	chunk      = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
)

// TestReaderRenames pins, frame by frame, what the Reader delivers on a
// Cursor connection: only allowed vendor requests and notifications gain
// one '_', every other byte is unchanged, whatever the read pattern.
func TestReaderRenames(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string // "" means: unchanged
		renamed uint64
	}{
		{name: "numeric id",
			in:   `{"jsonrpc":"2.0","id":7,"method":"cursor/task","params":` + taskParams + `}` + "\n",
			want: `{"jsonrpc":"2.0","id":7,"method":"_cursor/task","params":` + taskParams + `}` + "\n", renamed: 1},
		{name: "string id",
			in:   `{"jsonrpc":"2.0","id":"abc","method":"cursor/task","params":{}}` + "\n",
			want: `{"jsonrpc":"2.0","id":"abc","method":"_cursor/task","params":{}}` + "\n", renamed: 1},
		{name: "exponent id and spaces",
			in:   `{ "id" : 1.0e0 , "method" : "cursor/task" }` + "\n",
			want: `{ "id" : 1.0e0 , "method" : "_cursor/task" }` + "\n", renamed: 1},
		{name: "notification",
			in:   `{"jsonrpc":"2.0","method":"cursor/task","params":{"toolCallId":"x"}}` + "\n",
			want: `{"jsonrpc":"2.0","method":"_cursor/task","params":{"toolCallId":"x"}}` + "\n", renamed: 1},
		{name: "null id is a notification",
			in:   `{"jsonrpc":"2.0","id":null,"method":"cursor/task"}` + "\n",
			want: `{"jsonrpc":"2.0","id":null,"method":"_cursor/task"}` + "\n", renamed: 1},
		{name: "escaped method",
			in:   `{"jsonrpc":"2.0","id":1,"method":"cursor\/task"}` + "\n",
			want: `{"jsonrpc":"2.0","id":1,"method":"_cursor\/task"}` + "\n", renamed: 1},
		{name: "unicode escaped first letter",
			in:   `{"id":1,"method":"\u0063ursor/task"}` + "\n",
			want: `{"id":1,"method":"_\u0063ursor/task"}` + "\n", renamed: 1},
		{name: "method last",
			in:   `{"params":{"method":"x"},"id":3,"jsonrpc":"2.0","method":"cursor/task"}` + "\n",
			want: `{"params":{"method":"x"},"id":3,"jsonrpc":"2.0","method":"_cursor/task"}` + "\n", renamed: 1},
		{name: "crlf and final line without newline",
			in:   `{"id":1,"method":"cursor/task"}` + "\r\n" + `{"id":2,"method":"cursor/task"}`,
			want: `{"id":1,"method":"_cursor/task"}` + "\r\n" + `{"id":2,"method":"_cursor/task"}`, renamed: 2},
		{name: "between other frames and blank lines",
			in:   chunk + "\n\n  \n" + `{"id":1,"method":"cursor/task"}` + "\n" + chunk + "\n",
			want: chunk + "\n\n  \n" + `{"id":1,"method":"_cursor/task"}` + "\n" + chunk + "\n", renamed: 1},
		{name: "a blocking method's notification sent as its alias loses its '_'",
			in:   `{"jsonrpc":"2.0","method":"_cursor/ask_question","params":{"toolCallId":"q"}}` + "\n",
			want: `{"jsonrpc":"2.0","method":"cursor/ask_question","params":{"toolCallId":"q"}}` + "\n", renamed: 1},
		{name: "so does one with a null id",
			in:   `{"jsonrpc":"2.0","id":null,"method":"_cursor/ask_question","params":{"toolCallId":"q"}}` + "\n",
			want: `{"jsonrpc":"2.0","id":null,"method":"cursor/ask_question","params":{"toolCallId":"q"}}` + "\n", renamed: 1},
		{name: "unknown vendor request", in: `{"jsonrpc":"2.0","id":9,"method":"cursor/unknown"}` + "\n"},
		{name: "other vendor", in: `{"jsonrpc":"2.0","id":9,"method":"vendor/x"}` + "\n"},
		{name: "already an alias", in: `{"jsonrpc":"2.0","id":9,"method":"_cursor/task"}` + "\n"},
		{name: "standard method", in: chunk + "\n"},
		{name: "response naming a method", in: `{"jsonrpc":"2.0","id":1,"result":{"method":"cursor/task"}}` + "\n"},
		{name: "nested method", in: `{"jsonrpc":"2.0","id":1,"params":{"method":"cursor/task"}}` + "\n"},
		{name: "array", in: `[{"jsonrpc":"2.0","id":1,"method":"cursor/task"}]` + "\n"},
		{name: "string", in: `"cursor/task"` + "\n"},
		{name: "method not a string", in: `{"id":1,"method":["cursor/task"]}` + "\n"},
		{name: "repeated method", in: `{"id":1,"method":"cursor/task","method":"cursor/task"}` + "\n"},
		{name: "method in another case", in: `{"id":1,"method":"cursor/task","Method":"cursor/task"}` + "\n"},
		{name: "repeated id", in: `{"id":1,"method":"cursor/task","id":2}` + "\n"},
		{name: "id in another case", in: `{"method":"cursor/task","ID":2}` + "\n"},
		{name: "invalid json", in: `{"id":1,"method":"cursor/task","params":{` + "\n"},
		{name: "jsonrpc of the wrong type", in: `{"jsonrpc":2,"id":1,"method":"cursor/task"}` + "\n"},
		{name: "not json", in: "hello cursor/task\n"},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = tt.in
		}
		for _, rd := range readers {
			t.Run(tt.name+"/"+rd.name, func(t *testing.T) {
				tap, _ := newTap("cursor", wiretap.Options{})
				var src io.Reader = strings.NewReader(tt.in)
				if rd.wrap != nil {
					src = rd.wrap(src)
				}
				got, err := drain(tap.Reader(src), rd.buf)
				if err != io.EOF {
					t.Fatalf("err = %v, want io.EOF", err)
				}
				if string(got) != want {
					t.Fatalf("got  %q\nwant %q", got, want)
				}
				if st := tap.Stats(); st.Renamed != tt.renamed {
					t.Fatalf("Renamed = %d, want %d (%+v)", st.Renamed, tt.renamed, st)
				}
			})
		}
	}
}

// TestReaderIdentifiesFirst: the initialize response is fed to the Conn
// before the rename check, and an unidentified (or other) agent gets
// nothing renamed.
func TestReaderIdentifiesFirst(t *testing.T) {
	task := `{"jsonrpc":"2.0","id":5,"method":"cursor/task"}` + "\n"
	tests := []struct {
		name  string
		agent string
		want  string
	}{
		{"cursor", "cursor-agent", `{"jsonrpc":"2.0","id":5,"method":"_cursor/task"}` + "\n"},
		{"claude", "claude-agent-acp", task},
		{"unnamed", "", task},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tap, _ := newTap("", wiretap.Options{})
			w := tap.Writer(io.Discard)
			_, err := w.Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}` + "\n"))
			mustNoErr(t, err)
			resp := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"` + tt.agent + `"}}}` + "\n"
			got, err := io.ReadAll(tap.Reader(strings.NewReader(resp + task)))
			mustNoErr(t, err)
			if want := resp + tt.want; string(got) != want {
				t.Fatalf("got  %q\nwant %q", got, want)
			}
		})
	}
}

// TestReaderIsAProperReader runs the standard io.Reader checks over a
// transcript with renamed and untouched frames.
func TestReaderIsAProperReader(t *testing.T) {
	in := strings.Repeat(chunk+"\n", 50) + `{"id":1,"method":"cursor/task"}` + "\n" + chunk
	want := strings.Repeat(chunk+"\n", 50) + `{"id":1,"method":"_cursor/task"}` + "\n" + chunk
	tap, _ := newTap("cursor", wiretap.Options{})
	if err := iotest.TestReader(tap.Reader(strings.NewReader(in)), []byte(want)); err != nil {
		t.Fatal(err)
	}
}

// TestReaderOversize: a frame over MaxFrame passes unchanged and
// uninspected, however it is chunked, and the frames after it are
// inspected again.
func TestReaderOversize(t *testing.T) {
	big := `{"id":1,"method":"cursor/task","params":{"pad":"` + strings.Repeat("x", 1000) + `"}}`
	small := `{"id":2,"method":"cursor/task"}`
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"big then small", big + "\n" + small + "\n", big + "\n" + `{"id":2,"method":"_cursor/task"}` + "\n"},
		{"big at EOF", small + "\n" + big, `{"id":2,"method":"_cursor/task"}` + "\n" + big},
		{"two big", big + "\n" + big + "\n", big + "\n" + big + "\n"},
	}
	for _, tt := range tests {
		for _, rd := range readers {
			t.Run(tt.name+"/"+rd.name, func(t *testing.T) {
				tap, _ := newTap("cursor", wiretap.Options{MaxFrame: 100})
				var src io.Reader = strings.NewReader(tt.in)
				if rd.wrap != nil {
					src = rd.wrap(src)
				}
				got, err := drain(tap.Reader(src), rd.buf)
				if err != io.EOF {
					t.Fatalf("err = %v", err)
				}
				if string(got) != tt.want {
					t.Fatalf("got  %q\nwant %q", got, tt.want)
				}
				if st := tap.Stats(); st.Oversize != uint64(strings.Count(tt.in, big)) {
					t.Fatalf("Oversize = %d (%+v)", st.Oversize, st)
				}
			})
		}
	}
}

// TestReaderLongFrameGrows: frames longer than the reader's initial buffer
// but within MaxFrame are still whole when inspected.
func TestReaderLongFrameGrows(t *testing.T) {
	pad := strings.Repeat("y", 300<<10)
	in := `{"jsonrpc":"2.0","id":1,"method":"cursor/task","params":{"pad":"` + pad + `"}}` + "\n" + chunk + "\n"
	want := `{"jsonrpc":"2.0","id":1,"method":"_cursor/task","params":{"pad":"` + pad + `"}}` + "\n" + chunk + "\n"
	for _, rd := range readers[:3] {
		t.Run(rd.name, func(t *testing.T) {
			tap, _ := newTap("cursor", wiretap.Options{})
			var src io.Reader = strings.NewReader(in)
			if rd.wrap != nil {
				src = rd.wrap(src)
			}
			got, err := drain(tap.Reader(src), rd.buf)
			if err != io.EOF || string(got) != want {
				t.Fatalf("err = %v, output matches = %v", err, string(got) == want)
			}
		})
	}
}

// TestReaderErrors: the agent stream's error comes after the bytes before
// it; a final partial line before a non-EOF error is not inspected, since
// the SDK discards it.
func TestReaderErrors(t *testing.T) {
	boom := errors.New("boom")
	whole := `{"id":1,"method":"cursor/task"}` + "\n"
	tests := []struct {
		name string
		src  io.Reader
		want string
		err  error
	}{
		{"error after whole frame", io.MultiReader(strings.NewReader(whole), iotest.ErrReader(boom)),
			`{"id":1,"method":"_cursor/task"}` + "\n", boom},
		{"error after partial frame", io.MultiReader(strings.NewReader(whole+`{"id":2,"method":"cursor/task"}`), iotest.ErrReader(boom)),
			`{"id":1,"method":"_cursor/task"}` + "\n" + `{"id":2,"method":"cursor/task"}`, boom},
		{"timeout", iotest.TimeoutReader(strings.NewReader(whole + whole)), "", iotest.ErrTimeout},
		{"no progress", emptyReader{}, "", io.ErrNoProgress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tap, _ := newTap("cursor", wiretap.Options{})
			got, err := drain(tap.Reader(tt.src), 1<<10)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if tt.want != "" && string(got) != tt.want {
				t.Fatalf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// emptyReader returns (0, nil) forever: a broken stream must not spin.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// TestReaderReadsOnDemand: the reader asks the agent's stream for more only
// when it has nothing to deliver (backpressure is pull-driven).
func TestReaderReadsOnDemand(t *testing.T) {
	src := &countingReader{r: strings.NewReader(strings.Repeat(chunk+"\n", 3))}
	tap, _ := newTap("cursor", wiretap.Options{})
	r := tap.Reader(iotest.OneByteReader(src))
	p := make([]byte, 1)
	if _, err := r.Read(p); err != nil {
		t.Fatal(err)
	}
	// One whole frame needs len(chunk)+1 one-byte reads, and not one more.
	if src.n != len(chunk)+1 {
		t.Fatalf("read %d times for the first frame, want %d", src.n, len(chunk)+1)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.n++
	return c.r.Read(p)
}

// TestReaderEventsInWireOrder: the Conn's events go to OnEvent as the
// frames are read, renamed frames' events (their reply included) in their
// place among the others.
func TestReaderEventsInWireOrder(t *testing.T) {
	tap, rec := newTap("cursor", wiretap.Options{})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
	}, "\n") + "\n"
	_, err := tap.Writer(io.Discard).Write([]byte(in))
	mustNoErr(t, err)
	agent := strings.Join([]string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tool-1","title":"Task: x","status":"in_progress","rawInput":{"_toolName":"task"}}}}`,
		`{"jsonrpc":"2.0","id":"t","method":"cursor/task","params":` + taskParams + `}`,
		`{"jsonrpc":"2.0","id":8,"method":"cursor/unknown","params":{}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"tool-1","status":"completed"}}}`,
	}, "\n") + "\n"
	_, err = io.ReadAll(tap.Reader(strings.NewReader(agent)))
	mustNoErr(t, err)
	var got []string
	for _, ev := range rec.all() {
		got = append(got, ev.Type+":"+ev.Method+":"+string(ev.ID)+":"+payloadStatus(ev)+":"+payloadModel(ev))
	}
	want := []string{
		"tool_call:::in_progress:",
		"tool_call_update:::in_progress:composer-2.5-fast",
		`reply:cursor/task:"t"::`,
		"reply:cursor/unknown:8::",
		"tool_call_update:::completed:composer-2.5-fast",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("OnEvent got %v\nwant %v", got, want)
	}
	if st := tap.Stats(); st.Renamed != 1 || st.Frames != 4 || st.PassedThrough != 3 {
		t.Fatalf("stats %+v", st)
	}
}

func payloadModel(ev acpdialect.Event) string {
	if ev.Payload == nil || ev.Payload.SubagentTask == nil {
		return ""
	}
	return ev.Payload.SubagentTask.Model
}

func payloadStatus(ev acpdialect.Event) string {
	if ev.Payload == nil {
		return ""
	}
	return ev.Payload.Status
}
