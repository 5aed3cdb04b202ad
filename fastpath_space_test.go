package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
)

// TestSortedUpdateSpaceBeforeUpdate: a sorted-key frame with space before
// its update (valid JSON, though the sorted writers write none) is read
// whole. The sorted fast path took the update from the space on, so its
// checked walk ended short of the update, the rest of the frame did not
// check, and the tool call was dropped without an error.
func TestSortedUpdateSpaceBeforeUpdate(t *testing.T) {
	for _, space := range []string{"", " ", "          ", "\n\t "} {
		c := dialects.Registry().NewConn(acpdialect.Options{Agent: "claude"})
		f := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + space +
			`{"_meta":{"claudeCode":{"toolName":"Bash"}},"sessionUpdate":"tool_call","toolCallId":"toolu_1","kind":"execute","title":"ls","status":"pending","rawInput":{"command":"ls"}}}}`
		res, err := c.Inbound([]byte(f))
		if err != nil || len(res.Events) != 1 || res.Events[0].ToolCallID != "toolu_1" {
			t.Errorf("space %q: %d events, %v; want the tool call's", space, len(res.Events), err)
		}
	}
}
