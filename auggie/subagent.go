package auggie

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// SubagentPrefix starts the name of a tool that runs a configured
// subagent, "sub-agent-<type>", and so the title of its tool call:
// "sub-agent-<type>: <description>" live, the bare name on session/load.
const SubagentPrefix = "sub-agent-"

// GenericTool is the name of Auggie's subagent tool with no configured
// type (registered by default): its tool call's title is
// "sub-agent: <description>" live, "sub-agent" on session/load.
const GenericTool = "sub-agent"

// MaxResultText bounds a subagent's result text and error, in bytes: its
// head is kept, cut at a rune boundary. It bounds the prompt, name and
// description read from rawInput too.
const MaxResultText = 64 << 10

// ParseTitle reads a subagent tool call's title. Auggie titles it
// "<tool name>: <instruction>" live and with the bare tool name when
// session/load replays it, the tool name being GenericTool or
// SubagentPrefix and a type. So ok is true for:
//
//   - "sub-agent-<type>: <description>": the prefix exactly, then the type
//     (the text up to the first ":", trimmed, not empty), then the
//     description (the rest, trimmed; Auggie may cut it short, and it may
//     be empty);
//   - "sub-agent: <description>": no type;
//   - "sub-agent-<type>", "sub-agent": a bare tool name (the type only
//     letters, digits, "_" and "-", as Auggie makes a tool name), no
//     description.
//
// ok is false for any other title. The results view title.
func ParseTitle(title string) (subagentType, description string, ok bool) {
	if title == GenericTool {
		return "", "", true
	}
	if desc, found := strings.CutPrefix(title, GenericTool+":"); found {
		return "", strings.TrimSpace(desc), true
	}
	rest, found := strings.CutPrefix(title, SubagentPrefix)
	if !found {
		return "", "", false
	}
	typ, desc, found := strings.Cut(rest, ":")
	if !found {
		// No ":": only a bare tool name, not any text that starts so.
		if !toolName(rest) {
			return "", "", false
		}
		return rest, "", true
	}
	typ = strings.TrimSpace(typ)
	if typ == "" {
		return "", "", false
	}
	return typ, strings.TrimSpace(desc), true
}

// toolName reports whether s is a non-empty run of the bytes Auggie
// leaves in a configured subagent's name when it makes the tool's name
// (letters, digits, "_", "-": everything else becomes "-").
func toolName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}

// ToolCall makes a tool call whose title names a subagent a subagent_task
// card: its type and description from the title (the latest title's, so
// that they agree with the card's title; an empty one, or a title that no
// longer names a subagent, does not blank them), its prompt and name from
// rawInput (instruction, name) where session/load sends it, the
// description from the instruction too when the title has none (a bare
// tool name), and once Auggie reports it, rawOutput.output (a string):
// its result text, or its error when the card failed. Other tool calls
// keep their payload. The subagent object is copied before a change.
func ToolCall(u frame.ToolUpdate, prev acpdialect.Payload) acpdialect.Payload {
	typ, desc, isTask := ParseTitle(prev.Title) // the merged title: an update may omit it
	if !isTask && prev.Kind != acpdialect.KindSubagentTask {
		return prev
	}
	var st acpdialect.SubagentTask
	if prev.SubagentTask != nil {
		st = *prev.SubagentTask
	}
	fill(&st.SubagentType, typ)
	fill(&st.Description, desc)
	readInput(&st, u.RawInput, desc)
	if out := u.RawOutput.Get("output"); u.RawOutput.IsObject() && out.Type == gjson.String && strings.TrimSpace(out.Str) != "" {
		// Auggie sends a failed subagent's tool result, its error text,
		// where a finished one's answer goes: on a failed card it is
		// the error, not a result.
		dst := &st.ResultText
		if prev.Status == acpdialect.StatusFailed {
			dst = &st.Error
		}
		if text := head(out.Str); text != *dst {
			*dst = strings.Clone(text)
		}
	}
	prev.Kind = acpdialect.KindSubagentTask
	if prev.SubagentTask == nil || !prev.SubagentTask.Equal(st) {
		prev.SubagentTask = frame.Keep(st)
	}
	return prev
}

// readInput reads a subagent's rawInput, which Auggie sends only when
// session/load replays the tool call: {action?, name?, instruction?}. The
// instruction is the prompt, whole (a live title cuts it at 80
// characters), and the description when the title gave none (titleDesc);
// name is the name the model gave this run of the subagent (not its type).
func readInput(st *acpdialect.SubagentTask, in gjson.Result, titleDesc string) {
	if !in.IsObject() {
		return
	}
	instr := strings.TrimSpace(frame.View(in.Get("instruction")))
	fill(&st.Prompt, head(instr))
	if titleDesc == "" {
		fill(&st.Description, head(instr))
	}
	fill(&st.Name, head(strings.TrimSpace(frame.View(in.Get("name")))))
}

// fill sets *dst to a copy of v (the title may be replaced: keep no view
// of it) when v is not empty and differs.
func fill(dst *string, v string) {
	if v != "" && v != *dst {
		*dst = strings.Clone(v)
	}
}

// head returns s within MaxResultText bytes, cut at a rune boundary. It
// views s.
func head(s string) string { return frame.HeadView(s, MaxResultText) }
