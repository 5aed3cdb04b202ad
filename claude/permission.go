package claude

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// HandlePermission reads a session/request_permission into a permission
// event; the client answers the request, never the library. The tool
// call is params.toolCall (ACP v1) or params.subject.toolCall (the v2
// draft). Its tool name is _meta.claudeCode.toolName, else ACP's name,
// else its title only when its ACP kind is "other" (claude-agent-acp
// titles a tool it does not classify with the tool's raw name). An MCP
// tool's server and tool come from a strictly parsed mcp__server__tool
// name, else the server from _meta.claudeCode.mcpServer.
func HandlePermission(params gjson.Result) acpdialect.Action {
	p := &acpdialect.Permission{Options: []acpdialect.PermissionOption{}}
	var t permTool
	var title string
	r := frame.NewReader(params)
	r.Object(func(k string) {
		switch k {
		case "toolCall":
			t.read(r)
		case "subject":
			r.Object(func(k string) {
				if k == "toolCall" {
					t.read(r)
				}
			})
		case "title":
			fill(&title, r.String())
		case "options":
			p.Options = readOptions(r, p.Options)
		}
	})
	p.ToolName = t.toolName()
	if title == "" {
		title = t.title
	}
	set(&p.Title, title)
	if server, tool, ok := ParseMCPName(p.ToolName); ok {
		p.Server, p.Tool = server, tool
	} else {
		set(&p.Server, t.server)
	}
	return acpdialect.Action{Event: &acpdialect.Event{Type: acpdialect.EventPermission, ToolCallID: t.id, Object: p}}
}

// permTool is what a permission request says of its tool call; strings are
// copies.
type permTool struct {
	id, title, kind, name string
	claudeName, server    string
}

func (t *permTool) read(r *frame.Reader) {
	r.Object(func(k string) {
		switch k {
		case "toolCallId":
			fill(&t.id, r.String())
		case "title":
			fill(&t.title, r.String())
		case "kind":
			fill(&t.kind, r.String())
		case "name":
			fill(&t.name, r.String())
		case "_meta":
			r.Object(func(k string) {
				if k == "claudeCode" {
					t.readClaudeCode(r)
				}
			})
		}
	})
}

func (t *permTool) readClaudeCode(r *frame.Reader) {
	r.Object(func(k string) {
		switch k {
		case "toolName":
			fill(&t.claudeName, r.String())
		case "mcpServer":
			// A name, or {name, source}.
			if r.Peek() == '"' {
				fill(&t.server, r.String())
				return
			}
			r.Object(func(k string) {
				if k == "name" {
					fill(&t.server, r.String())
				}
			})
		}
	})
}

func (t *permTool) toolName() string {
	switch {
	case t.claudeName != "":
		return t.claudeName
	case t.name != "":
		return t.name
	case t.kind == "other":
		return t.title
	}
	return ""
}

// readOptions appends the options that have an id, as many as
// maxOptions. Their strings share one copy: they are one event's, kept and
// dropped together. They are gathered on the stack, so that the list costs
// one allocation where appending one by one would grow it three times.
func readOptions(r *frame.Reader, out []acpdialect.PermissionOption) []acpdialect.PermissionOption {
	var buf [maxOptions]acpdialect.PermissionOption
	got := buf[:0]
	r.Array(func() {
		var o acpdialect.PermissionOption
		r.Object(func(k string) {
			switch k {
			case "optionId":
				first(&o.ID, r.String())
			case "name":
				first(&o.Name, r.String())
			case "kind":
				first(&o.Kind, r.String())
			}
		})
		if o.ID != "" && len(out)+len(got) < maxOptions {
			got = append(got, o)
		}
	})
	start := len(out)
	out = append(out, got...)
	var fb [3 * maxOptions]*string
	fields := fb[:0]
	for i := start; i < len(out); i++ {
		fields = append(fields, &out[i].ID, &out[i].Name, &out[i].Kind)
	}
	frame.OwnTogether(fields...)
	return out
}

// maxOptions bounds the options a permission event lists.
const maxOptions = 64

// first sets *dst to v, a view, unless it is set: fill without the copy.
func first(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}
