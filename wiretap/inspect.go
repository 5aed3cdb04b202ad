package wiretap

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"strings"

	"github.com/acpdialect/acpdialect"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// sdkUpdatePrefix starts every session/update the ACP SDKs write. Such a
// frame's first top-level method is session/update, so it is never renamed
// and the method lookup can be skipped.
const sdkUpdatePrefix = `{"jsonrpc":"2.0","method":"session/update"`

// inbound feeds one whole agent frame (without its '\n') to the Conn and
// hands its events on. It returns the offset in frame where a '_' must be
// inserted to rename the frame, or -1; a renamed frame's result is parked
// for HandleExtension instead. Called with t.mu held.
func (t *Tap) inbound(frame []byte) int {
	res, err := t.conn.Inbound(frame)
	if err == nil && t.conn.Dialect() != nil && !bytes.HasPrefix(frame, []byte(sdkUpdatePrefix)) {
		if at := t.renameAt(frame, res); at >= 0 {
			return at
		}
	}
	t.emit(res.Events)
	return -1
}

// renameAt decides whether a frame is a vendor request or notification
// the connection's dialect allows, and whether the SDK will see it exactly
// as the Conn did once renamed. If so it parks res and returns the offset
// of the '_' to insert; else -1.
func (t *Tap) renameAt(frame []byte, res acpdialect.Result) int {
	s := unsafeString(frame)
	m := gjson.Get(s, "method")
	if m.Type != gjson.String || m.Str == "" || m.Str[0] == '_' || !t.conn.Allows(m.Str) {
		return -1
	}
	// A vendor frame: rare, so the careful checks below cost nothing
	// overall.
	if m.Index <= 0 || m.Index >= len(frame) || frame[m.Index] != '"' {
		t.skipped.Add(1)
		return -1
	}
	params, ok := sdkView(frame, s, m.Str)
	if !ok {
		t.skipped.Add(1)
		return -1
	}
	p := parked{
		method: Alias(m.Str),
		sum:    maphash.Bytes(t.seed, params),
		size:   len(params),
		events: res.Events,
	}
	for i := range res.Events {
		if res.Events[i].Type == acpdialect.EventReply {
			p.reply = &res.Events[i]
			break
		}
	}
	t.park(p)
	t.renamed.Add(1)
	return m.Index + 1
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
// method and id the Conn saw (gjson reads a key's first occurrence,
// encoding/json its last, case-insensitively). It returns the params bytes
// the SDK will pass to HandleExtensionMethod. ok is false for a frame the
// SDK drops, or reads differently, or that repeats method or id.
func sdkView(frame []byte, s, method string) (params json.RawMessage, ok bool) {
	var msg sdkMessage
	if json.Unmarshal(frame, &msg) != nil || msg.Method != method {
		return nil, false
	}
	id := gjson.Get(s, "id")
	hasID := id.Exists() && id.Type != gjson.Null
	if (msg.ID != nil) != hasID || (hasID && string(*msg.ID) != id.Raw) {
		return nil, false
	}
	if repeatsKey(s, "method") || repeatsKey(s, "id") {
		return nil, false
	}
	return msg.Params, true
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

// outbound feeds one whole client frame (without its '\n') to the Conn,
// after removing the '_' of an Options.Outbound alias. It returns the frame
// to write, which is frame itself or scratch.
func (t *Tap) outbound(frame, scratch []byte) []byte {
	if t.aliases != nil {
		frame = t.unalias(frame, scratch)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	events, _ := t.conn.Outbound(frame)
	t.emit(events)
	return frame
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
