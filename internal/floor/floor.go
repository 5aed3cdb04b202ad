// Package floor is the least any normalizer that meets a dialect's
// contract does with each line of a transcript, without a single rule of
// the dialect: the benchmarks set it beside gjson reading three fields,
// to show how fast a Conn could be at best.
//
// For each line it checks that the line is JSON (an SDK drops one that is
// not, so a normalizer must not act on it), walks once to the update,
// reads its kind, its tool call id and the fields of _meta.<vendor> that
// decide a card's kind and nesting, finds the session and the card in
// maps, and makes one event per tool call frame. Everything else a Conn
// does (merging, responses, usage, permissions, bounds) is left out.
package floor

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/scan"
)

// Floor reads lines; its maps keep what it saw, as a Conn's stores do.
type Floor struct {
	vendor   string
	keys     []string // the fields of _meta.<vendor> read
	sessions map[string]int
	cards    map[string]*acpdialect.Payload
	// Events is the last line's events, so that they are not optimized
	// away.
	Events []acpdialect.Event
}

// New returns a Floor that reads keys of _meta.<vendor> in tool calls.
func New(vendor string, keys ...string) *Floor {
	return &Floor{vendor: vendor, keys: keys, sessions: map[string]int{}, cards: map[string]*acpdialect.Payload{}}
}

// Line reads one line. It panics on a line that is not JSON: the floor is
// measured on recorded transcripts, which are.
func (f *Floor) Line(s string) {
	if !scan.Valid(s) {
		panic("floor: a line is not JSON")
	}
	// Each byte of the update is walked once: each walk stops where the
	// next one starts.
	_, params := scan.Walk(s, "params", func(string, string) bool { return true })
	var sid, kind, id string
	var fields [2]string
	_, update := scan.Walk(params, "update", func(k, raw string) bool {
		if k == "sessionId" {
			sid = raw
		}
		return true
	})
	scan.Members(update, func(k, raw string) bool {
		switch k {
		case "sessionUpdate":
			kind = raw
		case "toolCallId":
			id = raw
		case "_meta":
			scan.Members(scan.Member(raw, f.vendor), func(k, raw string) bool {
				for i, want := range f.keys[:min(len(f.keys), len(fields))] {
					if k == want {
						fields[i] = raw
					}
				}
				return true
			})
		}
		return true
	})
	if sid != "" {
		f.sessions[sid]++
	}
	if id == "" {
		return
	}
	p := f.cards[id]
	if p == nil {
		p = &acpdialect.Payload{}
		f.cards[strings.Clone(id)] = p
	}
	o := &struct {
		ev [1]acpdialect.Event
		p  acpdialect.Payload
	}{p: *p}
	o.p.Title, o.p.ParentToolCallID = fields[0], fields[1]
	o.ev[0] = acpdialect.Event{Type: kind, SessionID: sid, ToolCallID: id, Payload: &o.p}
	f.Events = o.ev[:]
}
