package grok_test

import (
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestGoldenSemantics pins what each transcript is for, independently of
// the goldens' bytes: a regenerated golden that loses one of these
// fragments, or gains a forbidden one, fails here too.
func TestGoldenSemantics(t *testing.T) {
	const effortHigh = `{"id":"reasoning_effort","name":"Reasoning Effort","category":"thought_level","type":"select","currentValue":"high","options":[{"value":"low","name":"Low"},{"value":"medium","name":"Medium"},{"value":"high","name":"High"}]}`
	tests := []struct {
		name    string
		want    []string
		notWant []string
	}{
		{"models", []string{
			// session/new's result keeps its members and gains the options
			`"agentType":"grok-build-plan"}}]},"configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"grok-4.5","options":[{"value":"grok-4.5","name":"Grok 4.5"},{"value":"grok-code-fast","name":"Grok Code Fast"},{"value":"grok-build","name":"Grok Build"}]},` + effortHigh + `]}}}`,
			// the only model is current; a model without efforts has no effort option
			`"session_id":"s2","config":{"options":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"grok-build","options":[{"value":"grok-build","name":"Grok Build"}]}]}}`,
			`"rewritten":2`},
			[]string{`"session_id":"s3","config"`, `"id":3,"result"`}},
		{"model-switch", []string{
			// the effort the new model lacks is dropped: its marked default
			`"params":{"sessionId":"s1","modelId":"grok-code-fast"}}`,
			`"currentValue":"grok-code-fast"`, `"currentValue":"medium","options":[{"value":"low","name":"Low"},{"value":"medium","name":"Medium"}]}`,
			// an effort change by name sends the current model and the value
			`"params":{"sessionId":"s1","modelId":"grok-code-fast","_meta":{"reasoningEffort":"low"}}`,
			// a switch keeps an effort the new model allows
			`"params":{"sessionId":"s1","modelId":"grok-4.5","_meta":{"reasoningEffort":"low"}}`,
			// a model without efforts: no _meta, no effort option
			`"params":{"sessionId":"s1","modelId":"grok-build"}}`,
			`{"jsonrpc":"2.0","id":5,"result":{"configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"grok-build","options":[{"value":"grok-4.5","name":"Grok 4.5"},{"value":"grok-code-fast","name":"Grok Code Fast"},{"value":"grok-build","name":"Grok Build"}]}]}}`,
			`{"jsonrpc":"2.0","id":6,"result":{"configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"grok-4.5"`},
			[]string{`"method":"session/set_config_option"`, `"_meta":{"reasoningEffort":"high"}`}},
		{"refused", []string{
			`{"type":"wire","line":5,"to":"agent"}`,
			`"error":{"code":-32602,"message":"unknown model \"grok-9\"; use one of: grok-4.5, grok-code-fast, grok-build"}`,
			`"message":"unsupported reasoning effort \"extreme\" for model \"grok-4.5\"; use one of: low, medium, high"`,
			`"message":"unknown config option \"mode\"; use one of: model, reasoning_effort"`,
			`"message":"model \"grok-build\" does not support reasoning effort"`,
			`"refused":5`},
			[]string{`"modelId":"grok-9"`, `"reasoningEffort":"extreme"`}},
		{"incompatible-switch", []string{
			`"error":{"code":-32600,"message":"Cannot switch model harness after first turn. Start a new session to use this model.","data":{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","action":"new_session"}}`,
			`"message":"Cannot switch to model 'grok-composer-2.5-fast': it requires agent 'cursor'. Start a new session to use this model.","data"`,
			`"provider_error":{"severity":"error","code":"model_switch_incompatible"`, `"action":"new_session"}}`,
			// any other error goes back as the agent sent it
			`"error":{"code":-32603,"message":"Internal error","data":{"details":"backend unavailable"}}`},
			[]string{`"currentValue":"grok-composer-2.5-fast"`, `"currentValue":"grok-code-fast"`, `"session_id":"s2"`}},
		{"context-window", []string{
			`"context_window":{"used":42000,"size":500000,"remaining":458000}}`,
			`"context_window":{"used":61000,"size":500000,"remaining":439000}}`,
			`"context_window":{"used":30000,"size":500000,"remaining":470000}}`,
			// the sample resets with the model: the same count, a new size
			`"context_window":{"used":30000,"size":256000,"remaining":226000}}`,
			`"context_window":{"used":31000,"size":500000,"remaining":469000}}`,
			`"usage":{"model":"grok-4.5","turn":true,"input_tokens":52000,"output_tokens":900,"cached_read_tokens":41000,"thought_tokens":300,"total_tokens":52900}}`},
			[]string{`"used":70000`, `"used":-1`, `"used":10,`, `"used":20,`, `"cost"`, `"estimated"`}},
		{"echo", []string{
			`{"type":"wire","line":6,"to":"client","echo":true}`, `{"type":"wire","line":8,"to":"client","echo":true}`,
			`"usage":{"model":"grok-4.5","turn":true,"input_tokens":14697,"output_tokens":38,"cached_read_tokens":14592,"thought_tokens":29,"total_tokens":14737,"estimated":true}}`},
			[]string{`"line":7,"to":"client","echo"`, `"line":10,"to":"client","echo"`, `"line":12,"to":"client","echo"`}},
		{"question", []string{
			`"tool_call_id":"call_ask_1","method":"x.ai/ask_user_question","id":"q1","question":{"questions":[{"id":"Which database?","prompt":"Which database?","options":[{"id":"Postgres","label":"Postgres"},{"id":"SQLite","label":"SQLite"}]},{"id":"Which extras?","prompt":"Which extras?","options":[{"id":"Auth","label":"Auth"},{"id":"Cache","label":"Cache"}],"allow_multiple":true}]}`,
			`"answer":{"result":{"outcome":"accepted","answers":{"Which database?":"Postgres","Which extras?":"Auth, Cache"}}}`,
			// the enveloped alias, unanswered: the safe default
			`"tool_call_id":"call_ask_2","method":"x.ai/ask_user_question","id":"q2"`, `"answer":{"result":{"outcome":"cancelled"}}`},
			[]string{`-32601`, `"skipped"`}},
		{"vendor-methods", []string{
			`"currentValue":"grok-code-fast"`, `"currentValue":"low"`,
			`"method":"x.ai/git/status","id":9,"error":{"code":-32601`,
			`"method":"x.ai/session/update","id":10,"error":{"code":-32601`,
			`"declined":2`, `"ignored_notifications":1`},
			[]string{`grok-unknown`}},
		{"tools", []string{
			`"tool_call_id":"call_1","payload":{"kind":"shell","status":"completed","title":"Run Command","tool":{"name":"run_terminal_command","kind":"execute","namespace":"grok_build","label":"Run Command"},"shell":{"command":"go test ./...","cwd":"/work/app","output":"ok  \tapp\t0.2s\n","exit_code":0}}`,
			`"tool":{"name":"read_file","kind":"read","namespace":"grok_build","label":"Read","read_only":true},"generic":{"acp_kind":"read"}`,
			`"tool_call_id":"call_3","payload":{"kind":"generic","status":"completed","title":"Edit main.go","generic":{"acp_kind":"edit"}}`},
			nil},
		// A real run of Grok's CLI 1.0.41 (agent stdio, its model served
		// by a local stub): no agentInfo, the mark identifies it.
		{"cli-1.0.41", []string{
			`"type":"stats","agent":"grok"`,
			// the output arrives as byte values; the exit code with the end
			`"status":"in_progress","title":"Execute ` + "`echo hello from grok`" + `","tool":{"name":"run_terminal_command","kind":"execute","namespace":"grok_build","label":"Run Command"},"shell":{"command":"echo hello from grok","cwd":"/tmp/grokcwd","output":"hello from grok\n"}}}`,
			`"shell":{"command":"echo hello from grok","cwd":"/tmp/grokcwd","output":"hello from grok\n","exit_code":0}`,
			`"shell":{"command":"ls /nonexistent-dir","cwd":"/tmp/grokcwd","output":"ls: cannot access '/nonexistent-dir': No such file or directory\n","exit_code":2}`,
			// the answer Grok accepts
			`"answer":{"result":{"outcome":"accepted","answers":{"Which color?":"Blue"}}}`,
			// the turn's counts, not the last model call's
			`"usage":{"model":"fake-model","turn":true,"input_tokens":2451,"output_tokens":60,"cached_read_tokens":2000,"cached_write_tokens":0,"thought_tokens":10,"total_tokens":2511}}`,
			`"context_window":{"used":2262,"size":128000,"remaining":125738}}`,
			// Grok's own config options and set_config_option pass as sent
			`"ignored_notifications":32`},
			[]string{`"method":"session/set_model"`, `"estimated"`, `"type":"config"`, `"rewritten"`}},
		// Grok CLI 1.0.41 again: a subagent in the foreground and one in
		// the background.
		{"cli-1.0.41-subagents", []string{
			// the foreground subagent: its result, then its notifications
			`"tool_call_id":"call_10","payload":{"kind":"subagent_task","status":"completed","title":"Count files","tool":{"name":"spawn_subagent","kind":"task","namespace":"grok_build","label":"Subagent"},"subagent_task":{"description":"Count files","prompt":"Count the files in the workspace and report.","subagent_type":"general-purpose","status":"completed","agent_id":"01a24945-5113-7361-a161-7793ec98d7d1","model":"fake","child_session_id":"01a24945-5113-7361-a161-7793ec98d7d1","duration_ms":236,"total_tokens":1242,"tool_use_count":0,"result_text":"There are 0 files."}}}`,
			// the background one: its id from the spawn's text, its end
			// from subagent_finished
			`"tool_call_id":"call_15","payload":{"kind":"subagent_task","status":"completed","title":"Count files","tool":{"name":"spawn_subagent","kind":"task","namespace":"grok_build","label":"Subagent"},"subagent_task":{"description":"Count files","prompt":"Count the files in the workspace and report.","subagent_type":"general-purpose","status":"completed","agent_id":"01a24945-52ee-7993-8ea0-faa989f6d1a9","model":"fake","child_session_id":"01a24945-52ee-7993-8ea0-faa989f6d1a9","duration_ms":451,"total_tokens":1251,"tool_use_count":0,"result_text":"There are 0 files.","is_async":true}}}`,
			// the foreground spawn's card claims its child at
			// subagent_spawned (the only open spawn), running
			`"tool_call_id":"call_10","payload":{"kind":"subagent_task","title":"Count files","tool":{"name":"spawn_subagent","kind":"task","namespace":"grok_build","label":"Subagent"},"subagent_task":{"description":"Count files","prompt":"Count the files in the workspace and report.","subagent_type":"general-purpose","status":"running","agent_id":"01a24945-5113-7361-a161-7793ec98d7d1","model":"fake","child_session_id":"01a24945-5113-7361-a161-7793ec98d7d1"}}}`,
			// each child's text, nested under its card as it comes
			`"session_id":"01a24945-5113-7361-a161-7793ec98d7d1","message":{"role":"assistant","text":"There are 0 files.","parent_tool_call_id":"call_10"}}`,
			`"session_id":"01a24945-52ee-7993-8ea0-faa989f6d1a9","message":{"role":"assistant","text":"There are 0 files.","parent_tool_call_id":"call_15"}}`,
			// the turn its background subagent outlives: counts marked incomplete
			`"input_tokens":2431,"output_tokens":60,"cached_read_tokens":2000,"cached_write_tokens":0,"thought_tokens":10,"total_tokens":2491,"estimated":true}`},
			[]string{`"kind":"generic","title":"spawn_subagent"`, `"result_text":"Subagent started`, `"early"`}},
		// A third run: each subagent runs a command in its own session.
		{"cli-1.0.41-subagent-tools", []string{
			// the foreground child's command and text nest under the card
			// from the first: the card claimed the child at spawn
			`"session_id":"01a249bd-1bca-77e3-a278-78107305e90e","tool_call_id":"call_2","payload":{"kind":"shell","title":"run_terminal_command","parent_tool_call_id":"call_0"`,
			`"session_id":"01a249bd-1bca-77e3-a278-78107305e90e","tool_call_id":"call_2","payload":{"kind":"shell","status":"completed","title":"Execute ` + "`ls | wc -l`" + `","parent_tool_call_id":"call_0"`,
			`"session_id":"01a249bd-1bca-77e3-a278-78107305e90e","message":{"role":"assistant","text":"Finished after the tool.","parent_tool_call_id":"call_0"}}`,
			// the background child's, linked before it spoke
			`"session_id":"01a249bd-1cb5-7ad0-9bcc-a1b93f34e7f9","tool_call_id":"call_11","payload":{"kind":"shell","title":"run_terminal_command","parent_tool_call_id":"call_6"`,
			`"child_session_id":"01a249bd-1cb5-7ad0-9bcc-a1b93f34e7f9","duration_ms":186,"total_tokens":1242,"tool_use_count":1,"result_text":"Finished after the tool.","is_async":true}`},
			// nothing was held or nested late
			[]string{`"early"`}},
		// A fifth: a subagent resumed (resume_from) is a new subagent,
		// with an id and a child session of its own.
		{"cli-1.0.41-subagent-resume", []string{
			`"tool_call_id":"call_0","payload":{"kind":"subagent_task","status":"completed","title":"Count files"`,
			`"agent_id":"01a249c9-79e7-7882-bdba-daced5792afe","model":"fake","child_session_id":"01a249c9-79e7-7882-bdba-daced5792afe"`,
			`"tool_call_id":"call_6","payload":{"kind":"subagent_task","status":"completed","title":"Count again"`,
			`"agent_id":"01a249c9-7b0a-7fe1-8f74-dc5f15f1322e","model":"fake","child_session_id":"01a249c9-7b0a-7fe1-8f74-dc5f15f1322e","duration_ms":104,"total_tokens":1238,"tool_use_count":1,"result_text":"Done."}`,
			`"session_id":"01a249c9-7b0a-7fe1-8f74-dc5f15f1322e","message":{"role":"assistant","text":"Done.","parent_tool_call_id":"call_6"}}`},
			nil},
		// A sixth: two subagents spawned side by side, each claimed by
		// its start for the open spawn of its description.
		{"cli-1.0.41-subagents-parallel", []string{
			`"tool_call_id":"call_0_0","payload":{"kind":"subagent_task","title":"Count one","tool":{"name":"spawn_subagent","kind":"task","namespace":"grok_build","label":"Subagent"},"subagent_task":{"description":"Count one","prompt":"Count the files in the workspace and report.","subagent_type":"general-purpose","status":"running","agent_id":"01a249d5-a109-7771-986e-a1b0f6f1cec8","model":"fake","child_session_id":"01a249d5-a109-7771-986e-a1b0f6f1cec8"}}}`,
			`"tool_call_id":"call_0_1","payload":{"kind":"subagent_task","title":"Count two","tool":{"name":"spawn_subagent","kind":"task","namespace":"grok_build","label":"Subagent"},"subagent_task":{"description":"Count two","prompt":"Count the files in the workspace and report.","subagent_type":"general-purpose","status":"running","agent_id":"01a249d5-a109-7771-986e-a1c5a9362d66","model":"fake","child_session_id":"01a249d5-a109-7771-986e-a1c5a9362d66"}}}`,
			`"session_id":"01a249d5-a109-7771-986e-a1b0f6f1cec8","tool_call_id":"call_3","payload":{"kind":"shell","title":"run_terminal_command","parent_tool_call_id":"call_0_0"`,
			`"session_id":"01a249d5-a109-7771-986e-a1c5a9362d66","tool_call_id":"call_4","payload":{"kind":"shell","title":"run_terminal_command","parent_tool_call_id":"call_0_1"`},
			// nothing waited: each child nested from its start
			[]string{`"early"`}},
		// A fourth: a spawn Grok refuses (an unknown subagent type).
		{"cli-1.0.41-subagent-failed", []string{
			`"tool_call_id":"call_0","payload":{"kind":"subagent_task","status":"failed","title":"Bad agent","tool":{"name":"spawn_subagent","kind":"task","namespace":"grok_build","label":"Subagent"},"subagent_task":{"description":"Bad agent","prompt":"Do nothing.","subagent_type":"no-such-agent","status":"failed","error":"Unknown subagent type: no-such-agent. Available types: explore, general-purpose, plan"}}}`},
			[]string{`"child_session_id"`}},
		{"other-agent", []string{`"declined":1`, `"ignored_notifications":1`},
			[]string{`"agent":"grok"`, `"type":"wire"`, `"config"`, `"context_window"`, `"usage"`, `"question"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", tt.name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			out := string(final) + string(events)
			testwire.Fragments(t, out, tt.want, tt.notWant)
		})
	}
}
