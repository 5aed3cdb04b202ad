package redact

import (
	"bytes"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/internal/testwire"
)

// secretShapedIDs are secrets that read as one identifier-like token: the
// identifier rule must not keep them, wherever they are.
var secretShapedIDs = []string{
	"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx", "sk-proj-0123456789abcdefABCDEF", "ghp_0123456789abcdefghijABCDEFGHIJ0123",
	"github_pat_11ABCDEFG0123456789_abcdefghij", "AKIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPLE", "xoxb-1234567890-abcdefghij",
	"AIzaSyA-0123456789abcdefghijklmnopqrstu", "glpat-abcdefghij0123456789",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
	"hunter2-plain-password-value", "my_api_token_value", "prod-db-secret", "alice.smith@example.com",
}

// randomIDs read as random, as keys do, but match no secret pattern: the
// identifier rule does not keep them; in an id's place (a task id in a
// text, as under an id key) they stay.
var randomIDs = []string{"a8Kq2ZpL9xW3vN7mR4tYb6", "x3f786850e387550fdab836ed7e6dc881de23001b", "Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4"}

// TestSecretShapedIdentifiers: a secret shaped like an identifier is
// redacted in every place the identifier rule and the text markup keep
// identifiers: titles, _meta values, option values, arrays, a Claude task
// id, a Monitor registration, an OpenCode task_id, an Auggie subagent
// type, a Grok or Copilot background subagent's id.
func TestSecretShapedIdentifiers(t *testing.T) {
	var in bytes.Buffer
	line := func(b []byte) { in.Write(append(b, '\n')) }
	for _, s := range secretShapedIDs {
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": s, "kind": "other",
			"_meta": map[string]any{"codex": map[string]any{"collaboration": map[string]any{"tool": s}}, "caps": []any{s}}}))
		line(testwire.Request(7, "session/set_config_option", map[string]any{"sessionId": "s1", "configId": "model", "value": s}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text",
			"text": "Human: <task-notification><task-id>" + s + "</task-id><event>x</event></task-notification>"}}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1",
			"rawOutput": "Monitor started (task " + s + ", timeout 1ms)."}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1",
			"rawOutput": map[string]any{"output": "task_id: " + s + " (for resuming)\n\n<task_result>\nok\n</task_result>"}}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1",
			"rawOutput": map[string]any{"output": "<task id=\"" + s + "\" state=\"completed\">\n<task_result>\nok\n</task_result>\n</task>"}}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t2", "title": "sub-agent-" + s + ": go"}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1",
			"rawOutput": map[string]any{"type": "Text", "text": "Subagent started in background.\nsubagent_id: " + s + "\ndescription: d"}}))
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1",
			"rawOutput": map[string]any{"content": "Agent started in background with agent_id: " + s + ". Wait."}}))
	}
	for _, s := range randomIDs {
		line(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": s, "kind": "other",
			"_meta": map[string]any{"codex": map[string]any{"collaboration": map[string]any{"tool": s}}, "caps": []any{s}}}))
		line(testwire.Request(7, "session/set_config_option", map[string]any{"sessionId": "s1", "configId": "model", "value": s}))
	}
	var out bytes.Buffer
	if err := New().Copy(&out, &in); err != nil {
		t.Fatal(err)
	}
	for _, s := range append(secretShapedIDs, randomIDs...) {
		if bytes.Contains(out.Bytes(), []byte(s)) {
			t.Errorf("%q survived", s)
		}
	}
	// The structure around them stays.
	for _, kept := range []string{"<task-notification><task-id><", "Monitor started (task <", "task_id: <", `<task id=\"<`, "<task_result>", `"title":"sub-agent-<`, `Subagent started in background.\nsubagent_id: <`, "Agent started in background with agent_id: <"} {
		if !bytes.Contains(out.Bytes(), []byte(kept)) {
			t.Errorf("%q lost:\n%s", kept, out.Bytes())
		}
	}
}

// TestKeptForDialects: what the dialects key on stays, the text around
// it does not; an identifier-like word in a text, a path, a command or a
// tool's input is still content.
func TestKeptForDialects(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// identifiers outside content places
		{`{"_meta":{"codex":{"collaboration":{"tool":"spawnAgent"}}}}`, `{"_meta":{"codex":{"collaboration":{"tool":"spawnAgent"}}}}`},
		{`{"_meta":{"_goose/tool-chain-summary":"working"}}`, `{"_meta":{"_goose/tool-chain-summary":"working"}}`},
		{`{"title":"mcp__docs__search","value":"grok-4.5","caps":["asyncTasks"]}`, `{"title":"mcp__docs__search","value":"grok-4.5","caps":["asyncTasks"]}`},
		{`{"title":"task"}`, `{"title":"task"}`},
		// content places: words, file names, paths, commands, tool input, output
		{`{"text":"hunter2","prompt":"go","message":"Postgres"}`, `{"text":"<text-1>","prompt":"<text-2>","message":"<text-3>"}`},
		{`{"title":"notes.md","rawInput":{"q":"acme"},"command":"ls","rawOutput":{"result":"fine"}}`, `{"title":"<text-1>","rawInput":{"q":"<text-2>"},"command":"<command-1>","rawOutput":{"result":"<output-1>"}}`},
		// whole phrases
		{`{"text":"Compacting..."}`, `{"text":"Compacting..."}`},
		{`{"text":"Compacting... is what I said."}`, `{"text":"<text-1>"}`},
		{`{"text":"\n\nCompacting completed."}`, `{"text":"\n\nCompacting completed."}`},
		{`{"title":"Compact conversation","rawInput":{"agentPath":"/root/a","activityKind":"started"}}`,
			`{"title":"Compact conversation","rawInput":{"agentPath":"<path-1>","activityKind":"started"}}`},
		// markup in text
		{`{"text":"Both done. Human: <task-notification>\n<task-id>bmon_a</task-id>\n<summary>Monitor event</summary>\n<event>api: 502 on /login</event>\n</task-notification>"}`,
			`{"text":"<text-1> Human: <task-notification>\n<task-id>bmon_a</task-id>\n<text-2>\n<event><text-3></event>\n</task-notification>"}`},
		{`{"text":"<task-notification><task-id>a8Kq2ZpL9xW3vN7mR4tYb6</task-id><event>e</event></task-notification>"}`,
			`{"text":"<task-notification><task-id>a8Kq2ZpL9xW3vN7mR4tYb6</task-id><event><text-1></event></task-notification>"}`},
		{`{"rawOutput":"Monitor started (task bmon_a, timeout 600000ms). You will be notified."}`, `{"rawOutput":"Monitor started (task bmon_a, <output-1>"}`},
		{`{"output":"task_id: ses_child (for resuming)\n\n<task_result>\nchild text\n</task_result>"}`,
			`{"output":"task_id: ses_child <output-1>\n\n<task_result>\n<output-2>\n</task_result>"}`},
		{`{"output":"<task id=\"ses_bg\" state=\"running\">\n<summary>Background task started</summary>\n<task_result>\nThe task is working.\n</task_result>\n</task>"}`,
			`{"output":"<task id=\"ses_bg\" state=\"running\">\n<output-1>\n<task_result>\n<output-2>\n</task_result>\n<output-3>"}`},
		// Not the tag's form: redacted whole but for <task_result>.
		{`{"output":"<task id=\"ses bg\" state=\"running\">\n<task_result>\nx\n</task_result>"}`,
			`{"output":"<output-1>\n<task_result>\n<output-2>\n</task_result>"}`},
		{`{"title":"sub-agent-explore: Find the config loader"}`, `{"title":"sub-agent-explore: <text-1>"}`},
		{`{"text":"Subagent started in background.\nsubagent_id: 01a24945-52ee-7993-8ea0-faa989f6d1a9\ndescription: Count files\n\nWhen you need its result"}`,
			`{"text":"Subagent started in background.\nsubagent_id: 01a24945-52ee-7993-8ea0-faa989f6d1a9\n<text-1>"}`},
		{`{"rawOutput":{"type":"SubagentCompleted","output":"0 files.","subagent_id":"01a2-5113","tool_calls":0}}`,
			`{"rawOutput":{"type":"SubagentCompleted","output":"<output-1>","subagent_id":"01a2-5113","tool_calls":0}}`},
		{`{"rawOutput":{"type":"Secret42","text":"x"}}`, `{"rawOutput":{"type":"<output-1>","text":"<output-2>"}}`},
		{`{"rawOutput":{"content":"Agent started in background with agent_id: 0f07d34f-89ab. You'll be notified when it completes."}}`,
			`{"rawOutput":{"content":"Agent started in background with agent_id: 0f07d34f-89ab. <output-1>"}}`},
		{`{"rawInput":{"name":"counter","prompt":"Count.","agent_type":"general-purpose","description":"Count files","mode":"background"}}`,
			`{"rawInput":{"name":"<text-1>","prompt":"<text-2>","agent_type":"general-purpose","description":"<text-3>","mode":"background"}}`},
		{`{"rawInput":{"mode":"0644"}}`, `{"rawInput":{"mode":"<text-1>"}}`},
		// Not the spawn's form: redacted whole.
		{`{"text":"Subagent started in background. subagent_id: x"}`, `{"text":"<text-1>"}`},
		{`{"message":"Cannot switch to model 'm': it requires agent 'cursor'. Start a new session to use this model."}`,
			`{"message":"<text-1> requires agent <text-2> Start a new session <text-3>"}`},
		{`{"text":"The selected Model is  at capacity, sorry"}`, `{"text":"<text-1> Model is  at capacity<text-2>"}`},
	} {
		if got := string(New().Line([]byte(tt.in))); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.in, got, tt.want)
		}
	}
}

// TestSamePlaceholderEverywhere: a string is one placeholder whatever
// the place, so that values a dialect compares stay equal (a tool's output
// in rawOutput and in _meta).
func TestSamePlaceholderEverywhere(t *testing.T) {
	rd := New()
	a := rd.Line([]byte(`{"rawOutput":[{"text":"Found 2 documents."}]}`))
	b := rd.Line([]byte(`{"_meta":{"claudeCode":{"toolResponse":[{"text":"Found 2 documents."}]}}}`))
	if string(a) != `{"rawOutput":[{"text":"<output-1>"}]}` || string(b) != `{"_meta":{"claudeCode":{"toolResponse":[{"text":"<output-1>"}]}}}` {
		t.Errorf("got\n%s\n%s", a, b)
	}
}

// TestByteOrderMark: a byte-order mark before the first line is kept and
// the line redacted as JSON, as replay skips it; elsewhere it is no JSON.
func TestByteOrderMark(t *testing.T) {
	req, _ := testwire.Initialize(0, "cursor-agent")
	in := "\xef\xbb\xbf" + string(req) + "\n" + string(testwire.Prompt(1, "s1", "private words")) + "\n"
	var out bytes.Buffer
	if err := New().Copy(&out, strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "\xef\xbb\xbf{") || strings.Contains(out.String(), InvalidLine) || strings.Contains(out.String(), "private words") {
		t.Fatalf("got %q", out.String())
	}
	var again bytes.Buffer
	New().Copy(&again, strings.NewReader(string(req)+"\n\xef\xbb\xbf"+string(req)+"\n"))
	if !strings.HasSuffix(again.String(), InvalidLine+"\n") {
		t.Errorf("a mark on line 2: got %q", again.String())
	}
}

// TestEnvAndHeaders: the values of ACP's env and headers lists (every
// session/new's MCP servers, terminal/create) are credentials, whatever
// their names say; the names stay.
func TestEnvAndHeaders(t *testing.T) {
	var in bytes.Buffer
	for _, b := range [][]byte{
		testwire.Request(1, "session/new", map[string]any{"cwd": "/w", "mcpServers": []any{
			map[string]any{"name": "db", "command": "db-mcp", "args": []any{}, "env": []any{map[string]any{"name": "DB_PASSWORD", "value": "Tr0ub4dor3"}}},
			map[string]any{"type": "http", "name": "api", "url": "https://x", "headers": []any{map[string]any{"name": "X-Api-Key", "value": "plainkeyvalue42"}}},
		}}),
		testwire.Request(2, "terminal/create", map[string]any{"sessionId": "s1", "command": "make", "env": []any{map[string]any{"name": "TOKEN", "value": "tok_live_abcdef"}, map[string]any{"name": "MODE", "value": "fast"}}}),
		testwire.Request(3, "terminal/create", map[string]any{"sessionId": "s1", "command": "make", "env": map[string]any{"REGION": "euwest"}}),
	} {
		in.Write(append(b, '\n'))
	}
	var out bytes.Buffer
	if err := New().Copy(&out, &in); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Tr0ub4dor3", "plainkeyvalue42", "tok_live_abcdef", `"fast"`, "euwest"} {
		if bytes.Contains(out.Bytes(), []byte(s)) {
			t.Errorf("%s survived:\n%s", s, out.Bytes())
		}
	}
	for _, s := range []string{`"name":"DB_PASSWORD"`, `"name":"X-Api-Key"`, `"name":"MODE"`, `"REGION":"<secret-`} {
		if !bytes.Contains(out.Bytes(), []byte(s)) {
			t.Errorf("%s lost:\n%s", s, out.Bytes())
		}
	}
}

// TestSubagentRole: a subagent_update's description that is a role (an
// identifier, as claude-agent-acp 0.99.1 on sends the subagent_type)
// stays, since the Conn reads it as the card's subagent_type; text there,
// a secret-shaped value, and a one-word description of another update
// kind are redacted.
func TestSubagentRole(t *testing.T) {
	for _, tt := range []struct {
		kind, description string
		kept              bool
	}{
		{"subagent_update", "general-purpose", true},
		{"subagent_update", "review-kit:reviewer", true},
		{"subagent_update", "Run the suite three times", false},
		{"subagent_update", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx", false},
		{"async_task_spawned", "make", false},
	} {
		in := testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": tt.kind, "sessionId": "c1", "description": tt.description})
		out := string(New().Line(in))
		if kept := strings.Contains(out, `"description":"`+tt.description+`"`); kept != tt.kept {
			t.Errorf("%s %q: kept %v, want %v: %s", tt.kind, tt.description, kept, tt.kept, out)
		}
	}
}
