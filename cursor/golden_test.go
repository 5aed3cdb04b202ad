package cursor_test

import (
	"bytes"
	"encoding/json"
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
		{"claude-agent-same-frames", []string{`"kind":"generic"`, `"declined":1`, `"ignored_notifications":1`}, []string{"subagent_task", `"agent":"cursor"`}},
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
		{"question-answered", []string{`"session_id":"s1","tool_call_id":"tool-q1","method":"cursor/ask_question","id":20,"question":{"title":"Before I refactor checkout","questions":[{"id":"scope","prompt":"Which modules should I touch?","options":[{"id":"cart","label":"Cart"},{"id":"payment","label":"Payment"},{"id":"shipping","label":"Shipping"}],"allow_multiple":true},{"id":"tests"`,
			`"answer":{"result":{"outcome":{"outcome":"answered","answers":[{"questionId":"scope","selectedOptionIds":["cart","payment"]},{"questionId":"tests","selectedOptionIds":["yes"]}]}}}`, `"replies":1`},
			[]string{`"cancelled"`, `"skipped"`}},
		{"question-skipped", []string{`"answer":{"result":{"outcome":{"outcome":"skipped","reason":"not now"}}}`, `"replies":1`},
			[]string{`"cancelled"`, `"answered"`}},
		{"question-unanswered", []string{`"id":20,"question":{`, `"answer":{"result":{"outcome":{"outcome":"cancelled"}}}`, `"replies":1`},
			[]string{`"answered"`, `"skipped"`}},
		{"question-cancelled", []string{`"id":20,"question":{`, `"answer":{"result":{"outcome":{"outcome":"cancelled"}}}`, `"replies":1`},
			[]string{`"answered"`, `"skipped"`}},
		{"plan-accepted", []string{`"session_id":"s1","tool_call_id":"tool-p1","method":"cursor/create_plan","id":30,"plan":{"name":"Checkout refactor","overview":"Split checkout into cart, payment and shipping services.","markdown":"# Checkout refactor\n\n1.`,
			`{"id":"tests","content":"Add tests for cart and payment","status":"pending"}]}`,
			`"answer":{"result":{"outcome":{"outcome":"accepted","planUri":"file:///home/dev/shop/.cursor/plans/checkout-refactor.plan.md"}}}`},
			[]string{`"rejected"`, `"cancelled"`}},
		{"plan-rejected", []string{`"answer":{"result":{"outcome":{"outcome":"rejected","reason":"Split the payment work into its own plan"}}}`},
			[]string{`"accepted"`, `"cancelled"`}},
		{"todos-merged-and-replaced", []string{
			`{"type":"session","agent":"cursor","session_id":"s1","todos":[{"id":"e","content":"Ship the cart service behind a flag","status":"in_progress"},{"id":"f","content":"Remove the old checkout module","status":"pending"}]}`,
			`{"type":"session","agent":"cursor","session_id":"s2","todos":[{"id":"x","content":"Find the broken feed entry","status":"completed"},{"id":"y","content":"Escape titles in the RSS template","status":"pending"}]}`,
			`"replies":2`},
			[]string{`"id":"a"`, `"id":"d"`}},
		{"native-subagent-completed", []string{
			`{"type":"tool_call","agent":"cursor","session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Find dead CSS","subagent_task":{"description":"Find dead CSS","prompt":"List every selector in styles/ that no template uses.","status":"completed","model":"composer-2.5-fast","child_session_id":"sub-1","name":"explore","duration_ms":5200}}}`,
			`"session_id":"sub-1","tool_call_id":"read-1","payload":{"kind":"generic","status":"completed"`},
			[]string{`"running"`, `"tool_call_id":"sub-1"`, `"session_id":"s1","tool_call_id":"read-1"`}},
		{"native-subagent-failed", []string{
			`"session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"failed","title":"Task: Upgrade vitest","subagent_task":{"description":"Upgrade vitest","prompt":"Upgrade vitest to the latest major and fix the config.","status":"failed","model":"composer-2.5-fast","child_session_id":"sub-1"`,
			`"session_id":"s1","tool_call_id":"tool-2","payload":{"kind":"subagent_task","status":"failed","title":"Task: Upgrade eslint","subagent_task":{"description":"Upgrade eslint","prompt":"Move the eslint config to the flat format.","status":"disconnected","model":"gpt-5.2-codex","child_session_id":"sub-2"`,
			`"session_id":"sub-1","tool_call_id":"run-1","payload":{"kind":"generic","status":"failed","title":"npm install -D vitest@latest"`,
			`"session_id":"sub-2","tool_call_id":"run-1","payload":{"kind":"generic","status":"in_progress","title":"npx eslint ."`},
			[]string{`"running"`, `"tool_call_id":"sub-1"`, `"tool_call_id":"sub-2"`, `"status":"completed"`}},
		{"mixed-legacy-and-native", []string{
			`"session_id":"s1","tool_call_id":"tool-1","payload":{"kind":"subagent_task","status":"completed","title":"Task: Subagent task","subagent_task":{"description":"Refresh the README","prompt":"Update the README's setup section for pnpm.","agent_id":"agent-readme","model":"composer-2.5-fast","duration_ms":2900}}`,
			`"session_id":"s1","tool_call_id":"sub-7","payload":{"kind":"subagent_task","status":"completed","subagent_task":{"description":"Scan for unused exports","status":"completed","model":"gpt-5.2-codex","child_session_id":"sub-7","name":"explore"}}`,
			`"session_id":"sub-7","tool_call_id":"tool-1","payload":{"kind":"generic","status":"completed","title":"Grep export"`,
			`"tool_call_id":"img-1","method":"cursor/generate_image","id":50,`,
			`"answer":{"result":{"outcome":{"outcome":"rejected","reason":"image generation is not supported by this client"}}}`},
			[]string{`"running"`, `"session_id":"sub-7","tool_call_id":"tool-1","payload":{"kind":"subagent_task"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, _ := goldenReplay(t, replay.Builtins(), filepath.Join("testdata", tt.name+".jsonl"))
			checkFragments(t, "final state", final, tt.want, tt.notWant)
		})
	}
}

// checkFragments fails the test for each fragment of want that out lacks
// and each of notWant that it has: so that a golden blessed by mistake
// still fails.
func checkFragments(t *testing.T, what string, out []byte, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !bytes.Contains(out, []byte(w)) {
			t.Errorf("%s lacks %s:\n%s", what, w, out)
		}
	}
	for _, w := range notWant {
		if bytes.Contains(out, []byte(w)) {
			t.Errorf("%s has %s:\n%s", what, w, out)
		}
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

// TestGoldenEventSemantics pins what only the event stream shows: commands
// and the model catalog are events, not final state.
func TestGoldenEventSemantics(t *testing.T) {
	tests := []struct {
		name    string
		want    []string
		notWant []string
	}{
		{"mixed-legacy-and-native", []string{
			`{"type":"commands","agent":"cursor","session_id":"s1","commands":{"items":[{"name":"review","description":"Review the current diff"},{"name":"compact"},{"name":"plan","description":"Switch to plan mode","input_hint":"what to plan"}]}}`,
			`{"type":"models","agent":"cursor","method":"cursor/list_available_models","id":40,"models":{"items":[{"id":"default[]","name":"Auto"},{"id":"composer-2.5","name":"Composer 2.5","config_options":[`,
			`{"id":"claude-opus-4-8","name":"Opus 4.8","config_options":[{"id":"effort"`},
			[]string{`"---"`}},
		{"todos-merged-and-replaced", []string{`{"type":"reply","agent":"cursor","method":"cursor/update_todos","id":60,"result":{}}`,
			`{"type":"reply","agent":"cursor","method":"cursor/update_todos","id":61,"result":{}}`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, events := goldenReplay(t, replay.Builtins(), filepath.Join("testdata", tt.name+".jsonl"))
			checkFragments(t, "events", events, tt.want, tt.notWant)
		})
	}
}

// TestGoldenOneReplyPerRequest: in every transcript each request event
// (question, plan, todos, image) gets exactly one reply, with its method
// and its id bytes, after it; and no request id is answered twice (none of
// these transcripts reuses the id of a request of the same method).
func TestGoldenOneReplyPerRequest(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, events := goldenReplay(t, replay.Builtins(), path)
			asked := map[string]bool{}  // method and id of a request event
			replies := map[string]int{} // method and id of a reply
			for _, line := range bytes.Split(bytes.TrimSpace(events), []byte("\n")) {
				var ev acpdialect.Event
				if err := json.Unmarshal(line, &ev); err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				k := ev.Method + " " + string(ev.ID)
				switch {
				case ev.Type == acpdialect.EventReply:
					replies[k]++
				case ev.ID != nil && ev.Type != acpdialect.EventModels && ev.Type != acpdialect.EventCapabilities:
					if replies[k] != 0 {
						t.Errorf("%s answered before it was asked", k)
					}
					asked[k] = true
				}
			}
			for k, n := range replies {
				if n != 1 {
					t.Errorf("%s answered %d times", k, n)
				}
			}
			for k := range asked {
				if replies[k] != 1 {
					t.Errorf("request %s has %d replies, want 1", k, replies[k])
				}
			}
		})
	}
}
