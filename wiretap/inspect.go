package wiretap

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/scan"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// sdkUpdatePrefix starts every session/update the ACP SDKs write. Such a
// frame's first top-level method is session/update, so it is never renamed
// and the method lookup can be skipped.
const sdkUpdatePrefix = `{"jsonrpc":"2.0","method":"session/update"`

// edit is what the reader does to an agent frame: rename it (insert a '_'
// at at, or remove the one, maybe escaped, at cut), replace it with with (nil: drop it),
// or neither.
type edit struct {
	at, cut int
	replace bool
	with    []byte
}

// inbound feeds one whole agent frame (without its '\n') to the Conn and
// hands its events on, renamed frames' included. It returns the edit the
// frame needs. Called with t.mu held.
func (t *Tap) inbound(frame []byte) edit {
	settled := t.begin()
	res, err := t.conn.Inbound(frame)
	d := t.conn.Dialect() // set by the initialize response
	if d != t.dialect.Load() {
		t.dialect.Store(d)
	}
	// The frame's defaults (a reused id, the bound) are for requests
	// before it: final before the frame's own wait exists.
	t.release(res.Events)
	e := edit{at: -1, cut: -1}
	switch {
	case err != nil:
	case d == nil && !res.Quarantine:
		// An unknown agent gets standard behaviour: only the draft kinds
		// every connection reads (subagent_update, session_message,
		// state_update, terminal_update, terminal_output_chunk) are
		// quarantined.
	case res.Wire != nil && res.Wire.Echo:
		if !t.keepEchoes {
			t.echoes.Add(1)
			e.replace = true
		}
	case res.Wire != nil:
		t.rewritten.Add(1)
		e.replace, e.with = true, res.Wire.Frame
	default:
		e.at, e.cut = t.rename(frame, res)
	}
	t.end(settled, res.Events) // after a blocking request's wait exists: OnEvent may answer it
	return e
}

// rename decides where, if anywhere, to rename a frame of an identified
// agent (at: insert a '_', cut: remove one), and registers a blocking
// request the client will answer.
func (t *Tap) rename(frame []byte, res acpdialect.Result) (at, cut int) {
	switch {
	case res.Quarantine:
		return t.quarantineAt(frame), -1
	case bytes.HasPrefix(frame, []byte(sdkUpdatePrefix)):
		return -1, -1
	}
	at, cut = t.renameAt(frame)
	if res.Awaiting && (at >= 0 || sentAsAlias(frame)) {
		t.addWait(frame)
	}
	return at, cut
}

// A notification must never reach HandleExtension looking like a blocking
// request: the SDK gives HandleExtensionMethod no id, so HandleExtension
// would take the wait of a request with the same method and params (the
// request then got its default at once, and the client's answer
// ErrNotPending), and hold the SDK's notifications while it waited. So a
// notification of a method the dialect answers, as a request, only once
// the client has (Action.Await) is not renamed, and one the agent sent
// under a "_" name loses its '_': the SDK drops it, after OnEvent got its
// events.

// aliasNoteAt returns the offset of the '_' to remove from a frame sent
// under the "_" name m if it is a notification that HandleExtension would
// take for a blocking request, or -1.
func (t *Tap) aliasNoteAt(frame []byte, s string, m gjson.Result) int {
	if id := gjson.Get(s, "id"); id.Exists() && id.Type != gjson.Null {
		return -1
	}
	if m.Index <= 0 || m.Index+1 >= len(frame) || frame[m.Index] != '"' || underscoreLen(frame[m.Index+1:]) == 0 {
		return -1
	}
	d := t.conn.Dialect()
	if !awaitable(d, replyName(d, m.Str), gjson.Get(s, "params").Raw) {
		return -1
	}
	t.renamed.Add(1)
	return m.Index + 1
}

// underscoreLen returns the length of the '_' that b starts with: 1, or 6
// when it is escaped (\u005f), which the SDK decodes to the same '_'; 0 if
// b does not start with one.
func underscoreLen(b []byte) int {
	switch {
	case len(b) > 0 && b[0] == '_':
		return 1
	case len(b) >= 6 && bytes.EqualFold(b[:6], []byte(`\u005f`)) && b[1] == 'u':
		return 6
	}
	return 0
}

// replyName is the method HandleExtension answers for an extension method
// name: the name without its '_', unless the dialect's own name has it.
func replyName(d *acpdialect.Dialect, method string) string {
	if d.Allows(method) {
		return method
	}
	return strings.TrimPrefix(method, "_")
}

// awaitable reports whether d, given a request for name with these params,
// would wait for the client's answer (Action.Await): a request
// HandleExtension would wait on.
func awaitable(d *acpdialect.Dialect, name, params string) bool {
	if d == nil {
		return false
	}
	for _, m := range d.Methods {
		if m.Name == name && m.Kind&acpdialect.Request != 0 && m.Handle != nil {
			return m.Handle(gjson.Parse(params)).Await
		}
	}
	return false
}

// sentAsAlias reports whether the agent sent a method under its "_" alias
// already: the SDK routes it to HandleExtensionMethod as it is.
func sentAsAlias(frame []byte) bool {
	m := gjson.Get(unsafeString(frame), "method")
	return m.Type == gjson.String && strings.HasPrefix(m.Str, "_")
}

// quarantineAt returns where to insert the '_' that turns a session/update
// the Conn quarantined (a kind of the dialect's own, or a draft kind every
// connection reads) into QuarantineMethod, or -1 when the SDK would read
// the frame differently from the Conn.
func (t *Tap) quarantineAt(frame []byte) int {
	s := unsafeString(frame)
	m := gjson.Get(s, "method")
	if m.Str != "session/update" || m.Index <= 0 || m.Index >= len(frame) || frame[m.Index] != '"' {
		t.skipped.Add(1)
		return -1
	}
	if isRequest, ok := sdkView(frame, s, m.Str); !ok || isRequest {
		t.skipped.Add(1)
		return -1
	}
	t.quarantined.Add(1)
	t.renamed.Add(1)
	return m.Index + 1
}

// renameAt decides whether a frame is a vendor request or notification
// the connection's dialect allows as such, and whether the SDK will see it
// exactly as the Conn did once renamed, so that HandleExtension gives the
// Conn's answer. If so it returns the offset of the '_' to insert (at);
// else -1, and for a notification sent under a "_" name the offset of the
// '_' to remove (cut, see aliasNoteAt), or -1.
func (t *Tap) renameAt(frame []byte) (at, cut int) {
	s := unsafeString(frame)
	m := gjson.Get(s, "method")
	if m.Type != gjson.String || m.Str == "" {
		return -1, -1
	}
	if m.Str[0] == '_' {
		return -1, t.aliasNoteAt(frame, s, m)
	}
	if !t.conn.Allows(m.Str) {
		return -1, -1
	}
	// A vendor frame: rare, so the careful checks below cost nothing
	// overall.
	if m.Index <= 0 || m.Index >= len(frame) || frame[m.Index] != '"' {
		t.skipped.Add(1)
		return -1, -1
	}
	isRequest, ok := sdkView(frame, s, m.Str)
	d := t.conn.Dialect()
	if !ok || !allowsAs(d, m.Str, isRequest) {
		// A request for a notification-only method (or the reverse) stays
		// as it is: the SDK declines it as the Conn did.
		t.skipped.Add(1)
		return -1, -1
	}
	if !isRequest && awaitable(d, m.Str, gjson.Get(s, "params").Raw) {
		t.skipped.Add(1) // see aliasNoteAt
		return -1, -1
	}
	t.renamed.Add(1)
	return m.Index + 1, -1
}

// allowsAs reports whether d allows name as a request (or, if !isRequest,
// as a notification): what the Conn checks before it answers.
func allowsAs(d *acpdialect.Dialect, name string, isRequest bool) bool {
	want := acpdialect.Notification
	if isRequest {
		want = acpdialect.Request
	}
	for _, m := range d.Methods {
		if m.Name == name && m.Kind&want != 0 {
			return true
		}
	}
	return false
}

// sdkKeys are the members the SDK reads of every frame (bar jsonrpc, which
// it ignores), as the Conn names them.
var sdkKeys = [...]string{"method", "id", "params", "result", "error"}

// readsApart reports whether the SDK would read a frame's method, id,
// params, result or error other than the Conn: the Conn reads the first
// occurrence of the exact key, the SDK's encoding/json the last one, in
// any case. Such a frame is not fed to the Conn, so that none of its
// events (a reply, a question) contradicts what the SDK does with it. The
// SDKs' own session/update layout is not checked: the hot path, and a
// frame that writer never repeats keys in.
func readsApart(frame []byte) bool {
	if bytes.HasPrefix(frame, []byte(sdkUpdatePrefix)) {
		return false
	}
	var seen uint8
	apart := false
	scan.Members(unsafeString(frame), func(k, _ string) bool {
		for i, name := range sdkKeys {
			if len(k) < len(name) || !strings.EqualFold(k, name) {
				continue
			}
			bit := uint8(1) << i
			if k != name || seen&bit != 0 {
				apart = true
				return false
			}
			seen |= bit
		}
		return true
	})
	return apart
}

// disarm returns an ambiguous frame (readsApart) rewritten without the
// '_' of the method the SDK reads, when that method is a dialect's alias,
// or nil to pass the frame as it is. The SDK would hand such a frame to
// HandleExtension, where it could take the place of a waiting request with
// the same params; the Conn never saw it. Without the '_' the SDK answers
// the request -32601 or drops the notification, as for any unknown method.
// The frame is written again as the SDK reads it: which of its repeated
// keys to edit is the SDK's choice, and a broken frame has no bytes to
// keep.
func (t *Tap) disarm(frame []byte) []byte {
	var msg sdkMessage
	if json.Unmarshal(frame, &msg) != nil {
		return nil
	}
	name, ok := strings.CutPrefix(msg.Method, "_")
	d := t.dialect.Load()
	if !ok || !d.Allows(name) || d.Allows(msg.Method) {
		return nil
	}
	msg.JSONRPC, msg.Method = "2.0", name
	b, err := json.Marshal(msg)
	if err != nil {
		return nil
	}
	return b
}

// sdkMessage mirrors the acp-go-sdk's private anyMessage: what its receive
// loop decodes each line into.
type sdkMessage struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      *json.RawMessage  `json:"id,omitempty"`
	Method  string            `json:"method,omitempty"`
	Params  json.RawMessage   `json:"params,omitempty"`
	Result  json.RawMessage   `json:"result,omitempty"`
	Error   *acp.RequestError `json:"error,omitempty"`
}

// sdkView decodes a frame as the SDK will and checks that the SDK sees the
// method, id and params the Conn saw (gjson reads a key's first
// occurrence, encoding/json its last, case-insensitively): HandleExtension
// recomputes the Conn's answer from the params the SDK passes. isRequest
// says whether the frame has an id. ok is false for a frame the SDK drops,
// or reads differently, or that repeats method or id.
func sdkView(frame []byte, s, method string) (isRequest, ok bool) {
	var msg sdkMessage
	if json.Unmarshal(frame, &msg) != nil || msg.Method != method {
		return false, false
	}
	id := gjson.Get(s, "id")
	hasID := id.Exists() && id.Type != gjson.Null
	if (msg.ID != nil) != hasID || (hasID && string(*msg.ID) != id.Raw) {
		return false, false
	}
	if string(msg.Params) != gjson.Get(s, "params").Raw {
		return false, false
	}
	if repeatsKey(s, "method") || repeatsKey(s, "id") {
		return false, false
	}
	return hasID, true
}

// repeatsKey reports whether the top-level object has more than one key
// that encoding/json would take for name.
func repeatsKey(s, name string) bool {
	n := 0
	gjson.Parse(s).ForEach(func(k, _ gjson.Result) bool {
		if strings.EqualFold(k.Str, name) {
			n++
		}
		return n < 2
	})
	return n > 1
}

// outbound feeds one whole client frame to the Conn, after removing the
// '_' of an Options.Outbound alias. It returns the frame to write: frame
// itself, scratch, the dialect's rewrite of it, or nil for a request the
// dialect refused (its response goes to the reader, for the client).
func (t *Tap) outbound(frame, scratch []byte) []byte {
	if t.aliases != nil {
		frame = t.unalias(frame, scratch)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	settled := t.begin()
	res, _ := t.conn.Outbound(frame)
	if w := res.Wire; w != nil && !w.Echo {
		frame = w.Frame
		if frame != nil {
			t.redirected.Add(1)
		} else {
			t.refused.Add(1)
		}
		if w.Deliver != nil {
			t.deliver.push(w.Deliver)
		}
	}
	t.release(res.Events)
	t.end(settled, res.Events)
	return frame
}

// outboundHead gives the Conn what it needs of a client frame too long to
// feed it whole (a prompt with a large image), which goes to the agent as
// it was: a head with the frame's method, id and params.sessionId (first
// occurrences, as the Conn reads them), so that a prompt still starts a
// turn that its response ends, and a request is known when its response
// comes. frame is the whole frame, or its start when the rest is still to
// come: then what lies past it is not seen. A response (no method) is not
// fed: its result would be cut. Nor is a request the dialect rewrites,
// since the agent gets it as it was.
func (t *Tap) outboundHead(frame []byte) {
	head, method := frameHead(unsafeString(frame))
	if head == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if rewrites(t.conn.Dialect(), method) {
		return
	}
	settled := t.begin()
	res, _ := t.conn.Outbound(head)
	t.release(res.Events)
	t.end(settled, res.Events)
}

// frameHead returns {"jsonrpc":"2.0","id":…,"method":…,"params":{"sessionId":…}}
// with the raw values of s's first id, method and params.sessionId, the
// members that are there, and the method; nil if s has no method string.
// s may be cut short, even inside params.
func frameHead(s string) (head []byte, method string) {
	var rawMethod, id, params string
	var seen uint8
	read := func(k, raw string) bool {
		switch {
		case k == "method" && seen&1 == 0:
			rawMethod, seen = raw, seen|1
		case k == "id" && seen&2 == 0:
			id, seen = raw, seen|2
		case k == "params" && seen&4 == 0:
			params, seen = raw, seen|4
		}
		return true
	}
	if scan.Members(s, read) < 0 && seen&4 == 0 {
		// Cut short, perhaps inside params: their members up to the cut.
		_, params = scan.Walk(s, "params", read)
	}
	m := scan.Result(rawMethod)
	if m.Type != gjson.String {
		return nil, ""
	}
	head = append(head, `{"jsonrpc":"2.0"`...)
	if id != "" {
		head = append(append(head, `,"id":`...), id...)
	}
	head = append(append(head, `,"method":`...), rawMethod...)
	if sid := scan.Member(params, "sessionId"); sid != "" {
		head = append(append(append(head, `,"params":{"sessionId":`...), sid...), '}')
	}
	return append(head, '}'), m.Str
}

// rewrites reports whether d rewrites requests for method.
func rewrites(d *acpdialect.Dialect, method string) bool {
	if d == nil {
		return false
	}
	for _, rw := range d.Rewrites {
		if rw.Method == method {
			return true
		}
	}
	return false
}

// unalias removes the '_' from a request or notification whose top-level
// method is an alias of an Options.Outbound name.
func (t *Tap) unalias(frame, scratch []byte) []byte {
	s := unsafeString(frame)
	m := gjson.Get(s, "method")
	if m.Type != gjson.String || !t.aliases[m.Str] {
		return frame
	}
	at := m.Index + 1
	if m.Index <= 0 || at >= len(frame) || frame[m.Index] != '"' || frame[at] != '_' || repeatsKey(s, "method") {
		return frame
	}
	t.unaliased.Add(1)
	out := append(scratch[:0], frame[:at]...)
	return append(out, frame[at+1:]...)
}
