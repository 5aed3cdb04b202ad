package dialects_test

import (
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
)

// A client that supports every built-in dialect builds its registry from
// All; a Conn then identifies the agent from its initialize response.
func ExampleRegistry() {
	reg := dialects.Registry()
	for _, d := range reg.Dialects() {
		fmt.Println(d.ID)
	}
	c := reg.NewConn(acpdialect.Options{Agent: "cursor"})
	fmt.Println(c.Agent())
	// Output:
	// cursor
	// claude
	// codex
	// grok
	// opencode
	// auggie
	// gemini
	// goose
	// devin
	// copilot
	// kimi
	// cursor
}
