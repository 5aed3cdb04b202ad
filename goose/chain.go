package goose

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// ActiveSummary is the summary Goose gives a tool chain while it runs, a
// placeholder for the real one.
const ActiveSummary = "working"

// ParseChain reads a tool call's _meta["_goose/tool-chain-id"] and
// ["_goose/tool-chain-summary"] (strings; any other type is absent). Of a
// key that appears twice the last counts, as in Goose's own client. The
// results view meta.
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

// MergeSummary returns the chain's next summary: the new one, unless it
// is empty or the "working" placeholder over a real summary.
func MergeSummary(cur, next string) string {
	if next == "" || (next == ActiveSummary && cur != "" && cur != ActiveSummary) {
		return cur
	}
	return next
}

// ToolCall carries a tool call's chain on its card (Payload.Chain): the
// id as the agent sent it last, the summary as MergeSummary says. A new id
// is another chain: the summary of the one before does not carry over. The
// card keeps its kind; the chain object is copied before a change.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	id, summary := ParseChain(u.Meta)
	if id == "" && summary == "" {
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
	if prev.Chain == nil || *prev.Chain != ch {
		prev.Chain = frame.Keep(ch)
	}
	return prev
}
