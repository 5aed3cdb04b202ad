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
