package codex_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/dialects"
)

func TestReportsPromptUsage(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    bool
	}{
		{"2.6.0", true},
		{"v2.6.0", true},
		{"2.6.0-beta.1", true},
		{"2.2.1", true},
		{"2.3.0", true},
		{"3.0.0", true},
		// The releases that report the last model request: 1.x, and 2.x
		// before 2.2.1 (2.2.0 was never published; a 2.2.1 prerelease
		// may predate the change).
		{"2.2.1-beta.1", false},
		{"2.1.1", false},
		{"2.0.0", false},
		{"1.13.1", false},
		{"1.6.2", false},
		{"0.0.0", false},
		// Unknown: the base.
		{"", false},
		{"garbage", false},
		{"2.x", false},
		{"codex-acp 2.6.0", false},
	} {
		if got := codex.ReportsPromptUsage(tc.version); got != tc.want {
			t.Errorf("ReportsPromptUsage(%q) = %v; want %v", tc.version, got, tc.want)
		}
	}
}

// TestTurnUsageByRelease: the session/prompt result's turn summary is
// estimated unless the agent reports a release that sends the whole
// prompt's usage, whether the connection identified the agent or was
// told it is Codex (--agent codex).
func TestTurnUsageByRelease(t *testing.T) {
	const (
		estimated = `"total_tokens":120,"estimated":true}}`
		exact     = `"total_tokens":120}}`
	)
	initialize := func(info string) []string {
		return []string{
			`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
			`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":` + info + `}}`,
		}
	}
	tests := []struct {
		name  string
		agent string   // Options.Agent
		init  []string // the initialize exchange, if any
		want  string
	}{
		{"2.6.0", "", initialize(`{"name":"codex-acp","version":"2.6.0"}`), exact},
		{"2.6.0 as npm names it", "", initialize(`{"name":"@agentclientprotocol/codex-acp","title":"Codex","version":"2.6.0"}`), exact},
		{"2.2.1, the first", "", initialize(`{"name":"codex-acp","version":"2.2.1"}`), exact},
		{"2.1.1", "", initialize(`{"name":"codex-acp","version":"2.1.1"}`), estimated},
		{"2.0.0", "", initialize(`{"name":"codex-acp","version":"2.0.0"}`), estimated},
		{"1.6.2", "", initialize(`{"name":"codex-acp","version":"1.6.2"}`), estimated},
		{"no version", "", initialize(`{"name":"codex-acp","title":"Codex"}`), estimated},
		{"a version that is none", "", initialize(`{"name":"codex-acp","version":"dev"}`), estimated},
		{"--agent codex, then 2.6.0", codex.ID, initialize(`{"name":"codex-acp","version":"2.6.0"}`), exact},
		{"--agent codex, then 1.6.2", codex.ID, initialize(`{"name":"codex-acp","version":"1.6.2"}`), estimated},
		{"--agent codex, no initialize", codex.ID, nil, estimated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dialects.Registry().NewConn(acpdialect.Options{Agent: tc.agent})
			frames := append(tc.init,
				`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
				`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn","usage":{"totalTokens":120,"inputTokens":80,"outputTokens":40},"_meta":{"quota":{"token_count":{"totalTokens":120},"model_usage":[{"model":"gpt-5.5[high]","token_count":{"totalTokens":120}}]}}}}`,
			)
			want := `{"type":"usage","agent":"codex","session_id":"s1","method":"session/prompt","id":1,"usage":{"model":"gpt-5.5","effort":"high","turn":true,"input_tokens":80,"output_tokens":40,` + tc.want
			has(t, feed(t, c, frames...), []string{want}, nil)
		})
	}
}

// TestVariant: the dialect has one variant, for the releases that report
// the whole prompt's usage, with its ID and no ForVersion of its own.
func TestVariant(t *testing.T) {
	d := codex.Dialect()
	v := d.ForVersion("2.6.0")
	switch {
	case v == nil || v == d:
		t.Fatal("no variant for 2.6.0")
	case v.ID != d.ID:
		t.Errorf("the variant's ID is %q", v.ID)
	case v.ForVersion != nil:
		t.Error("the variant has a ForVersion of its own, which the Conn ignores")
	case d.ForVersion("2.7.0") != v:
		t.Error("a second variant: build it once, for every connection")
	case d.ForVersion("1.6.2") != nil:
		t.Error("a variant for 1.6.2")
	}
}
