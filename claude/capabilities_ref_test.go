package claude_test

import (
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// capabilitiesLookups is CapabilitiesEvent's reading as it was before it
// read the result in one walk (a lookup from the top for each field): the
// reference TestCapabilitiesEvent and FuzzCapabilitiesOnePass hold it to.
func capabilitiesLookups(result gjson.Result) acpdialect.Capabilities {
	meta := frame.Get(frame.First(result, "agentCapabilities", "capabilities"), "_meta")
	return acpdialect.Capabilities{
		PromptQueueing: frame.Path(meta, "claudeCode", "promptQueueing").Type == gjson.True,
		AuthStatus:     frame.Get(meta, "authStatus").IsObject(),
	}
}

// FuzzCapabilitiesOnePass: on any valid result the one walk reads what the
// lookups read.
func FuzzCapabilitiesOnePass(f *testing.F) {
	for _, s := range []string{
		`{"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":true},"authStatus":{}}}}`,
		`{"capabilities":{"_meta":{"claudeCode":{}}},"agentCapabilities":{"_meta":{"claudeCode":{},"claudeCode":{"promptQueueing":true}}}}`,
		`{"agentCapabilities":{"_meta":1,"_meta":{"authStatus":{}}},"agentCapabilities":{}}`,
	} {
		f.Add(s)
	}
	seeds(f, "result", "") // the captures' initialize results among them
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		r := gjson.Parse(s)
		want := capabilitiesLookups(r)
		if got := claude.CapabilitiesEvent(r).Capabilities(); got == nil || *got != want {
			t.Fatalf("CapabilitiesEvent(%s) = %+v; the lookups read %+v", s, got, want)
		}
	})
}
