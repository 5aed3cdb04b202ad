package frame

import (
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

// ToolUpdate is a read-only view of one tool_call or tool_call_update,
// with its top-level fields read in one pass over the frame. Every field
// views the frame: a hook that keeps a string copies it (Str does).
type ToolUpdate struct {
	Raw       gjson.Result // the whole update object
	Kind      string       // "tool_call" or "tool_call_update"
	ID        gjson.Result // toolCallId
	Status    gjson.Result
	Title     gjson.Result
	ACPKind   gjson.Result // the ACP tool kind: read, edit, execute, ...
	Name      gjson.Result // ACP's programmatic tool name (the tool-call-name RFD): read_file, ...
	RawInput  gjson.Result
	RawOutput gjson.Result
	Meta      gjson.Result // _meta
	// Capabilities is ACP v2's capabilities: the controls the client may
	// use on the tool call now (cancel, for tool_call/cancel).
	Capabilities gjson.Result
}

// ReadToolUpdate reads the view of an update object. Of a key that appears
// twice the first value counts, as with gjson's Get.
func ReadToolUpdate(update gjson.Result) ToolUpdate {
	var u ToolUpdate
	readToolUpdate(&u, update, false)
	return u
}

// ReadToolUpdateChecked is ReadToolUpdate into *u that also reports, from
// the same walk, whether the update object is valid JSON where a
// session/update frame carries it (inside the frame and its params, which
// the nesting limit counts). When it is not, the view may stop short of
// what ReadToolUpdate reads: read it again with ReadToolUpdate. It fills
// the caller's view rather than returning one: a ToolUpdate is some 820
// bytes, and this is the read of every tool call frame.
func ReadToolUpdateChecked(u *ToolUpdate, update gjson.Result) bool {
	*u = ToolUpdate{}
	return readToolUpdate(u, update, true)
}

func readToolUpdate(u *ToolUpdate, update gjson.Result, check bool) bool {
	u.Raw = update
	if !update.IsObject() {
		return false
	}
	read := func(k, raw string) bool {
		var dst *gjson.Result
		switch k {
		case "sessionUpdate":
			if u.Kind == "" && raw[0] == '"' {
				u.Kind = scan.Result(raw).Str
			}
			return true
		case "toolCallId":
			dst = &u.ID
		case "status":
			dst = &u.Status
		case "title":
			dst = &u.Title
		case "kind":
			dst = &u.ACPKind
		case "name":
			dst = &u.Name
		case "rawInput":
			dst = &u.RawInput
		case "rawOutput":
			dst = &u.RawOutput
		case "_meta":
			dst = &u.Meta
		case "capabilities":
			dst = &u.Capabilities
		default:
			return true
		}
		if !dst.Exists() {
			*dst = scan.Result(raw)
		}
		return true
	}
	var end int
	valid := false
	if check {
		end, valid = scan.MembersValid(update.Raw, 2, read) // the frame and its params
	} else {
		end = scan.Members(update.Raw, read)
	}
	if end > 0 {
		// A view of a frame's tail runs past the update: trim it, so that
		// hooks see exactly the update object.
		u.Raw = gjson.Result{Type: gjson.JSON, Raw: update.Raw[:end]}
	}
	return valid && end > 0
}
