package correlate_test

import (
	"fmt"

	"github.com/acpdialect/acpdialect/correlate"
)

// Two halves of one tool call arrive in either order: the first is Put,
// the second Takes it. What is never matched is swept with its session.
func ExampleStore() {
	s := correlate.New[string](correlate.Limits{PerSession: 2, Total: 4})
	k := correlate.Key{Session: "s1", ID: "tool-1"}
	s.Put(k, "metadata that came first")
	if v, ok := s.Take(k); ok {
		fmt.Println("merged:", v)
	}
	s.Put(correlate.Key{Session: "s1", ID: "tool-2"}, "never matched")
	fmt.Println("swept:", s.SweepSession("s1"), "left:", s.Len())
	// Output:
	// merged: metadata that came first
	// swept: 1 left: 0
}
