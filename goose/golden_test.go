package goose_test

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
		{"recipe", []string{
			`{"type":"reply","agent":"goose","method":"_goose/unstable/session/recipe/request-params","id":"r1","result":{"action":"cancel"}}`,
			`"id":"r2","result":{"action":"cancel"}}`,
			`"tool_call_id":"tool-1","payload":{"kind":"generic","status":"completed","title":"developer__shell","chain":{"id":"chain-1","summary":"Explored the project layout"}`,
			`"tool_call_id":"tool-2","payload":{"kind":"generic","status":"completed","title":"developer__text_editor","chain":{"id":"chain-1","summary":"Explored the project layout"}`,
			`"replies":2,"declined":0,"ignored_notifications":1`},
			[]string{`-32601`, `"action":"submit"`}},
		// Current Goose (docs/goose.md section 3): the summary on the
		// chain's first card only, no chain id; the replayed one of
		// session/load too.
		{"chain-summary", []string{
			`"tool_call_id":"req_1","payload":{"kind":"generic","status":"completed","title":"developer: shell · ls src","chain":{"summary":"applied dark mode","count":4}`,
			`"tool_call_id":"req_2","payload":{"kind":"generic","status":"completed","title":"reading the stylesheet","generic":{}}`,
			`"tool_call_id":"req_4","payload":{"kind":"generic","status":"completed","title":"developer: shell · npm test","generic":{}}`,
			`"type":"tool_call","agent":"goose","session_id":"20260820_7","tool_call_id":"req_first","payload":{"kind":"generic","status":"pending","title":"applied dark mode polish","chain":{"summary":"applied dark mode polish","count":3}`,
			`"tool_call_id":"req_second","payload":{"kind":"generic","status":"completed","title":"developer: edit","generic":{}}`},
			[]string{`"chain":{"id"`, `"working"`}},
		{"other-agent", []string{`"error":{"code":-32601`, `"declined":1`},
			[]string{`"agent":"goose"`, `"chain"`, `"action":"cancel"`}},
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
