package auggie_test

import (
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestGoldenSemantics pins what each transcript is for, independently of
// the goldens' bytes: a golden regenerated with -update by mistake that
// loses one of these fragments, or gains a forbidden one, fails here.
func TestGoldenSemantics(t *testing.T) {
	tests := []struct {
		name    string
		want    []string
		notWant []string
	}{
		{"subagent", []string{
			`"tool_call_id":"tooluse_sub1","payload":{"kind":"subagent_task","status":"completed","title":"sub-agent-explore: Find where the config file is loaded and list the call sites","subagent_task":{"description":"Find where the config file is loaded and list the call sites","subagent_type":"explore","result_text":"The config is loaded in internal/config/load.go (Load) and read by cmd/app/main.go."}}`,
			// a read's output is not a result text; a title without a type is no subagent
			`"tool_call_id":"tooluse_view2","payload":{"kind":"generic"`,
			`"tool_call_id":"tooluse_odd3","payload":{"kind":"generic"`,
			`"tool_call_id":"tooluse_sub4","payload":{"kind":"subagent_task","status":"failed","title":"sub-agent-plan: Draft the fix","subagent_task":{"description":"Draft the fix","subagent_type":"plan"}}`,
			// a failed subagent's output is its error
			`"tool_call_id":"tooluse_sub5","payload":{"kind":"subagent_task","status":"failed","title":"sub-agent-test: Run the config tests","subagent_task":{"description":"Run the config tests","subagent_type":"test","error":"go test ./internal/config failed: load_test.go:12: config.yaml not found"}}`},
			[]string{`"result_text":"package config"`, `"result_text":"not a subagent"`, `"result_text":""`, `"result_text":"go test`, `"error":""`}},
		// 0.36.0's shapes: the generic sub-agent tool live (no type),
		// and subagents replayed by session/load (a bare tool name, with
		// rawInput); a tool whose name only starts alike stays generic.
		{"subagent-0.36.0", []string{
			`"tool_call_id":"tooluse_gen1","payload":{"kind":"subagent_task","status":"completed","title":"sub-agent: Find where the config file is loaded, list every call site of Load, and say whic...","subagent_task":{"description":"Find where the config file is loaded, list every call site of Load, and say whic...","result_text":"Load is in internal/config/load.go; cmd/app/main.go calls it."}}`,
			`"tool_call_id":"tooluse_gen2","payload":{"kind":"subagent_task","status":"completed","title":"sub-agent: ","subagent_task":{"result_text":`,
			`"tool_call_id":"tooluse_load1","payload":{"kind":"subagent_task","status":"completed","title":"sub-agent-explore","subagent_task":{"description":"Find where the config file is loaded, list every call site of Load, and say which of them read the env","prompt":"Find where the config file is loaded, list every call site of Load, and say which of them read the env","subagent_type":"explore","name":"config-finder","result_text":`,
			`"tool_call_id":"tooluse_load2","payload":{"kind":"subagent_task","status":"failed","title":"sub-agent","subagent_task":{"description":"Run the config tests","prompt":"Run the config tests","name":"test-runner","error":"Sub-agent test-runner failed:\nthe model is unavailable"}}`,
			`"tool_call_id":"tooluse_load3","payload":{"kind":"subagent_task","status":"completed","title":"sub-agent","subagent_task":{"name":"config-finder","result_text":`,
			`"tool_call_id":"tooluse_load4","payload":{"kind":"generic","status":"completed","title":"sub-agents-list"`},
			// rawInput's name is the run's name, not a type
			[]string{`"subagent_type":"config-finder"`, `"subagent_type":"test-runner"`, `"prompt":"not a subagent"`,
				`"tool_call_id":"tooluse_load4","payload":{"kind":"subagent_task"`}},
		{"other-agent", []string{`"kind":"generic","status":"completed","title":"sub-agent-explore: Find the config"`},
			[]string{`"agent":"auggie"`, `subagent_task`, `found it`}},
		// augment/session/history goes client -> agent: nothing to
		// decline, no reply of the Conn's own.
		{"live-0.36.0-unauthenticated", []string{`"agent":"auggie"`, `"declined":0`},
			[]string{`"type":"reply"`, `Method not found`}},
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
