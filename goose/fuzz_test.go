package goose_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/goose"
	"github.com/tidwall/gjson"
)

// FuzzToolCall feeds any update object to ToolCall: no panic, the payload
// it is given unchanged, the kind kept, a valid toolChainSummary always
// taken as the card's summary, and otherwise a real summary never replaced
// by the legacy placeholder or blanked while the chain stays the same.
func FuzzToolCall(f *testing.F) {
	f.Add(`{"_meta":{"_goose/tool-chain-id":"c1","_goose/tool-chain-summary":"working"}}`)
	f.Add(`{"_meta":{"_goose/tool-chain-id":"","_goose/tool-chain-summary":7}}`)
	f.Add(`{"_meta":[`)
	f.Add(`{"toolCallId":"req_1","_meta":{"goose":{"toolChainSummary":{"summary":"applied dark mode","count":4}}}}`)
	f.Add(`{"_meta":{"goose":{"toolChainSummary":{"summary":"working","count":1},"toolCall":{"toolName":"x"}}}}`)
	f.Add(`{"_meta":{"goose":{"toolChainSummary":{"summary":"s","count":"4"}}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		u := frame.ReadToolUpdate(gjson.Parse(s))
		_, _ = goose.ParseChain(gjson.Parse(s))
		summary, _, ok := goose.ParseChainSummary(u.Meta)
		if ok && summary == "" {
			t.Fatal("ParseChainSummary: ok with an empty summary")
		}
		for _, prev := range []acpdialect.Payload{
			{Kind: acpdialect.KindGeneric},
			{Kind: acpdialect.KindShell, Shell: &acpdialect.Shell{Command: "ls"}, Chain: &acpdialect.Chain{ID: "c", Summary: "Explored"}},
		} {
			keep := prev.Clone()
			next := goose.ToolCall(u, prev)
			if !prev.Equal(keep) {
				t.Fatal("ToolCall changed the payload it was given")
			}
			if next.Kind != prev.Kind {
				t.Fatalf("kind %q -> %q", prev.Kind, next.Kind)
			}
			if ok {
				if next.Chain == nil || next.Chain.Summary != summary {
					t.Fatalf("summary %q: chain %+v", summary, next.Chain)
				}
				continue
			}
			if prev.Chain != nil && (next.Chain == nil ||
				next.Chain.ID == prev.Chain.ID && (next.Chain.Summary == goose.ActiveSummary || next.Chain.Summary == "")) {
				t.Fatalf("chain %+v -> %+v", prev.Chain, next.Chain)
			}
		}
	})
}
