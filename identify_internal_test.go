package acpdialect

import (
	"testing"

	"github.com/tidwall/gjson"
)

// TestAgentNames: agentNames reads what gjson's Get reads for the name,
// title and version, in its one walk: the first occurrence, any type as
// String gives it.
func TestAgentNames(t *testing.T) {
	for _, info := range []string{
		`{"name":"@agentclientprotocol/claude-agent-acp","title":"Claude Agent","version":"1"}`,
		`{"title":"Codex","name":"codex-acp"}`,
		`{"name":"a","name":"b","title":"t1","title":"t2"}`,
		`{"name":7,"title":null}`,
		`{"name":"esc\u0061ped","title":{"x":1}}`,
		`{"version":"1"}`,
		`{"version":"2.6.0","name":"codex-acp","version":"1.6.2"}`,
		`{"name":"codex-acp","version":2}`,
		`{"name":"n","title":"t","version":{"major":2}}`,
		`{}`, `"codex"`, `[{"name":"x"}]`, ``,
	} {
		v := gjson.Parse(info)
		wantName, wantTitle, wantVersion := v.Get("name").String(), v.Get("title").String(), v.Get("version").String()
		if name, title, version := agentNames(v); name != wantName || title != wantTitle || version != wantVersion {
			t.Errorf("agentNames(%s) = %q, %q, %q; gjson reads %q, %q, %q", info, name, title, version, wantName, wantTitle, wantVersion)
		}
	}
}
