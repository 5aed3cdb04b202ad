package opencode

import (
	"math"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// UsageEvent reads a usage_update: the context window's tokens in use
// (OpenCode counts input plus cache reads and writes of the last message)
// and its size (the model's context limit), and the session's cost so far
// (cost: {amount, currency}, amount a number). It returns nil when the
// update has none of them.
func UsageEvent(u gjson.Result) *acpdialect.Event {
	var x acpdialect.Usage
	var seen uint8
	frame.Members(u, func(k string, v gjson.Result) bool {
		switch {
		case k == "used" && once(&seen, 1):
			x.Used = frame.Count(nil, v)
		case k == "size" && once(&seen, 2):
			x.Size = frame.Count(nil, v)
		case k == "cost" && once(&seen, 4):
			x.Cost, x.Currency = readCost(v)
		}
		return true
	})
	if x.Used == nil && x.Size == nil && x.Cost == nil {
		return nil
	}
	return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &x}
}

// readCost reads {amount, currency}: amount a finite number, not
// negative; the currency only beside an amount.
func readCost(v gjson.Result) (*float64, string) {
	var amount *float64
	var currency string
	var seen uint8
	frame.Members(v, func(k string, v gjson.Result) bool {
		switch {
		case k == "amount" && once(&seen, 1):
			if v.Type == gjson.Number && !math.IsInf(v.Num, 0) && !math.IsNaN(v.Num) && v.Num >= 0 {
				a := v.Num
				amount = &a
			}
		case k == "currency" && once(&seen, 2):
			currency = frame.View(v)
		}
		return true
	})
	if amount == nil {
		return nil, ""
	}
	if currency == "USD" {
		return amount, "USD" // the usual one: no copy
	}
	frame.Own(&currency)
	return amount, currency
}

// TurnUsage reads a session/prompt result's usage into a turn summary,
// marked estimated: every release up to 1.18.33 sends the turn's last
// assistant message's counts, not the turn's (OpenCode's repository sums
// them over the turn, subtasks included, but the frame does not say which
// an agent does; see docs/opencode.md), as Codex's are marked. Both send
// the thought and cached counts only when they are not zero. It returns
// nil when the result has no usage object, or one with no count it can
// read.
func TurnUsage(r gjson.Result) *acpdialect.Event {
	usage := r.Get("usage")
	if !usage.IsObject() {
		return nil
	}
	x := acpdialect.Usage{Turn: true, Estimated: true}
	x.ReadTokens(usage)
	if !x.HasCounts() {
		return nil
	}
	return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &x}
}
