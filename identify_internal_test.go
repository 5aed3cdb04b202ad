package acpdialect

import (
	"testing"

	"github.com/tidwall/gjson"
)

// TestAgentNames: agentNames reads what gjson's Get reads for each name,
// in its one walk: the first occurrence, any type as String gives it.
func TestAgentNames(t *testing.T) {
	for _, info := range []string{
		`{"name":"@agentclientprotocol/claude-agent-acp","title":"Claude Agent","version":"1"}`,
		`{"title":"Codex","name":"codex-acp"}`,
		`{"name":"a","name":"b","title":"t1","title":"t2"}`,
		`{"name":7,"title":null}`,
		`{"name":"esc\u0061ped","title":{"x":1}}`,
		`{"version":"1"}`,
		`{}`, `"codex"`, `[{"name":"x"}]`, ``,
	} {
		v := gjson.Parse(info)
		wantName, wantTitle := v.Get("name").String(), v.Get("title").String()
		if name, title := agentNames(v); name != wantName || title != wantTitle {
			t.Errorf("agentNames(%s) = %q, %q; gjson reads %q, %q", info, name, title, wantName, wantTitle)
		}
	}
}
