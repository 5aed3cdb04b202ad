package dialecttest

import "fmt"

// checkTable checks the shape of the dialect's Updates: a kind listed
// again adds only its Event (acpdialect.Dialect.Updates), so a later entry
// that sets anything the Conn reads of the first alone would be ignored
// without a word. A tool call kind is read by ToolCall, once.
func checkTable(k *kit) []string {
	var fails []string
	first := map[string]int{}
	for i, u := range k.d.Updates {
		j, again := first[u.Kind]
		if !again {
			first[u.Kind] = i
			continue
		}
		at := fmt.Sprintf("Updates[%d] (%s, listed first at %d)", i, u.Kind, j)
		if u.Kind == "tool_call" || u.Kind == "tool_call_update" {
			fails = append(fails, at+": a tool call kind is listed once: ToolCall reads it")
			continue
		}
		for _, f := range []struct {
			name string
			set  bool
		}{
			{"Handle", u.Handle != nil}, {"HandleAll", u.HandleAll != nil}, {"Waits", u.Waits},
			{"Mark", u.Mark != nil}, {"Marked", u.Marked != nil},
		} {
			if f.set {
				fails = append(fails, at+": sets "+f.name+", which only a kind's first entry may: a later one adds only its Event")
			}
		}
		if u.Standard != k.d.Updates[j].Standard {
			fails = append(fails, at+": Standard differs from the first entry's, which decides it")
		}
		if u.Event == nil {
			fails = append(fails, at+": adds nothing (no Event)")
		}
	}
	return fails
}
