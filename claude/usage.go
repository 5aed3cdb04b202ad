package claude

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// UsageEvent reads a usage_update into a usage event: ACP's used, size and
// cost, and Claude's _meta: "_claude/model" (the answering model),
// "_claude/origin".kind (human for the user's turn; a background task's
// kind otherwise) and "_claude/rateLimit" (status, rateLimitType,
// utilization, resetsAt). Wrong types read as absent; an update with
// nothing readable gives nil.
func UsageEvent(update gjson.Result) *acpdialect.Event {
	// One allocation holds the event, its object and its figures: a usage
	// sample comes with most turns' every step.
	box := &struct {
		ev         acpdialect.Event
		u          acpdialect.Usage
		used, size int64
		cost       float64
	}{}
	u := &box.u
	any := false
	r := frame.NewReader(update)
	r.Object(func(k string) {
		switch k {
		case "used":
			if n, ok := frame.Int64(r.Value()); ok && n >= 0 && u.Used == nil {
				box.used, u.Used, any = n, &box.used, true
			}
		case "size":
			if n, ok := frame.Int64(r.Value()); ok && n >= 0 && u.Size == nil {
				box.size, u.Size, any = n, &box.size, true
			}
		case "cost":
			any = readCost(r, u, &box.cost) || any
		case "_meta":
			any = readUsageMeta(r, u) || any
		}
	})
	if !any {
		return nil
	}
	box.ev = acpdialect.Event{Type: acpdialect.EventUsage, Object: u}
	return &box.ev
}

// turn is a turn summary's event, its usage and the storage of its six
// token counts: one allocation, where each count was one of its own (a
// turn summary comes with every prompt response).
type turn struct {
	ev     acpdialect.Event
	u      acpdialect.Usage
	counts [6]int64
	acp    uint8 // the counts read from ACP's usage, which the quota's never replace
}

func newTurn() *turn {
	t := &turn{}
	t.u.Turn = true
	t.ev = acpdialect.Event{Type: acpdialect.EventUsage, Object: &t.u}
	return t
}

// readCost reads {amount, currency}; the amount goes in *amount, which
// u.Cost then points at.
func readCost(r *frame.Reader, u *acpdialect.Usage, amount *float64) bool {
	any := false
	r.Object(func(k string) {
		switch k {
		case "amount":
			if v := r.Value(); v.Type == gjson.Number && u.Cost == nil {
				*amount = v.Num
				u.Cost, any = amount, true
			}
		case "currency":
			fill(&u.Currency, r.String())
		}
	})
	return any
}

func readUsageMeta(r *frame.Reader, u *acpdialect.Usage) bool {
	any := false
	r.Object(func(k string) {
		switch k {
		case "_claude/model":
			fill(&u.Model, r.String())
			any = any || u.Model != ""
		case "_claude/origin":
			r.Object(func(k string) {
				if k == "kind" {
					fill(&u.Origin, r.String())
				}
			})
			any = any || u.Origin != ""
		case "_claude/rateLimit":
			if rl := readRateLimit(r); rl != nil && u.RateLimit == nil {
				u.RateLimit, any = rl, true
			}
		}
	})
	return any
}

// readRateLimit reads the Claude SDK's rate limit info. resetsAt is unix
// seconds there; the contract's resets_at is unix milliseconds. A value of
// 1e11 or more is taken to be milliseconds already.
func readRateLimit(r *frame.Reader) *acpdialect.RateLimit {
	var rl acpdialect.RateLimit
	r.Object(func(k string) {
		switch k {
		case "status":
			fill(&rl.Status, r.String())
		case "rateLimitType":
			fill(&rl.Type, r.String())
		case "utilization":
			if v := r.Value(); v.Type == gjson.Number && v.Num >= 0 && rl.Utilization == nil {
				f := v.Num
				rl.Utilization = &f
			}
		case "resetsAt":
			if n, ok := frame.Int64(r.Value()); ok && n > 0 && rl.ResetsAt == nil {
				if n < 1e11 {
					n *= 1000
				}
				rl.ResetsAt = &n
			}
		}
	})
	if rl == (acpdialect.RateLimit{}) {
		return nil
	}
	return &rl
}

// TurnEvent reads a session/prompt result into a turn summary: ACP's
// usage (inputTokens, outputTokens, cachedReadTokens, cachedWriteTokens,
// thoughtTokens, totalTokens), filled in from Claude's _meta.quota
// (token_count, with reasoningOutputTokens as thought tokens, and the
// model when model_usage names exactly one). nil when it has no counts
// (the ACP v2 draft answers a prompt at once, with a message id).
func TurnEvent(result gjson.Result) *acpdialect.Event {
	t := newTurn()
	r := frame.NewReader(result)
	r.Object(func(k string) {
		switch k {
		case "usage":
			readTokens(r, t, true)
		case "_meta":
			r.Object(func(k string) {
				if k == "quota" {
					readQuota(r, t)
				}
			})
		}
	})
	if !t.u.HasCounts() {
		return nil
	}
	return &t.ev
}

// readTokens reads a token count object, in ACP's names (acp) or the
// quota's. ACP's usage wins over the quota's in whichever order the two
// come; within one object, a count already read is kept.
func readTokens(r *frame.Reader, t *turn, acp bool) {
	u := &t.u
	r.Object(func(k string) {
		var i int
		var dst **int64
		switch k {
		case "inputTokens":
			i, dst = 0, &u.InputTokens
		case "outputTokens":
			i, dst = 1, &u.OutputTokens
		case "cachedReadTokens", "cachedInputTokens":
			i, dst = 2, &u.CachedReadTokens
		case "cachedWriteTokens":
			i, dst = 3, &u.CachedWriteTokens
		case "thoughtTokens", "reasoningOutputTokens":
			i, dst = 4, &u.ThoughtTokens
		case "totalTokens":
			i, dst = 5, &u.TotalTokens
		default:
			return
		}
		n, ok := frame.Int64(r.Value())
		bit := uint8(1) << i
		switch {
		case !ok || n < 0:
		case acp && t.acp&bit == 0:
			t.acp |= bit
			t.counts[i], *dst = n, &t.counts[i]
		case !acp && *dst == nil:
			t.counts[i], *dst = n, &t.counts[i]
		}
	})
}

func readQuota(r *frame.Reader, t *turn) {
	u := &t.u
	r.Object(func(k string) {
		switch k {
		case "token_count":
			readTokens(r, t, false)
		case "model_usage":
			var models []string
			r.Array(func() {
				r.Object(func(k string) {
					if k == "model" && len(models) < 2 {
						models = append(models, r.String())
					}
				})
			})
			if len(models) == 1 {
				fill(&u.Model, models[0])
			}
		}
	})
}

// StateEvent reads the ACP v2 draft's state_update: an idle state
// carries the turn's usage, read as TurnEvent reads a prompt result.
func StateEvent(update gjson.Result) *acpdialect.Event {
	// usage" without its opening quote: a search starting on `"` stops at
	// every quote.
	if !strings.Contains(update.Raw, `usage"`) || frame.Get(update, "state").Str != "idle" {
		return nil
	}
	return TurnEvent(update)
}

// HandleAccountingUsage reads _claude/accountingUsage: the token usage of
// one Claude SDK result (a user's turn or autonomous work), as a turn
// summary in the session the params name. Origin is the SDK origin's kind,
// else "human" for the scope user_turn and "autonomous" for autonomous.
func HandleAccountingUsage(params gjson.Result) acpdialect.Action {
	t := newTurn()
	u := &t.u
	var sid, scope string
	r := frame.NewReader(params)
	r.Object(func(k string) {
		switch k {
		case "sessionId":
			fill(&sid, r.String())
		case "usage":
			readTokens(r, t, true)
		case "scope":
			fill(&scope, r.String())
		case "origin":
			r.Object(func(k string) {
				if k == "kind" {
					fill(&u.Origin, r.String())
				}
			})
		}
	})
	if !t.u.HasCounts() {
		return acpdialect.Action{} // nothing to book
	}
	if u.Origin == "" {
		switch scope {
		case "user_turn":
			u.Origin = "human"
		case "autonomous":
			u.Origin = "autonomous"
		}
	}
	t.ev.SessionID = sid
	return acpdialect.Action{Event: &t.ev}
}

// CapabilitiesEvent reads an initialize result (ACP v1's
// agentCapabilities, the v2 draft's capabilities) into a capabilities
// event: _meta.claudeCode.promptQueueing is true only for the JSON true
// ("true" and 1 are not), and _meta.authStatus (an object) advertises
// _auth/status_update.
func CapabilitiesEvent(result gjson.Result) *acpdialect.Event {
	// One walk over the result reads the first agentCapabilities (v1) and
	// capabilities (the v2 draft) objects where they stand, skipping the
	// rest of a large result (auth methods, AIR metadata) once.
	var v1, v2 acpdialect.Capabilities
	var seen uint8
	r := frame.NewReader(result)
	r.Object(func(k string) {
		switch {
		case k == "agentCapabilities" && seen&1 == 0:
			seen |= 1
			readCapabilities(r, &v1)
		case k == "capabilities" && seen&2 == 0:
			seen |= 2
			readCapabilities(r, &v2)
		}
	})
	c := v2
	if seen&1 != 0 {
		c = v1
	}
	return &acpdialect.Event{Type: acpdialect.EventCapabilities, Object: &c}
}

// readCapabilities reads into c what the first _meta of the capabilities
// object at r says: promptQueueing is the first one found in its
// claudeCode objects, in order, and true only as the JSON true;
// authStatus, the first one, is advertised when it is an object.
func readCapabilities(r *frame.Reader, c *acpdialect.Capabilities) {
	met := false
	r.Object(func(k string) {
		if k != "_meta" || met {
			return
		}
		met = true
		var queueing gjson.Result
		auth := false
		r.Object(func(k string) {
			switch {
			case k == "claudeCode" && !queueing.Exists():
				r.Object(func(k string) {
					if k == "promptQueueing" && !queueing.Exists() {
						queueing = r.Value()
					}
				})
			case k == "authStatus" && !auth:
				auth = true
				c.AuthStatus = r.Peek() == '{'
			}
		})
		c.PromptQueueing = queueing.Type == gjson.True
	})
}
