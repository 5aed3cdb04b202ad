package codex

import (
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MaxPermissionOptions bounds the options a permission event lists.
const MaxPermissionOptions = 32

// HandlePermission describes a session/request_permission in a permission
// event: the tool call it is about, the tool's ACP kind and title, an MCP
// server and tool (rawInput.serverName or server, and tool), the options,
// and for Codex's plan approval (_meta.codex.kind "plan_review", or in
// 2.x a tool call id "plan-review:<item>") the plan item id. The Conn only observes the request: the client answers it.
func HandlePermission(params gjson.Result) acpdialect.Action {
	id, p := ParsePermission(params)
	return acpdialect.Action{Event: &acpdialect.Event{Type: acpdialect.EventPermission, ToolCallID: id, Object: p}}
}

// ParsePermission reads session/request_permission params; every field is
// optional and read as absent when of the wrong type. The strings are the
// caller's own.
func ParsePermission(params gjson.Result) (toolCallID string, p *acpdialect.Permission) {
	p = &acpdialect.Permission{Options: []acpdialect.PermissionOption{}}
	// One pass over the params: each nested object is read where it is,
	// not skipped and walked again. Of a key that appears twice the
	// first counts, as gjson's Get reads it.
	var seen uint8
	var kind gjson.Result
	var planItem string
	r := frame.NewReader(params)
	r.Object(func(k string) {
		switch {
		case k == "toolCall" && seen&1 == 0:
			seen |= 1
			toolCallID = readToolCall(r, p)
		case k == "options" && seen&2 == 0:
			seen |= 2
			p.Options = readOptions(r, p.Options)
		case k == "_meta" && seen&4 == 0:
			seen |= 4
			kind, planItem = readPlanReview(r)
		}
	})
	frame.Own(&toolCallID, &p.ACPKind, &p.Title, &p.Server, &p.Tool)
	switch {
	case kind.Type == gjson.String && kind.Str == "plan_review":
		p.PlanReview, p.PlanItemID = true, strings.Clone(planItem)
	case strings.HasPrefix(toolCallID, planReviewPrefix):
		// codex-acp 2.x tags the plan review nowhere but in its tool
		// call id, "plan-review:<plan item id>" (as 1.x named it too).
		p.PlanReview, p.PlanItemID = true, toolCallID[len(planReviewPrefix):]
	}
	return toolCallID, p
}

// planReviewPrefix starts the tool call id of Codex's plan review.
const planReviewPrefix = "plan-review:"

// readToolCall reads the permission's toolCall at r: its id, ACP kind and
// title (the first non-empty string of each), and from the first rawInput
// the MCP server and tool.
func readToolCall(r *frame.Reader, p *acpdialect.Permission) (toolCallID string) {
	in := false
	r.Object(func(k string) {
		switch k {
		case "toolCallId":
			toolCallID = or(toolCallID, r.String())
		case "kind":
			p.ACPKind = or(p.ACPKind, r.String())
		case "title":
			p.Title = or(p.Title, r.String())
		case "rawInput":
			if !in {
				in = true
				readMCPInput(r, p)
			}
		}
	})
	return toolCallID
}

// readMCPInput reads the MCP server and tool a permission's rawInput
// names: serverName (an elicitation's) over server.
func readMCPInput(r *frame.Reader, p *acpdialect.Permission) {
	r.Object(func(k string) {
		switch k {
		case "serverName":
			p.Server = or(r.String(), p.Server) // the elicitation's name wins
		case "server":
			p.Server = or(p.Server, r.String())
		case "tool":
			p.Tool = or(p.Tool, r.String())
		}
	})
}

// readPlanReview reads _meta.codex.kind at r as gjson's path reads it:
// the first kind in the codex objects, each looked in in turn; and the
// first planItemId read the same way (a view of the frame).
func readPlanReview(r *frame.Reader) (kind gjson.Result, planItem string) {
	var seen uint8
	r.Object(func(k string) {
		if k != "codex" {
			return
		}
		r.Object(func(k string) {
			switch {
			case k == "kind" && seen&1 == 0:
				kind, seen = r.Value(), seen|1
			case k == "planItemId" && seen&2 == 0:
				planItem, seen = r.String(), seen|2
			}
		})
	})
	return kind, planItem
}

// readOptions appends the options with an optionId, as many as
// MaxPermissionOptions: each option's first optionId, name and kind, read
// in one pass over the list (gjson's Get would walk each option three
// times). They are gathered on the stack, so that the list costs one
// allocation where appending one by one would grow it three times.
func readOptions(r *frame.Reader, out []acpdialect.PermissionOption) []acpdialect.PermissionOption {
	var buf [MaxPermissionOptions]acpdialect.PermissionOption
	got := buf[:0]
	r.Array(func() {
		if len(got) >= MaxPermissionOptions {
			return // skipped
		}
		var o acpdialect.PermissionOption
		var seen uint8
		r.Object(func(k string) {
			switch {
			case k == "optionId" && seen&1 == 0:
				o.ID, seen = r.String(), seen|1
			case k == "name" && seen&2 == 0:
				o.Name, seen = r.String(), seen|2
			case k == "kind" && seen&4 == 0:
				o.Kind, seen = r.String(), seen|4
			}
		})
		if o.ID != "" {
			got = append(got, o)
		}
	})
	start := len(out)
	out = append(out, got...)
	ownOptions(out[start:]) // the list's own copy: got is on the stack
	return out
}

// ownOptions copies the options' strings, which view the frame, into one
// allocation: they are one event's, kept and dropped together.
func ownOptions(opts []acpdialect.PermissionOption) {
	var buf [3 * MaxPermissionOptions]*string
	fields := buf[:0]
	for i := range opts {
		fields = append(fields, &opts[i].ID, &opts[i].Name, &opts[i].Kind)
	}
	frame.OwnTogether(fields...)
}

// CompactionTitle is the title codex-acp gives its compaction tool call.
const CompactionTitle = "Compact conversation"

// UpdateCompaction is ACP's compaction update (the session-compaction
// RFD), which codex-acp 2.x sends instead of the tool call to a client
// that declares session.compaction.
const UpdateCompaction = "compaction_update"

// CompactionEvent reads Codex's compaction tool call into a compaction
// event named by the tool call id: a tool call with
// _meta.contextCompaction {trigger, preTokens, postTokens, durationMs,
// error} (codex-acp 1.x, to every client), with
// _meta.jetbrains.air.contextCompaction (2.x, to AIR clients), or, with
// neither, titled CompactionTitle and without rawInput (2.x, to other
// clients, which get no tag). Its status is the tool call's (failed when
// an error is reported). Other tool calls give nil.
func CompactionEvent(u frame.ToolUpdate) *acpdialect.Event {
	cc, ok := compactionMeta(u)
	if !ok {
		return nil
	}
	x := &acpdialect.Compaction{CompactionID: frame.Str(u.ID), Trigger: frame.Str(cc.Get("trigger"))}
	x.PreTokens = frame.Count(nil, cc.Get("preTokens"))
	x.PostTokens = frame.Count(nil, cc.Get("postTokens"))
	x.DurationMs = frame.Count(nil, cc.Get("durationMs"))
	x.Error = errorText(cc.Get("error"))
	switch s := u.Status.Str; {
	case x.Error != "":
		x.Status = acpdialect.CompactionFailed
	case u.Status.Type != gjson.String:
	default:
		x.Status = acpdialect.CompactionStatus(s)
	}
	return &acpdialect.Event{Type: acpdialect.EventCompaction, Object: x}
}

// compactionMeta returns the compaction metadata of a tool call and
// whether it is Codex's compaction call (CompactionEvent).
func compactionMeta(u frame.ToolUpdate) (gjson.Result, bool) {
	if strings.Contains(u.Meta.Raw, "contextCompaction") { // the usual tool call: one byte search
		if cc := u.Meta.Get("contextCompaction"); cc.IsObject() {
			return cc, true
		}
		if cc := u.Meta.Get("jetbrains.air.contextCompaction"); cc.IsObject() {
			return cc, true
		}
	}
	return gjson.Result{}, u.Title.Type == gjson.String && u.Title.Str == CompactionTitle && !u.RawInput.Exists()
}

// CompactionUpdateEvent reads a compaction_update {compactionId, status,
// error?} into a compaction event: ACP's four statuses (pending read as
// in_progress; any other gives no status), the error a string or an
// object's message. An update without a compactionId gives nil.
func CompactionUpdateEvent(u gjson.Result) *acpdialect.Event {
	var x acpdialect.Compaction
	r := frame.NewReader(u)
	r.Object(func(k string) {
		switch k {
		case "compactionId":
			fillEmpty(&x.CompactionID, r.String())
		case "status":
			if x.Status == "" {
				x.Status = acpdialect.CompactionStatus(r.String())
			}
		case "error":
			if x.Error == "" {
				x.Error = errorText(r.Value())
			}
		}
	})
	if x.CompactionID == "" {
		return nil
	}
	return &acpdialect.Event{Type: acpdialect.EventCompaction, Object: &x}
}

// AuthStatusEvent reads an authentication/status result: {type: "api-key"},
// {type: "chat-gpt", email}, {type: "gateway", name} or {type:
// "unauthenticated"}, as kinds api_key, account, gateway and none (any
// other type is kept as it is). It returns nil for a result without a type.
func AuthStatusEvent(r gjson.Result) *acpdialect.Event {
	t := frame.View(r.Get("type"))
	if t == "" {
		return nil
	}
	x := &acpdialect.AuthStatus{Kind: authKind(t), Email: frame.Str(r.Get("email")), Label: frame.Str(r.Get("name"))}
	return &acpdialect.Event{Type: acpdialect.EventAuthStatus, Object: x}
}

func authKind(t string) string {
	switch t {
	case "api-key":
		return "api_key"
	case "chat-gpt":
		return "account"
	case "gateway":
		return "gateway"
	case "unauthenticated":
		return "none"
	}
	return strings.Clone(t)
}
