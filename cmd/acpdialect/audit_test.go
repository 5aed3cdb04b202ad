package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/internal/audit"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// TestAudit: each vendor method, update kind and _meta key path is marked
// for the identified dialect, counted, and located; --strict fails on
// anything unknown.
func TestAudit(t *testing.T) {
	_, resp := tw.Initialize(0, "cursor-agent")
	frames := [][]byte{
		[]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientCapabilities":{"_meta":{"parameterizedModelPicker":true}}}}`), resp,
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "subagent_spawned", "subagentSessionId": "c1",
			"_meta": map[string]any{"cursor": map[string]any{"toolCallId": "t1", "model": "m", "brandNew": 1}}}),
		tw.CursorTask(5, map[string]any{"toolCallId": "t1"}), tw.CursorTask(6, map[string]any{"toolCallId": "t2"}),
		tw.Request(7, "cursor/teleport", map[string]any{}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "hi"}}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "mood_update"}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "state_update", "state": "idle"}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "user_message", "messageId": "u1", "content": []any{}}),
		tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "plan_update", "plan": map[string]any{"planId": "p1", "type": "items", "entries": []any{}}}),
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	var b strings.Builder
	for _, f := range frames {
		b.Write(append(f, '\n'))
	}
	os.WriteFile(path, []byte(b.String()), 0o644)

	code, out, errs := cli(t, "", "audit", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := map[string]audit.Item{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var it audit.Item
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		got[it.Kind+" "+it.Name] = it
	}
	for name, want := range map[string]struct {
		status string
		count  int
		line   int
	}{
		"method cursor/task":                  {audit.Read, 2, 4},
		"method cursor/teleport":              {audit.Unknown, 1, 6},
		"update subagent_spawned":             {audit.Read, 1, 3},
		"update agent_message_chunk":          {audit.Standard, 1, 7},
		"update mood_update":                  {audit.Unknown, 1, 8},
		"update state_update":                 {audit.Standard, 1, 9},
		"update user_message":                 {audit.Standard, 1, 10},
		"update plan_update":                  {audit.Standard, 1, 11},
		"meta _meta.cursor.toolCallId":        {audit.Read, 1, 3},
		"meta _meta.cursor.brandNew":          {audit.Unknown, 1, 3},
		"meta _meta.parameterizedModelPicker": {audit.Ignored, 1, 1},
	} {
		it, ok := got[name]
		if !ok || it.Status != want.status || it.Count != want.count || it.Line != want.line || it.Agent != "cursor" {
			t.Errorf("%s: got %+v, want %+v", name, it, want)
		}
	}
	if code, _, _ := cli(t, "", "audit", "--strict", path); code != exitFail {
		t.Errorf("--strict with unknowns: exit %d", code)
	}
	clean := filepath.Join("..", "..", "cursor", "testdata", "question-answered.jsonl")
	if code, out, _ := cli(t, "", "audit", "--strict", clean); code != 0 || !strings.HasPrefix(out, "STATUS") {
		t.Errorf("--strict on a known transcript: exit %d\n%s", code, out)
	}
	if code, _, _ := cli(t, "", "audit"); code != exitUsage {
		t.Errorf("no file: exit %d", code)
	}
}

// TestAuditBadLines: lines that are not JSON-RPC are reported on stderr
// with their file and line, not passed over in silence, and fail --strict
// even when every item they could have held would be known.
func TestAuditBadLines(t *testing.T) {
	good, _ := os.ReadFile(filepath.Join("..", "..", "cursor", "testdata", "question-answered.jsonl"))
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(path, append([]byte("garbage\n{\"a\":\n"), good...), 0o644)
	code, out, errs := cli(t, "", "audit", path)
	if code != 0 || !strings.HasPrefix(out, "STATUS") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{path + ": line 1: invalid JSON", path + ": line 2: invalid JSON"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if code, _, _ := cli(t, "", "audit", "--strict", path); code != exitFail {
		t.Errorf("--strict with skipped lines: exit %d, want %d", code, exitFail)
	}
}

// TestAuditLongTranscript: a transcript longer than the reader's buffer
// (1.5 MB here) is counted by the names its lines hold: a name kept from
// an early line must not change when later lines reuse the buffer.
func TestAuditLongTranscript(t *testing.T) {
	_, resp := tw.Initialize(0, "cursor-agent")
	var b strings.Builder
	b.Write(append(resp, '\n'))
	filler := strings.Repeat("word ", 100)
	const n = 3000
	for i := range n {
		kind := "agent_message_chunk"
		if i%1000 == 0 {
			kind = "mood_update"
		}
		b.Write(append(tw.SessionUpdate("s1", map[string]any{"sessionUpdate": kind,
			"content": map[string]any{"type": "text", "text": filler}}), '\n'))
	}
	path := filepath.Join(t.TempDir(), "long.jsonl")
	os.WriteFile(path, []byte(b.String()), 0o644)
	code, out, errs := cli(t, "", "audit", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var it audit.Item
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		got[it.Kind+" "+it.Name] = it.Count
	}
	want := map[string]int{"update agent_message_chunk": n - 3, "update mood_update": 3}
	if len(got) != len(want) || got["update agent_message_chunk"] != n-3 || got["update mood_update"] != 3 {
		t.Errorf("items %v; want %v", got, want)
	}
}
