package devin_test

import (
	"path/filepath"
	"strings"
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
		// A public client's capture of devin acp 3000.11.3: the child
		// tool call Devin leaves open ends with its subagent.
		{"t2a-subagent", []string{
			`"tool_call_id":"call_1a00#5f94","payload":{"kind":"generic","title":"Read file","parent_tool_call_id":"1342dfc1"`,
			`{"type":"tool_call_update","agent":"devin","session_id":"devin-s1","tool_call_id":"call_1a00#5f94","payload":{"kind":"generic","status":"completed","title":"Read file","parent_tool_call_id":"1342dfc1"`},
			[]string{`"tool_call_id":"call_c64d#c348","payload":{"kind":"generic","status"`}},
		{"nested", []string{
			`"tool_call_id":"toolu_bdrk_01Ha8Uac","payload":{"kind":"generic","status":"in_progress","title":"Wrote /tmp/x/mathutils.py","parent_tool_call_id":"a0ac9364","tool":{"name":"write"}`,
			// Devin never ends it: its subagent's completion does
			`{"type":"tool_call_update","agent":"devin","session_id":"devin-s1","tool_call_id":"toolu_bdrk_01Ha8Uac","payload":{"kind":"generic","status":"completed","title":"Wrote /tmp/x/mathutils.py","parent_tool_call_id":"a0ac9364"`,
			`"tool_call_id":"exec:0","payload":{"kind":"generic","status":"completed","title":"Ran pytest","parent_tool_call_id":"a0ac9364","tool":{"name":"exec"}`,
			`"tool_call_id":"a0ac9364","payload":{"kind":"subagent_task","status":"completed","title":"mathutils","subagent_task":{"description":"mathutils"`,
			`"result_text":"Created mathutils.py and test_mathutils.py; 3 tests pass."`,
			`"usage":{"used":41000,"size":200000,"input_tokens":40000,"output_tokens":900,"cached_read_tokens":35000,"cached_write_tokens":1200,"total_tokens":40900}}`,
			`"usage":{"used":12000,"size":200000,"origin":"subagent","input_tokens":11500,"output_tokens":300,"total_tokens":11800}}`,
			`"tool_call_id":"b7","payload":{"kind":"subagent_task","status":"failed"`,
			// A failed subagent's text is its error, not its result.
			`"status":"failed","agent_id":"b7","error":"npm not found"`},
			[]string{`"parent_tool_call_id":"root"`, `"result_text":"npm not found"`, `"tool_call_id":"functions.run_subagent:1","payload":{"kind":"generic","status":"completed","title":"Ran explore subagent","parent_tool_call_id"`}},
		{"write", []string{
			`"tool_call_id":"functions.write:1","payload":{"kind":"generic","status":"completed","title":"Wrote ./audit.py","tool":{"name":"write"}`,
			`"tools":{"stored":1,`, `"replies":0,"declined":0`},
			[]string{`-32601`, `"parent_tool_call_id"`}},
		{"other-agent", nil, []string{`"agent":"devin"`, `"usage"`, `"parent_tool_call_id"`, `"tool":`, `subagent_task`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", tt.name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			out := string(final) + string(events)
			testwire.Fragments(t, out, tt.want, tt.notWant)
			if tt.name == "write" {
				if n := strings.Count(string(events), `"tool_call_id":"functions.write:1"`); n != 3 {
					t.Errorf("%d events for the streamed write, want 3 (created, retitled, completed)", n)
				}
				if n := strings.Count(string(final), `"type":"tool_call"`); n != 1 {
					t.Errorf("%d cards, want 1", n)
				}
			}
		})
	}
}
