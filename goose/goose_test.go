package goose_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/goose"
	"github.com/tidwall/gjson"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"goose", "", true},
		{" Goose ", "", true},
		{"", "goose", true},
		{"mongoose", "", false},
		{"goose-proxy", "", false},
		{"Goose Desktop", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := goose.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

func TestParseChain(t *testing.T) {
	tests := []struct {
		meta, id, summary string
	}{
		{`{"_goose/tool-chain-id":"c1","_goose/tool-chain-summary":"working"}`, "c1", "working"},
		{`{"_goose/tool-chain-id":"c1"}`, "c1", ""},
		{`{"_goose/tool-chain-id":7,"_goose/tool-chain-summary":["x"]}`, "", ""},
		{`{"goose":{"tool-chain-id":"c1"}}`, "", ""},
		// An escaped name is the same name; of a repeated key the last
		// counts, as in Goose's client (docs/goose.md section 3).
		{`{"_goose/tool\u002dchain-id":"c1","_goose/tool-chain-summary":"w\u00f6rking"}`, "c1", "wörking"},
		{`{"_goose/tool-chain-id":"c1","_goose/tool-chain-id":"c2"}`, "c2", ""},
		{`{"_goose/tool-chain-id":"","_goose/tool-chain-summary":""}`, "", ""},
		{`"c1"`, "", ""},
		{``, "", ""},
	}
	for _, tt := range tests {
		id, summary := goose.ParseChain(gjson.Parse(tt.meta))
		if id != tt.id || summary != tt.summary {
			t.Errorf("ParseChain(%s) = %q, %q; want %q, %q", tt.meta, id, summary, tt.id, tt.summary)
		}
	}
}

// TestParseChainSummary pins the reading of current Goose's
// _meta.goose.toolChainSummary {summary, count} (docs/goose.md section 3):
// there only with a non-empty string summary and an integer count of at
// least 1, as Goose's own reader of the persisted summary requires.
func TestParseChainSummary(t *testing.T) {
	tests := []struct {
		name, meta string
		summary    string
		count      uint64
		ok         bool
	}{
		// The shape of enrichment.rs's own test.
		{"valid", `{"goose":{"toolChainSummary":{"summary":"applied dark mode","count":4}}}`, "applied dark mode", 4, true},
		{"beside the tool identity", `{"goose":{"toolCall":{"toolName":"developer__shell","extensionName":"developer"},"toolChainSummary":{"summary":"applied dark mode polish","count":3}}}`, "applied dark mode polish", 3, true},
		{"members in any order, extra members", `{"goose":{"toolChainSummary":{"count":2,"x":1,"summary":"ran tests"}}}`, "ran tests", 2, true},
		{"escaped key and value", `{"goose":{"toolChain\u0053ummary":{"summary":"w\u00f6rked","count":1}}}`, "wörked", 1, true},
		{"largest count", `{"goose":{"toolChainSummary":{"summary":"s","count":9223372036854775807}}}`, "s", 9223372036854775807, true},
		{"count past int64", `{"goose":{"toolChainSummary":{"summary":"s","count":9223372036854775808}}}`, "", 0, false},
		{"missing count", `{"goose":{"toolChainSummary":{"summary":"applied dark mode"}}}`, "", 0, false},
		{"count not a number", `{"goose":{"toolChainSummary":{"summary":"applied dark mode","count":"4"}}}`, "", 0, false},
		{"count null", `{"goose":{"toolChainSummary":{"summary":"s","count":null}}}`, "", 0, false},
		{"count zero", `{"goose":{"toolChainSummary":{"summary":"s","count":0}}}`, "", 0, false},
		{"count negative", `{"goose":{"toolChainSummary":{"summary":"s","count":-1}}}`, "", 0, false},
		{"count fractional", `{"goose":{"toolChainSummary":{"summary":"s","count":2.5}}}`, "", 0, false},
		{"count float literal", `{"goose":{"toolChainSummary":{"summary":"s","count":4.0}}}`, "", 0, false},
		{"count exponent", `{"goose":{"toolChainSummary":{"summary":"s","count":4e0}}}`, "", 0, false},
		{"count too large", `{"goose":{"toolChainSummary":{"summary":"s","count":18446744073709551616}}}`, "", 0, false},
		{"missing summary", `{"goose":{"toolChainSummary":{"count":4}}}`, "", 0, false},
		{"summary not a string", `{"goose":{"toolChainSummary":{"summary":7,"count":4}}}`, "", 0, false},
		{"summary an object", `{"goose":{"toolChainSummary":{"summary":{"text":"s"},"count":4}}}`, "", 0, false},
		{"summary empty", `{"goose":{"toolChainSummary":{"summary":"","count":4}}}`, "", 0, false},
		{"a string in place of the object", `{"goose":{"toolChainSummary":"applied dark mode"}}`, "", 0, false},
		{"an array in place of the object", `{"goose":{"toolChainSummary":["applied dark mode",4]}}`, "", 0, false},
		{"goose not an object", `{"goose":"toolChainSummary"}`, "", 0, false},
		{"at the top of _meta", `{"toolChainSummary":{"summary":"s","count":4}}`, "", 0, false},
		{"the legacy layout", `{"_goose/tool-chain-id":"c1","_goose/tool-chain-summary":"Explored"}`, "", 0, false},
		// Of a repeated key the last counts, at every level.
		{"repeated summary", `{"goose":{"toolChainSummary":{"summary":"a","summary":"b","count":1}}}`, "b", 1, true},
		{"repeated object", `{"goose":{"toolChainSummary":{"summary":"a","count":1},"toolChainSummary":{"summary":"b","count":2}}}`, "b", 2, true},
		{"repeated goose, last invalid", `{"goose":{"toolChainSummary":{"summary":"a","count":1}},"goose":{}}`, "", 0, false},
		{"not an object", `"s"`, "", 0, false},
		{"empty", ``, "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			summary, count, ok := goose.ParseChainSummary(gjson.Parse(tt.meta))
			if summary != tt.summary || count != tt.count || ok != tt.ok {
				t.Errorf("ParseChainSummary(%s) = %q, %d, %v; want %q, %d, %v", tt.meta, summary, count, ok, tt.summary, tt.count, tt.ok)
			}
		})
	}
}

func TestMergeSummary(t *testing.T) {
	tests := []struct{ cur, next, want string }{
		{"", "working", "working"},
		{"working", "Explored", "Explored"},
		{"Explored", "working", "Explored"}, // the placeholder never replaces a real summary
		{"Explored", "Edited", "Edited"},
		{"Explored", "", "Explored"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := goose.MergeSummary(tt.cur, tt.next); got != tt.want {
			t.Errorf("MergeSummary(%q, %q) = %q, want %q", tt.cur, tt.next, got, tt.want)
		}
	}
}

func TestToolCall(t *testing.T) {
	chain := func(id, s string) *acpdialect.Chain { return &acpdialect.Chain{ID: id, Summary: s} }
	counted := func(id, s string, n int64) *acpdialect.Chain { return &acpdialect.Chain{ID: id, Summary: s, Count: n} }
	tests := []struct {
		name   string
		prev   acpdialect.Payload
		update string
		want   *acpdialect.Chain
	}{
		{"first sight", acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"_meta":{"_goose/tool-chain-id":"c1","_goose/tool-chain-summary":"working"}}`, chain("c1", "working")},
		{"the real summary", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("c1", "working")},
			`{"_meta":{"_goose/tool-chain-id":"c1","_goose/tool-chain-summary":"Explored"}}`, chain("c1", "Explored")},
		{"working again keeps it", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("c1", "Explored")},
			`{"_meta":{"_goose/tool-chain-id":"c1","_goose/tool-chain-summary":"working"}}`, chain("c1", "Explored")},
		{"no chain keys keep the chain", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("c1", "Explored")},
			`{"status":"completed"}`, chain("c1", "Explored")},
		{"no chain at all", acpdialect.Payload{Kind: acpdialect.KindGeneric}, `{"_meta":{"x":1}}`, nil},
		{"another chain drops the old summary", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("c1", "Explored")},
			`{"_meta":{"_goose/tool-chain-id":"c2"}}`, chain("c2", "")},
		{"another chain takes its own placeholder", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("c1", "Explored")},
			`{"_meta":{"_goose/tool-chain-id":"c2","_goose/tool-chain-summary":"working"}}`, chain("c2", "working")},
		{"a summary without an id stays on the chain", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("c1", "working")},
			`{"_meta":{"_goose/tool-chain-summary":"Edited"}}`, chain("c1", "Edited")},
		// Current Goose: _meta.goose.toolChainSummary, no chain id.
		{"summary on the chain's first call", acpdialect.Payload{Kind: acpdialect.KindShell},
			`{"toolCallId":"req_1","_meta":{"goose":{"toolChainSummary":{"summary":"applied dark mode","count":4}}}}`, counted("", "applied dark mode", 4)},
		{"tool identity only", acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"_meta":{"goose":{"toolCall":{"toolName":"developer__shell","extensionName":"developer"}}}}`, nil},
		{"a later summary replaces it", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: counted("", "ran tests", 2)},
			`{"_meta":{"goose":{"toolChainSummary":{"summary":"fixed the tests","count":5}}}}`, counted("", "fixed the tests", 5)},
		{"the same summary with another count", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: counted("", "ran tests", 2)},
			`{"_meta":{"goose":{"toolChainSummary":{"summary":"ran tests","count":3}}}}`, counted("", "ran tests", 3)},
		{"a legacy id of another chain drops the count", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: counted("c1", "ran tests", 2)},
			`{"_meta":{"_goose/tool-chain-id":"c2"}}`, chain("c2", "")},
		{"a summary of working is a real one", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("", "ran tests")},
			`{"_meta":{"goose":{"toolChainSummary":{"summary":"working","count":2}}}}`, counted("", "working", 2)},
		{"missing count is absent", acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"_meta":{"goose":{"toolChainSummary":{"summary":"applied dark mode"}}}}`, nil},
		{"an invalid summary keeps the chain", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("", "ran tests")},
			`{"_meta":{"goose":{"toolChainSummary":{"summary":{"text":"x"},"count":2}}}}`, chain("", "ran tests")},
		{"an update without one keeps the chain", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("", "ran tests")},
			`{"status":"completed","_meta":{"goose":{"toolCall":{"toolName":"developer__shell"}}}}`, chain("", "ran tests")},
		{"a legacy chain id stays", acpdialect.Payload{Kind: acpdialect.KindGeneric, Chain: chain("c1", "working")},
			`{"_meta":{"goose":{"toolChainSummary":{"summary":"ran tests","count":2}}}}`, counted("c1", "ran tests", 2)},
		{"both layouts: the current one's summary", acpdialect.Payload{Kind: acpdialect.KindGeneric},
			`{"_meta":{"_goose/tool-chain-id":"c1","_goose/tool-chain-summary":"working","goose":{"toolChainSummary":{"summary":"ran tests","count":2}}}}`, counted("c1", "ran tests", 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keep := tt.prev.Clone()
			got := goose.ToolCall(frame.ReadToolUpdate(gjson.Parse(tt.update)), tt.prev)
			if !tt.prev.Equal(keep) {
				t.Error("ToolCall changed the payload it was given")
			}
			if (got.Chain == nil) != (tt.want == nil) || (got.Chain != nil && *got.Chain != *tt.want) {
				t.Errorf("chain %+v, want %+v", got.Chain, tt.want)
			}
			if got.Kind != tt.prev.Kind {
				t.Errorf("kind %q, want %q", got.Kind, tt.prev.Kind)
			}
		})
	}
}

// Whatever the params, the recipe request gets the safe default, and the
// Conn answers it on a Goose connection only.
func TestRecipeParams(t *testing.T) {
	for _, params := range []string{`{"sessionId":"s1","parameters":[]}`, `null`, `"x"`, ``} {
		if got := string(goose.HandleRecipeParams(gjson.Parse(params)).Result); got != `{"action":"cancel"}` {
			t.Errorf("params %s: result %s", params, got)
		}
	}
	frame := []byte(`{"jsonrpc":"2.0","id":4,"method":"_goose/unstable/session/recipe/request-params","params":{"sessionId":"s1","parameters":[]}}`)
	for agent, want := range map[string]string{
		goose.ID:  `{"jsonrpc":"2.0","id":4,"result":{"action":"cancel"}}` + "\n",
		"unknown": `{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}` + "\n",
	} {
		c := acpdialect.NewRegistry(goose.Dialect()).NewConn(acpdialect.Options{Agent: agent})
		res, err := c.Inbound(frame)
		if err != nil || string(res.Reply) != want {
			t.Errorf("agent %s: reply %q (%v), want %q", agent, res.Reply, err, want)
		}
	}
}
