package claude_test

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/claude"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// seeds adds to f the values at path (a gjson path) of every transcript
// line whose own value at key equals one of want (any line when want is
// empty).
func seeds(f *testing.F, path, key string, want ...string) {
	f.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, name := range files {
		file, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if len(want) > 0 && !oneOf(gjson.Get(line, key).Str, want) {
				continue
			}
			if v := gjson.Get(line, path); v.Exists() {
				f.Add(v.Raw)
			}
		}
		file.Close()
	}
	f.Add(`{}`)
	f.Add(`[]`)
	f.Add(`"x"`)
}

func oneOf(s string, list []string) bool {
	for _, w := range list {
		if s == w {
			return true
		}
	}
	return false
}

// read views s as the Conn does: a gjson.Result over the raw bytes.
func read(s string) gjson.Result { return gjson.Result{Type: gjson.JSON, Raw: s} }

func FuzzParseMCPName(f *testing.F) {
	seeds(f, "params.update._meta.claudeCode.toolName", "params.update.sessionUpdate", "tool_call", "tool_call_update")
	f.Add("mcp__a___b")
	f.Add("mcp__a__b__c")
	f.Fuzz(func(t *testing.T, name string) {
		server, tool, ok := claude.ParseMCPName(name)
		if ok && "mcp__"+server+"__"+tool != name {
			t.Fatalf("%q split into %q %q", name, server, tool)
		}
	})
}

func FuzzParseTaskNotifications(f *testing.F) {
	seeds(f, "params.update.content.text", "params.update.sessionUpdate", "agent_message_chunk", "user_message_chunk")
	f.Add("Human: <task-notification><task-id>m</task-id><event>e</event></task-notification>")
	f.Fuzz(func(t *testing.T, text string) {
		last := 0
		for _, n := range claude.ParseTaskNotifications(text) {
			if n.Start < last || n.End <= n.Start || n.End > len(text) || n.TaskID == "" {
				t.Fatalf("bad span %+v in %q", n, text)
			}
			last = n.End
		}
	})
}

// FuzzToolCall feeds an update to ToolCall twice (the second on the first
// result): it never panics, never changes the card it was given.
func FuzzToolCall(f *testing.F) {
	seeds(f, "params.update", "params.update.sessionUpdate", "tool_call", "tool_call_update")
	// AIR's split of an MCP name (claude-agent-acp 0.92.0 on).
	f.Add(`{"sessionUpdate":"tool_call","toolCallId":"x","_meta":{"claudeCode":{"toolName":"mcp__a__b__c"},"jetbrains":{"air":{"version":1,"mcp":{"server":"a","tool":"b__c"}}}},"rawInput":{"q":1}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		u := frame.ReadToolUpdate(read(raw))
		p := claude.ToolCall(u, acpdialect.Payload{Kind: acpdialect.KindGeneric})
		before := p.Clone()
		q := claude.ToolCall(u, p)
		if !p.Equal(before) {
			t.Fatal("ToolCall changed the card it was given")
		}
		_ = claude.EndBackground(q, acpdialect.EndExited)
	})
}

// FuzzUpdates feeds an update object to every update hook.
func FuzzUpdates(f *testing.F) {
	seeds(f, "params.update", "")
	f.Fuzz(func(t *testing.T, raw string) {
		u := read(raw)
		for _, h := range claude.Dialect().Updates {
			if h.Event != nil {
				if ev := h.Event(u); ev != nil {
					if p := ev.ProviderError(); p != nil && (p.Title == "" || len(p.Title) > 1024 || len(p.Message) > 1024 || len(p.ReplacesText) > 1024) {
						t.Fatalf("notice %+v from %s", p, raw)
					}
				}
			}
			var lates []acpdialect.Late
			if h.Handle != nil {
				lates = append(lates, h.Handle(u))
			}
			if h.HandleAll != nil {
				all := h.HandleAll(u)
				for i, l := range all {
					for _, m := range all[:i] {
						if m.Alias == l.Alias {
							t.Fatalf("two late halves for one monitor %q", l.Alias)
						}
					}
				}
				lates = append(lates, all...)
			}
			for _, l := range lates {
				if _, ok := claude.MergeLate(acpdialect.Payload{Kind: l.Payload.Kind}, l.Payload); !ok && l.Payload.Kind != "" {
					t.Fatalf("a half does not merge into a card of its own kind: %+v", l)
				}
			}
		}
	})
}

// FuzzMethods feeds params to every method handler and results to every
// call reader.
func FuzzMethods(f *testing.F) {
	seeds(f, "params", "method", claude.MethodRequestPermission, claude.MethodAuthStatus, claude.MethodAccountingUsage)
	seeds(f, "result", "")
	f.Fuzz(func(t *testing.T, raw string) {
		d := claude.Dialect()
		for _, m := range d.Methods {
			if m.Handle != nil {
				if act := m.Handle(read(raw)); act.Result != nil || act.Error != nil {
					t.Fatalf("%s answered", m.Name)
				}
			}
		}
		for _, c := range d.Calls {
			c.Result(read(raw))
		}
	})
}
