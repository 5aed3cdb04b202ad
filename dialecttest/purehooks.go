package dialecttest

import (
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// pair carries a hook's two results through twice, which compares one
// value.
type pair[A, B any] struct {
	A A
	B B
}

// pureUpdateEvents checks the update hooks besides Handle and HandleAll:
// Event, Mark and Marked, and on tool calls ToolEvent, Runs and EndNested.
func pureUpdateEvents(k *kit, where, kind, update string) []string {
	var fails []string
	if h := k.update(kind); h != nil {
		if h.Event != nil {
			_, msg := twice(update, h.Event)
			fails = appendMsg(fails, where, "Updates["+kind+"].Event", msg)
		}
		if h.Mark != nil {
			_, msg := twice(update, func(u gjson.Result) pair[bool, bool] {
				mark, ok := h.Mark(u)
				return pair[bool, bool]{mark, ok}
			})
			fails = appendMsg(fails, where, "Updates["+kind+"].Mark", msg)
		}
		if h.Marked != nil {
			_, msg := twice(update, h.Marked)
			fails = appendMsg(fails, where, "Updates["+kind+"].Marked", msg)
		}
	}
	// A later entry of the kind adds its Event (acpdialect.Dialect.Updates).
	for i := range k.d.Updates {
		if h := &k.d.Updates[i]; h.Kind == kind && h != k.update(kind) && h.Event != nil {
			_, msg := twice(update, h.Event)
			fails = appendMsg(fails, where, "Updates["+kind+"].Event", msg)
		}
	}
	if kind != "tool_call" && kind != "tool_call_update" {
		return fails
	}
	if k.d.ToolEvent != nil {
		_, msg := twice(update, func(u gjson.Result) *acpdialect.Event { return k.d.ToolEvent(frame.ReadToolUpdate(u)) })
		fails = appendMsg(fails, where, "ToolEvent", msg)
	}
	if k.d.Runs != nil {
		_, msg := twice(update, func(u gjson.Result) []acpdialect.Run { return k.d.Runs(frame.ReadToolUpdate(u)) })
		fails = appendMsg(fails, where, "Runs", msg)
	}
	if k.d.EndNested != nil {
		_, msg := twice(update, func(u gjson.Result) [3]any {
			parent, status, ok := k.d.EndNested(frame.ReadToolUpdate(u))
			return [3]any{parent, status, ok}
		})
		fails = appendMsg(fails, where, "EndNested", msg)
	}
	return fails
}

// pureEndBackground ends each card the hooks produced, for each reason:
// the results agree and the card is unchanged.
func pureEndBackground(hook func(acpdialect.Payload, string) acpdialect.Payload, cards []acpdialect.Payload) []string {
	if hook == nil {
		return nil
	}
	var fails []string
	for _, p := range cards {
		for _, reason := range []string{acpdialect.EndExited, acpdialect.EndSessionRestart} {
			before := p.Clone()
			var a, b acpdialect.Payload
			msg := protect(func() { a, b = hook(p, reason), hook(p, reason) })
			switch {
			case msg != "":
			case diff(a, b) != "":
				msg = "returned two results for the same card:\n" + diff(a, b)
			case diff(before, p) != "":
				msg = "changed the card it was given in place (-before +after):\n" + diff(before, p)
			case shared(a, b, p) != "":
				msg = "returned the same " + shared(a, b, p) + " from two calls: make each new object fresh for each call"
			case cardShape(a) != "":
				msg = cardShape(a)
			}
			if msg != "" {
				fails = append(fails, fmt.Sprintf("EndBackground (card of kind %q, %s) %s", p.Kind, reason, msg))
			}
		}
	}
	return fails
}

// pureSession checks the SessionHooks: Notification on the frames of the
// dialect's notifications, ContextWindow on every update's _meta, and
// Result on the transcripts' answers to client requests; each without a
// state, as for a session the dialect made none for.
func pureSession(k *kit) []string {
	h := k.d.Session
	if h == nil {
		return nil
	}
	var fails []string
	noState := func(string) any { return nil }
	for _, s := range k.frames {
		method := gjson.GetBytes(s.b, "method").Str
		switch {
		case method == "session/update" && h.ContextWindow != nil:
			_, msg := twice(gjson.GetBytes(s.b, "params._meta").Raw, func(meta gjson.Result) pair[acpdialect.ContextWindow, bool] {
				cw, ok := h.ContextWindow(meta, nil)
				return pair[acpdialect.ContextWindow, bool]{cw, ok}
			})
			fails = appendMsg(fails, s.where, "Session.ContextWindow", msg)
		case method != "session/update" && h.Notification != nil && k.method(method, false) != nil && !gjson.GetBytes(s.b, "id").Exists():
			_, msg := twice(gjson.GetBytes(s.b, "params").Raw, func(params gjson.Result) pair[string, acpdialect.Step] {
				sid, step := h.Notification(method, params, noState)
				return pair[string, acpdialect.Step]{sid, step}
			})
			fails = appendMsg(fails, s.where, "Session.Notification", msg)
		}
	}
	if h.Result != nil {
		for _, method := range []string{"session/new", "session/load", "session/set_model", "session/set_config_option", "session/set_mode"} {
			for _, raw := range append(k.answers[method], "{}") {
				_, msg := twice(raw, func(r gjson.Result) acpdialect.Step { return h.Result(method, r, nil) })
				fails = appendMsg(fails, "result of "+method, "Session.Result", msg)
			}
		}
	}
	return fails
}

// pureRewrites checks each Rewrite: Request on the client's params found
// in the transcripts and on empty ones, and Response on the agent's
// results found there and an empty one, with each note Request made.
func pureRewrites(k *kit) []string {
	var fails []string
	for _, rw := range k.d.Rewrites {
		var notes []any
		if rw.Request != nil {
			for _, raw := range append(k.clientParams[rw.Method], `{"sessionId":"s1"}`) {
				red, msg := twice(raw, func(p gjson.Result) acpdialect.Redirect { return rw.Request(p, nil) })
				fails = appendMsg(fails, "params of "+rw.Method, "Rewrites["+rw.Method+"].Request", msg)
				notes = append(notes, red.Note)
			}
		}
		if rw.Response == nil {
			continue
		}
		if len(notes) == 0 {
			notes = []any{nil}
		}
		for _, raw := range append(k.answers[rw.Method], "{}") {
			for _, note := range notes {
				_, msg := twice(raw, func(r gjson.Result) acpdialect.Step {
					return rw.Response(acpdialect.AgentResponse{Result: r}, nil, note)
				})
				fails = appendMsg(fails, "result of "+rw.Method, "Rewrites["+rw.Method+"].Response", msg)
			}
		}
	}
	return fails
}
