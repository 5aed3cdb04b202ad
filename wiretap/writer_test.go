package wiretap_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
)

// TestWriterFrames: whatever the SDK's write pattern, each whole frame
// reaches the agent in exactly one Write, and Write reports len(p).
func TestWriterFrames(t *testing.T) {
	a := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/"}}` + "\n"
	b := `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	tests := []struct {
		name   string
		writes []string
		want   []string
	}{
		{"one frame per write", []string{a, b}, []string{a, b}},
		{"two frames in one write", []string{a + b}, []string{a, b}},
		{"split frame", []string{a[:5], a[5:20], a[20:]}, []string{a}},
		{"split across frames", []string{a[:10], a[10:] + b[:3], b[3:]}, []string{a, b}},
		{"byte by byte", strings.Split(a, ""), []string{a}},
		{"blank line", []string{"\n", a}, []string{"\n", a}},
		{"trailing partial is held", []string{a + b[:4]}, []string{a}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tap, _ := newTap("cursor", wiretap.Options{})
			sink := &oneWriteSink{}
			w := tap.Writer(sink)
			for _, p := range tt.writes {
				n, err := w.Write([]byte(p))
				if err != nil || n != len(p) {
					t.Fatalf("Write(%q) = %d, %v", p, n, err)
				}
			}
			if got := sink.all(); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("writes %q\nwant   %q", got, tt.want)
			}
		})
	}
}

// TestWriterUnalias: a listed vendor method sent as its alias goes out
// without the '_'; nothing else changes.
func TestWriterUnalias(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"listed request",
			`{"jsonrpc":"2.0","id":3,"method":"_cursor/list_available_models","params":{}}`,
			`{"jsonrpc":"2.0","id":3,"method":"cursor/list_available_models","params":{}}`},
		{"listed notification",
			`{"jsonrpc":"2.0","method":"_cursor/list_available_models"}`,
			`{"jsonrpc":"2.0","method":"cursor/list_available_models"}`},
		{"other extension", `{"jsonrpc":"2.0","id":3,"method":"_zed/thing","params":{}}`, ""},
		{"not an alias", `{"jsonrpc":"2.0","id":3,"method":"cursor/list_available_models"}`, ""},
		{"nested", `{"jsonrpc":"2.0","id":3,"result":{"method":"_cursor/list_available_models"}}`, ""},
		{"escaped underscore", `{"id":3,"method":"\u005fcursor/list_available_models"}`, ""},
		{"repeated method", `{"id":3,"method":"_cursor/list_available_models","method":"x"}`, ""},
		{"a listed name with its own '_' has no alias", `{"id":3,"method":"__bad"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tap, _ := newTap("cursor", wiretap.Options{Outbound: []string{"cursor/list_available_models", "", "_bad"}})
			sink := &oneWriteSink{}
			_, err := tap.Writer(sink).Write([]byte(tt.in + "\n"))
			mustNoErr(t, err)
			want := tt.want
			if want == "" {
				want = tt.in
			}
			if got := sink.all(); len(got) != 1 || got[0] != want+"\n" {
				t.Fatalf("got  %q\nwant %q", got, want+"\n")
			}
			if st := tap.Stats(); (st.Unaliased == 1) != (tt.want != "") || st.Outbound != 1 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// TestWriterOversize: a frame over MaxFrame is written through unchanged,
// even when it arrives in pieces.
func TestWriterOversize(t *testing.T) {
	big := `{"id":3,"method":"_cursor/list_available_models","params":"` + strings.Repeat("z", 200) + `"}` + "\n"
	small := `{"id":4,"method":"_cursor/list_available_models"}` + "\n"
	tap, _ := newTap("cursor", wiretap.Options{MaxFrame: 64, Outbound: []string{"cursor/list_available_models"}})
	sink := &oneWriteSink{}
	w := tap.Writer(sink)
	for _, p := range []string{big[:100], big[100:150], big[150:], small} {
		_, err := w.Write([]byte(p))
		mustNoErr(t, err)
	}
	got := strings.Join(sink.all(), "")
	want := big + `{"id":4,"method":"cursor/list_available_models"}` + "\n"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if st := tap.Stats(); st.Oversize != 1 || st.Unaliased != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// A frame of exactly MaxFrame bytes (without its '\n') is inspected.
func TestWriterAtMaxFrame(t *testing.T) {
	head := `{"id":4,"method":"_cursor/list_available_models","params":"`
	frame := head + strings.Repeat("z", 64-len(head)-2) + `"}`
	tap, _ := newTap("cursor", wiretap.Options{MaxFrame: len(frame), Outbound: []string{"cursor/list_available_models"}})
	sink := &oneWriteSink{}
	_, err := tap.Writer(sink).Write([]byte(frame + "\n"))
	mustNoErr(t, err)
	if st := tap.Stats(); st.Oversize != 0 || st.Outbound != 1 || st.Unaliased != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// TestWriterError: the agent's stdin failing is reported, and sticks.
func TestWriterError(t *testing.T) {
	boom := errors.New("broken pipe")
	tap, _ := newTap("cursor", wiretap.Options{})
	sink := &oneWriteSink{fail: boom}
	w := tap.Writer(sink)
	if n, err := w.Write([]byte("{}\n{}\n")); !errors.Is(err, boom) || n != 0 {
		t.Fatalf("Write = %d, %v", n, err)
	}
	sink.fail = nil
	if _, err := w.Write([]byte("{}\n")); !errors.Is(err, boom) {
		t.Fatalf("second Write err = %v, want the first error", err)
	}
	if len(sink.all()) != 0 {
		t.Fatalf("wrote after failing: %q", sink.all())
	}
}

// TestWriterConcurrent: frames written from many goroutines arrive whole
// and each in one Write.
func TestWriterConcurrent(t *testing.T) {
	tap, _ := newTap("cursor", wiretap.Options{Outbound: []string{"cursor/list_available_models"}})
	sink := &oneWriteSink{}
	w := tap.Writer(sink)
	const goroutines, each = 8, 200
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				f := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"_cursor/list_available_models","params":{"g":%d}}`+"\n", g*each+i, g)
				if _, err := w.Write([]byte(f)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got := sink.all()
	if len(got) != goroutines*each {
		t.Fatalf("%d writes, want %d", len(got), goroutines*each)
	}
	seen := map[string]bool{}
	for _, f := range got {
		if !strings.HasPrefix(f, `{"jsonrpc":"2.0","id":`) || !strings.Contains(f, `"method":"cursor/list_available_models"`) ||
			strings.Count(f, "\n") != 1 || seen[f] {
			t.Fatalf("bad or repeated frame %q", f)
		}
		seen[f] = true
	}
}

// shortWriter breaks the io.Writer contract: a short write without error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

func TestWriterShortWrite(t *testing.T) {
	tap, _ := newTap("cursor", wiretap.Options{})
	if _, err := tap.Writer(shortWriter{}).Write([]byte("{}\n")); !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("err = %v, want io.ErrShortWrite", err)
	}
}

// TestWriterOversizeHead: a client request over MaxFrame reaches the agent
// byte for byte, and the Conn gets its head (method, id, sessionId): a
// prompt starts a turn, whose end gives an unanswered question its
// default. Written in pieces, the frame's head is read from its start, so
// a sessionId past MaxFrame is not seen (no turn).
func TestWriterOversizeHead(t *testing.T) {
	pad := strings.Repeat("p", 300)
	tests := []struct {
		name   string
		frame  string
		pieces bool
		turn   bool
	}{
		{"whole, sessionId last", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"prompt":[{"type":"text","text":"` + pad + `"}],"sessionId":"s1"}}`, false, true},
		{"whole, sessionId first", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"` + pad + `"}]}}`, false, true},
		{"pieces, sessionId first", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"` + pad + `"}]}}`, true, true},
		{"pieces, method after params", `{"params":{"sessionId":"s1","prompt":[{"type":"text","text":"` + pad + `"}]},"id":3,"method":"session/prompt"}`, true, false},
		{"pieces, sessionId last", `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"prompt":[{"type":"text","text":"` + pad + `"}],"sessionId":"s1"}}`, true, false},
		{"a response", `{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s1","pad":"` + pad + `"}}`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			tap := wiretap.New(registry().NewConn(acpdialect.Options{ClientAnswers: true}), wiretap.Options{MaxFrame: 200, OnEvent: rec.add})
			sink := &oneWriteSink{}
			w := tap.Writer(sink)
			in := func(f []byte) {
				_, err := io.ReadAll(tap.Reader(bytes.NewReader(append(f, '\n'))))
				mustNoErr(t, err)
			}
			req, resp := testwire.Initialize(1, "cursor-agent")
			_, err := w.Write(append(req, '\n'))
			mustNoErr(t, err)
			in(resp)
			req, resp = testwire.SessionNew(2, "s1")
			_, err = w.Write(append(req, '\n'))
			mustNoErr(t, err)
			in(resp)
			frame := tt.frame + "\n"
			if tt.pieces {
				for _, p := range []string{frame[:150], frame[150:250], frame[250:]} {
					_, err = w.Write([]byte(p))
					mustNoErr(t, err)
				}
			} else {
				_, err = w.Write([]byte(frame))
				mustNoErr(t, err)
			}
			if got := strings.Join(sink.all()[2:], ""); got != frame {
				t.Fatalf("agent got %q\nwant %q", got, frame)
			}
			in(testwire.Request(7, cursor.MethodAskQuestion, map[string]any{"toolCallId": "q", "questions": []any{}}))
			in(testwire.PromptResponse(3, ""))
			if got := len(replyEvents(rec.all(), cursor.MethodAskQuestion)); (got == 1) != tt.turn {
				t.Errorf("%d reply events for the question; want a default: %v", got, tt.turn)
			}
			if st := tap.Stats(); st.Oversize != 1 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}
