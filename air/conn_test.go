package air_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/google/go-cmp/cmp"
)

// airFrames are a client that declares AIR's typed failures and an agent
// that sends them: alone in a session_info_update, beside a title in one,
// and on the session/prompt response beside the turn's usage. outbound
// marks the client's frames.
var airFrames = []struct {
	outbound bool
	frame    string
}{
	{true, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["sessionFailure"]}}}}}}`},
	{false, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{}}}`},
	{true, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}`},
	{false, `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`},
	{true, `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`},
	{false, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"session_info_update","_meta":{"jetbrains":{"air":{"version":1,"sessionFailure":{"id":"t1:error","revision":1,"category":"limit","severity":"warning","title":"Retrying","actions":[]}}}}}}}`},
	{false, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"session_info_update","title":"Named","_meta":{"jetbrains":{"air":{"version":1,"sessionFailure":{"id":"n1","revision":1,"category":"unknown","severity":"warning","title":"Heads up","actions":[]}}}}}}}`},
	{false, `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn","usage":{"inputTokens":5,"outputTokens":1,"totalTokens":6},"_meta":{"jetbrains":{"air":{"version":1,"sessionFailure":{"id":"t1:error","revision":2,"category":"limit","severity":"error","title":"Rate limited","actions":["retry"]}}}}}}`},
}

// Each connection gives what its dialect reads of the frames: Claude and
// Codex a provider_error for each failure (Codex, which reads the
// session's title, a session_info too; Claude reads none), in wire order,
// the turn summary first on the response; Cursor and an agent no dialect
// identifies nothing of AIR.
func TestConnReadsFailuresOnClaudeAndCodexOnly(t *testing.T) {
	warn := `{"severity":"warning","code":"limit_reached","title":"Retrying","id":"t1:error","revision":1}`
	notice := `{"severity":"warning","code":"notice","title":"Heads up","id":"n1","revision":1}`
	final := `{"severity":"error","code":"rate_limited","title":"Rate limited","action":"retry","id":"t1:error","revision":2}`
	tests := []struct {
		agent string
		want  []string // the session-level events, type and object
	}{
		{"claude", []string{"capabilities", "provider_error " + warn, "provider_error " + notice, "usage", "provider_error " + final}},
		{"codex", []string{"provider_error " + warn, `session_info {"title":"Named"}`, "provider_error " + notice, "usage", "provider_error " + final}},
		{"cursor", nil},
		{"unknown", nil},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			c := dialects.Registry().NewConn(acpdialect.Options{Agent: tt.agent})
			var got []string
			for _, f := range airFrames {
				read := c.Inbound
				if f.outbound {
					read = c.Outbound
				}
				r, err := read([]byte(f.frame))
				if err != nil {
					t.Fatalf("%s: %v", f.frame, err)
				}
				for _, ev := range r.Events {
					got = append(got, describe(t, ev))
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
		})
	}
}

// describe is an event's type, and for a provider_error or session_info
// its object's JSON.
func describe(t *testing.T, ev acpdialect.Event) string {
	t.Helper()
	if ev.Type != acpdialect.EventProviderError && ev.Type != acpdialect.EventSessionInfo {
		return ev.Type
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if ev.SessionID != "s1" {
		t.Errorf("%s names session %q", b, ev.SessionID)
	}
	return ev.Type + " " + strings.TrimSpace(string(m[ev.Type]))
}
