package dialecttest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// checkPure feeds every hook the dialect sets each of its frames twice,
// and checks that the results agree and survive the frame's buffer being
// overwritten.
func checkPure(k *kit) []string {
	var fails []string
	var lates []acpdialect.Late
	var cards []acpdialect.Payload
	for _, s := range k.frames {
		method := gjson.GetBytes(s.b, "method").Str
		if method == "session/update" {
			update := gjson.GetBytes(s.b, "params.update").Raw
			kind := gjson.Get(update, "sessionUpdate").Str
			if h := k.update(kind); h != nil && h.Handle != nil {
				late, msg := twice(update, h.Handle)
				fails = appendMsg(fails, s.where, "Updates["+kind+"].Handle", msg)
				lates = appendLate(lates, late)
			}
			if h := k.update(kind); h != nil && h.HandleAll != nil {
				all, msg := twice(update, h.HandleAll)
				fails = appendMsg(fails, s.where, "Updates["+kind+"].HandleAll", msg)
				for _, late := range all {
					lates = appendLate(lates, late)
				}
			}
			fails = append(fails, pureUpdateEvents(k, s.where, kind, update)...)
			if (kind == "tool_call" || kind == "tool_call_update") && k.d.ToolCall != nil {
				card, msgs := pureToolCall(k.d.ToolCall, update)
				for _, msg := range msgs {
					fails = appendMsg(fails, s.where, "ToolCall", msg)
				}
				cards = append(cards, card)
			}
			continue
		}
		m := k.method(method, gjson.GetBytes(s.b, "id").Exists())
		if m == nil || m.Handle == nil {
			continue
		}
		act, msg := twice(gjson.GetBytes(s.b, "params").Raw, m.Handle)
		fails = appendMsg(fails, s.where, "Methods["+m.Name+"].Handle", msg)
		lates = appendLate(lates, act.Late)
	}
	fails = append(fails, pureMergeLate(k.d.MergeLate, lates, cards)...)
	for _, l := range lates {
		if cardShape(l.Payload) == "" { // a half that is a whole card
			cards = append(cards, l.Payload)
		}
	}
	fails = append(fails, pureEndBackground(k.d.EndBackground, cards)...)
	fails = append(fails, pureCalls(k)...)
	fails = append(fails, pureSession(k)...)
	fails = append(fails, pureRewrites(k)...)
	fails = append(fails, pureStrings(k)...)
	return fails
}

func appendMsg(fails []string, where, hook, msg string) []string {
	if msg == "" {
		return fails
	}
	return append(fails, fmt.Sprintf("%s: %s %s", where, hook, msg))
}

func appendLate(lates []acpdialect.Late, l acpdialect.Late) []acpdialect.Late {
	if l == (acpdialect.Late{}) {
		return lates
	}
	return append(lates, l)
}

// twice calls hook on raw twice, once over a buffer the kit then
// overwrites and once over a pristine copy. It returns the pristine
// result, and what went wrong: a panic, two different results, or a result
// that changed with the buffer (it views the frame).
func twice[T any](raw string, hook func(gjson.Result) T) (res T, msg string) {
	return twiceGiven(raw, hook, nil)
}

// twiceGiven is twice for a hook also given given (ToolCall's card): the
// objects it holds may come back from both calls.
func twiceGiven[T any](raw string, hook func(gjson.Result) T, given any) (res T, msg string) {
	buf, pristine := []byte(raw), []byte(raw)
	var first T
	if msg = protect(func() { first = hook(over(buf)) }); msg != "" {
		return res, msg
	}
	if msg = protect(func() { res = hook(over(pristine)) }); msg != "" {
		return res, msg
	}
	if d := diff(first, res); d != "" {
		return res, "returned two results for the same frame (-first +second):\n" + d
	}
	if t := shared(first, res, given); t != "" {
		return res, "returned the same " + t + " from two calls: the Conn changes events and kind objects in place and hands them out, so make each fresh for each call"
	}
	for i := range buf {
		buf[i] = '#'
	}
	if d := diff(res, first); d != "" {
		return res, "returned a value that views the frame: it changed when the frame's buffer was overwritten (-want +got):\n" + d
	}
	return res, ""
}

// over views a buffer as the Conn does: a gjson.Result over the bytes,
// without a copy.
func over(b []byte) gjson.Result {
	if len(b) == 0 {
		return gjson.Result{}
	}
	return gjson.Parse(unsafe.String(unsafe.SliceData(b), len(b)))
}

// protect runs fn and reports a panic as a message that names the
// function it came from: in a hook the Conn called, that is the hook.
func protect(fn func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panicked%s: %v", panicSite(), r)
		}
	}()
	fn()
	return ""
}

// panicSite names the function a panic was raised in, as " in
// pkg.Func (file.go:line)": the first frame under the runtime's own.
// Called from the deferred function that recovered it.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if f.Function != "" && !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf(" in %s (%s:%d)", f.Function, filepath.Base(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}

// diff is cmp.Diff that reports a value cmp cannot compare instead of
// panicking.
func diff(a, b any) (d string) {
	defer func() {
		if r := recover(); r != nil {
			d = fmt.Sprintf("cannot compare: %v", r)
		}
	}()
	// A session state or a request note may be a struct with unexported
	// fields: compare them too.
	return cmp.Diff(a, b, cmp.Exporter(func(reflect.Type) bool { return true }), jsonText)
}

// jsonText shows a json.RawMessage (a reply's result, an event's) as its
// text: cmp shows a []byte as hex.
var jsonText = cmp.Transformer("JSON", func(m json.RawMessage) string { return string(m) })

// pureToolCall checks ToolCall on one update: against a generic card and
// against its own result (a second update merging into the card), the
// results agree, survive the frame, and the card passed in is unchanged.
func pureToolCall(hook func(frame.ToolUpdate, acpdialect.Payload) acpdialect.Payload, update string) (acpdialect.Payload, []string) {
	var msgs []string
	call := func(prev acpdialect.Payload) acpdialect.Payload {
		before := prev.Clone()
		out, msg := twiceGiven(update, func(u gjson.Result) acpdialect.Payload {
			return hook(frame.ReadToolUpdate(u), prev)
		}, prev)
		if msg != "" {
			msgs = append(msgs, msg)
		} else if d := diff(before, prev); d != "" {
			msgs = append(msgs, "changed the card it was given in place (copy a kind object before changing it) (-before +after):\n"+d)
		} else if msg := cardShape(out); msg != "" {
			msgs = append(msgs, msg)
		}
		return out
	}
	card := call(acpdialect.Payload{Kind: acpdialect.KindGeneric, Generic: &acpdialect.Generic{}})
	call(card)
	return card, msgs
}

// pureMergeLate merges every late half the hooks produced into every card
// ToolCall produced, and into an empty card of the half's kind.
func pureMergeLate(hook func(cur, late acpdialect.Payload) (acpdialect.Payload, bool), lates []acpdialect.Late, cards []acpdialect.Payload) []string {
	if hook == nil {
		return nil
	}
	var fails []string
	for _, l := range lates {
		candidates := append(append([]acpdialect.Payload(nil), cards...), acpdialect.Payload{Kind: l.Payload.Kind})
		for _, cur := range candidates {
			before := cur.Clone()
			var a, b acpdialect.Payload
			var okA, okB bool
			lateA := l.Payload.Clone()
			msg := protect(func() {
				a, okA = hook(cur, lateA)
				b, okB = hook(cur, l.Payload.Clone())
			})
			switch {
			case msg != "":
			case !okA && diff(l.Payload, lateA) != "":
				// The half keeps waiting, to be merged later as it was.
				msg = "changed the late half in place though it did not merge it (ok false) (-before +after):\n" + diff(l.Payload, lateA)
			case okA != okB || diff(a, b) != "":
				msg = "returned two results for the same halves:\n" + diff(a, b)
			case shared(a, b, cur) != "":
				msg = "returned the same " + shared(a, b, cur) + " from two merges of fresh halves: make each new object fresh for each call"
			case diff(before, cur) != "":
				msg = "changed the card it was given in place (-before +after):\n" + diff(before, cur)
			case okA && cur.Kind != "" && cardShape(a) != "": // two halves merge into a half
				msg = cardShape(a)
			}
			if msg != "" {
				fails = append(fails, fmt.Sprintf("MergeLate (late half for %q, card of kind %q) %s", l.ToolCallID, cur.Kind, msg))
			}
		}
	}
	return fails
}

// pureCalls feeds each Call's result reader the results found in the
// transcripts, and an empty object.
func pureCalls(k *kit) []string {
	var fails []string
	for _, c := range k.d.Calls {
		for _, raw := range append(k.results[c.Name], "{}") {
			if c.Result != nil {
				_, msg := twice(raw, c.Result)
				fails = appendMsg(fails, "result of "+c.Name, "Calls["+c.Name+"].Result", msg)
			}
			if c.Children != nil {
				_, msg := twice(raw, c.Children)
				fails = appendMsg(fails, "result of "+c.Name, "Calls["+c.Name+"].Children", msg)
			}
		}
	}
	return fails
}

// pureStrings checks the string hooks: Match and CommandDescription, and
// MatchResult, which reads an initialize result as Match reads a name.
func pureStrings(k *kit) []string {
	var fails []string
	if k.d.MatchResult != nil {
		for _, r := range append([]string{`{}`, `null`}, k.answers["initialize"]...) {
			var a, b bool
			if msg := protect(func() { a, b = k.d.MatchResult(gjson.Parse(r)), k.d.MatchResult(gjson.Parse(r)) }); msg != "" {
				fails = append(fails, fmt.Sprintf("MatchResult(%.80s) %s", r, msg))
			} else if a != b {
				fails = append(fails, fmt.Sprintf("MatchResult(%.80s) gave two answers: %v then %v", r, a, b))
			}
		}
	}
	if k.d.Match != nil {
		for _, name := range append(k.opts.Agents, k.nearMisses()...) {
			var a, b bool
			if msg := protect(func() { a, b = k.d.Match(name, ""), k.d.Match(name, "") }); msg != "" {
				fails = append(fails, fmt.Sprintf("Match(%q, \"\") %s", name, msg))
			} else if a != b {
				fails = append(fails, fmt.Sprintf("Match(%q, \"\") gave two answers: %v then %v", name, a, b))
			}
		}
	}
	if k.d.CommandDescription != nil {
		for _, s := range []string{"", "---", "Run the tests", " \t"} {
			var a, b string
			if msg := protect(func() { a, b = k.d.CommandDescription(s), k.d.CommandDescription(s) }); msg != "" {
				fails = append(fails, fmt.Sprintf("CommandDescription(%q) %s", s, msg))
			} else if a != b {
				fails = append(fails, fmt.Sprintf("CommandDescription(%q) gave two answers: %q then %q", s, a, b))
			}
		}
	}
	return fails
}

// shared returns the type of an object that a and b both point to and
// given does not ("" when there is none): a hook that hands out one object
// of its own on every call, whose changes (by the Conn, or by a merge that
// takes the object over) show in every result. A Step's events count,
// as their slice is the Conn's. Shared *RPCError values, session states
// and request notes are allowed: the Conn copies an error before any
// change, and states and notes are values no one changes.
func shared(a, b, given any) string {
	inA, allowed := pointers(a), pointers(given)
	for p, t := range pointers(b) {
		if _, ok := inA[p]; ok && allowed[p] == "" {
			return t
		}
	}
	return ""
}

var (
	rpcErrorType   = reflect.TypeFor[*acpdialect.RPCError]()
	eventType      = reflect.TypeFor[acpdialect.Event]()
	acpdialectPath = eventType.PkgPath()
)

// pointers maps the address of every object reachable from v through a
// pointer (but not a zero-size one, which all share an address) to its
// type.
func pointers(v any) map[uintptr]string {
	out := map[uintptr]string{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			if v.Type() != rpcErrorType && v.Type().Elem().Size() > 0 {
				if _, seen := out[v.Pointer()]; seen {
					return
				}
				out[v.Pointer()] = v.Type().String()
			}
			walk(v.Elem())
		case reflect.Interface:
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				if name := v.Type().Field(i).Name; (name == "State" || name == "Note") && v.Type().PkgPath() == acpdialectPath {
					continue
				}
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				return
			}
			if v.Kind() == reflect.Slice && v.Type().Elem() == eventType && v.Len() > 0 {
				out[v.Pointer()] = v.Type().String()
			}
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Value())
			}
		}
	}
	if v != nil {
		walk(reflect.ValueOf(v))
	}
	return out
}

// cardShape says what is wrong with a card a hook returned, "" when
// nothing: a card's Kind is one of acpdialect's kinds and it carries that
// kind's object and no other's, which is what clients render. (A generic
// object is the Conn's to add or drop: it drops it from a card of another
// kind, and gives a generic card one.)
func cardShape(p acpdialect.Payload) string {
	set := map[string]bool{
		acpdialect.KindGeneric:      p.Generic != nil,
		acpdialect.KindSubagentTask: p.SubagentTask != nil,
		acpdialect.KindShell:        p.Shell != nil,
		acpdialect.KindMCPTool:      p.MCPTool != nil,
		acpdialect.KindMonitor:      p.Monitor != nil,
		acpdialect.KindWakeup:       p.Wakeup != nil,
	}
	var objects []string
	for kind, ok := range set {
		if ok && kind != acpdialect.KindGeneric {
			objects = append(objects, kind)
		}
	}
	sort.Strings(objects)
	_, known := set[p.Kind]
	switch {
	case p.Kind == acpdialect.KindGeneric && len(objects) == 0:
		return ""
	case known && len(objects) == 1 && objects[0] == p.Kind:
		return ""
	}
	return fmt.Sprintf("returned a card of kind %q carrying the kind objects %q: a card carries the one object its Kind names, of acpdialect's kinds (a tool of the vendor's own is a generic card whose Payload.Tool names it)", p.Kind, objects)
}
