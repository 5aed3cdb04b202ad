package codex

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// MethodAuthStatusUpdate is the agent's push of its login state (from
// codex-acp 2.x): {authStatus: {kind, label, detail?, account?: {email,
// plan}}}. The same notification as claude-agent-acp's.
const MethodAuthStatusUpdate = "_auth/status_update"

// HandleAuthStatus reads _auth/status_update into an auth_status event:
// kind (none, api_key, account, gateway, external) and label as sent, the
// gateway's detail, the account's email and plan. Params without an
// authStatus object give no event.
func HandleAuthStatus(params gjson.Result) acpdialect.Action {
	var a acpdialect.AuthStatus
	found := false
	r := frame.NewReader(params)
	r.Object(func(k string) {
		if k != "authStatus" || found {
			return
		}
		found = r.Object(func(k string) {
			switch k {
			case "kind":
				fillEmpty(&a.Kind, r.String())
			case "label":
				fillEmpty(&a.Label, r.String())
			case "detail":
				fillEmpty(&a.Detail, r.String())
			case "account":
				r.Object(func(k string) {
					switch k {
					case "email":
						fillEmpty(&a.Email, r.String())
					case "organization":
						fillEmpty(&a.Organization, r.String())
					case "plan":
						fillEmpty(&a.Plan, r.String())
					}
				})
			}
		})
	})
	if !found {
		return acpdialect.Action{}
	}
	return acpdialect.Action{Event: &acpdialect.Event{Type: acpdialect.EventAuthStatus, Object: &a}}
}
