package claude_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/replay"
)

// replayed returns a transcript's --final and --json outputs through the
// built-in dialects, identified from its initialize response or, with
// agent, named.
func replayed(t *testing.T, path, agent string) (final, events []byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := replay.Run(dialects.Registry(), f, replay.Options{Agent: agent, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var fb, eb bytes.Buffer
	if err := r.WriteFinal(&fb); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteEvents(&eb); err != nil {
		t.Fatal(err)
	}
	return fb.Bytes(), eb.Bytes()
}

// TestGoldenAgentNamed: every transcript replays the same with --agent
// claude as by identification (each starts with claude-agent-acp's
// initialize exchange).
func TestGoldenAgentNamed(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if len(paths) == 0 {
		t.Fatal("no transcripts")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f1, e1 := replayed(t, path, "")
			f2, e2 := replayed(t, path, "claude")
			if !bytes.Equal(f1, f2) || !bytes.Equal(e1, e2) {
				t.Errorf("--agent claude differs from identification:\n%s\n%s", f2, f1)
			}
			if !bytes.Contains(f1, []byte(`"type":"stats","agent":"claude"`)) {
				t.Errorf("not identified as claude:\n%s", f1)
			}
		})
	}
}

// TestGoldenSemantics states what each scenario requires, so that a golden
// blessed with -update by mistake still fails here. final are fragments
// of --final, events of --json; not lists what the final state must not
// hold.
func TestGoldenSemantics(t *testing.T) {
	tests := []struct {
		name          string
		final, events []string
		not           []string
	}{
		{"origin-main-plain__subagent-task-legacy",
			[]string{`"tool_call_id":"toolu_task","payload":{"kind":"subagent_task","status":"completed","title":"Explore code","tool":{"name":"Task"},"subagent_task":{"description":"Explore code","prompt":"Find the parser","subagent_type":"Explore","status":"completed","agent_id":"a1","total_tokens":5,"tool_use_count":1,"result_text":"The parser is in x.ts."}}`,
				`"tool_call_id":"toolu_sub_bash","payload":{"kind":"shell","status":"completed","title":"rg parser","parent_tool_call_id":"toolu_task"`,
				`"tool_call_id":"toolu_sub_read","payload":{"kind":"generic","status":"completed","title":"Read /x.ts","parent_tool_call_id":"toolu_task"`},
			[]string{`"message":{"role":"assistant","text":"Looking for","parent_tool_call_id":"toolu_task"}`,
				`"permission":{"tool_name":"Bash","title":"rg parser"`,
				`"usage":{"used":2,"size":200000,"model":"claude-sonnet-4-6"}`,
				`"method":"session/prompt","id":1,"usage":{"turn":true,"input_tokens":0`},
			[]string{`"duration_ms"`, `"<number>"`}},
		// Hand-written: AIR's typed failures (docs/claude.md §16).
		{"air-session-failure", nil,
			[]string{`"provider_error":{"severity":"warning","code":"notice","title":"Settings file has an unknown key","message":"permissions.allowx in .claude/settings.json","id":"s1:notice:e1:1","revision":1}`,
				`"provider_error":{"severity":"warning","code":"limit_reached","title":"Claude is temporarily rate limited. Retrying in 4 s (attempt 2 of 10).","id":"p-1:error","revision":2}`,
				`"method":"session/prompt","id":3,"usage":{"turn":true,"input_tokens":12`,
				`"method":"session/prompt","id":3,"provider_error":{"severity":"error","code":"rate_limited","title":"API Error: 429 rate_limit_error","action":"retry","id":"p-1:error","revision":3}`,
				`"provider_error":{"severity":"error","code":"auth_required","title":"Sign in to continue using Claude.","message":"Invalid API key · Please run /login","action":"login","id":"s1:session-error:e1:2","revision":1}`},
			[]string{`"session_info"`}},
		{"async-launch",
			[]string{`"status":"completed","title":"Audit deps","tool":{"name":"Agent"},"subagent_task":{"description":"Audit deps","prompt":"List outdated dependencies","subagent_type":"general-purpose","status":"async_launched","agent_id":"agent-7f3","is_async":true,"output_file":"/tmp/claude/tasks/agent-7f3.output"}`},
			[]string{`"usage":{"turn":true,"input_tokens":12,"output_tokens":30,"cached_read_tokens":1000,"cached_write_tokens":0,"total_tokens":1042}`},
			[]string{`"message"`}},
		{"nesting-child-first",
			[]string{`"tool_call_id":"toolu_c","payload":{"kind":"shell","status":"completed","title":"go test ./...","parent_tool_call_id":"toolu_b"`,
				`"tool_call_id":"toolu_b","payload":{"kind":"subagent_task","status":"completed","title":"Middle","parent_tool_call_id":"toolu_a"`,
				`"tool_call_id":"toolu_a","payload":{"kind":"subagent_task","status":"completed","title":"Top","tool":{"name":"Task"},"subagent_task":{`,
				`"tool_use_count":0,"result_text":"Top done.\nAll green."`},
			[]string{`"message":{"role":"assistant","text":"Grandchild speaking.","parent_tool_call_id":"toolu_b"}`,
				`"message":{"role":"thought","text":"Child thinking.","parent_tool_call_id":"toolu_a"}`},
			[]string{`"text":"Top-level answer."`, `"tool_call_id":"toolu_a","payload":{"kind":"subagent_task","status":"completed","title":"Top","parent_tool_call_id"`}},
		{"native-child-session",
			[]string{`"session_id":"sess-1","tool_call_id":"task_1","payload":{"kind":"subagent_task","status":"completed","title":"Find flaky tests","subagent_task":{"description":"Find flaky tests","prompt":"Run the suite three times and list tests that fail once","status":"completed","child_session_id":"task_1"}}`,
				`"session_id":"task_1","tool_call_id":"toolu_child_run","payload":{"kind":"shell","status":"completed","title":"npm test","parent_tool_call_id":"task_1"`,
				`"tool_call_id":"task_1:generation:2","payload":{"kind":"subagent_task","status":"cancelled"`,
				`"session_id":"task_1:generation:2","tool_call_id":"toolu_child_run","payload":{"kind":"shell","status":"pending","title":"npm test","parent_tool_call_id":"task_1:generation:2"`,
				`"tool_call_id":"task_2","payload":{"kind":"subagent_task","status":"failed","title":"Lint","subagent_task":{"description":"Lint","prompt":"Run eslint","status":"disconnected"`,
				`"tool_call_id":"task_3","payload":{"kind":"subagent_task","status":"failed","title":"Typecheck","subagent_task":{"description":"Typecheck","prompt":"Run tsc","status":"failed"`},
			[]string{`"session_id":"task_1","message":{"role":"assistant","text":"Running the suite.","parent_tool_call_id":"task_1"}`},
			[]string{`"running"`, `"toolu_spawn"`}},
		// claude-agent-acp 0.71's native child sessions, before the RFD's
		// rework: the same cards as subagent_update's.
		{"native-child-session-spawned",
			[]string{`"session_id":"sess-1","tool_call_id":"task_1","payload":{"kind":"subagent_task","status":"completed","title":"Find flaky tests","subagent_task":{"description":"Find flaky tests","prompt":"Run the suite three times and list tests that fail once","status":"completed","child_session_id":"task_1"}}`,
				`"session_id":"task_1","tool_call_id":"toolu_child_run","payload":{"kind":"shell","status":"completed","title":"npm test","parent_tool_call_id":"task_1"`,
				`"tool_call_id":"task_2","payload":{"kind":"subagent_task","status":"cancelled","title":"Lint","subagent_task":{"description":"Lint","prompt":"Run eslint","status":"cancelled"`,
				`"tool_call_id":"task_3","payload":{"kind":"subagent_task","status":"failed","title":"Typecheck","subagent_task":{"description":"Typecheck","prompt":"Run tsc","status":"failed"`},
			[]string{`"session_id":"task_1","message":{"role":"assistant","text":"Running the suite.","parent_tool_call_id":"task_1"}`},
			[]string{`"running"`, `"toolu_spawn"`}},
		{"air__subagent-native-sessions",
			[]string{`"tool_call_id":"agent_n","payload":{"kind":"subagent_task","status":"failed","title":"Fix the build","subagent_task":{"description":"Fix the build","prompt":"Make the build pass","status":"failed","child_session_id":"agent_n"}}`,
				`"session_id":"agent_n","tool_call_id":"toolu_native_bash","payload":{"kind":"shell","status":"failed","title":"make","parent_tool_call_id":"agent_n","tool":{"name":"Bash"},"shell":{"command":"make","terminal_id":"toolu_native_bash","output":"make: *** Error 2","exit_code":1}}`},
			nil, nil},
		// The recorded v2 snapshot: a failed Agent call's raw tool_result
		// is the card's error.
		{"v2__subagent-native-sessions",
			[]string{`"tool_call_id":"toolu_native","payload":{"kind":"subagent_task","status":"failed","title":"Fix the build","tool":{"name":"Agent"},"subagent_task":{"description":"Fix the build","prompt":"Make the build pass","subagent_type":"general-purpose","error":"The build still fails."}}`},
			nil, nil},
		{"monitor-events-restarted",
			[]string{`"tool_call_id":"toolu_mon","payload":{"kind":"monitor","status":"completed","title":"Watch errors","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon1","command":"tail -f /var/log/app.log | grep ERROR","event_count":12,"recent_events":["ERROR 3: disk full",`,
				`"ERROR 12: disk full"],"ended":true,"end_reason":"exited"}`,
				`"tool_call_id":"toolu_mon2","payload":{"kind":"monitor","status":"cancelled","title":"Monitor","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon2","command":"tail -f build.log","event_count":1,"recent_events":["build started"],"ended":true,"end_reason":"session_restart"}}`},
			[]string{`"hidden":[{"start":0,"end":137,"task_id":"bmon1"}]`, `"hidden":[{"start":9,"end":137,"task_id":"bmon1"}]`,
				`"tool_call_id":"toolu_mon","payload":{"kind":"monitor","status":"in_progress"`},
			[]string{`"ERROR 2: retry"]`, `"task_id":"bash_9"`}},
		{"monitors-one-chunk",
			[]string{`"tool_call_id":"toolu_mon_a","payload":{"kind":"monitor","status":"completed","title":"Monitor","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon_a","command":"tail -f api.log","event_count":1,"recent_events":["api: 502 on /login"],"ended":true,"end_reason":"exited"}}`,
				`"tool_call_id":"toolu_mon_b","payload":{"kind":"monitor","status":"completed","title":"Monitor","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon_b","command":"tail -f worker.log","event_count":2,"recent_events":["worker: job 1 done","worker: job 2 done"],"ended":true,"end_reason":"exited"}}`,
				`"tool_call_id":"bmon_ghost","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"bmon_ghost","event_count":1,`},
			[]string{`"hidden":[{"start":0,"end":97,"task_id":"bmon_b"},{"start":98,"end":195,"task_id":"bmon_a"},{"start":196,"end":293,"task_id":"bmon_b"}]`,
				`"hidden":[{"start":24,"end":138,"task_id":"bmon_ghost"}]`},
			nil},
		{"monitor-event-before-registration",
			[]string{`"tool_call_id":"toolu_mon_c","payload":{"kind":"monitor","status":"completed","title":"Monitor","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon_c","command":"tail -f deploy.log","event_count":2,"recent_events":["deploy: step 1","deploy: step 2"],"ended":true,"end_reason":"exited"}}`,
				`"tool_call_id":"bmon_c","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"bmon_c","event_count":1,"recent_events":["deploy: step 1"],"ended":true,"end_reason":"exited"}}`},
			nil, nil},
		{"wakeup-invalid",
			[]string{`"wakeup":{"prompt":"Check the deploy","delay_seconds":300,"reason":"deploy takes 5 minutes","scheduled_for":1767225900000}`,
				`"tool_call_id":"toolu_wake_zero","payload":{"kind":"wakeup","status":"completed","title":"ScheduleWakeup","tool":{"name":"ScheduleWakeup"},"wakeup":{"prompt":"Retry","delay_seconds":60,"invalid":true}}`,
				`"wakeup":{"prompt":"Poll CI","invalid":true}`},
			nil, []string{`"scheduled_for":0`}},
		{"compaction-text-legacy", nil,
			[]string{`"compaction":{"status":"in_progress"}`, `"compaction":{"status":"completed"}`, `"usage":{"used":0,"size":200000}`},
			[]string{`"text":"Compacting...`}},
		// The texts as claude-agent-acp sent them: the completion after a
		// blank line, once the usage drops to 0.
		{"compaction-text-newlines", nil,
			[]string{`"compaction":{"status":"in_progress"}`, `"usage":{"used":0,"size":200000}`, `"compaction":{"status":"completed"}`}, nil},
		{"origin-main-plain__compaction-legacy", nil,
			[]string{`"compaction":{"compaction_id":"<id-1>","status":"in_progress"}`,
				`"compaction":{"compaction_id":"<id-1>","status":"completed","trigger":"auto","pre_tokens":1000,"post_tokens":100}`}, nil},
		{"origin-main-plain__compaction-update", nil,
			[]string{`"compaction":{"compaction_id":"00000000-0000-4000-8000-000000000001","summary":"The summary."}`,
				`"status":"completed","summary":"The summary.","trigger":"auto","pre_tokens":1000,"post_tokens":100,"duration_ms":7}`}, nil},
		{"air__compaction-update", nil,
			[]string{`"status":"completed","trigger":"auto","pre_tokens":1000,"post_tokens":100,"duration_ms":7}`}, nil},
		// AIR's compact tool call: no claudeCode.toolName, the figures
		// only under _meta.jetbrains.air.contextCompaction.
		{"air__compaction-legacy", nil,
			[]string{`"compaction":{"compaction_id":"<id-1>","status":"in_progress"}`,
				`"compaction":{"compaction_id":"<id-1>","status":"completed","trigger":"auto","pre_tokens":1000,"post_tokens":100}`}, nil},
		{"air__compaction-failed-legacy", nil,
			[]string{`"compaction":{"compaction_id":"<id-1>","status":"in_progress"}`,
				`"compaction":{"compaction_id":"<id-1>","status":"failed","error":"Context too small"}`}, nil},
		{"compaction-summary-chunks", nil,
			[]string{`"compaction":{"compaction_id":"cmp-7","summary":"The user asked for a parser fix; "}`,
				`"compaction":{"compaction_id":"cmp-7","summary":"x.ts was changed and \"make test\" passes."}`,
				`"compaction":{"compaction_id":"cmp-7"}}`,
				`"compaction":{"compaction_id":"cmp-7","status":"completed","summary":"The user asked for a parser fix; \nx.ts was changed and \"make test\" passes.","trigger":"manual","pre_tokens":180000,"post_tokens":9000,"duration_ms":1200}`},
			nil},
		{"compaction-update-failed", nil,
			[]string{`"compaction":{"compaction_id":"cmp-1","status":"failed","error":"Compaction failed: summary too long","trigger":"manual","pre_tokens":150000}`,
				`"compaction":{"compaction_id":"toolu_cmp2","status":"failed","error":"context too large","trigger":"auto"}`}, nil},
		{"mcp-ambiguous-names",
			[]string{`"title":"mcp__a___b","tool":{"name":"mcp__a___b"},"generic"`,
				`"title":"mcp__a__b__c","tool":{"name":"mcp__a__b__c"},"generic"`,
				`"title":"mcp____x","tool":{"name":"mcp____x"},"generic"`,
				`"title":"mcp__srv__","tool":{"name":"mcp__srv__"},"generic"`,
				`"title":"mcp___srv__tool","tool":{"name":"mcp___srv__tool"},"generic"`,
				`"mcp_tool":{"server":"srv","tool":"tool_x","arguments":{"q":"acp","n":5},"output":"2 results"}`,
				`"status":"failed","title":"mcp__my-server__search_docs","tool":{"name":"mcp__my-server__search_docs"},"mcp_tool":{"server":"my-server","tool":"search_docs","arguments":{"q":"acp","n":6},"error":"MCP error -32000: index offline"}`},
			[]string{`"id":1000,"permission":{"tool_name":"mcp__a___b","title":"mcp__a___b","server":"a_","options":`,
				`"id":1001,"permission":{"tool_name":"mcp__my-server__search_docs","title":"mcp__my-server__search_docs","server":"my-server","tool":"search_docs"`,
				`"id":1002,"permission":{"title":"mcp__x__y","options":`},
			[]string{`"server":"a"`, `"tool":"_b"`, `"type":"reply"`}},
		{"v2__mcp-tool",
			[]string{`"mcp_tool":{"server":"docs","tool":"search","arguments":{"q":"acp"},"output":"Found 2 documents."}`},
			[]string{`"permission":{"tool_name":"mcp__docs__search","title":"mcp__docs__search","server":"docs","tool":"search"`}, nil},
		{"prompt-queueing-string", nil, []string{`"capabilities":{"prompt_queueing":false,"auth_status":true}`}, []string{`"prompt_queueing":true`}},
		{"prompt-queueing-number", nil, []string{`"capabilities":{"prompt_queueing":false,"auth_status":true}`}, []string{`"prompt_queueing":true`}},
		{"v2__session-setup", nil, []string{`"capabilities":{"prompt_queueing":true,"auth_status":true}`}, nil},
		{"v2__rate-limit-and-origin", nil,
			[]string{`"usage":{"used":2,"size":200000,"model":"claude-sonnet-4-6","rate_limit":{"status":"allowed_warning","utilization":0.9,"resets_at":1700000000000}}`,
				`"usage":{"used":2,"size":200000,"cost":0,"currency":"USD","model":"claude-sonnet-4-6","origin":"human"}`,
				`"usage":{"turn":true,"input_tokens":0`}, nil},
		// Hand-written: the subagents RFD's form as 0.101.0 sends it.
		{"native-child-session-rfd",
			[]string{`"tool_call_id":"agent_1","payload":{"kind":"subagent_task","status":"completed","title":"Find flaky tests","subagent_task":{"description":"Find flaky tests","prompt":"Run the suite three times and list tests that fail once","subagent_type":"general-purpose","status":"completed","child_session_id":"agent_1","cwd":"/home/dev/app/.claude/worktrees/agent_1","result_text":"No test failed.","cancellable":true}}`,
				`"tool_call_id":"agent_2","payload":{"kind":"subagent_task","status":"failed","title":"Explore","subagent_task":{"description":"Explore","status":"failed","child_session_id":"agent_2","error":"API Error: 529 overloaded","cancellable":true}}`,
				`"tool_call_id":"agent_4","payload":{"kind":"subagent_task","status":"failed","title":"Bench the parser","subagent_task":{"description":"Bench the parser","subagent_type":"general-purpose","status":"failed","child_session_id":"agent_4","error":"Prompt is too long","cancellable":true}}`,
				`"tool_call_id":"toolu_child_run","payload":{"kind":"shell","status":"completed","title":"npm test","parent_tool_call_id":"agent_1"`},
			[]string{`"message":{"role":"assistant","text":"Running the suite.","parent_tool_call_id":"agent_1"}`}, nil},
		// Hand-written: AIR's background shapes of 0.92.0 to 0.101.0.
		{"air-background-0.101",
			[]string{`"tool_call_id":"toolu_mon","payload":{"kind":"monitor","status":"completed","title":"Monitor","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon_1","command":"tail -f api.log","event_count":1,"recent_events":["api: 502 on /login"],"ended":true,"end_reason":"completed"}}`,
				`"mcp_tool":{"server":"docs","tool":"search__v2","arguments":{"q":"acp"},"output":"3 hits"}`},
			[]string{`"compaction":{"compaction_id":"cmp_idle","status":"completed","trigger":"auto","pre_tokens":150000`},
			[]string{`autonomous-turn`, `Claude is working`}},
		// Hand-written: a v2 client's background work in 0.101.0: the
		// lists on state_update, a monitor ended by its own final status,
		// not by the turn's end.
		{"v2-background-work-0.101",
			[]string{`"tool_call_id":"toolu_mon","payload":{"kind":"monitor","status":"completed","title":"Watch API errors","tool":{"name":"Monitor"},"monitor":{"task_id":"bmon1","command":"tail -f api.log | grep ERROR","event_count":0,"ended":true,"end_reason":"completed"}}`},
			[]string{`"session_id":"sess-bg","state":{"state":"idle","stop_reason":"end_turn","background":[{"type":"tool_call","id":"toolu_mon"},{"type":"_claude/task","id":"t7f2","description":"Index the repository"}]}}`,
				`"session_id":"sess-bg","state":{"state":"running","background":[]}}`,
				`"session_id":"sess-bg","state":{"state":"idle","background":[]}}`,
				`"tool_call_id":"toolu_mon","payload":{"kind":"monitor","status":"paused"`,
				`"usage":{"turn":true,"input_tokens":1200,"output_tokens":80,"total_tokens":1280}`},
			[]string{`"end_reason":"exited"`}},
		// Live through the tap, 0.101.0, signed out, an AIR client: the
		// account status, and a prompt refused with -32000 and no typed
		// record.
		{"live-0.101.0-auth-required", nil,
			[]string{`"capabilities":{"prompt_queueing":true,"auth_status":true}`,
				`"auth_status":{"kind":"none","label":"<text-2>"}`}, nil},
		// Live, 0.101.0 against a stub of Anthropic's API, a plain v1
		// client without the terminal channel: commands, a failure's
		// code from its text, subagents in the foreground and background.
		{"live-0.101.0-stub", nil,
			[]string{`"tool_call_id":"toolu_004","payload":{"kind":"shell","status":"completed","title":"touch made.txt","tool":{"name":"Bash"},"shell":{"command":"touch made.txt"}}}`,
				`"shell":{"command":"ls /nonexistent-dir","output":"Exit code 2\nls: cannot access '/nonexistent-dir': No such file or directory","exit_code":2}}}`,
				`"subagent_task":{"description":"List files","prompt":"Subagent job: list the files in the project","subagent_type":"general-purpose","status":"completed","agent_id":"a328f3c017acb93c5","model":"claude-opus-5-5","duration_ms":362,"total_tokens":2242,"tool_use_count":0,"result_text":"Subagent result: main.go and README.md."}}}`,
				`"status":"async_launched","agent_id":"aef742703ac0b21d4","model":"claude-opus-5-5","is_async":true,`},
			[]string{`(Bash completed with no output)"`}},
		// Live, 0.101.0, the session in its default (auto) mode: Claude
		// Code's warning sent as text (a notice, the chunk to hide), and
		// the Agent call auto mode refused (nonExecutionKind) failed with
		// its text as the error.
		{"live-0.101.0-stub-automode", nil,
			[]string{`"provider_error":{"severity":"warning","code":"notice","title":"Claude reported a warning","message":"We're changing auto mode`,
				`"replaces_text":"**Warning:** We're changing auto mode`,
				`"tool_call_id":"toolu_001","payload":{"kind":"subagent_task","status":"failed","title":"List files"`,
				`"error":"Auto mode could not evaluate this action and is blocking it for safety`},
			nil},
		// Notices to a client that declares session.notices, and one as
		// text (hand-written in 0.101.0's shapes).
		{"notices-0.101", nil,
			[]string{`"provider_error":{"severity":"warning","code":"notice","title":"Claude reported a warning","message":"We're changing auto mode to no longer charge for classifier requests in Claude Code."}`,
				`"provider_error":{"severity":"info","code":"notice","title":"Stop hook blocked continuation"}`,
				`"provider_error":{"severity":"info","code":"notice","title":"Hook blocked the turn","message":"The Stop hook said no.","replaces_message_id":"m2","replaces_text":"**Notice:** Hook blocked the turn\nThe Stop hook said no."}`},
			[]string{`no title: no event`, `"replaces_message_id":"m3"`}},
		{"vendor-notifications",
			[]string{`"ignored_notifications":1`, `"declined":1`},
			[]string{`"auth_status":{"kind":"account","label":"Claude Max","email":"dev@example.com","organization":"Example","plan":"max"}`,
				`"rate_limit":{"status":"allowed_warning","type":"seven_day","utilization":0.98,"resets_at":1767225600000}`,
				`"usage":{"origin":"human","turn":true,"input_tokens":2,"output_tokens":4,"cached_read_tokens":0,"cached_write_tokens":45190,"total_tokens":45196}`,
				`"usage":{"origin":"task-notification","turn":true,"input_tokens":1,"output_tokens":1,"cached_write_tokens":0,"total_tokens":2}`,
				`"method":"_claude/unknownRequest","id":77,"error":{"code":-32601`},
			[]string{`"method":"_claude/sdkMessage"`, `"<number>"`}},
		{"terminal-output",
			[]string{`"shell":{"command":"make -j8","cwd":"/home/dev/app","terminal_id":"toolu_t","output":"cc a.o\ncc b.o\nld app\n","signal":"SIGINT"}`},
			nil, []string{`"exit_code"`}},
		{"origin-main-zed__tool-progress",
			[]string{`"shell":{"command":"make","terminal_id":"toolu_slow","output":"built","exit_code":0}`}, nil, nil},
		{"air__bash-background",
			[]string{`"shell":{"command":"sleep 100","terminal_id":"toolu_bg","output":"Command running in background with ID: bash_1.`, `"exit_code":0,"background":true}`},
			nil, []string{`"tool_call_id":"bash_1"`}},
		{"air__async-task-held-until-tool-id",
			[]string{`"tool_call_id":"toolu_monitor","payload":{"kind":"monitor","status":"completed","monitor":{"task_id":"monitor_1","command":"Watch the logs","event_count":2,"recent_events":["first line","second line"],"ended":true,"end_reason":"exited"}}`},
			// Running from the spawn on: the card is the update's (the tool
			// call is never seen), so the spawn's running state is its status.
			[]string{`"tool_call_id":"toolu_monitor","payload":{"kind":"monitor","status":"in_progress","monitor":{"task_id":"monitor_1","command":"Watch the logs","event_count":0}}`},
			[]string{`"tool_call_id":"monitor_1"`}},
		{"origin-main-plain__permission-denied",
			[]string{`"tool_call_id":"toolu_denied","payload":{"kind":"shell","status":"failed","title":"rm -rf /","tool":{"name":"Bash"},"shell":{"command":"rm -rf /","output":"Permission to use Bash has been denied."}}`}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, events := replayed(t, filepath.Join("testdata", tt.name+".jsonl"), "")
			check(t, "final state", final, tt.final)
			check(t, "events", events, tt.events)
			for _, w := range tt.not {
				if strings.Contains(string(final), w) {
					t.Errorf("final state has %s", w)
				}
			}
		})
	}
}

func check(t *testing.T, what string, out []byte, want []string) {
	t.Helper()
	for _, w := range want {
		if !bytes.Contains(out, []byte(w)) {
			t.Errorf("%s lacks %s:\n%s", what, w, out)
		}
	}
}
