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
