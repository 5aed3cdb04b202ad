package codex

import (
	"github.com/acpdialect/acpdialect"
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
	if !a.ReadUpdate(params) {
		return acpdialect.Action{}
	}
	return acpdialect.Action{Event: &acpdialect.Event{Type: acpdialect.EventAuthStatus, Object: &a}}
}
