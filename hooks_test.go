package acpdialect_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// reader is a dialect that reads standard frames' vendor data: usage_update
// (a standard kind), initialize's and session/prompt's results, and
// session/request_permission (a request the client serves).
func reader() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID: "reader",
		Updates: []acpdialect.Update{{Kind: "usage_update", Standard: true, Event: func(u gjson.Result) *acpdialect.Event {
			used, ok := frame.Int64(u.Get("used"))
			if !ok {
				return nil
			}
			return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &acpdialect.Usage{Used: &used, Model: frame.Str(u.Get("_meta.model"))}}
		}}},
		Calls: []acpdialect.Call{
			{Name: "initialize", Result: func(r gjson.Result) *acpdialect.Event {
				return &acpdialect.Event{Type: acpdialect.EventCapabilities,
					Object: &acpdialect.Capabilities{PromptQueueing: r.Get("agentCapabilities._meta.queueing").Type == gjson.True}}
			}},
			{Name: "session/prompt", Result: func(r gjson.Result) *acpdialect.Event {
				n, ok := frame.Int64(r.Get("usage.totalTokens"))
				if !ok {
					return nil
				}
				return &acpdialect.Event{Type: acpdialect.EventUsage, Object: &acpdialect.Usage{Turn: true, TotalTokens: &n}}
			}},
		},
		Methods: []acpdialect.Method{{Name: "session/request_permission", Kind: acpdialect.Request,
			Handle: func(p gjson.Result) acpdialect.Action {
				return acpdialect.Action{Event: &acpdialect.Event{Type: acpdialect.EventPermission, ToolCallID: frame.Str(p.Get("toolCall.toolCallId")),
					Object: &acpdialect.Permission{ToolName: frame.Str(p.Get("_meta.tool")), Options: []acpdialect.PermissionOption{}}}}
			}}},
	}
}

func TestDialectReadsStandardFrames(t *testing.T) {
	c := acpdialect.NewRegistry(reader()).NewConn(acpdialect.Options{Agent: "reader"})
	var got []string
	var quarantined, replied bool
	for _, f := range []string{
		`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`,
		`<{"jsonrpc":"2.0","id":0,"result":{"agentCapabilities":{"_meta":{"queueing":true}}}}`,
		`>{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}`,
		`<{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
		`>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
		`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":5,"size":10,"_meta":{"model":"m"}}}}`,
		`<{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t1"},"options":[],"_meta":{"tool":"Bash"}}}`,
		`<{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"totalTokens":7}}}`,
	} {
		var res acpdialect.Result
		var err error
		if f[0] == '>' {
			res, err = c.Outbound([]byte(f[1:]))
		} else {
			res, err = c.Inbound([]byte(f[1:]))
		}
		if err != nil {
			t.Fatal(err)
		}
		quarantined = quarantined || res.Quarantine
		replied = replied || res.Reply != nil
		for _, ev := range res.Events {
			b, _ := json.Marshal(ev)
			got = append(got, string(b))
		}
	}
	want := []string{
		`{"type":"capabilities","agent":"reader","method":"initialize","id":0,"capabilities":{"prompt_queueing":true}}`,
		`{"type":"usage","agent":"reader","session_id":"s1","usage":{"used":5,"model":"m"}}`,
		`{"type":"permission","agent":"reader","session_id":"s1","tool_call_id":"t1","method":"session/request_permission","id":"p1","permission":{"tool_name":"Bash","options":[]}}`,
		`{"type":"usage","agent":"reader","session_id":"s1","method":"session/prompt","id":2,"usage":{"turn":true,"total_tokens":7}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if quarantined || replied {
		t.Errorf("quarantined %v, replied %v: standard frames stay the client's", quarantined, replied)
	}
	if d := reader(); d.Allows("session/request_permission") || d.Quarantines("usage_update") {
		t.Error("a standard method or update kind counted as the dialect's own")
	}
}
