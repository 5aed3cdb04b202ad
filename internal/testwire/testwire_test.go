package testwire

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBuildersAreValidJSONRPC(t *testing.T) {
	initReq, initResp := Initialize(0, "cursor-agent")
	newReq, newResp := SessionNew(1, "s1")
	tests := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"request", Request(7, "session/prompt", map[string]any{"a": 1}), `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"a":1}}`},
		{"request string id", Request("x", "m", nil), `{"jsonrpc":"2.0","id":"x","method":"m"}`},
		{"raw id", Request(json.RawMessage("1.50"), "m", nil), `{"jsonrpc":"2.0","id":1.50,"method":"m"}`},
		{"notify", Notify("m", []int{1}), `{"jsonrpc":"2.0","method":"m","params":[1]}`},
		{"response", Response(3, nil), `{"jsonrpc":"2.0","id":3,"result":{}}`},
		{"error", ErrorResponse(3, -32601, "Method not found"), `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}`},
		{"task tool call", CursorTaskToolCall("s1", "t1"), `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"kind":"other","rawInput":{"_toolName":"task"},"sessionUpdate":"tool_call","status":"in_progress","title":"Task: Subagent task","toolCallId":"t1"}}}`},
		{"completed", ToolCallCompleted("s1", "t1", map[string]any{"isBackground": true}), `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"rawOutput":{"isBackground":true},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"t1"}}}`},
		{"cursor/task notification", CursorTask(nil, map[string]any{"toolCallId": "t1"}), `{"jsonrpc":"2.0","method":"cursor/task","params":{"toolCallId":"t1"}}`},
		{"html not escaped", Notify("m", "<&>"), `{"jsonrpc":"2.0","method":"m","params":"<&>"}`},
		{"prompt response", PromptResponse(2, ""), `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`},
		{"initialize", initReq, ""},
		{"initialize response", initResp, ""},
		{"session/new", newReq, ""},
		{"session/new response", newResp, ""},
		{"prompt", Prompt(2, "s1", "hi"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !json.Valid(tt.frame) {
				t.Fatalf("invalid JSON: %s", tt.frame)
			}
			if strings.ContainsRune(string(tt.frame), '\n') {
				t.Fatalf("frame has a newline: %q", tt.frame)
			}
			if tt.want != "" && string(tt.frame) != tt.want {
				t.Fatalf("got  %s\nwant %s", tt.frame, tt.want)
			}
		})
	}
	var resp struct {
		Result struct {
			AgentInfo struct{ Name string } `json:"agentInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal(initResp, &resp); err != nil || resp.Result.AgentInfo.Name != "cursor-agent" {
		t.Fatalf("initialize response agentInfo: %+v %v", resp, err)
	}
}

func TestReadTranscript(t *testing.T) {
	in := "a\r\n\n  \nb\nc"
	got, err := ReadTranscript(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Line{{1, []byte("a")}, {4, []byte("b")}, {5, []byte("c")}}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].N != want[i].N || string(got[i].Bytes) != string(want[i].Bytes) {
			t.Errorf("line %d: got %d %q, want %d %q", i, got[i].N, got[i].Bytes, want[i].N, want[i].Bytes)
		}
	}
}

func TestReadTranscriptLongLine(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	got, err := ReadTranscript(strings.NewReader(long + "\n"))
	if err != nil || len(got) != 1 || len(got[0].Bytes) != len(long) {
		t.Fatalf("long line: %d lines, err %v", len(got), err)
	}
}

// fakeTB records failures instead of failing the real test.
type fakeTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	if !f.failed {
		f.failed, f.msg = true, fmt.Sprintf(format, args...)
	}
}
func (f *fakeTB) Fatalf(format string, args ...any) { f.Errorf(format, args...) }

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	old := *Update
	defer func() { *Update = old }()

	*Update = true
	Golden(t, path, []byte("a\nb\n"))
	if b, _ := os.ReadFile(path); string(b) != "a\nb\n" {
		t.Fatalf("update wrote %q", b)
	}

	*Update = false
	tests := []struct {
		got  string
		fail bool
	}{
		{"a\nb\n", false},
		{"a\nc\n", true},
		{"a\nb", true}, // missing final newline
		{"a\nb\nc\n", true},
	}
	for _, tt := range tests {
		f := &fakeTB{TB: t}
		Golden(f, path, []byte(tt.got))
		if f.failed != tt.fail {
			t.Errorf("Golden(%q): failed=%v, want %v", tt.got, f.failed, tt.fail)
		}
	}
	f := &fakeTB{TB: t}
	Golden(f, filepath.Join(t.TempDir(), "missing.golden"), nil)
	if !f.failed || !strings.Contains(f.msg, "-update") {
		t.Errorf("missing golden: failed=%v msg=%q", f.failed, f.msg)
	}
}

func TestFragments(t *testing.T) {
	for _, tc := range []struct {
		want, notWant []string
		fail          bool
	}{
		{[]string{"a", "b"}, []string{"z"}, false},
		{[]string{"q"}, nil, true},
		{nil, []string{"b"}, true},
	} {
		f := &fakeTB{TB: t}
		Fragments(f, "a b c", tc.want, tc.notWant)
		if f.failed != tc.fail {
			t.Errorf("Fragments(%q, %q): failed=%v, want %v", tc.want, tc.notWant, f.failed, tc.fail)
		}
	}
}

func TestKinder(t *testing.T) {
	k := Kinder{Vendor: "codex"}
	for _, tt := range []struct {
		line     string
		outbound bool
		want     string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}`, true, "session/prompt"},
		{`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}`, false, "session/request_permission"},
		{`{"jsonrpc":"2.0","id":1,"result":{"outcome":{}}}`, true, "client response to session/request_permission"},
		{`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`, false, "response to session/prompt"},
		{`{"jsonrpc":"2.0","id":2,"result":{}}`, false, "response"},
	} {
		if got := k.Kind([]byte(tt.line), tt.outbound); got != tt.want {
			t.Errorf("Kind(%s) = %q; want %q", tt.line, got, tt.want)
		}
	}
}

func TestLineKind(t *testing.T) {
	for _, tt := range []struct {
		line     string
		outbound bool
		want     string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, true, "initialize"},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call"}}}`, false, "tool_call"},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"_meta":{"codex":{}},"sessionUpdate":"tool_call"}}}`, false, "tool_call +codex"},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, false, "response"},
		{`{"jsonrpc":"2.0","id":7,"result":{"outcome":{}}}`, true, "client response"},
	} {
		if got := LineKind([]byte(tt.line), tt.outbound, "codex"); got != tt.want {
			t.Errorf("LineKind(%s) = %q; want %q", tt.line, got, tt.want)
		}
	}
}

// TestWindows: runs of n lines overlap by one, a run over the limit is
// left out, and an n under 2 is taken as 2 rather than looping forever.
func TestWindows(t *testing.T) {
	in := []byte("a\nb\nc\nlong line\n")
	for _, tt := range []struct {
		n, limit int
		want     []string
	}{
		{3, 100, []string{"a\nb\nc\n", "c\nlong line\n"}},
		{2, 6, []string{"a\nb\n", "b\nc\n"}},
		{1, 100, []string{"a\nb\n", "b\nc\n", "c\nlong line\n", "long line\n"}},
		{0, 100, []string{"a\nb\n", "b\nc\n", "c\nlong line\n", "long line\n"}},
	} {
		var got []string
		for _, w := range Windows(in, tt.n, tt.limit) {
			got = append(got, string(w))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Windows(n=%d, limit=%d) = %q, want %q", tt.n, tt.limit, got, tt.want)
		}
	}
}
