package codex_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/replay"
)

// TestGoldenSemantics states what each recorded scenario requires of the
// replay, so that a golden blessed with -update by mistake still fails
// here.
func TestGoldenSemantics(t *testing.T) {
	tests := []struct {
		name    string
		want    []string
		notWant []string
	}{
		{"collab-agent-tool-call-flow", []string{`"tool_call_id":"call-spawn-weather","payload":{"kind":"subagent_task","status":"completed","title":"spawnAgent","subagent_task":{"description":"Checking weather","prompt":"Find the current weather in Paris.","status":"completed","child_session_id":"thread-paris"}}`,
			`"run_links":{"stored":1`}, []string{`"generic"`, `"model"`}},
		{"subagent-activity-flow", []string{`"payload":{"kind":"subagent_task","status":"completed","title":"Start subagent weather_research","subagent_task":{"description":"weather_research","subagent_type":"weather_research","status":"started","child_session_id":"thread-paris"}}`}, nil},
		{"mcp-tool-completed-with-logs", []string{`"kind":"mcp_tool","status":"failed"`, `"server":"ijproxy","tool":"read_file","arguments":{"file_path":".ai/local.md"`,
			`"error":"File /Users/aleksandr.slapoguzov/Projects/ultimate/.ai/local.md doesn't exist or can't be opened"`}, []string{`"generic"`}},
		{"mcp-tool-in-progress", []string{`"kind":"mcp_tool","status":"in_progress","title":"mcp.server-name.tool-name","mcp_tool":{"server":"server-name","tool":"tool-name","arguments":{"argument":"example"}}`}, nil},
		{"agent-message-phases", []string{`"message":{"role":"assistant","text":"Checking the relevant event mapping.","phase":"commentary"}`,
			`"message":{"role":"assistant","text":"Yes, here is the answer.","phase":"final_answer"}`}, nil},
		{"output-acp-events", nil, []string{`"message"`}},
		{"session-info-update-metadata", []string{`"session_info":{"archived":true}`, `"session_info":{"archived":false}`, `"session_info":{"closed":true}`}, []string{`"session_info":{}`}},
		{"session-info-update-title", []string{`"session_info":{"title":"Renamed session"}`}, []string{`"title":null`}},
		{"thread-goal-cleared", nil, []string{`session_info`}},
		{"approval-command-allow-once", []string{`"tool_call_id":"item-snapshot","method":"session/request_permission","id":1001,"permission":{"acp_kind":"execute","options":[{"id":"allow_once","name":"Allow Once","kind":"allow_once"},{"id":"allow_always","name":"Allow for Session","kind":"allow_always"},{"id":"reject_once","name":"Reject","kind":"reject_once"}]}`,
			`"replies":0`}, []string{`"type":"reply"`}},
		{"elicitation-form-accept", []string{`"permission":{"acp_kind":"other","server":"my-mcp-server","options":[`}, nil},
		{"terminal-command-started", []string{`"payload":{"kind":"shell","status":"in_progress","title":"ls -la","shell":{"command":"ls -la","cwd":"/test/project","terminal_id":"command-123"}}`}, []string{`"generic"`}},
		// codex-acp sends chunks in terminal_output: appended; the whole
		// output at the end extends them and replaces them.
		{"terminal-output-meta-flow", []string{`"status":"in_progress","title":"python manage.py migrate","shell":{"command":"python manage.py migrate","cwd":"/test/project","terminal_id":"command-terminal-output","output":"Applying migrations\n\nyes\n"}}`,
			`"status":"completed","title":"python manage.py migrate","shell":{"command":"python manage.py migrate","cwd":"/test/project","terminal_id":"command-terminal-output","output":"Applying migrations\n\nyes\nDone\n","exit_code":0}}`},
			[]string{`"output":"\nyes\n"`, `"generic"`}},
		{"terminal-output-completion-fallback", []string{`"status":"completed","title":"git status --short","shell":{"command":"git status --short","cwd":"/test/project","terminal_id":"command-terminal-output-completion","output":"M src/CodexEventHandler.ts\n","exit_code":0}}`}, []string{`"generic"`}},
		{"terminal-command-completed", []string{`"payload":{"kind":"shell","status":"completed","shell":{"output":"file1.txt\nfile2.txt\nfile3.txt\n","exit_code":0}}`}, nil},
		{"terminal-command-failed", []string{`"payload":{"kind":"shell","status":"failed","shell":{"output":"cat: nonexistent.txt: No such file or directory","exit_code":1}}`}, nil},
		{"terminal-output-delta", []string{`"payload":{"kind":"shell","shell":{"terminal_id":"command-123","output":"file1.txt\nfile2.txt\n"}}`}, nil},
		{"terminal-interaction-stdin", []string{`"payload":{"kind":"shell","shell":{"terminal_id":"command-123","output":"\ncontinue\n"}}`}, nil},
		// A command Codex parsed into a read has no terminal: generic.
		{"terminal-output-parsed-command-legacy-delta", []string{`"payload":{"kind":"generic","status":"completed","title":"Read file '/test/project/README.md'","generic":{"acp_kind":"read"}}`}, []string{`"shell"`}},
		// Hand-written: AIR's typed failures (docs/codex.md §7). A retry
		// warning and the turn's terminal error share an id; the error
		// comes on the prompt response, beside the turn summary; a
		// failure-only update is no session_info.
		{"air-session-failure", []string{
			`"provider_error":{"severity":"warning","code":"notice","title":"Unknown key ` + "`foo`" + ` — in ~/.codex/config.toml","id":"test-session-id:notice:e1:1","revision":1}`,
			`"provider_error":{"severity":"warning","code":"transport_lost","title":"Reconnecting... 2/5","id":"turn-1:error","revision":2}`,
			`"method":"session/prompt","id":3,"usage":{"model":"gpt-5.2","turn":true`,
			`"method":"session/prompt","id":3,"provider_error":{"severity":"error","code":"transport_lost","title":"stream disconnected before completion: error sending request","action":"retry","id":"turn-1:error","revision":3}`,
			`"provider_error":{"severity":"error","code":"provider_error","title":"Codex is temporarily overloaded.","action":"retry","id":"turn-0:error","revision":1}`,
			`"session_info":{"title":"Fix the parser"}`,
		}, []string{`"session_info":{}`}},
		// Hand-written in codex-acp 2.6.0's shapes (docs/codex.md): a
		// client that is not AIR gets untagged collaboration and activity
		// calls, an untagged compaction call and a plan review named by
		// its id; an AIR client native child sessions, the phase under
		// jetbrains.air and, declaring session.compaction,
		// compaction_update.
		{"v2-standard-client", []string{
			`"auth_status":{"kind":"account","label":"ChatGPT Plus","email":"dev@example.com","plan":"plus"}`,
			`"tool_call_id":"call-spawn-weather","payload":{"kind":"subagent_task","status":"completed","title":"Start subagent weather_research","subagent_task":{"description":"Checking weather","prompt":"Find the current weather in Paris.","subagent_type":"weather_research","status":"completed","model":"gpt-5.2","child_session_id":"thread-paris"}}`,
			`"compaction":{"compaction_id":"compact-1","status":"completed"}`,
			`"plan_review":true,"plan_item_id":"item-plan-1"`,
			// 2.6.0 (agentInfo.version) reports the whole prompt.
			`"method":"session/prompt","id":3,"usage":{"model":"gpt-5.2","turn":true,"input_tokens":300,"output_tokens":40,"cached_read_tokens":100,"thought_tokens":10,"total_tokens":340}}`,
		}, []string{`"estimated"`}},
		{"v2-air-client", []string{
			`"tool_call_id":"thread-paris","payload":{"kind":"subagent_task","status":"completed","title":"weather_research"`,
			`"tool_call_id":"cmd-child","payload":{"kind":"shell","status":"completed","title":"curl wttr.in/Paris","parent_tool_call_id":"thread-paris"`,
			`"message":{"role":"assistant","text":"Checking with a helper.","phase":"commentary"}`,
			`"compaction":{"compaction_id":"compact-1","status":"completed"}`,
			`"total_tokens":340}}`,
		}, []string{`"estimated"`}},
		// AIR's async task of a command gone to the background: the
		// spawn makes its card a background shell, which runs on past
		// the turn; the task's end completes it before the command's
		// last frame.
		{"v2-air-async-task", []string{
			`"tool_call_id":"call_build","payload":{"kind":"shell","status":"in_progress","title":"npm run build","shell":{"command":"npm run build","cwd":"/test/project","terminal_id":"call_build","output":"building...\n","background":true}}`,
			`"method":"session/prompt","id":3,"usage":{"turn":true,"input_tokens":200,"output_tokens":30,"total_tokens":230}}`,
			`"tool_call_id":"call_build","payload":{"kind":"shell","status":"completed","title":"npm run build","shell":{"command":"npm run build","cwd":"/test/project","terminal_id":"call_build","output":"building...\n","background":true}}`,
			`"tool_call_id":"call_build","payload":{"kind":"shell","status":"completed","title":"npm run build","shell":{"command":"npm run build","cwd":"/test/project","terminal_id":"call_build","output":"building...\nbuilt in 41s\n","exit_code":0,"background":true}}`,
		}, []string{`"generic"`, `"status":"cancelled"`, `"estimated"`}},
		// ACP's subagents form (a client that declares subagents): a
		// child whose turn failed is idle/error with Codex's text, the
		// card's error; the other ends with end_turn and has none. The
		// first child's thread is renamed, then its name unset: the
		// null title clears the card's title and description. Its cancel
		// grant holds while its turn runs, and goes when the turn ends.
		{"v2-subagents-client", []string{
			`"status":"running","child_session_id":"test-session-id:subagent:thread-lint","cancellable":true}`,
			`"error":"stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)"}}}`,
			`"tool_call_id":"test-session-id:subagent:thread-lint","payload":{"kind":"subagent_task","status":"in_progress","title":"Lint the workspace","subagent_task":{"description":"Lint the workspace",`,
			`"session_info":{"title_cleared":true}`,
			`"tool_call_id":"test-session-id:subagent:thread-lint","payload":{"kind":"subagent_task","status":"failed","subagent_task":{"prompt":"Run the linter and report what fails","status":"failed","child_session_id":"test-session-id:subagent:thread-lint","error":"stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)"}}`,
			`"tool_call_id":"call-lint","payload":{"kind":"shell","status":"in_progress","title":"npm run lint","parent_tool_call_id":"test-session-id:subagent:thread-lint"`,
			`"tool_call_id":"test-session-id:subagent:thread-test","payload":{"kind":"subagent_task","status":"completed","title":"Test runner","subagent_task":{"description":"Test runner","prompt":"Run the tests","status":"completed","child_session_id":"test-session-id:subagent:thread-test"}}`,
		}, nil},
		// Recorded live through the tap (codex-acp 2.6.0, no network):
		// the pushed login state and AIR retry warnings, one id.
		{"live-2.6.0-offline-prompt", []string{
			`"auth_status":{"kind":"api_key","label":"<text-5>"}`,
			`"code":"transport_lost","title":"<text-174>","id":"01a23d1f-9960-7370-bdaf-c649297af28c:error","revision":9}`,
			`"code":"notice"`,
		}, nil},
		// Recorded live (codex-acp 2.6.0, Codex 0.166.0, a stub model):
		// commands, a permission, the turn usage of 2.2.1 and later.
		{"live-2.6.0-stub", []string{
			`"tool_call_id":"call_2","payload":{"kind":"shell","status":"completed","title":"echo hi","tool":{"name":"exec_command"},"shell":{"command":"echo hi","cwd":"/tmp/codexlive/work","terminal_id":"call_2","output":"hi\n","exit_code":0}`,
			`"tool_call_id":"call_4","payload":{"kind":"shell","status":"completed","title":"echo escalated","tool":{"name":"exec_command"},"shell":{"command":"echo escalated","cwd":"/tmp/codexlive/work","terminal_id":"call_4","output":"escalated\n","exit_code":0}`,
			`"usage":{"model":"gpt-5.5","turn":true,"input_tokens":200,"output_tokens":30,"cached_read_tokens":1000,"cached_write_tokens":0,"thought_tokens":5,"total_tokens":1230}`,
			// a parsed listing stays generic (docs/codex.md section 4), failed
			`"tool_call_id":"call_6","payload":{"kind":"generic","status":"failed","title":"List files in 'nonexistent-dir'"`},
			[]string{`"estimated":true`}},
		// Recorded live with multi_agent_v2: the child's end comes as an
		// item of its own ("subagent-completed-<id>"), which ends the
		// spawn's card and makes none.
		{"live-2.6.0-stub-subagent", []string{
			`"tool_call_id":"call_0","payload":{"kind":"subagent_task","status":"completed","title":"Start subagent counter","subagent_task":{"description":"counter","subagent_type":"counter","status":"completed","child_session_id":"01a249db-32ea-7653-9d7e-1b1cf3ef2b58"}}}`},
			[]string{`"tool_call_id":"subagent-completed-`}},
		// The same, to a client that declares subagents: ACP's
		// subagent_update for a child session <root>:subagent:<thread>.
		{"live-2.6.0-stub-subagent-standard", []string{
			`"payload":{"kind":"subagent_task","status":"completed","title":"Counter","subagent_task":{"description":"Counter","status":"completed","child_session_id":"01a249e1-074d-7960-a916-ee25e7bbb3ac:subagent:01a249e1-08a8-7330-8aea-fd0beed985d6","cwd":"/tmp/codexlive/work"}}}`,
			`"subagent_task":{"description":"Counter","status":"running","child_session_id":"01a249e1-074d-7960-a916-ee25e7bbb3ac:subagent:01a249e1-08a8-7330-8aea-fd0beed985d6","cancellable":true}`},
			nil},
		{"web-search-start-and-complete", []string{`"kind":"generic","status":"completed","title":"Web search: agent client protocol"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, events, err := replay.FileAs(dialects.Registry(), filepath.Join("testdata", tt.name+".jsonl"), codex.ID)
			if err != nil {
				t.Fatal(err)
			}
			has(t, string(bytes.Join([][]byte{events, final}, nil)), tt.want, tt.notWant)
		})
	}
}
