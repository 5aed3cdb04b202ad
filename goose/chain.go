package goose

import (
	"math"
	"strconv"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// ParseChainSummary reads the chain summary current Goose sends in a tool
// call's _meta.goose.toolChainSummary: an object {summary, count}, the
// summary of the chain of count tool calls that starts at the tool call it
// arrives on (the chain's first). It is there only when summary is a
// non-empty string and count an integer of at least 1, as Goose's own
// reader of the persisted summary requires (ok false otherwise: a value of
// another type, a count of 0, 2.0, -1 or "4", a missing member). Of a key
// that appears twice the last counts, as in serde_json and JSON.parse.
// summary views meta.
func ParseChainSummary(meta gjson.Result) (summary string, count uint64, ok bool) {
	cs := member(member(meta, MetaGoose), MetaChainSummaryObject)
	s, c := member(cs, "summary"), member(cs, "count")
	if s.Type != gjson.String || s.Str == "" || c.Type != gjson.Number {
		return "", 0, false
	}
	// Only an integer literal: serde_json's as_u64 rejects 4.0, 4e0, -1.
	n, err := strconv.ParseUint(c.Raw, 10, 64)
	if err != nil || n == 0 || n > math.MaxInt64 {
		return "", 0, false
	}
	return frame.View(s), n, true
}

// member returns the last member key of obj (absent when obj is not an
// object or has no such key).
func member(obj gjson.Result, key string) gjson.Result {
	var v gjson.Result
	frame.Members(obj, func(k string, x gjson.Result) bool {
		if k == key {
			v = x
		}
		return true
	})
	return v
}

// ActiveSummary is the placeholder summary older Goose servers (legacy
// layout, see MetaChainID) gave a tool chain while it ran. Current Goose
// sends no placeholder.
const ActiveSummary = "working"

// ParseChain reads the legacy layout of older Goose servers: a tool call's
// _meta["_goose/tool-chain-id"] and ["_goose/tool-chain-summary"]
// (strings; any other type is absent). Of a key that appears twice the
// last counts, as in Goose's own client. The results view meta. Current
// Goose sends ParseChainSummary's layout instead.
func ParseChain(meta gjson.Result) (id, summary string) {
	if !meta.IsObject() {
		return "", ""
	}
	frame.Members(meta, func(k string, v gjson.Result) bool {
		if v.Type != gjson.String {
			return true
		}
		switch k {
		case MetaChainID:
			id = frame.View(v)
		case MetaChainSummary:
			summary = frame.View(v)
		}
		return true
	})
	return id, summary
}

// MergeSummary returns a legacy chain's next summary: the new one, unless
// it is empty or the "working" placeholder over a real summary.
func MergeSummary(cur, next string) string {
	if next == "" || (next == ActiveSummary && cur != "" && cur != ActiveSummary) {
		return cur
	}
	return next
}

// ToolCall carries a tool call's chain on its card (Payload.Chain).
//
// Current Goose: a valid _meta.goose.toolChainSummary (ParseChainSummary)
// sets the card's Chain.Summary, on the card of the tool call it arrives
// on, which is the chain's first; the chain's other cards get nothing.
// Goose sends no chain id, so the ID stays as it was (empty, unless the
// legacy layout set one), and a later summary replaces an earlier one. An
// invalid one is absent and changes nothing.
//
// Legacy layout (ParseChain): the id as the agent sent it last, the
// summary as MergeSummary says; a new id is another chain, so the summary
// of the one before does not carry over.
//
// The card keeps its kind; the chain object is copied before a change.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	id, summary := ParseChain(u.Meta)
	next, count, ok := ParseChainSummary(u.Meta)
	if id == "" && summary == "" && !ok {
		return prev
	}
	var ch acpdialect.Chain
	if prev.Chain != nil {
		ch = *prev.Chain
	}
	if id != "" && id != ch.ID {
		ch = acpdialect.Chain{ID: strings.Clone(id)} // id views the frame
	}
	if s := MergeSummary(ch.Summary, summary); s != ch.Summary {
		ch.Summary = strings.Clone(s) // only a new summary, which views the frame, differs
	}
	if ok && next != ch.Summary {
		ch.Summary = strings.Clone(next)
	}
	if ok {
		ch.Count = int64(count)
	}
	if prev.Chain == nil || *prev.Chain != ch {
		prev.Chain = frame.Keep(ch)
	}
	return prev
}
