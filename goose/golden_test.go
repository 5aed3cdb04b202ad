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
