package replay

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
)

// An append-style encoder for the events `replay --json` writes most:
// tool calls and their updates, and replies. Event.MarshalJSON goes
// through encoding/json's reflection twice per event (the fields, then
// the object), which cost a replay as much as reading its lines. This
// writes the same bytes (FuzzAppendEvent, TestAppendEventGoldens)
// straight into the output buffer; an event with an object or an error
// is left to MarshalJSON.

// appendEvent appends ev as Event.MarshalJSON writes it. ok is false for
// an event it does not write (b is then unchanged).
func appendEvent(b []byte, ev acpdialect.Event) (_ []byte, ok bool) {
	if ev.Object != nil || ev.Error != nil {
		return b, false
	}
	start := len(b)
	b = append(b, '{')
	b = appendKey(b, "type")
	b = appendString(b, ev.Type)
	b = addString(b, "agent", ev.Agent)
	b = addString(b, "session_id", ev.SessionID)
	b = addString(b, "tool_call_id", ev.ToolCallID)
	if ev.Payload != nil {
		if b, ok = appendPayload(appendKey(b, "payload"), ev.Payload); !ok {
			return b[:start], false
		}
	}
	b = addString(b, "method", ev.Method)
	if b, ok = addRaw(b, "id", ev.ID); !ok {
		return b[:start], false
	}
	if b, ok = addRaw(b, "result", ev.Result); !ok {
		return b[:start], false
	}
	return append(b, '}'), true
}

func appendPayload(b []byte, p *acpdialect.Payload) (_ []byte, ok bool) {
	b = append(b, '{')
	b = appendKey(b, "kind")
	b = appendString(b, p.Kind)
	b = addString(b, "status", p.Status)
	b = addBool(b, "cancellable", p.Cancellable)
	b = addString(b, "title", p.Title)
	b = addString(b, "parent_tool_call_id", p.ParentToolCallID)
	b = addString(b, "wire_tool_call_id", p.WireToolCallID)
	if t := p.Tool; t != nil {
		b = append(appendKey(b, "tool"), '{')
		b = addString(b, "name", t.Name)
		b = addString(b, "kind", t.Kind)
		b = addString(b, "namespace", t.Namespace)
		b = addString(b, "label", t.Label)
		b = append(addBool(b, "read_only", t.ReadOnly), '}')
	}
	if c := p.Chain; c != nil {
		b = append(appendKey(b, "chain"), '{')
		b = addString(b, "id", c.ID)
		b = addString(b, "summary", c.Summary)
		if c.Count != 0 {
			b = strconv.AppendInt(appendKey(b, "count"), c.Count, 10)
		}
		b = append(b, '}')
	}
	if t := p.SubagentTask; t != nil {
		b = appendSubagentTask(appendKey(b, "subagent_task"), t)
	}
	if sh := p.Shell; sh != nil {
		b = appendShell(appendKey(b, "shell"), sh)
	}
	if m := p.MCPTool; m != nil {
		if b, ok = appendMCPTool(appendKey(b, "mcp_tool"), m); !ok {
			return b, false
		}
	}
	if m := p.Monitor; m != nil {
		b = appendMonitor(appendKey(b, "monitor"), m)
	}
	if w := p.Wakeup; w != nil {
		b = append(appendKey(b, "wakeup"), '{')
		b = addString(b, "prompt", w.Prompt)
		b = addInt(b, "delay_seconds", w.DelaySeconds)
		b = addString(b, "reason", w.Reason)
		b = addInt(b, "scheduled_for", w.ScheduledFor)
		b = append(addBool(b, "invalid", w.Invalid), '}')
	}
	if g := p.Generic; g != nil {
		b = append(appendKey(b, "generic"), '{')
		b = append(addString(b, "acp_kind", g.ACPKind), '}')
	}
	return append(b, '}'), true
}

func appendSubagentTask(b []byte, t *acpdialect.SubagentTask) []byte {
	b = append(b, '{')
	b = addString(b, "description", t.Description)
	b = addString(b, "prompt", t.Prompt)
	b = addString(b, "subagent_type", t.SubagentType)
	b = addString(b, "status", t.Status)
	b = addString(b, "agent_id", t.AgentID)
	b = addString(b, "model", t.Model)
	b = addString(b, "child_session_id", t.ChildSessionID)
	b = addString(b, "name", t.Name)
	b = addString(b, "cwd", t.Cwd)
	b = addInt(b, "duration_ms", t.DurationMs)
	b = addInt(b, "total_tokens", t.TotalTokens)
	b = addInt(b, "tool_use_count", t.ToolUseCount)
	b = addString(b, "result_text", t.ResultText)
	b = addString(b, "error", t.Error)
	b = addBool(b, "is_async", t.IsAsync)
	b = addBool(b, "cancellable", t.Cancellable)
	b = addString(b, "output_file", t.OutputFile)
	return append(b, '}')
}

func appendShell(b []byte, sh *acpdialect.Shell) []byte {
	b = append(b, '{')
	b = addString(b, "command", sh.Command)
	b = addString(b, "cwd", sh.Cwd)
	b = addString(b, "terminal_id", sh.TerminalID)
	b = addString(b, "output", sh.Output)
	b = addBool(b, "output_truncated", sh.OutputTruncated)
	b = addInt(b, "exit_code", sh.ExitCode)
	b = addString(b, "signal", sh.Signal)
	b = addBool(b, "background", sh.Background)
	b = addBool(b, "cancellable", sh.Cancellable)
	return append(b, '}')
}

// appendMCPTool is not ok for arguments that are not JSON: MarshalJSON
// fails on them.
func appendMCPTool(b []byte, m *acpdialect.MCPTool) (_ []byte, ok bool) {
	b = append(b, '{')
	b = addString(b, "server", m.Server)
	b = addString(b, "tool", m.Tool)
	if b, ok = addRaw(b, "arguments", m.Arguments); !ok {
		return b, false
	}
	b = addString(b, "output", m.Output)
	b = addBool(b, "output_truncated", m.OutputTruncated)
	b = addString(b, "error", m.Error)
	return append(b, '}'), true
}

func appendMonitor(b []byte, m *acpdialect.Monitor) []byte {
	b = append(b, '{')
	b = addString(b, "task_id", m.TaskID)
	b = addString(b, "command", m.Command)
	b = strconv.AppendInt(appendKey(b, "event_count"), m.EventCount, 10)
	if len(m.RecentEvents) > 0 {
		b = append(appendKey(b, "recent_events"), '[')
		for i, e := range m.RecentEvents {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, e)
		}
		b = append(b, ']')
	}
	b = addBool(b, "ended", m.Ended)
	b = addString(b, "end_reason", m.EndReason)
	return append(b, '}')
}

// appendKey appends a member's key, after a comma unless it is the
// object's first: no value ends in '{', so the byte before tells.
func appendKey(b []byte, key string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// The add functions append a member that has `omitempty`: nothing for an
// empty value.

func addString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(appendKey(b, key), s)
}

func addBool(b []byte, key string, v bool) []byte {
	if !v {
		return b
	}
	return append(appendKey(b, key), "true"...)
}

func addInt(b []byte, key string, p *int64) []byte {
	if p == nil {
		return b
	}
	return strconv.AppendInt(appendKey(b, key), *p, 10)
}

// addRaw appends a json.RawMessage member as encoding/json does:
// compacted, and an error (ok false) when it is not JSON.
func addRaw(b []byte, key string, raw json.RawMessage) (_ []byte, ok bool) {
	if len(raw) == 0 {
		return b, true
	}
	buf := bytes.NewBuffer(appendKey(b, key))
	if err := json.Compact(buf, raw); err != nil {
		return b, false
	}
	return buf.Bytes(), true
}

const hexDigits = "0123456789abcdef"

// appendString appends s quoted as encoding/json quotes it without HTML
// escaping: control characters escaped (\b \f \n \r \t or \u00XX), each
// byte of invalid UTF-8 as \ufffd, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := plainEnd(s, 0); i < len(s); i = plainEnd(s, i) {
		if c := s[i]; c < utf8.RuneSelf {
			b = appendEscape(append(b, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// plainEnd returns the index of the first byte of s from i on that
// appendString must look at: a quote, a backslash, a control character
// or a byte of a multi-byte rune; eight bytes at a time, as special does.
func plainEnd(s string, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		q, b := x^(ones*'"'), x^(ones*'\\')
		if ((q-ones)&^q|(b-ones)&^b|(x-ones*0x20)&^x|x)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return len(s)
}

// appendEscape appends the escape of a quote, a backslash or a control
// character.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
