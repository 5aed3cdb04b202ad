package claude

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// wakeupCall merges a ScheduleWakeup update: rawInput's delaySeconds,
// prompt and reason, and the tool response's scheduledFor (unix
// milliseconds). A scheduledFor that is zero, negative or not a whole
// number is reported invalid, never guessed, and clears a time reported
// before it. The library describes the wakeup; scheduling it is the
// client's.
func wakeupCall(u frame.ToolUpdate, c Code, prev acpdialect.Payload) acpdialect.Payload {
	prev.Kind = acpdialect.KindWakeup
	var w acpdialect.Wakeup
	if prev.Wakeup != nil {
		w = *prev.Wakeup
	}
	r := frame.NewReader(u.RawInput)
	r.Object(func(k string) {
		switch k {
		case "delaySeconds":
			n, ok := frame.Int64(r.Value())
			setInt(&w.DelaySeconds, n, ok && n >= 0)
		case "prompt":
			set(&w.Prompt, r.String())
		case "reason":
			set(&w.Reason, r.String())
		}
	})
	if at, present, ok := ParseScheduledFor(c.Response); present {
		// The latest reported time decides: an unreadable one clears an
		// earlier time rather than leave it beside the invalid mark.
		setInt(&w.ScheduledFor, at, ok)
		if !ok {
			w.ScheduledFor = nil
		}
		w.Invalid = !ok
	}
	if prev.Wakeup == nil || !(acpdialect.Payload{Wakeup: &w}).Equal(acpdialect.Payload{Wakeup: prev.Wakeup}) {
		prev.Wakeup = frame.Keep(w)
	}
	return prev
}

// ParseScheduledFor reads a ScheduleWakeup tool response's scheduledFor:
// present says the key is there, ok that it is a whole number of unix
// milliseconds above zero.
func ParseScheduledFor(resp gjson.Result) (unixMs int64, present, ok bool) {
	if !resp.IsObject() {
		return 0, false, false
	}
	frame.Members(resp, func(k string, v gjson.Result) bool {
		if k != "scheduledFor" {
			return true
		}
		present = true
		unixMs, ok = frame.Int64(v)
		ok = ok && unixMs > 0
		return false
	})
	if !ok {
		unixMs = 0
	}
	return unixMs, present, ok
}
