package goose_test

import (
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/audit"
)

// TestAuditDeclarations pins the dialect's Reads and Ignores as an audit
// sees them: the chain summary is read, the _meta.goose keys Goose is
// known to send are ignored, and any other key under _meta.goose (what a
// new Goose release would add) is unknown, not hidden.
func TestAuditDeclarations(t *testing.T) {
	const transcript = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"goose":{"toolCallLabelEnrichment":true,"customNotifications":true}}}}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"_meta":{"goose":{"recipeParameterScopes":true,"localInference":false}}},"agentInfo":{"name":"goose","version":"1.46.0"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"req_1","title":"t","_meta":{"goose":{"created":1,"messageId":"m","toolCall":{"toolName":"developer__shell","extensionName":"developer"},"brandNew":{"x":1}}}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"req_1","_meta":{"goose":{"toolChainSummary":{"summary":"s","count":1}},"_goose/tool-chain-id":"c1"}}}}
`
	want := map[string]string{
		"_meta.goose.toolCallLabelEnrichment":  audit.Ignored,
		"_meta.goose.customNotifications":      audit.Ignored,
		"_meta.goose.recipeParameterScopes":    audit.Ignored,
		"_meta.goose.localInference":           audit.Ignored,
		"_meta.goose.created":                  audit.Ignored,
		"_meta.goose.messageId":                audit.Ignored,
		"_meta.goose.toolCall.toolName":        audit.Ignored,
		"_meta.goose.toolCall.extensionName":   audit.Ignored,
		"_meta.goose.toolChainSummary.summary": audit.Read,
		"_meta.goose.toolChainSummary.count":   audit.Read,
		"_meta._goose/tool-chain-id":           audit.Read,
		"_meta.goose.brandNew.x":               audit.Unknown,
	}
	a := audit.New()
	if err := a.File(dialects.Registry(), "t.jsonl", strings.NewReader(transcript), ""); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, it := range a.Items() {
		if it.Kind == audit.KindMeta {
			if it.Agent != "goose" {
				t.Errorf("%s judged by %q", it.Name, it.Agent)
			}
			got[it.Name] = it.Status
		}
	}
	for name, status := range want {
		if got[name] != status {
			t.Errorf("%s: %q, want %q", name, got[name], status)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected item %s (%s)", name, got[name])
		}
	}
}
