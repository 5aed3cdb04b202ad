package claude

import (
	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// HandleAuthStatus reads _auth/status_update, {authStatus:{kind, label,
// detail?, account?:{email, organization, plan}}}, into an auth_status
// event. Params without an authStatus object give no event.
func HandleAuthStatus(params gjson.Result) acpdialect.Action {
	var a acpdialect.AuthStatus
	if !a.ReadUpdate(params) {
		return acpdialect.Action{}
	}
	return acpdialect.Action{Event: &acpdialect.Event{Type: acpdialect.EventAuthStatus, Object: &a}}
}
