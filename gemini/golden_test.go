package gemini_test

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
		{"quota", []string{
			`"method":"session/prompt","id":2,"usage":{"model":"gemini-2.5-pro","turn":true,"input_tokens":10345,"output_tokens":212}}`,
			`"method":"session/prompt","id":3,"usage":{"turn":true,"input_tokens":25010,"output_tokens":640}}`,
			`"method":"session/prompt","id":4,"usage":{"turn":true,"input_tokens":0,"output_tokens":0}}`},
			[]string{`"id":5,"usage"`, `"model":"gemini-2.5-flash"`, `"estimated"`}},
		{"other-agent", nil, []string{`"agent":"gemini"`, `"usage"`}},
		// 0.61.0 live without credentials: identified by its own
		// initialize; failed requests are no turn and no usage.
		{"live-0.61.0-noauth", []string{`"type":"session","agent":"gemini"`},
			[]string{`"usage"`, `"tool_call"`}},
		// 0.61.0 live against a stub model: a call that asked for
		// permission has no tool_call, yet gets its card; a turn's calls
		// under the "auto" alias name no model of their own.
		{"live-0.61.0-stub", []string{
			`"tool_call_id":"write_file__write_file_1796526665310_0","payload":{"kind":"generic","status":"completed","title":"Writing to note.txt","generic":{"acp_kind":"edit"}}`,
			`"tool_call_id":"invoke_agent__invoke_agent_1796526671680_0","payload":{"kind":"generic","status":"failed"`,
			`"id":3,"usage":{"model":"gemini-3.8-flash","turn":true,"input_tokens":2007,"output_tokens":47}}`},
			[]string{`"model":"auto"`}},
		{"live-0.61.0-stub-permissions", []string{
			`"payload":{"kind":"generic","status":"completed","title":"touch /tmp/gemlive/work/t.txt && ls","generic":{"acp_kind":"execute"}}`,
			`"tool_call_id":"read_file__read_file_1796526747689_0","payload":{"kind":"generic","status":"failed"`},
			[]string{`"title":"Writing to reject.txt"`}},
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
