package cursor_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// goldenReplay replays a transcript and returns its --final and --json
// outputs.
func goldenReplay(t *testing.T, reg *acpdialect.Registry, path string) (final, events []byte) {
	t.Helper()
	final, events, err := replay.File(reg, path)
	if err != nil {
		t.Fatal(err)
	}
	return final, events
}

// TestGolden pins every transcript in testdata (see testdata/README.md)
// through the built-in dialects. Regenerate with `go test ./cursor -update`
// and review the diff.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, path := range paths {
		base := strings.TrimSuffix(path, ".jsonl")
		t.Run(filepath.Base(base), func(t *testing.T) {
			final, events := goldenReplay(t, replay.Builtins(), path)
			testwire.Golden(t, base+".final.golden", final)
			testwire.Golden(t, base+".events.golden", events)
		})
	}
}

// TestOtherAgentsIsolated: a Claude or unknown agent sending Cursor's frames
// gets exactly what it would get if Cursor were not registered.
func TestOtherAgentsIsolated(t *testing.T) {
	for _, name := range []string{"claude-agent-same-frames", "unknown-agent-same-frames"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name+".jsonl")
			withFinal, withEvents := goldenReplay(t, acpdialect.NewRegistry(cursor.Dialect()), path)
			bareFinal, bareEvents := goldenReplay(t, acpdialect.NewRegistry(), path)
			if !bytes.Equal(withEvents, bareEvents) {
				t.Errorf("events differ with Cursor registered:\n%s\nwithout:\n%s", withEvents, bareEvents)
			}
			if !bytes.Equal(withFinal, bareFinal) {
				t.Errorf("final state differs with Cursor registered:\n%s\nwithout:\n%s", withFinal, bareFinal)
			}
			if bytes.Contains(withEvents, []byte("subagent_task")) || !bytes.Contains(withEvents, []byte(`"code":-32601`)) {
				t.Errorf("Cursor logic ran, or cursor/task was not declined:\n%s", withEvents)
			}
		})
	}
}

// TestGoldenSemantics states what each scenario requires of the final
// state, so that a golden blessed with -update by mistake still fails here.
func TestGoldenSemantics(t *testing.T) {
	tests := []struct {
		name    string
		want    []string
		notWant []string
	}{
		{"task-after-tool-call", []string{`"description":"Summarize src JS files"`, `"prompt":"Read every`,
			`"model":"composer-2.5-fast"`, `"agent_id":"eaa1c0de-5b7e-4d2a-9f31-0c8e6b2d7a11"`, `"duration_ms":4200`}, []string{`"is_async"`}},
		{"task-before-tool-call", []string{`"description":"Collect TODOs"`, `"model":"gpt-5.2-codex"`, `"matched":1`}, nil},
		{"background-flags", []string{`"tool_call_id":"tool-bg","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Watch the test suite","prompt":"Run vitest in watch mode and report failures.","agent_id":"agent-bg","model":"composer-2.5-fast","duration_ms":12,"is_async":true}}`,
			`"duration_ms":0}`}, nil},
		{"task-without-model", []string{`"prompt":"Read package.json`}, []string{`"model"`}},
		{"claude-agent-same-frames", []string{`"kind":"generic"`, `"declined":1`, `"ignored_notifications":1`}, []string{"subagent_task", `"agent":`}},
		{"unknown-agent-same-frames", []string{`"kind":"generic"`, `"declined":1`}, []string{"subagent_task", `"agent":`}},
		{"unmatched-task-swept", []string{`"swept":1`, `"subagent_task":{"duration_ms":300}`}, []string{"Stale metadata"}},
		{"two-sessions", []string{`"session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Session one subagent"`,
			`"session_id":"s2","tool_call_id":"tool-2","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Session two subagent"`,
			`"session_id":"s1","tool_call_id":"tool-3","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Late s1 subagent"`}, []string{`"failed"`}},
		{"shared-id-two-sessions", []string{`"session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Session one subagent"`,
			`"session_id":"s2","tool_call_id":"tool-1","payload":{"kind":"generic"`}, []string{`"swept":1`}},
		{"malformed-params", []string{`"description":"The real description","prompt":"the real prompt","agent_id":"agent-ok","model":"composer-2.5-fast"}`, `"replies":8`, `"declined":0`}, []string{"duration_ms", "is_async"}},
		{"notification-and-ids", []string{`"replies":4`, `"late_merged":3`}, nil},
		{"reused-id-task-first", []string{`"description":"First use"`, `"description":"Second use","prompt":"Turn two subagent, metadata before its tool call."`}, nil},
		{"reused-id-other-session", []string{`"session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Session one subagent"`,
			`"session_id":"s2","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Session two subagent"`}, nil},
		{"reused-id-across-turns", []string{`"description":"First use"`, `"description":"Second use"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, _ := goldenReplay(t, replay.Builtins(), filepath.Join("testdata", tt.name+".jsonl"))
			for _, w := range tt.want {
				if !bytes.Contains(final, []byte(w)) {
					t.Errorf("final state lacks %s:\n%s", w, final)
				}
			}
			for _, w := range tt.notWant {
				if bytes.Contains(final, []byte(w)) {
					t.Errorf("final state has %s:\n%s", w, final)
				}
			}
		})
	}
}

// TestGoldenIDsEchoed: reply events carry the request id bytes exactly.
func TestGoldenIDsEchoed(t *testing.T) {
	_, events := goldenReplay(t, replay.Builtins(), filepath.Join("testdata", "notification-and-ids.jsonl"))
	for _, id := range []string{`"id":"task-7"`, `"id":1.50`, `"id":-1`, `"id":2.5e3`} {
		if !bytes.Contains(events, []byte(id)) {
			t.Errorf("events lack %s", id)
		}
	}
	if n := bytes.Count(events, []byte(`"type":"reply"`)); n != 4 {
		t.Errorf("%d replies, want 4 (the notification gets none)", n)
	}
}
