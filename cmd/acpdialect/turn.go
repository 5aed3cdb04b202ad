package main

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// turnState is what the view remembers across frames to show a turn: the
// client's requests by id (a response says what it answers), the agent's
// permission requests (their answer names an option) and each tool call's
// nesting depth. Ids are keys by value (scan.IDKey), as the Conn
// matches them: "p\u0031" is answered by "p1". Each table is cleared when it reaches maxRemembered, and
// keeps no key over maxKey bytes and no text over maxText characters: the
// view then shows less, never grows (4,096 requests with 1 MB ids would
// otherwise hold 4 GB).
type turnState struct {
	requests    map[string]request       // client request id -> what it asked
	permissions map[string]permissionReq // permission request id -> its session and options
	depths      map[string]int           // tool call id -> depth
	// v2 says the agent answered initialize as ACP v2 does (info, not
	// agentInfo), as the Conn decides: its prompt answers may only
	// accept the prompt.
	v2 bool
}

const (
	maxRemembered = 4096
	maxKey        = 1 << 10 // bytes of an id the view remembers
	maxOptions    = 64      // options of a permission request remembered for its answer
)

// permissionReq is a permission request awaiting the client's answer:
// its session, and its options' names by id.
type permissionReq struct {
	session string
	options map[string]string
}

// request is a client request awaiting its response, and the line that
// sent it.
type request struct {
	method, session string
	line            int
}

func newTurnState() *turnState {
	return &turnState{requests: map[string]request{}, permissions: map[string]permissionReq{}, depths: map[string]int{}}
}

// remember puts k=v in m, clearing m when it is full; a key over maxKey
// is not remembered.
func remember[V any](m map[string]V, k string, v V) {
	if len(k) > maxKey {
		return
	}
	if len(m) >= maxRemembered {
		clear(m)
	}
	m[k] = v
}

// get reads a string at path in raw JSON, as a copy: frames are reused.
func get(raw, path string) string { return strings.Clone(gjson.Get(raw, path).String()) }

// depth returns how deep a tool call (or a message, with id "") nests
// under its parent, and remembers the tool call's.
func (t *turnState) depth(_ string, id, parent string) int {
	d := 0
	if parent != "" {
		d = t.depths[parent] + 1
	}
	if id != "" {
		remember(t.depths, strings.Clone(id), d)
	}
	return d
}

// chunk is a message or thought being joined from its chunks.
type chunk struct {
	line                  int
	session, role, parent string
	phase                 string // the dialect's phase of the message (Codex's commentary)
	text                  string // the start, cut
	total                 int    // characters in all
}

func (c *chunk) same(o *chunk) bool {
	return c.session == o.session && c.role == o.role && c.parent == o.parent && c.phase == o.phase
}

func (c *chunk) add(text string) {
	c.total += utf8.RuneCountInString(text)
	if utf8.RuneCountInString(c.text) <= maxText {
		c.text = cut(c.text + text)
	}
}

// cut keeps one character more than the view shows, so that truncate
// still marks the cut.
func cut(s string) string {
	if utf8.RuneCountInString(s) <= maxText+1 {
		return strings.Clone(s)
	}
	return string([]rune(s)[:maxText+1])
}

// chunkRoles are the ACP chunk kinds, by the role the view shows.
var chunkRoles = map[string]string{
	"agent_message_chunk": "assistant",
	"agent_thought_chunk": "thought",
	"user_message_chunk":  "user",
}

// chunk returns the frame's chunk, if it is a message, thought or user
// chunk.
func (t *turnState) chunk(f replay.Frame) *chunk {
	if f.Method != "session/update" {
		return nil
	}
	u := gjson.Get(f.Params, "update")
	role, ok := chunkRoles[u.Get("sessionUpdate").Str]
	if !ok {
		return nil
	}
	return &chunk{line: f.Line, session: get(f.Params, "sessionId"), role: role, text: blockText(u.Get("content"))}
}

// blockText is a content block as text: its text, else its kind in
// brackets ([image], [resource_link file.go]).
func blockText(b gjson.Result) string {
	if b.Get("type").Str == "text" || b.Get("text").Exists() {
		return b.Get("text").String()
	}
	name := b.Get("name").String()
	if name == "" {
		name = b.Get("uri").String()
	}
	if name == "" {
		name = b.Get("resource.uri").String()
	}
	return "[" + strings.TrimSpace(b.Get("type").String()+" "+name) + "]"
}

// rows appends the frame's own lines: what a frame shows when no event
// covers it.
func (t *turnState) rows(f replay.Frame, dst []row) []row {
	r := row{line: f.Line, session: get(f.Params, "sessionId")}
	switch {
	case f.Method == "":
		return t.response(f, r, dst)
	case f.Dir == replay.ClientToAgent:
		if f.ID != "" {
			remember(t.requests, strings.Clone(scan.IDKey(f.ID)), request{strings.Clone(truncate(f.Method)), cut(r.session), r.line})
		}
		return t.clientRequest(f, r, dst)
	case f.Method == "session/update":
		return t.update(f, r, dst)
	case f.Method == "session/request_permission":
		return append(dst, t.permission(f, r))
	}
	r.what, r.text = f.Method, idText(f.ID)+scalars(gjson.Parse(f.Params))
	return append(dst, r)
}

func idText(id string) string {
	if id == "" {
		return ""
	}
	return "id=" + id + " "
}

// clientRequest shows the prompt in full (cut), a cancel, and the other
// session settings; initialize and session/new show through their
// responses.
func (t *turnState) clientRequest(f replay.Frame, r row, dst []row) []row {
	switch f.Method {
	case "session/prompt":
		var parts []string
		gjson.Get(f.Params, "prompt").ForEach(func(_, b gjson.Result) bool {
			parts = append(parts, blockText(b))
			return true
		})
		r.what, r.text = "prompt", quote(strings.Join(parts, " "))
	case "initialize", "session/new", "session/load", "session/list":
		return dst
	case "session/cancel":
		r.what = "cancel"
	default:
		r.what, r.text = f.Method, scalars(gjson.Parse(f.Params))
	}
	return append(dst, r)
}

// response shows the end of a turn, the agent's identity, a new session,
// the answer to a permission request, and errors.
func (t *turnState) response(f replay.Frame, r row, dst []row) []row {
	res := gjson.Parse(f.Result)
	if f.Dir == replay.ClientToAgent {
		p, ok := t.permissions[scan.IDKey(f.ID)]
		if !ok && f.ID == "" {
			// An "id":null error (a parse error, of either side) answers
			// no request, so no event shows it.
			return t.errorRow(f, r, "", dst)
		}
		if !ok {
			return dst // the client's answer to a request its reply event shows
		}
		delete(t.permissions, scan.IDKey(f.ID))
		r.what, r.session, r.text = "answer", p.session, "id="+f.ID+" "+permissionAnswer(res, f.Error, p.options)
		return append(dst, r)
	}
	req := t.requests[scan.IDKey(f.ID)]
	delete(t.requests, scan.IDKey(f.ID))
	method := req.method
	r.session = req.session
	if f.Error != "" {
		return t.errorRow(f, r, method, dst)
	}
	switch method {
	case "session/prompt":
		if stop := res.Get("stopReason"); stop.Exists() || !res.IsObject() || !t.v2 {
			r.what, r.text = "end_turn", "stop_reason="+word(stop.String())+" "+scalars(res.Get("usage"))
		} else {
			// ACP v2 answers when it accepts the prompt; its state row
			// (idle) shows the turn's end.
			r.what, r.text = "accepted", scalars(res)
		}
	case "initialize":
		info := res.Get("agentInfo")
		if !info.Exists() {
			info = res.Get("info") // ACP v2's name for it
			t.v2 = info.Exists()
		}
		r.what, r.text = "agent", scalars(info)
	case "session/new", "session/load":
		// A load's result has no sessionId: the request named it.
		r.what, r.session = "session", cmp.Or(get(f.Result, "sessionId"), req.session)
	default:
		return dst
	}
	r.text, r.keep = strings.TrimSpace(r.text), true
	return append(dst, r)
}

// errorRow shows an error response, naming the method of the request it
// answers when that is known; a response without an error shows nothing.
func (t *turnState) errorRow(f replay.Frame, r row, method string, dst []row) []row {
	if f.Error == "" {
		return dst
	}
	e := gjson.Parse(f.Error)
	head := "id=" + cmp.Or(f.ID, "null") + " "
	if method != "" {
		head += method + " "
	}
	r.what, r.text = "error", strings.TrimSpace(head+"-> "+e.Get("code").Raw+" "+quote(e.Get("message").String()))
	return append(dst, r)
}

// permission shows a permission request: its tool call, title and
// options, and remembers the options for the answer.
func (t *turnState) permission(f replay.Frame, r row) row {
	p := gjson.Parse(f.Params)
	opts := map[string]string{}
	var names []string
	p.Get("options").ForEach(func(_, o gjson.Result) bool {
		id, name := o.Get("optionId").String(), o.Get("name").String()
		if len(opts) < maxOptions && len(id) <= maxKey {
			opts[strings.Clone(id)] = cut(name)
		}
		names = append(names, optionText(name, id, o.Get("kind").String()))
		return true
	})
	if f.ID != "" {
		remember(t.permissions, strings.Clone(scan.IDKey(f.ID)), permissionReq{cut(r.session), opts})
	}
	tc := p.Get("toolCall")
	r.what = "permission"
	r.text = idText(f.ID) + strings.TrimSpace(tc.Get("toolCallId").String()+" "+quote(tc.Get("title").String())) +
		" [" + strings.Join(names, "|") + "]"
	return r
}

// permissionAnswer is the client's answer: the option it selected (by
// name) or cancelled.
func permissionAnswer(res gjson.Result, rpcErr string, opts map[string]string) string {
	if rpcErr != "" {
		return "error " + gjson.Get(rpcErr, "code").Raw
	}
	o := res.Get("outcome")
	if id := o.Get("optionId").String(); id != "" {
		return "selected " + word(cmp.Or(opts[id], id))
	}
	return cmp.Or(o.Get("outcome").String(), "-")
}

// update shows the session/update kinds that carry no card: plans,
// usage, modes, and any other kind with its scalar fields. Tool calls and
// commands show through their events; chunks are joined.
func (t *turnState) update(f replay.Frame, r row, dst []row) []row {
	u := gjson.Get(f.Params, "update")
	kind := u.Get("sessionUpdate").String()
	switch kind {
	case "tool_call", "tool_call_update", "available_commands_update", "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
		return dst
	case "plan":
		// The agent's own to-do list: not the plan event of a dialect
		// (Cursor's cursor/create_plan), which waits for the user.
		r.what, r.text, r.color = "plan", planEntries(u.Get("entries")), colorOther
	case "plan_update":
		r.what, r.text, r.color = "plan", planText(u.Get("plan")), colorOther
	case "user_message", "agent_message", "agent_thought":
		// ACP v2's whole messages: the prompt as the agent took it in, and
		// a message's content replaced (emptied before a load replays it).
		r.what, r.text = kind, strings.Join(appendSet(appendSet(nil, "message_id", idToken(u.Get("messageId").String())), "", blocksText(u.Get("content"))), " ")
	case "usage_update":
		r.what, r.text = "usage", strings.TrimSpace(scalars(u)+" "+prefixed("cost.", u.Get("cost")))
	case "current_mode_update":
		r.what, r.text = "mode", word(u.Get("currentModeId").String())
	default:
		r.what, r.text = truncate(kind), scalars(u)
	}
	return append(dst, r)
}

// planText is ACP v2's whole plan: its id, then what its type holds:
// entries (items), a text (markdown) or a file's uri (file). Another
// type shows by name only.
func planText(p gjson.Result) string {
	out := appendSet(nil, "plan_id", idToken(p.Get("planId").String()))
	switch typ := p.Get("type").String(); typ {
	case "items":
		out = append(out, planEntries(p.Get("entries")))
	case "markdown":
		out = appendSet(append(out, "type=markdown"), "", quote(p.Get("content").String()))
	case "file":
		out = appendSet(append(out, "type=file"), "uri", idToken(p.Get("uri").String()))
	default:
		out = append(out, "type="+token(typ))
	}
	return strings.Join(out, " ")
}

// idToken is an id (or a uri) as a token, "" when there is none.
func idToken(id string) string {
	if id == "" {
		return ""
	}
	return token(id)
}

// planEntries shows a plan's entries: how many, then the first maxItems
// of them, each as its status and text.
func planEntries(entries gjson.Result) string {
	var list []gjson.Result
	if entries.IsArray() {
		list = entries.Array()
	}
	out := []string{"entries=" + strconv.Itoa(len(list))}
	for i, e := range list {
		if i == maxItems {
			return strings.Join(append(out, "…"), " ")
		}
		out = appendSet(append(out, statusTag(e.Get("status").String())), "", quote(e.Get("content").String()))
	}
	return strings.Join(out, " ")
}

// blocksText is a list of content blocks as one quoted text, "" when it
// is empty or not a list.
func blocksText(blocks gjson.Result) string {
	if !blocks.IsArray() {
		return ""
	}
	var b strings.Builder
	blocks.ForEach(func(_, v gjson.Result) bool {
		b.WriteString(blockText(v))
		return b.Len() <= utf8.UTFMax*(maxText+1) // past what quote shows
	})
	if b.Len() == 0 {
		return ""
	}
	return quote(b.String())
}

// scalars shows an object's scalar members as k=v (strings quoted and cut),
// skipping sessionUpdate and _meta; "" for anything else.
func scalars(o gjson.Result) string { return prefixed("", o) }

func prefixed(prefix string, o gjson.Result) string {
	if !o.IsObject() {
		return ""
	}
	var out []string
	o.ForEach(func(k, v gjson.Result) bool {
		switch {
		case k.Str == "sessionUpdate" || k.Str == "_meta" || k.Str == "sessionId":
		case v.Type == gjson.String:
			out = append(out, prefix+word(k.Str)+"="+token(v.Str))
		case v.Type == gjson.Number || v.Type == gjson.True || v.Type == gjson.False:
			out = append(out, prefix+word(k.Str)+"="+truncate(v.Raw))
		}
		return true
	})
	return strings.Join(out, " ")
}

// unfinished is a row for each prompt the transcript sent and never saw
// answered, in the order they were sent: the agent exited, crashed or
// was still working when the recording stopped.
func (t *turnState) unfinished() []row {
	var rows []row
	for _, req := range t.requests {
		if req.method == "session/prompt" {
			rows = append(rows, row{line: req.line, what: "unfinished", session: req.session,
				text: "the transcript ends before this turn's end"})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return a.line - b.line })
	return rows
}
