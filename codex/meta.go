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

// ParseMeta reads a tool call's _meta in one pass. A member of the wrong
// type reads as absent; of a key that appears twice the first counts,
// except that a collaboration (or subagent) without a tool (or activity)
// is read over by the next one.
func ParseMeta(meta gjson.Result) Meta {
	var m Meta
	r := frame.NewReader(meta)
	r.Object(func(k string) {
		switch k {
		case "codex":
			m.readCodex(r)
		case "is_mcp_tool_call":
			m.MCP = r.True() || m.MCP
		case "mcp_output_delta":
			if !m.MCPDelta.Exists() {
				m.MCPDelta = frame.Get(r.Value(), "data")
			}
		default:
			m.Terminal = m.Terminal || strings.HasPrefix(k, "terminal_")
		}
	})
	return m
}

// readCodex reads _meta.codex at r.
func (m *Meta) readCodex(r *frame.Reader) {
	r.Object(func(k string) {
		switch {
		case k == "collaboration" && m.Tool == "":
			m.Sender, m.Receivers = "", nil
			var seen uint8
			r.Object(func(k string) {
				switch {
				case k == "tool" && seen&1 == 0:
					m.Tool, seen = r.String(), seen|1
				case k == "senderThreadId" && seen&2 == 0:
					m.Sender, seen = r.String(), seen|2
				case k == "receiverThreadIds" && seen&4 == 0:
					m.Receivers, seen = readThreads(r), seen|4
				}
			})
		case k == "subagent" && m.Activity == "":
			m.Thread, m.Path = "", ""
			var seen uint8
			r.Object(func(k string) {
				switch {
				case k == "activity" && seen&1 == 0:
					m.Activity, seen = r.String(), seen|1
				case k == "threadId" && seen&2 == 0:
					m.Thread, seen = r.String(), seen|2
				case k == "path" && seen&4 == 0:
					m.Path, seen = r.String(), seen|4
				}
			})
		}
	})
}

// threads reads a list of thread ids: its non-empty strings, at most
// maxThreads of them.
func threads(list gjson.Result) []string {
	return readThreads(frame.NewReader(list))
}

// readThreads is threads for the list at r.
func readThreads(r *frame.Reader) []string {
	var out []string
	r.Array(func() {
		if len(out) < maxThreads {
			if s := r.String(); s != "" {
				out = append(out, s)
			}
		}
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

// ReadMeta reads a tool call's Codex tags: ParseMeta of its _meta, and,
// when _meta names no collaboration tool and no subagent activity, the
// ones its rawInput shows. codex-acp 2.x no longer tags these calls in
// _meta.codex (an AIR client gets a bare _meta.jetbrains.air.subagent
// flag, any other client nothing): a collaboration call is titled by its
// tool and has the threads in rawInput {senderThreadId,
// receiverThreadIds}, an activity has rawInput {agentThreadId, agentPath,
// activityKind}. Every update of such a call repeats its rawInput, and a
// collaboration call's its title.
func ReadMeta(u frame.ToolUpdate) Meta {
	m := ParseMeta(u.Meta)
	if m.Tool == "" && m.Activity == "" && u.RawInput.IsObject() && strings.Contains(u.RawInput.Raw, `ThreadId"`) {
		m.readInput(u)
	}
	return m
}

// readInput fills the collaboration tool or the activity from an
// untagged call's title and rawInput.
func (m *Meta) readInput(u frame.ToolUpdate) {
	in := ParseInput(u.RawInput)
	switch {
	case in.Thread != "" && in.Activity != "":
		m.Activity, m.Thread, m.Path = in.Activity, in.Thread, in.Path
	case (in.Sender != "" || in.Receivers != nil) && u.Title.Type == gjson.String && collabTool(u.Title.Str):
		m.Tool, m.Sender, m.Receivers = u.Title.Str, in.Sender, in.Receivers
	}
}
