package kimi_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/kimi"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"Kimi Code CLI", "", true},
		{"kimi code cli", "", true},
		{"Kimi CLI", "", true}, // the name before the rename
		{"", " kimi-cli ", true},
		{"kimi", "", true},
		{"kimi-cli-proxy", "", false},
		{"Kimi Chat", "", false},
		{"kimiko", "", false},
		{"Kimi Code CLI Pro", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := kimi.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

// The session is identified as Kimi's and gets standard behaviour. The
// model reused its tool call id Shell:0 in the second turn; Kimi's
// turn-prefixed ids keep the two calls apart: two cards, the first still
// failed.
func TestGoldenSemantics(t *testing.T) {
	final, events, err := replay.File(replay.Builtins(), filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := string(final) + string(events)
	for _, w := range []string{
		`"agent":"kimi","session_id":"k1","tool_call_id":"6a1f0c2e-8d4b-4e7a-9c3d-1b2a3c4d5e6f/Shell:0","payload":{"kind":"generic","status":"failed","title":"Shell: ls"`,
		`"agent":"kimi","session_id":"k1","tool_call_id":"0b9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f/Shell:0","payload":{"kind":"generic","status":"completed","title":"Shell: ls"`,
		`"tools":{"stored":2,`,
		`"replies":0,"declined":0`,
	} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %s", w)
		}
	}
	for _, w := range []string{`"tool_call_id":"Shell:0"`, `"type":"reply"`, `"usage"`} {
		if strings.Contains(out, w) {
			t.Errorf("unexpected %s", w)
		}
	}
}
