package claude_test

import (
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// TestNoticeChunk pins what Claude Code's notices sent as text to a client
// without session.notices become (claude-agent-acp 0.101.0; the first is
// testdata/live-0.101.0-stub-automode.jsonl's): a provider_error of code
// notice naming the chunk to hide. Other chunks are not notices.
func TestNoticeChunk(t *testing.T) {
	chunk := func(text, meta string) string {
		return `{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":` + text + `},"_meta":{"claudeCode":` + meta + `}}`
	}
	const warning = `We're changing auto mode to no longer charge for classifier requests in Claude Code. However, this session isn't eligible.`
	long := strings.Repeat("x", 257)
	tests := []struct {
		name   string
		update string
		want   *acpdialect.ProviderError
	}{
		{"a warning: its label off, its one line the title", chunk(`"**Warning:** `+warning+`"`, `{"kind":"informational","level":"warning"}`),
			&acpdialect.ProviderError{Severity: "warning", Code: "notice", Title: warning, ReplacesMessageID: "m1", ReplacesText: "**Warning:** " + warning}},
		{"a short warning is the title", chunk(`"**Warning:** Disk almost full"`, `{"kind":"informational","level":"warning"}`),
			&acpdialect.ProviderError{Severity: "warning", Code: "notice", Title: "Disk almost full", ReplacesMessageID: "m1", ReplacesText: "**Warning:** Disk almost full"}},
		{"a notice: the first line is the title, the rest the message", chunk(`"**Notice:** Hook blocked the turn\nThe Stop hook said no."`, `{"kind":"informational","level":"notice"}`),
			&acpdialect.ProviderError{Severity: "info", Code: "notice", Title: "Hook blocked the turn", Message: "The Stop hook said no.", ReplacesMessageID: "m1",
				ReplacesText: "**Notice:** Hook blocked the turn\nThe Stop hook said no."}},
		{"an info line, plain", chunk(`"Compacted"`, `{"kind":"informational","level":"info"}`),
			&acpdialect.ProviderError{Severity: "info", Code: "notice", Title: "Compacted", ReplacesMessageID: "m1", ReplacesText: "Compacted"}},
		{"a first line too long: the fallback title", chunk(`"**Warning:** `+long+`"`, `{"kind":"informational","level":"warning"}`),
			&acpdialect.ProviderError{Severity: "warning", Code: "notice", Title: "Claude reported a warning", Message: long, ReplacesMessageID: "m1", ReplacesText: "**Warning:** " + long}},
		{"another kind is no notice", chunk(`"hi"`, `{"kind":"other"}`), nil},
		{"a subagent's notice is its message", chunk(`"hi"`, `{"kind":"informational","parentToolUseId":"toolu_1"}`), nil},
		{"no text", `{"sessionUpdate":"agent_message_chunk","content":{"type":"image"},"_meta":{"claudeCode":{"kind":"informational","level":"warning"}}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := claude.ChunkEvent(gjson.Parse(tt.update))
			var got *acpdialect.ProviderError
			if ev != nil {
				got = ev.ProviderError()
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Error(d)
			}
		})
	}
	// The text to hide is the chunk's last 1 KiB.
	big := strings.Repeat("é", 1000)
	ev := claude.ChunkEvent(gjson.Parse(chunk(`"`+big+`"`, `{"kind":"informational","level":"info"}`)))
	if p := ev.ProviderError(); len(p.ReplacesText) > 1024 || !strings.HasSuffix(big, p.ReplacesText) || len(p.Title) > 1024 {
		t.Errorf("replaces %d bytes, title %d", len(p.ReplacesText), len(p.Title))
	}
}
