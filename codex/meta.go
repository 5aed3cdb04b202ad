package codex

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// maxThreads bounds the thread ids read from one list (receiverThreadIds):
// the Conn ignores more runs per frame anyway.
const maxThreads = acpdialect.MaxRunsPerFrame

// Meta is what a tool call's _meta says in Codex's keys. Its strings view
// the frame.
type Meta struct {
	// Tool is _meta.codex.collaboration.tool (spawnAgent, sendInput,
	// resumeAgent, wait, closeAgent); Sender and Receivers its thread ids.
	Tool      string
	Sender    string
	Receivers []string
	// Activity is _meta.codex.subagent.activity (started, interacted, or a
	// final value); Thread and Path the subagent's thread and path.
	Activity string
	Thread   string
	Path     string
	// MCP is _meta.is_mcp_tool_call; MCPDelta _meta.mcp_output_delta.data.
	MCP      bool
	MCPDelta gjson.Result
	// Terminal says _meta has a terminal_* key (package terminal).
	Terminal bool
}

// ParseMeta reads a tool call's _meta. A member of the wrong type reads as
// absent; of a key that appears twice the first counts.
func ParseMeta(meta gjson.Result) Meta {
	var m Meta
	frame.Members(meta, func(k string, v gjson.Result) bool {
		switch k {
		case "codex":
			m.readCodex(v)
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

func (m *Meta) readCodex(v gjson.Result) {
	frame.Members(v, func(k string, v gjson.Result) bool {
		switch {
		case k == "collaboration" && m.Tool == "":
			m.Tool = frame.View(v.Get("tool"))
			m.Sender = frame.View(v.Get("senderThreadId"))
			m.Receivers = threads(v.Get("receiverThreadIds"))
		case k == "subagent" && m.Activity == "":
			m.Activity = frame.View(v.Get("activity"))
			m.Thread = frame.View(v.Get("threadId"))
			m.Path = frame.View(v.Get("path"))
		}
		return true
	})
}

// threads reads a list of thread ids: its non-empty strings, at most
// maxThreads of them.
func threads(list gjson.Result) []string {
	if !list.IsArray() {
		return nil
	}
	var out []string
	list.ForEach(func(_, v gjson.Result) bool {
		if s := frame.View(v); s != "" {
			out = append(out, s)
		}
		return len(out) < maxThreads
	})
	return out
}

// first returns the first of ids, or "".
func first(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// or returns a, else b.
func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
