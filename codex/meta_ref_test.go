package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// parseMetaWalks is ParseMeta as it was before it read _meta in one pass
// (a walk per object, then gjson's Get for each field): the reference
// FuzzParseMetaOnePass holds it to.
func parseMetaWalks(meta gjson.Result) codex.Meta {
	var m codex.Meta
	frame.Members(meta, func(k string, v gjson.Result) bool {
		switch k {
		case "codex":
			frame.Members(v, func(k string, v gjson.Result) bool {
				switch {
				case k == "collaboration" && m.Tool == "":
					m.Tool = frame.View(v.Get("tool"))
					m.Sender = frame.View(v.Get("senderThreadId"))
					m.Receivers = threadsRef(v.Get("receiverThreadIds"))
				case k == "subagent" && m.Activity == "":
					m.Activity = frame.View(v.Get("activity"))
					m.Thread = frame.View(v.Get("threadId"))
					m.Path = frame.View(v.Get("path"))
				}
				return true
			})
		case "is_mcp_tool_call":
			m.MCP = m.MCP || v.Type == gjson.True
		case "mcp_output_delta":
			if !m.MCPDelta.Exists() {
				m.MCPDelta = v.Get("data")
			}
		default:
			m.Terminal = m.Terminal || strings.HasPrefix(k, "terminal_")
		}
		return true
	})
	return m
}

func threadsRef(list gjson.Result) []string {
	if !list.IsArray() {
		return nil
	}
	var out []string
	list.ForEach(func(_, v gjson.Result) bool {
		if s := frame.View(v); s != "" {
			out = append(out, s)
		}
		return len(out) < acpdialect.MaxRunsPerFrame
	})
	return out
}

// FuzzParseMetaOnePass: the one-pass read of a tool call's _meta finds
// what the walks and gjson's Get found, on valid JSON.
func FuzzParseMetaOnePass(f *testing.F) {
	seeds(f, "params.update._meta")
	f.Add(`{"codex":{"collaboration":{"senderThreadId":"a","receiverThreadIds":["x"]},"collaboration":{"tool":"spawnAgent"}}}`)
	f.Add(`{"codex":{"subagent":{"threadId":"t"},"subagent":{"activity":"started","path":"/p"}},"codex":{"subagent":{"activity":"late"}}}`)
	f.Add(`{"is_mcp_tool_call":false,"is_mcp_tool_call":true,"mcp_output_delta":{"x":1},"mcp_output_delta":{"data":"d"},"terminal_output":{}}`)
	f.Add(`{"codex":{"collaboration":{"tool":"wait","receiverThreadIds":["",1,"a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q","r","s","t","u","v","w","x","y","z","A","B","C","D","E","F","G"]}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return // the Conn reads only valid frames
		}
		got, want := codex.ParseMeta(gjson.Parse(s)), parseMetaWalks(gjson.Parse(s))
		if got.MCPDelta.Raw != want.MCPDelta.Raw {
			t.Fatalf("MCPDelta %q; the walks read %q", got.MCPDelta.Raw, want.MCPDelta.Raw)
		}
		got.MCPDelta, want.MCPDelta = gjson.Result{}, gjson.Result{}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("_meta %s (-walks +one pass):\n%s", s, diff)
		}
	})
}

// systemErrorPaths is SystemError as it was before it read both paths in
// one walk: the reference FuzzSystemErrorOnePass holds it to.
func systemErrorPaths(u gjson.Result) (mark, ok bool) {
	t := frame.Path(u, "_meta", "codex", "threadStatus", "type")
	if !t.Exists() {
		t = frame.Path(u, "_meta", "threadStatus", "type")
	}
	if !t.Exists() {
		return false, false
	}
	return t.Type == gjson.String && t.Str == "systemError", true
}

func TestSystemError(t *testing.T) {
	for _, tt := range []struct {
		update   string
		mark, ok bool
	}{
		{`{"_meta":{"codex":{"threadStatus":{"type":"systemError"}}}}`, true, true},
		{`{"_meta":{"threadStatus":{"type":"systemError"}}}`, true, true},
		{`{"_meta":{"codex":{"threadStatus":{"type":"idle"}},"threadStatus":{"type":"systemError"}}}`, false, true},
		{`{"_meta":{"threadStatus":{"type":"systemError"},"codex":{"threadStatus":{"type":"idle"}}}}`, false, true},
		{`{"_meta":{"codex":{"threadStatus":{}}},"_meta":{"codex":{"threadStatus":{"type":"systemError"}}}}`, true, true},
		{`{"_meta":{"codex":{"threadStatus":{"type":"systemError","type":"idle"}}}}`, true, true},
		{`{"_meta":{"codex":{"threadStatus":"systemError"},"threadStatus":{"type":null}}}`, false, true},
		{`{"_meta":{"codex":{}}}`, false, false},
		{`{"sessionUpdate":"session_info_update","title":"t"}`, false, false},
	} {
		mark, ok := codex.SystemError(gjson.Parse(tt.update))
		if mark != tt.mark || ok != tt.ok {
			t.Errorf("SystemError(%s) = %v, %v; want %v, %v", tt.update, mark, ok, tt.mark, tt.ok)
		}
		if rm, rok := systemErrorPaths(gjson.Parse(tt.update)); rm != mark || rok != ok {
			t.Errorf("SystemError(%s) = %v, %v; the paths read %v, %v", tt.update, mark, ok, rm, rok)
		}
	}
}

// FuzzSystemErrorOnePass: on any valid update the one walk reads what the
// two path lookups read.
func FuzzSystemErrorOnePass(f *testing.F) {
	for _, s := range []string{
		`{"_meta":{"codex":{"threadStatus":{"type":"systemError"}}}}`,
		`{"_meta":{"codex":{"threadStatus":{}}},"_meta":{"threadStatus":{"type":"systemError"}}}`,
		`{"_meta":[],"_meta":{"codex":[{"threadStatus":{"type":"x"}}],"threadStatus":{"type":1}}}`,
	} {
		f.Add(s)
	}
	seeds(f, "params.update")
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		u := gjson.Parse(s)
		mark, ok := codex.SystemError(u)
		if rm, rok := systemErrorPaths(u); rm != mark || rok != ok {
			t.Fatalf("SystemError(%s) = %v, %v; the paths read %v, %v", s, mark, ok, rm, rok)
		}
	})
}

// parseChunkWalks is ParseChunk as it was before it read the chunk in one
// pass (content and _meta skipped, then looked up again): the reference
// FuzzParseChunkOnePass holds it to.
func parseChunkWalks(u gjson.Result) codex.Chunk {
	or := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	var c codex.Chunk
	frame.Members(u, func(k string, v gjson.Result) bool {
		switch k {
		case "sessionUpdate":
			c.Kind = or(c.Kind, frame.View(v))
		case "messageId":
			c.MessageID = or(c.MessageID, frame.View(v))
		case "content":
			c.Text = or(c.Text, frame.View(frame.Get(v, "text")))
		case "_meta":
			p := frame.Path(v, "codex", "phase")
			if !p.Exists() {
				p = frame.Path(v, "jetbrains", "air", "phase")
			}
			c.Phase = or(c.Phase, frame.View(p))
		}
		return true
	})
	return c
}

func TestParseChunk(t *testing.T) {
	for _, tt := range []struct {
		update string
		want   codex.Chunk
	}{
		{`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hi"},"_meta":{"codex":{"phase":"commentary"}}}`,
			codex.Chunk{Kind: "agent_message_chunk", MessageID: "m1", Text: "hi", Phase: "commentary"}},
		{`{"content":{"text":1,"text":"later"},"content":{"text":"second"}}`, codex.Chunk{Text: "second"}},
		{`{"_meta":{"codex":{"phase":1},"codex":{"phase":"final_answer"}},"_meta":{"codex":{"phase":"commentary"}}}`, codex.Chunk{Phase: "commentary"}},
		{`{"_meta":{"codex":{},"codex":{"phase":"final_answer"}}}`, codex.Chunk{Phase: "final_answer"}},
		{`{"_meta":{"phase":"x","codex":"y"},"content":"text"}`, codex.Chunk{}},
		{`{"_meta":{"jetbrains":{"air":{"version":1,"phase":"commentary"}}}}`, codex.Chunk{Phase: "commentary"}},
		{`{"_meta":{"jetbrains":{"air":{}},"jetbrains":{"air":{"phase":"final_answer"}}}}`, codex.Chunk{Phase: "final_answer"}},
		{`{"_meta":{"jetbrains":{"air":{"phase":"commentary"}},"codex":{"phase":"final_answer"}}}`, codex.Chunk{Phase: "final_answer"}},
		{`{"sessionUpdate":"","sessionUpdate":"user_message_chunk","content":{"text":"a\"b"}}`, codex.Chunk{Kind: "user_message_chunk", Text: `a"b`}},
	} {
		u := gjson.Parse(tt.update)
		if d := cmp.Diff(tt.want, codex.ParseChunk(u)); d != "" {
			t.Errorf("ParseChunk(%s) (-want +got):\n%s", tt.update, d)
		}
		if d := cmp.Diff(parseChunkWalks(u), codex.ParseChunk(u)); d != "" {
			t.Errorf("ParseChunk(%s) against the walks (-walks +one pass):\n%s", tt.update, d)
		}
	}
}

// FuzzParseChunkOnePass: on any valid update the one pass reads what the
// walks read.
func FuzzParseChunkOnePass(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hi"},"_meta":{"codex":{"phase":"commentary"}}}`,
		`{"content":{"text":1,"text":"later"},"_meta":{"codex":{"phase":1},"codex":{"phase":"x"}},"_meta":{}}`,
	} {
		f.Add(s)
	}
	seeds(f, "params.update")
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		u := gjson.Parse(s)
		if d := cmp.Diff(parseChunkWalks(u), codex.ParseChunk(u)); d != "" {
			t.Fatalf("ParseChunk(%s) against the walks (-walks +one pass):\n%s", s, d)
		}
	})
}

// sessionInfoWalks is SessionInfoEvent's reading as it was before it read
// the update in one pass: the reference FuzzSessionInfoOnePass holds it to.
func sessionInfoWalks(u gjson.Result) (title string, archived, closed *bool) {
	flag := func(p *bool, v gjson.Result) *bool {
		if p != nil || (v.Type != gjson.True && v.Type != gjson.False) {
			return p
		}
		b := v.Type == gjson.True
		return &b
	}
	frame.Members(u, func(k string, v gjson.Result) bool {
		switch k {
		case "title":
			if title == "" {
				title = frame.View(v)
			}
		case "_meta":
			archived = flag(archived, frame.Path(v, "codex", "archived"))
			closed = flag(closed, frame.Path(v, "codex", "closed"))
		}
		return true
	})
	return title, archived, closed
}

// sessionInfo reads SessionInfoEvent's event as sessionInfoWalks returns
// its reading (nothing: "", nil, nil).
func sessionInfo(u gjson.Result) (title string, archived, closed *bool) {
	ev := codex.SessionInfoEvent(u)
	if ev == nil {
		return "", nil, nil
	}
	x := ev.Object.(*acpdialect.SessionInfo)
	return x.Title, x.Archived, x.Closed
}

func TestSessionInfoEvent(t *testing.T) {
	yes, no := true, false
	for _, tt := range []struct {
		update           string
		title            string
		archived, closed *bool
	}{
		{`{"sessionUpdate":"session_info_update","title":"Fix it","_meta":{"codex":{"archived":true,"closed":false}}}`, "Fix it", &yes, &no},
		{`{"_meta":{"codex":{"archived":"yes"},"codex":{"archived":true}},"_meta":{"codex":{"archived":false}}}`, "", &no, nil},
		{`{"_meta":{"codex":{},"codex":{"closed":true}}}`, "", nil, &yes},
		{`{"_meta":{"archived":true,"codex":[{"archived":true}]},"title":1,"title":"t"}`, "t", nil, nil},
		{`{"sessionUpdate":"session_info_update"}`, "", nil, nil},
	} {
		u := gjson.Parse(tt.update)
		title, archived, closed := sessionInfo(u)
		if d := cmp.Diff([]any{tt.title, tt.archived, tt.closed}, []any{title, archived, closed}); d != "" {
			t.Errorf("SessionInfoEvent(%s) (-want +got):\n%s", tt.update, d)
		}
		wt, wa, wc := sessionInfoWalks(u)
		if d := cmp.Diff([]any{wt, wa, wc}, []any{title, archived, closed}); d != "" {
			t.Errorf("SessionInfoEvent(%s) against the walks (-walks +one pass):\n%s", tt.update, d)
		}
	}
}

// FuzzSessionInfoOnePass: on any valid update the one pass reads what the
// walks read.
func FuzzSessionInfoOnePass(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"session_info_update","title":"Fix it","_meta":{"codex":{"archived":true,"closed":false}}}`,
		`{"_meta":{"codex":{"archived":"yes"},"codex":{"archived":true}},"_meta":{"codex":{"closed":false}},"title":""}`,
	} {
		f.Add(s)
	}
	seeds(f, "params.update")
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		u := gjson.Parse(s)
		title, archived, closed := sessionInfo(u)
		wt, wa, wc := sessionInfoWalks(u)
		if d := cmp.Diff([]any{wt, wa, wc}, []any{title, archived, closed}); d != "" {
			t.Fatalf("SessionInfoEvent(%s) against the walks (-walks +one pass):\n%s", s, d)
		}
	})
}
