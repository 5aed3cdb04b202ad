package dialects_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	_ "github.com/acpdialect/acpdialect/internal/testwire"
)

// Every built-in must be reachable by its ID and have a distinct one, or a
// client's --agent and identification would silently pick another.
func TestRegistryHasEveryBuiltin(t *testing.T) {
	all := dialects.All()
	reg := dialects.Registry()
	if got := len(reg.Dialects()); got != len(all) {
		t.Fatalf("registry has %d dialects, All has %d (duplicate IDs?)", got, len(all))
	}
	for _, d := range all {
		if d.ID == "" || reg.ByID(d.ID) == nil {
			t.Errorf("dialect %q not found by its ID", d.ID)
		}
		if d.Match == nil {
			t.Errorf("dialect %q cannot be identified from initialize", d.ID)
		}
	}
	for _, id := range []string{"cursor", "claude"} {
		if reg.ByID(id) == nil {
			t.Errorf("%s is not built in", id)
		}
	}
}

// The name decides before the title: an agent named as one dialect's and
// titled as another's is the first's, whatever the registration order;
// the title decides only when no dialect knows the name.
func TestIdentifyNameBeforeTitle(t *testing.T) {
	reg := dialects.Registry()
	for _, tc := range []struct{ name, title, want string }{
		{"gemini-cli", "Auggie Agent", "gemini"},
		{"devin", "Gemini", "devin"},
		{"OpenCode", "Cursor Agent", "opencode"},
		{"copilot", "gemini", "copilot"},
		{"codex-acp", "Claude Code", "codex"},
		{"", "Gemini CLI", "gemini"},
		{"some-proxy", "Cursor Agent", "cursor"},
		{"some-proxy", "nothing known", ""},
	} {
		got := ""
		if d := reg.ByAgent(tc.name, tc.title); d != nil {
			got = d.ID
		}
		if got != tc.want {
			t.Errorf("ByAgent(%q, %q) = %q, want %q", tc.name, tc.title, got, tc.want)
		}
	}
}
