package claude

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// HandleAuthStatus reads _auth/status_update, {authStatus:{kind, label,
// detail?, account?:{email, organization, plan}}}, into an auth_status
// event. Params without an authStatus object give no event.
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
				fill(&a.Kind, r.String())
			case "label":
				fill(&a.Label, r.String())
			case "detail":
				fill(&a.Detail, r.String())
			case "account":
				r.Object(func(k string) {
					switch k {
					case "email":
						fill(&a.Email, r.String())
					case "organization":
						fill(&a.Organization, r.String())
					case "plan":
						fill(&a.Plan, r.String())
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
