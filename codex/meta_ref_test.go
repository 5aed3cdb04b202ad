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
