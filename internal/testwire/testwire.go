// Package testwire holds what the tests of every package share: builders for
// single JSON-RPC frames, a JSONL transcript reader, and golden-file
// comparison with the -update flag.
//
// Importing it (even blank) registers -update, so that
//
//	go test ./... -update
//
// rewrites the golden files of every package that has them.
package testwire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Update is the -update flag: rewrite golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files")

// Line is one non-blank line of a transcript.
type Line struct {
	N     int    // 1-based line number in the input
	Bytes []byte // the line without its line ending
}

// ReadTranscript splits JSONL into lines, with no limit on line length.
// Blank (whitespace-only) lines are skipped but still counted, so N is the
// line number an editor shows.
func ReadTranscript(r io.Reader) ([]Line, error) {
	br := bufio.NewReader(r)
	var out []Line
	for n := 1; ; n++ {
		b, err := br.ReadBytes('\n')
		if t := bytes.TrimRight(b, "\r\n"); len(bytes.TrimSpace(t)) > 0 {
			out = append(out, Line{N: n, Bytes: t})
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// Golden compares got with the golden file at path, line by line, or
// rewrites the file when -update is set. A mismatch fails t with a go-cmp
// diff (-want +got).
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if err := CompareGolden(path, got, *Update); err != nil {
		t.Errorf("%v", err)
	}
}

// CompareGolden compares got with the golden file at path, line by line,
// or rewrites the file when update is true. A mismatch is an error with a
// go-cmp diff (-want +got).
func CompareGolden(path string, got []byte, update bool) error {
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, got, 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w\nrun the tests with -update to create it, then review it", err)
	}
	if d := cmp.Diff(lines(want), lines(got)); d != "" {
		return fmt.Errorf("%s differs from the output (-want +got):\n%s\n"+
			"if the change is intended, run the tests with -update and review the diff (git diff %s)",
			path, d, path)
	}
	return nil
}

// lines splits after each '\n', keeping it, so that a missing final line
// ending shows up as a difference in the last line.
func lines(b []byte) []string {
	s := string(b)
	out := strings.SplitAfter(s, "\n")
	if len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// Frame builders. Each returns one JSON-RPC 2.0 line without a trailing
// newline, encoded with encoding/json so that it is valid JSON. An id is
// encoded as given: pass json.RawMessage to pin exact bytes such as 1.50.
// They panic on a value encoding/json cannot encode: that is a bug in the
// test, not a wire condition.

// Request is a JSON-RPC request. A nil id is written as null; use Notify
// for a frame without an id.
func Request(id any, method string, params any) []byte {
	return frame(field{"id", id, true}, field{"method", method, true}, field{"params", params, params != nil})
}

// Notify is a JSON-RPC notification (no id).
func Notify(method string, params any) []byte {
	return frame(field{"method", method, true}, field{"params", params, params != nil})
}

// Response is a success response.
func Response(id any, result any) []byte {
	if result == nil {
		result = struct{}{}
	}
	return frame(field{"id", id, true}, field{"result", result, true})
}

// ErrorResponse is an error response.
func ErrorResponse(id any, code int, msg string) []byte {
	e := map[string]any{"code": code, "message": msg}
	return frame(field{"id", id, true}, field{"error", e, true})
}

// SessionUpdate is a session/update notification carrying update.
func SessionUpdate(sessionID string, update any) []byte {
	return Notify("session/update", map[string]any{"sessionId": sessionID, "update": update})
}

// CursorTaskToolCall is the tool_call Cursor sends when a subagent starts.
func CursorTaskToolCall(sid, toolCallID string) []byte {
	return SessionUpdate(sid, map[string]any{
		"sessionUpdate": "tool_call",
		"toolCallId":    toolCallID,
		"kind":          "other",
		"title":         "Task: Subagent task",
		"status":        "in_progress",
		"rawInput":      map[string]any{"_toolName": "task"},
	})
}

// ToolCallCompleted is a tool_call_update with status completed; rawOutput
// is omitted when nil.
func ToolCallCompleted(sid, id string, rawOutput any) []byte {
	u := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed"}
	if rawOutput != nil {
		u["rawOutput"] = rawOutput
	}
	return SessionUpdate(sid, u)
}

// CursorTask is a cursor/task request, or a notification when id is nil.
func CursorTask(id any, params map[string]any) []byte {
	if id == nil {
		return Notify("cursor/task", params)
	}
	return Request(id, "cursor/task", params)
}

// Initialize is the client's initialize request and the agent's response
// naming itself agentName in agentInfo.
func Initialize(id any, agentName string) (req, resp []byte) {
	req = Request(id, "initialize", map[string]any{
		"protocolVersion": 1,
		"clientCapabilities": map[string]any{
			"fs":       map[string]any{"readTextFile": true, "writeTextFile": true},
			"terminal": true,
		},
	})
	resp = Response(id, map[string]any{
		"protocolVersion":   1,
		"agentCapabilities": map[string]any{"loadSession": true},
		"agentInfo":         map[string]any{"name": agentName, "version": "1.0.0"},
	})
	return req, resp
}

// SessionNew is a session/new request and its response creating sessionID.
func SessionNew(id any, sessionID string) (req, resp []byte) {
	req = Request(id, "session/new", map[string]any{"cwd": "/work/project", "mcpServers": []any{}})
	resp = Response(id, map[string]any{"sessionId": sessionID})
	return req, resp
}

// Prompt is a session/prompt request with one text block: a turn starts.
func Prompt(id any, sessionID, text string) []byte {
	return Request(id, "session/prompt", map[string]any{
		"sessionId": sessionID,
		"prompt":    []any{map[string]any{"type": "text", "text": text}},
	})
}

// PromptResponse ends a turn with stopReason ("end_turn" when empty).
func PromptResponse(id any, stopReason string) []byte {
	if stopReason == "" {
		stopReason = "end_turn"
	}
	return Response(id, map[string]any{"stopReason": stopReason})
}

type field struct {
	name string
	val  any
	ok   bool
}

// frame writes the envelope with jsonrpc first and the fields in order, so
// frames read like the wire does.
func frame(fields ...field) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0"`)
	for _, f := range fields {
		if !f.ok {
			continue
		}
		fmt.Fprintf(&b, ",%q:", f.name)
		b.Write(encode(f.val))
	}
	b.WriteByte('}')
	return b.Bytes()
}

func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("testwire: cannot encode %T: %v", v, err))
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// Fragments fails t for each fragment of want that out lacks and each of
// notWant that it has: what a golden test pins of a scenario independently
// of the golden's bytes, so that a golden blessed with -update by mistake
// still fails.
func Fragments(t testing.TB, out string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("missing %s", w)
		}
	}
	for _, w := range notWant {
		if strings.Contains(out, w) {
			t.Errorf("unexpected %s", w)
		}
	}
}
