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

// parsePermissionWalks is ParsePermission as it was before it read the
// params in one pass (a walk per nested object, then gjson paths for the
// plan review): the reference FuzzParsePermissionOnePass holds it to.
func parsePermissionWalks(params gjson.Result) (toolCallID string, p *acpdialect.Permission) {
	p = &acpdialect.Permission{Options: []acpdialect.PermissionOption{}}
	var tc, opts, meta gjson.Result
	frame.Members(params, func(k string, v gjson.Result) bool {
		switch {
		case k == "toolCall" && !tc.Exists():
			tc = v
		case k == "options" && !opts.Exists():
			opts = v
		case k == "_meta" && !meta.Exists():
			meta = v
		}
		return true
	})
	var in gjson.Result
	frame.Members(tc, func(k string, v gjson.Result) bool {
		switch k {
		case "toolCallId":
			toolCallID = orRef(toolCallID, frame.View(v))
		case "kind":
			p.ACPKind = orRef(p.ACPKind, frame.View(v))
		case "title":
			p.Title = orRef(p.Title, frame.View(v))
		case "rawInput":
			if !in.Exists() {
				in = v
			}
		}
		return true
	})
	frame.Members(in, func(k string, v gjson.Result) bool {
		switch k {
		case "serverName":
			p.Server = orRef(frame.View(v), p.Server) // the elicitation's name wins
		case "server":
			p.Server = orRef(p.Server, frame.View(v))
		case "tool":
			p.Tool = orRef(p.Tool, frame.View(v))
		}
		return true
	})
	frame.Own(&toolCallID, &p.ACPKind, &p.Title, &p.Server, &p.Tool)
	if opts.IsArray() {
		p.Options = readOptionsWalk(opts, p.Options)
	}
	if k := meta.Get("codex.kind"); k.Type == gjson.String && k.Str == "plan_review" {
		p.PlanReview = true
		p.PlanItemID = frame.Str(meta.Get("codex.planItemId"))
	} else if item, ok := strings.CutPrefix(toolCallID, "plan-review:"); ok {
		p.PlanReview, p.PlanItemID = true, item
	}
	return toolCallID, p
}
func readOptionsWalk(list gjson.Result, out []acpdialect.PermissionOption) []acpdialect.PermissionOption {
	r := frame.NewReader(list)
	r.Array(func() {
		if len(out) >= codex.MaxPermissionOptions {
			return // skipped
		}
		var id, name, kind gjson.Result
		var seen uint8
		r.Object(func(k string) {
			switch {
			case k == "optionId" && seen&1 == 0:
				id, seen = r.Value(), seen|1
			case k == "name" && seen&2 == 0:
				name, seen = r.Value(), seen|2
			case k == "kind" && seen&4 == 0:
				kind, seen = r.Value(), seen|4
			}
		})
		if id := frame.Str(id); id != "" {
			out = append(out, acpdialect.PermissionOption{ID: id, Name: frame.Str(name), Kind: frame.Str(kind)})
		}
	})
	return out
}

func orRef(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// FuzzParsePermissionOnePass: the one-pass read of a permission's params
// finds what the walks over each nested object found, on valid JSON.
func FuzzParsePermissionOnePass(f *testing.F) {
	seeds(f, "params")
	f.Add(`{"toolCall":{"toolCallId":"","toolCallId":"t","rawInput":{"server":"s","serverName":"e"},"rawInput":{"tool":"x"}},"toolCall":{"title":"late"},"_meta":{"codex":{"planItemId":"p","kind":"plan_review"},"codex":{}},"options":[{"optionId":"a"}]}`)
	f.Add(`{"_meta":{"codex":1,"codex":{"kind":"plan_review"}}}`)
	f.Add(`{"_meta":{"codex":{"kind":"plan_review","planItemId":7}}}`)
	f.Add(`{"toolCall":{"toolCallId":"plan-review:item-3","kind":"switch_mode","title":"Implement this plan?","rawInput":{"plan":"1. Do it"}},"options":[{"optionId":"implement_plan","name":"Yes, implement this plan","kind":"allow_once"}]}`)
	f.Add(`{"_meta":{"codex":{"planItemId":"p"},"codex":{"x":1},"codex":{"kind":"plan_review"}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return // the Conn reads only valid frames
		}
		id, p := codex.ParsePermission(gjson.Parse(s))
		wantID, want := parsePermissionWalks(gjson.Parse(s))
		if id != wantID {
			t.Fatalf("tool call id %q; the walks read %q", id, wantID)
		}
		if diff := cmp.Diff(want, p); diff != "" {
			t.Fatalf("permission of %s (-walks +one pass):\n%s", s, diff)
		}
	})
}
