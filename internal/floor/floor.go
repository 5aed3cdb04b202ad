// Package floor is the least any normalizer that meets a dialect's
// contract does with each line of a transcript, without a single rule of
// the dialect: the benchmarks set it beside gjson reading three fields,
// to show how fast a Conn could be at best.
//
// For each line it checks that the line is JSON (an SDK drops one that is
// not, so a normalizer must not act on it) in the one walk that reads it:
// each value it reads is read where it stands, every other value is
// checked and passed over, and no byte is walked twice. It reads an
// update's kind, its tool call id and the fields of _meta.<vendor> that
// decide a card's kind and nesting, finds the session and the card in
// maps, and makes one event per tool call frame. Everything else a Conn
// does (merging, responses, usage, permissions, bounds) is left out.
//
// NewOutputs makes a floor that also makes the events the contract asks
// for besides cards, each in the least way (see NewOutputs): a lower
// bound that still leaves out every merge and bound.
package floor

import (
	"strconv"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// Floor reads lines; its maps keep what it saw, as a Conn's stores do.
type Floor struct {
	vendor   string
	keys     []string // the fields of _meta.<vendor> read
	outputs  bool     // NewOutputs
	sessions map[string]int
	cards    map[string]*acpdialect.Payload
	// What the response to each request in flight carries, by id: a
	// number, or (rarer) a string, copied.
	pending    map[int64]uint8
	pendingStr map[string]uint8
	// The line being read (reused, so that reading allocates nothing).
	l line
	// Events is the last line's events, so that they are not optimized
	// away.
	Events []acpdialect.Event
}

// New returns a Floor that reads keys of _meta.<vendor> in tool calls.
func New(vendor string, keys ...string) *Floor {
	return &Floor{vendor: vendor, keys: keys, sessions: map[string]int{}, cards: map[string]*acpdialect.Payload{}}
}

// NewOutputs returns a Floor that also does what every Claude and Codex
// normalizer must do to make the contract's other events from these lines,
// and nothing more: it matches each response to its request (by an id in a
// map), so that it knows which responses to read; reads the agent's name
// and the vendor's promptQueueing from initialize's result, and the token
// counts of session/prompt's usage into a turn summary; makes a usage
// event of a usage_update's used and size, a commands event of each
// command's name and description, and a permission event of the tool call
// id and each option's id, name and kind. The strings it keeps are copied,
// those of one event in one allocation, escapes and all (decoding costs
// more). It reads no other vendor data (no model, no cost, no rate limit,
// no _meta.quota) and keeps no session state beyond the floor's.
func NewOutputs(vendor string, keys ...string) *Floor {
	f := New(vendor, keys...)
	f.outputs, f.pending, f.pendingStr = true, map[int64]uint8{}, map[string]uint8{}
	return f
}

// What a request's response carries, for NewOutputs.
const (
	plainResponse uint8 = iota
	initializeResponse
	promptResponse
)

// line is what one line says, as raw values viewing it.
type line struct {
	rpcID, method  string
	sid, kind, id  string
	fields         [2]string // of _meta.<vendor>
	toolCallID     string    // a permission request's
	options        [][3]string
	used, size     string // a usage_update's
	commands       [][2]string
	hasCommands    bool
	agent          string // initialize's result's
	promptQueueing bool
	usage          [6]string // session/prompt's result's
	result         bool      // a response's
}

// Line reads one line. It panics on a line that is not JSON: the floor is
// measured on recorded transcripts, which are.
func (f *Floor) Line(s string) {
	l := &f.l
	*l = line{options: l.options[:0], commands: l.commands[:0]}
	i := scan.SkipSpace(s, 0)
	var end int
	if i < len(s) && s[i] == '{' {
		end = object(s, i, 0, f.envelope)
	} else {
		end = scan.CheckValue(s, i, 0)
	}
	if end < 0 || scan.SkipSpace(s, end) != len(s) {
		panic("floor: a line is not JSON")
	}
	if l.sid != "" {
		if _, ok := f.sessions[l.sid]; !ok {
			f.sessions[strings.Clone(l.sid)] = 0 // a key is kept: copied
		}
		f.sessions[l.sid]++
	}
	if f.outputs {
		f.output(l)
	}
	if l.id != "" {
		f.card(l)
	}
}

// envelope reads a member of the line's object.
func (f *Floor) envelope(s, key string, i int) int {
	l := &f.l
	switch key {
	case "id":
		return capture(s, i, 1, &l.rpcID)
	case "method":
		return capture(s, i, 1, &l.method)
	case "params":
		return maybeObject(s, i, 1, f.params)
	case "result":
		l.result = true
		if f.outputs {
			return maybeObject(s, i, 1, f.result)
		}
	}
	return scan.CheckValue(s, i, 1)
}

// params reads a member of a request's or notification's params.
func (f *Floor) params(s, key string, i int) int {
	l := &f.l
	switch key {
	case "sessionId":
		return capture(s, i, 2, &l.sid)
	case "update":
		return maybeObject(s, i, 2, f.update)
	case "toolCall":
		if f.outputs {
			return maybeObject(s, i, 2, func(s, key string, i int) int {
				if key == "toolCallId" {
					return capture(s, i, 3, &l.toolCallID)
				}
				return scan.CheckValue(s, i, 3)
			})
		}
	case "options":
		if f.outputs {
			return list(s, i, 2, func(s, key string, i int) int {
				o := &l.options[len(l.options)-1]
				switch key {
				case "optionId":
					return capture(s, i, 4, &o[0])
				case "name":
					return capture(s, i, 4, &o[1])
				case "kind":
					return capture(s, i, 4, &o[2])
				}
				return scan.CheckValue(s, i, 4)
			}, func() { l.options = append(l.options, [3]string{}) })
		}
	}
	return scan.CheckValue(s, i, 2)
}

// update reads a member of a session/update's update.
func (f *Floor) update(s, key string, i int) int {
	l := &f.l
	switch key {
	case "sessionUpdate":
		return capture(s, i, 3, &l.kind)
	case "toolCallId":
		return capture(s, i, 3, &l.id)
	case "_meta":
		return maybeObject(s, i, 3, func(s, key string, i int) int {
			if key != f.vendor {
				return scan.CheckValue(s, i, 4)
			}
			return maybeObject(s, i, 4, func(s, key string, i int) int {
				for k, want := range f.keys[:min(len(f.keys), len(l.fields))] {
					if key == want {
						return capture(s, i, 5, &l.fields[k])
					}
				}
				return scan.CheckValue(s, i, 5)
			})
		})
	}
	if !f.outputs {
		return scan.CheckValue(s, i, 3)
	}
	switch key {
	case "used":
		return capture(s, i, 3, &l.used)
	case "size":
		return capture(s, i, 3, &l.size)
	case "availableCommands":
		l.hasCommands = true
		return list(s, i, 3, func(s, key string, i int) int {
			c := &l.commands[len(l.commands)-1]
			switch key {
			case "name":
				return capture(s, i, 5, &c[0])
			case "description":
				return capture(s, i, 5, &c[1])
			}
			return scan.CheckValue(s, i, 5)
		}, func() { l.commands = append(l.commands, [2]string{}) })
	}
	return scan.CheckValue(s, i, 3)
}

// result reads a member of a response's result (NewOutputs): what
// initialize's and session/prompt's say, whichever this answers.
func (f *Floor) result(s, key string, i int) int {
	l := &f.l
	switch key {
	case "agentInfo":
		return maybeObject(s, i, 2, func(s, key string, i int) int {
			if key == "name" {
				return capture(s, i, 3, &l.agent)
			}
			return scan.CheckValue(s, i, 3)
		})
	case "agentCapabilities":
		// _meta.<vendor>.promptQueueing
		return maybeObject(s, i, 2, func(s, key string, i int) int {
			if key != "_meta" {
				return scan.CheckValue(s, i, 3)
			}
			return maybeObject(s, i, 3, func(s, key string, i int) int {
				if key != f.vendor {
					return scan.CheckValue(s, i, 4)
				}
				return maybeObject(s, i, 4, func(s, key string, i int) int {
					i = scan.SkipSpace(s, i)
					end := scan.CheckValue(s, i, 5)
					if key == "promptQueueing" && end >= 0 {
						l.promptQueueing = s[i:end] == "true"
					}
					return end
				})
			})
		})
	case "usage":
		return maybeObject(s, i, 2, func(s, key string, i int) int {
			for k, name := range tokenCounts {
				if key == name {
					return capture(s, i, 3, &l.usage[k])
				}
			}
			return scan.CheckValue(s, i, 3)
		})
	}
	return scan.CheckValue(s, i, 2)
}

// tokenCounts are the counts of session/prompt's usage, in the order of
// the turn summary's fields.
var tokenCounts = [6]string{"inputTokens", "outputTokens", "cachedReadTokens", "cachedWriteTokens", "thoughtTokens", "totalTokens"}

// capture checks the value at s[i], inside depth open containers, and
// keeps it raw in *dst.
func capture(s string, i, depth int, dst *string) int {
	end := scan.CheckValue(s, i, depth)
	if end >= 0 {
		*dst = s[scan.SkipSpace(s, i):end]
	}
	return end
}

// maybeObject reads the value at s[i] with object if it is an object, and
// checks it otherwise.
func maybeObject(s string, i, depth int, member func(s, key string, i int) int) int {
	if i = scan.SkipSpace(s, i); i < len(s) && s[i] == '{' {
		return object(s, i, depth, member)
	}
	return scan.CheckValue(s, i, depth)
}

// object checks the object at s[i], inside depth open containers, calling
// member with each key and the index of its value: member checks the value
// (reading what it needs) and returns the index past it, or -1. object
// returns the index past the object, or -1.
func object(s string, i, depth int, member func(s, key string, i int) int) int {
	if depth >= 10000 { // encoding/json's nesting limit
		return -1
	}
	if i = scan.SkipSpace(s, i+1); i < len(s) && s[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return -1
		}
		kend := scan.StringEnd(s, i+1)
		if kend < 0 {
			return -1
		}
		key := s[i+1 : kend-1] // raw: the keys read have no escapes
		if i = scan.SkipSpace(s, kend); i >= len(s) || s[i] != ':' {
			return -1
		}
		if i = member(s, key, i+1); i < 0 {
			return -1
		}
		if i = scan.SkipSpace(s, i); i >= len(s) {
			return -1
		}
		switch s[i] {
		case '}':
			return i + 1
		case ',':
			i = scan.SkipSpace(s, i+1)
		default:
			return -1
		}
	}
}

// list reads the value at s[i], inside depth open containers, as an array
// of objects: each object element is read with member after start is
// called, and any other value is checked. Not an array, it is checked.
func list(s string, i, depth int, member func(s, key string, i int) int, start func()) int {
	if i = scan.SkipSpace(s, i); i >= len(s) || s[i] != '[' {
		return scan.CheckValue(s, i, depth)
	}
	if depth >= 10000 {
		return -1
	}
	if i = scan.SkipSpace(s, i+1); i < len(s) && s[i] == ']' {
		return i + 1
	}
	for {
		if i < len(s) && s[i] == '{' {
			start()
			i = object(s, i, depth+1, member)
		} else {
			i = scan.CheckValue(s, i, depth+1)
		}
		if i < 0 {
			return -1
		}
		if i = scan.SkipSpace(s, i); i >= len(s) {
			return -1
		}
		switch s[i] {
		case ']':
			return i + 1
		case ',':
			i = scan.SkipSpace(s, i+1)
		default:
			return -1
		}
	}
}

// card finds or makes the tool call's card and makes its event.
func (f *Floor) card(l *line) {
	p := f.cards[l.id]
	if p == nil {
		p = &acpdialect.Payload{}
		f.cards[strings.Clone(l.id)] = p
	}
	o := &struct {
		ev [1]acpdialect.Event
		p  acpdialect.Payload
	}{p: *p}
	o.p.Title, o.p.ParentToolCallID = l.fields[0], l.fields[1]
	o.ev[0] = acpdialect.Event{Type: l.kind, SessionID: l.sid, ToolCallID: l.id, Payload: &o.p}
	f.Events = o.ev[:]
}

// output makes the line's events besides its card (NewOutputs).
func (f *Floor) output(l *line) {
	switch {
	case l.rpcID != "" && l.method != "":
		f.track(l)
	case l.rpcID != "" && l.result:
		f.answer(l)
	}
	switch {
	case l.method == `"session/request_permission"`:
		f.permission(l)
	case l.kind == `"usage_update"`:
		f.usage(l)
	case l.hasCommands && l.kind == `"available_commands_update"`:
		f.commands(l)
	}
}

// track keeps a request's id until its response.
func (f *Floor) track(l *line) {
	carries := plainResponse
	switch l.method {
	case `"initialize"`:
		carries = initializeResponse
	case `"session/prompt"`:
		carries = promptResponse
	}
	if n, err := strconv.ParseInt(l.rpcID, 10, 64); err == nil {
		f.pending[n] = carries
	} else {
		f.pendingStr[strings.Clone(l.rpcID)] = carries
	}
}

// answer reads a response as its request says.
func (f *Floor) answer(l *line) {
	var carries uint8
	var ok bool
	if n, err := strconv.ParseInt(l.rpcID, 10, 64); err == nil {
		carries, ok = f.pending[n]
		delete(f.pending, n)
	} else {
		carries, ok = f.pendingStr[l.rpcID]
		delete(f.pendingStr, l.rpcID)
	}
	switch {
	case !ok:
	case carries == initializeResponse:
		f.capabilities(l)
	case carries == promptResponse:
		f.turn(l)
	}
}

// capabilities makes initialize's event: the agent's name (which names
// the dialect) and the vendor's promptQueueing.
func (f *Floor) capabilities(l *line) {
	o := &struct {
		ev   [1]acpdialect.Event
		caps acpdialect.Capabilities
	}{}
	o.caps.PromptQueueing = l.promptQueueing
	o.ev[0] = acpdialect.Event{Type: acpdialect.EventCapabilities, Agent: strings.Clone(contents(l.agent)), Object: &o.caps}
	f.Events = o.ev[:]
}

// turn makes session/prompt's turn summary of its usage's token counts.
func (f *Floor) turn(l *line) {
	o := &struct {
		ev     [1]acpdialect.Event
		u      acpdialect.Usage
		counts [6]int64
	}{}
	o.u.Turn = true
	dst := [...]**int64{&o.u.InputTokens, &o.u.OutputTokens, &o.u.CachedReadTokens, &o.u.CachedWriteTokens, &o.u.ThoughtTokens, &o.u.TotalTokens}
	for k, raw := range l.usage {
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			o.counts[k], *dst[k] = n, &o.counts[k]
		}
	}
	o.ev[0] = acpdialect.Event{Type: acpdialect.EventUsage, Object: &o.u}
	f.Events = o.ev[:]
}

// usage makes a usage_update's event of its used and size.
func (f *Floor) usage(l *line) {
	o := &struct {
		ev         [1]acpdialect.Event
		u          acpdialect.Usage
		used, size int64
	}{}
	if n, err := strconv.ParseInt(l.used, 10, 64); err == nil {
		o.used, o.u.Used = n, &o.used
	}
	if n, err := strconv.ParseInt(l.size, 10, 64); err == nil {
		o.size, o.u.Size = n, &o.size
	}
	o.ev[0] = acpdialect.Event{Type: acpdialect.EventUsage, Object: &o.u}
	f.Events = o.ev[:]
}

// commands makes a commands event of each command's name and description.
func (f *Floor) commands(l *line) {
	c := &acpdialect.Commands{Items: make([]acpdialect.Command, len(l.commands))}
	fields := make([]*string, 0, 2*len(l.commands))
	for k, cmd := range l.commands {
		it := &c.Items[k]
		it.Name, it.Description = contents(cmd[0]), contents(cmd[1])
		fields = append(fields, &it.Name, &it.Description)
	}
	frame.OwnTogether(fields...)
	f.Events = []acpdialect.Event{{Type: acpdialect.EventCommands, Object: c}}
}

// permission makes a permission event of the tool call id and each
// option's id, name and kind.
func (f *Floor) permission(l *line) {
	p := &acpdialect.Permission{Options: make([]acpdialect.PermissionOption, len(l.options))}
	id := contents(l.toolCallID)
	fields := make([]*string, 1, 1+3*len(l.options))
	fields[0] = &id
	for k, o := range l.options {
		po := &p.Options[k]
		po.ID, po.Name, po.Kind = contents(o[0]), contents(o[1]), contents(o[2])
		fields = append(fields, &po.ID, &po.Name, &po.Kind)
	}
	frame.OwnTogether(fields...)
	f.Events = []acpdialect.Event{{Type: acpdialect.EventPermission, ToolCallID: id, Object: p}}
}

// contents views a string's contents between its quotes, escapes and
// all: less than decoding costs, as a floor should.
func contents(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	return raw[1 : len(raw)-1]
}

// MustCheck reports whether a normalizer must check line before it acts
// on it: every line but a session/update of a message chunk kind with no
// _meta in the update, which a client renders as the SDK reads it. It is
// a lower bound (a dialect may read a chunk's text, as Claude's monitors
// do), for the check floor: checking the lines it selects takes no more
// than any checking normalizer spends on them.
func MustCheck(line string) bool {
	u := gjson.Get(line, "params.update")
	if gjson.Get(line, "method").Str != "session/update" || !u.IsObject() {
		return true
	}
	switch u.Get("sessionUpdate").Str {
	case "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
		return u.Get("_meta").Exists()
	}
	return true
}
