package wiretap_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

func TestAlias(t *testing.T) {
	if got := wiretap.Alias("cursor/task"); got != "_cursor/task" {
		t.Fatalf("Alias = %q", got)
	}
}

// connFor returns a tap on a connection identified as agent, the way a
// client gets one: the initialize exchange goes through both streams.
func connFor(t *testing.T, reg *acpdialect.Registry, agent string) *wiretap.Tap {
	t.Helper()
	tap := wiretap.New(reg.NewConn(acpdialect.Options{}), wiretap.Options{})
	_, err := tap.Writer(io.Discard).Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}` + "\n"))
	mustNoErr(t, err)
	if agent != "" {
		resp := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"` + agent + `"}}}` + "\n"
		_, err = io.ReadAll(tap.Reader(strings.NewReader(resp)))
		mustNoErr(t, err)
	}
	return tap
}

// testDialect has a request answered with a result, one answered with an
// error, a notification-only method and Cursor's task for contrast.
func testDialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "x",
		Match: func(name, _ string) bool { return name == "x-agent" },
		Methods: []acpdialect.Method{
			{Name: "x/echo", Kind: acpdialect.Request, Handle: func(p gjson.Result) acpdialect.Action {
				return acpdialect.Action{Result: json.RawMessage(`{"n":` + p.Get("n").Raw + `}`)}
			}},
			{Name: "x/ask", Kind: acpdialect.Request, Handle: func(gjson.Result) acpdialect.Action {
				return acpdialect.Action{Error: &acpdialect.RPCError{Code: -32000, Message: "no"}}
			}},
			{Name: "x/note", Kind: acpdialect.Notification},
			{Name: "x/plain", Kind: acpdialect.RequestOrNotification},
			{Name: "_x/own", Kind: acpdialect.Request, Handle: func(gjson.Result) acpdialect.Action {
				return acpdialect.Action{Result: json.RawMessage(`{"own":true}`)}
			}},
		},
	}
}

// TestHandleExtension: the answer is the dialect's, recomputed from the
// method and params alone, for the alias of a method the identified
// dialect allows; anything else is left to the client.
func TestHandleExtension(t *testing.T) {
	reg := acpdialect.NewRegistry(testDialect(), cursor.Dialect())
	tests := []struct {
		name    string
		agent   string
		method  string
		params  string
		handled bool
		result  string // the json.RawMessage result; "" for nil
		code    int    // the *acp.RequestError's code; 0 for none
		message string
	}{
		{"allowed request", "cursor-agent", "_cursor/task", `{"toolCallId":"a"}`, true, "{}", 0, ""},
		{"no params", "cursor-agent", "_cursor/task", ``, true, "{}", 0, ""},
		{"result from params", "x-agent", "_x/echo", `{"n":42}`, true, `{"n":42}`, 0, ""},
		{"default result", "x-agent", "_x/plain", `[1]`, true, "{}", 0, ""},
		{"error reply", "x-agent", "_x/ask", `{}`, true, "", -32000, "no"},
		{"notification only", "x-agent", "_x/note", `{}`, true, "", 0, ""},
		{"unknown method", "cursor-agent", "_cursor/unknown", `{}`, false, "", 0, ""},
		{"other dialect's method", "x-agent", "_cursor/task", `{}`, false, "", 0, ""},
		{"other agent", "claude-agent-acp", "_cursor/task", `{}`, false, "", 0, ""},
		{"unidentified agent", "", "_cursor/task", `{}`, false, "", 0, ""},
		{"vendor name, not the alias", "cursor-agent", "cursor/task", `{}`, false, "", 0, ""},
		{"alias of an alias", "cursor-agent", "__cursor/task", `{}`, false, "", 0, ""},
		{"bare underscore", "cursor-agent", "_", `{}`, false, "", 0, ""},
		{"other extension", "cursor-agent", "_zed/x", `{}`, false, "", 0, ""},
		{"a dialect method named with _", "x-agent", "_x/own", `{}`, true, `{"own":true}`, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tap := connFor(t, reg, tt.agent)
			res, handled, err := tap.HandleExtension(t.Context(), tt.method, json.RawMessage(tt.params))
			if handled != tt.handled {
				t.Fatalf("handled = %v, want %v (%v, %v)", handled, tt.handled, res, err)
			}
			if tt.result == "" && res != nil {
				t.Fatalf("result = %#v, want nil", res)
			}
			if tt.result != "" {
				if raw, ok := res.(json.RawMessage); !ok || string(raw) != tt.result {
					t.Fatalf("result = %#v, want json.RawMessage %s", res, tt.result)
				}
			}
			var re *acp.RequestError
			switch {
			case tt.code == 0 && err != nil:
				t.Fatalf("err = %v", err)
			case tt.code != 0 && (!errors.As(err, &re) || re.Code != tt.code || re.Message != tt.message):
				t.Fatalf("err = %#v, want code %d %q", err, tt.code, tt.message)
			}
		})
	}
}

// TestHandleExtensionMatchesConn: for every renamed frame, HandleExtension
// (given the params the SDK decodes) answers what the Conn's reply event
// said, and the frame's events, reply included, went to OnEvent.
func TestHandleExtensionMatchesConn(t *testing.T) {
	reg := acpdialect.NewRegistry(testDialect())
	var events []acpdialect.Event
	tap := wiretap.New(reg.NewConn(acpdialect.Options{Agent: "x-agent"}), wiretap.Options{
		OnEvent: func(ev acpdialect.Event) { events = append(events, ev) },
	})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"x/echo","params": {"n" : 7} }`,
		`{"jsonrpc":"2.0","id":"b","method":"x/ask","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"x/plain"}`,
		`{"jsonrpc":"2.0","method":"x/note","params":{}}`,
	}, "\n") + "\n"
	got, err := io.ReadAll(tap.Reader(strings.NewReader(in)))
	mustNoErr(t, err)
	if st := tap.Stats(); st.Renamed != 4 {
		t.Fatalf("stats %+v", st)
	}
	var replies []acpdialect.Event
	for _, ev := range events {
		if ev.Type == acpdialect.EventReply {
			replies = append(replies, ev)
		}
	}
	var frames [][]byte
	for line := range bytes.Lines(got) {
		frames = append(frames, line)
	}
	for i, f := range frames[:3] {
		var msg struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		mustNoErr(t, json.Unmarshal(f, &msg))
		res, handled, err := tap.HandleExtension(t.Context(), msg.Method, msg.Params)
		want := replies[i]
		var re *acp.RequestError
		switch {
		case !handled:
			t.Fatalf("%s not handled", f)
		case want.Error != nil:
			if !errors.As(err, &re) || re.Code != want.Error.Code || re.Message != want.Error.Message || res != nil {
				t.Fatalf("%s: got %v %v, Conn replied %+v", f, res, err, want.Error)
			}
		default:
			raw, _ := res.(json.RawMessage)
			if err != nil || !jsonEqual(raw, want.Result) {
				t.Fatalf("%s: got %s %v, Conn replied %s", f, raw, err, want.Result)
			}
		}
	}
	if len(replies) != 3 {
		t.Fatalf("reply events %+v, want one per request", replies)
	}
}

// jsonEqual compares two JSON values, ignoring insignificant whitespace.
func jsonEqual(a, b []byte) bool {
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// TestRenameKinds: a vendor frame is renamed only if the dialect allows
// its method in the frame's kind, so that the SDK's answer (through
// HandleExtension or its own -32601) is the Conn's.
func TestRenameKinds(t *testing.T) {
	reg := acpdialect.NewRegistry(testDialect())
	tests := []struct {
		name      string
		in        string
		renamed   bool
		ambiguous bool // the SDK reads it other than the Conn: not fed to it
	}{
		{"request for a request method", `{"id":1,"method":"x/echo"}`, true, false},
		{"notification for a request method", `{"method":"x/echo"}`, false, false},
		{"notification for a notification method", `{"method":"x/note"}`, true, false},
		{"request for a notification method", `{"id":1,"method":"x/note"}`, false, false},
		{"null id for a notification method", `{"id":null,"method":"x/note"}`, true, false},
		{"either, as a request", `{"id":1,"method":"x/plain"}`, true, false},
		{"either, as a notification", `{"method":"x/plain"}`, true, false},
		{"params repeated", `{"id":1,"method":"x/echo","params":{"n":1},"params":{"n":2}}`, false, true},
		{"params in another case", `{"id":1,"method":"x/echo","Params":{"n":1}}`, false, true},
		{"params null", `{"id":1,"method":"x/echo","params":null}`, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tap := wiretap.New(reg.NewConn(acpdialect.Options{Agent: "x-agent"}), wiretap.Options{})
			got, err := io.ReadAll(tap.Reader(strings.NewReader(tt.in + "\n")))
			mustNoErr(t, err)
			renamed := string(got) != tt.in+"\n"
			if renamed != tt.renamed {
				t.Fatalf("got %s, renamed %v, want %v", got, renamed, tt.renamed)
			}
			skipped := !tt.renamed && !tt.ambiguous
			if st := tap.Stats(); (st.Renamed == 1) != tt.renamed || (st.Skipped == 1) != skipped || (st.Ambiguous == 1) != tt.ambiguous {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}
