package claude_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/dialecttest"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// TestConformance runs the public kit on the Claude dialect, its
// transcripts (the recorded captures and the hand-written ones) and their
// goldens.
func TestConformance(t *testing.T) {
	dialecttest.Run(t, claude.Dialect(), dialecttest.Options{
		Agents:     claude.Names,
		NearMisses: nearMisses,
		Dir:        "testdata",
		Update:     *testwire.Update,
		Registry:   dialects.Registry(),
	})
}

// nearMisses are names that mention Claude but are not claude-agent-acp's:
// Match takes exact names only.
var nearMisses = []string{
	"precursor-claude",
	"claude-code (cursor-compatible)",
	"claude",
	"claude-agent-acp-fork",
	"@agentclientprotocol/claude-agent-acp-next",
	"my-claude-code",
	"Claude Agent (unofficial)",
}
