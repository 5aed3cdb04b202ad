package dialecttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// Limits of the hostile corpus, so that the rule runs in about a second.
const (
	samplesPerKind = 2  // frames of one method or update kind mutated
	nodesPerSample = 24 // values of one frame replaced
	hugeLen        = 256 << 10
	deepLevels     = 5000
)

// hostileValues replace one value of a frame each. The invalid UTF-8 one
// is raw bytes: the frame is still valid JSON to encoding/json (which does
// not check UTF-8), so a request carrying it is due its reply, and a
// handler that copies it into its result has that result refused.
var hostileValues = []string{
	`123`, `-1.5e308`, `""`, `[]`, `{}`, `true`, `null`,
	`"` + strings.Repeat("a", hugeLen) + `"`,
	strings.Repeat("[", deepLevels) + strings.Repeat("]", deepLevels),
	"\"\xff\xfe\"",
	`"\u0000\ud800"`,
}

// hostileIDs are ids a request may carry; the reply must echo each byte
// for byte.
var hostileIDs = []string{
	`0`, `-7`, `1.5e3`, `1.0`, `9007199254740993`, `""`, `"a\"b"`, `"\u003c"`,
	`"` + strings.Repeat("i", 300) + `"`,
}

// checkFailClosed feeds hostile variants of the dialect's frames to a Conn
// identified as the dialect, with and without the client answering
// blocking requests itself: nothing panics, and each request gets exactly
// one reply with its id.
func checkFailClosed(k *kit) []string {
	var fails []string
	for _, plain := range k.mutated() {
		// A frame that fails as it is fails every variant too: report it
		// once, as itself, rather than blame the hostile values.
		if msg := k.feedBoth(plain); msg != "" {
			fails = append(fails, fmt.Sprintf("%s, unchanged %s", plain.where, msg))
			continue
		}
		for _, s := range variants(plain) {
			if msg := k.feedBoth(s); msg != "" {
				fails = append(fails, fmt.Sprintf("%s %s", s.where, msg))
			}
			if len(fails) >= 20 {
				return append(fails, "(more failures not shown)")
			}
		}
	}
	return fails
}

// feedBoth feeds a frame with and without the client answering blocking
// requests itself, and says how the first that fails failed.
func (k *kit) feedBoth(s sample) string {
	for _, clientAnswers := range []bool{false, true} {
		if msg := k.feedHostile(s, clientAnswers); msg != "" {
			return fmt.Sprintf("(ClientAnswers %v): %s", clientAnswers, msg)
		}
	}
	return ""
}

// mutated picks the frames the variants are made of: a few of each
// method, update kind and Call's response.
func (k *kit) mutated() []sample {
	perKind := map[string]int{}
	var out []sample
	for _, s := range append(k.frames[:len(k.frames):len(k.frames)], k.responses...) {
		key := frameKind(s)
		if perKind[key] >= samplesPerKind {
			continue
		}
		perKind[key]++
		out = append(out, s)
	}
	return out
}

// frameKind groups frames: by method, updates by their kind, and
// responses by the Call they answer.
func frameKind(s sample) string {
	if isResponse(s.b) {
		return "response to " + s.call
	}
	b := s.b
	m := gjson.GetBytes(b, "method").Str
	if m == "session/update" {
		return m + " " + gjson.GetBytes(b, "params.update.sessionUpdate").Str
	}
	_, isRequest := idOf(b)
	return fmt.Sprint(m, isRequest)
}

// variants are the hostile versions of one frame: each value (up to
// nodesPerSample) replaced by each hostile value, the params (a response's
// result) replaced whole, and for a request each hostile id.
func variants(s sample) []sample {
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(s.b))
	dec.UseNumber()
	if dec.Decode(&doc) != nil {
		return nil
	}
	var out []sample
	add := func(what string, b []byte) {
		out = append(out, sample{fmt.Sprintf("%s, %s", s.where, what), b, s.call})
	}
	body := "params"
	switch {
	case isResponse(s.b):
		body = "result"
		if _, ok := doc["result"]; !ok {
			body = "error"
		}
		for _, v := range []string{"null", "0", `"x"`, "[]", "true"} {
			add(body+" = "+v, replaced(doc, body, v))
		}
	case doc["method"] == "session/update":
		body = "params.update"
	}
	for _, p := range nodes(doc, body, nodesPerSample) {
		for _, v := range hostileValues {
			add(fmt.Sprintf("%s = %.20s", p, v), replaced(doc, p, v))
		}
	}
	if body == "params" {
		for _, v := range []string{"null", "0", `"x"`, "[]", "true"} {
			add("params = "+v, replaced(doc, "params", v))
		}
		if _, ok := doc["id"]; ok {
			for _, id := range hostileIDs {
				add(fmt.Sprintf("id = %.20s", id), replaced(doc, "id", id))
			}
		}
	}
	return out
}

// nodes lists the paths (dot-separated, array elements by index) of the
// values under root, breadth first, at most max of them.
func nodes(doc map[string]any, root string, max int) []string {
	start, ok := at(doc, root)
	if !ok {
		return nil
	}
	type node struct {
		path string
		v    any
	}
	queue := []node{{root, start}}
	var out []string
	for len(queue) > 0 && len(out) < max {
		n := queue[0]
		queue = queue[1:]
		switch v := n.v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for key := range v {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				if !strings.ContainsAny(key, ".#") {
					out = append(out, n.path+"."+key)
					queue = append(queue, node{n.path + "." + key, v[key]})
				}
			}
		case []any:
			for i, e := range v {
				out = append(out, fmt.Sprintf("%s.%d", n.path, i))
				queue = append(queue, node{fmt.Sprintf("%s.%d", n.path, i), e})
			}
		}
	}
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// at returns the value at a path of nodes.
func at(v any, path string) (any, bool) {
	for _, step := range strings.Split(path, ".") {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[step]; !ok {
				return nil, false
			}
		case []any:
			var i int
			if _, err := fmt.Sscan(step, &i); err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// placeholder marks the value to replace in an encoded frame.
const placeholder = "\x00dialecttest-hostile\x00"

// replaced encodes the frame with the value at path replaced by raw bytes.
func replaced(doc map[string]any, path, raw string) []byte {
	copyDoc := deepCopy(doc).(map[string]any)
	steps := strings.Split(path, ".")
	parent, _ := at(copyDoc, strings.Join(steps[:len(steps)-1], "."))
	if len(steps) == 1 {
		parent = copyDoc
	}
	last := steps[len(steps)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = placeholder
	case []any:
		var i int
		fmt.Sscan(last, &i)
		p[i] = placeholder
	}
	b, err := json.Marshal(copyDoc)
	if err != nil {
		return nil
	}
	quoted, _ := json.Marshal(placeholder)
	return bytes.Replace(b, quoted, []byte(raw), 1)
}

func deepCopy(v any) any {
	switch c := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(c))
		for k, e := range c {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(c))
		for i, e := range c {
			s[i] = deepCopy(e)
		}
		return s
	}
	return v
}

// idOf returns a frame's id bytes and whether it is a request (a method
// and an id that is not null; a response has no method).
func idOf(b []byte) (string, bool) {
	id := gjson.GetBytes(b, "id")
	return id.Raw, id.Exists() && id.Type != gjson.Null && gjson.GetBytes(b, "method").Exists()
}

// feedHostile feeds one frame to a fresh Conn in a turn and checks the
// replies: one with the request's id for a valid request, none otherwise.
func (k *kit) feedHostile(s sample, clientAnswers bool) string {
	b := s.b
	clock := time.Unix(1e9, 0)
	opts := k.opts.Conn
	opts.Agent, opts.ClientAnswers, opts.Now = k.d.ID, clientAnswers, func() time.Time { return clock }
	c := acpdialect.NewRegistry(k.d).NewConn(opts)
	var replies []byte
	msg := protect(func() {
		_, _ = c.Outbound(Prompt(2, "s1", "go"))
		if id := gjson.GetBytes(b, "id"); s.call != "" && id.Exists() {
			// The client's request the response answers, under its id.
			_, _ = c.Outbound(Request(json.RawMessage(id.Raw), s.call, map[string]any{"sessionId": "s1"}))
		}
		res, _ := c.Inbound(b)
		replies = append(replies, res.Reply...)
		for _, r := range c.Expire(clock.Add(365 * 24 * time.Hour)) {
			replies = append(replies, r.Reply...)
		}
	})
	if msg != "" {
		return msg
	}
	id, isRequest := idOf(b)
	want := 0
	if method := gjson.GetBytes(b, "method").Str; isRequest && json.Valid(b) && !k.observed(method) && !k.clientServes(method) {
		want = 1
	}
	lines := strings.Split(strings.TrimSuffix(string(replies), "\n"), "\n")
	if len(replies) == 0 {
		lines = nil
	}
	if len(lines) != want {
		return fmt.Sprintf("%d replies, want %d: %q", len(lines), want, replies)
	}
	if want == 1 {
		if got := gjson.Get(lines[0], "id").Raw; got != id {
			return fmt.Sprintf("the reply's id is %s, want the request's %s byte for byte", got, id)
		}
		if !json.Valid([]byte(lines[0])) {
			return fmt.Sprintf("the reply is not valid JSON: %q", lines[0])
		}
		// The Conn refuses a Result it cannot put on the wire (not one JSON
		// value, or not valid UTF-8) with this error: the dialect's bug.
		if msg := gjson.Get(lines[0], "error.message").Str; strings.HasPrefix(msg, "acpdialect: the "+k.d.ID+" dialect's result for ") {
			return msg
		}
	}
	return ""
}

// observed reports whether method is a request ACP defines for the client
// that the dialect only reads (session/request_permission): the client
// answers it, so the Conn sends no reply.
func (k *kit) observed(method string) bool {
	m := k.method(method, true)
	return m != nil && m.Name == method && !k.d.Allows(method)
}

// clientServes reports whether Options.Conn.ClientMethods names method:
// the client answers it, so the Conn sends no reply.
func (k *kit) clientServes(method string) bool {
	return slices.Contains(k.opts.Conn.ClientMethods, method)
}
