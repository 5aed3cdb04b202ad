package acpdialect_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/google/go-cmp/cmp"
)

// v2Frames are the frames that open a connection as ACP v2 (initialize
// answered with info), then frames; v1Frames open it as v1.
func v2Frames(frames ...string) []string {
	return append([]string{
		`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2}}`,
		`<{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"some-agent"}}}`,
	}, frames...)
}

func v1Frames(frames ...string) []string {
	return append([]string{
		`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`<{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"some-agent"}}}`,
	}, frames...)
}

// update is a session/update notification of session s1.
func update(u string) string {
	return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
}

// eventTypes are the type and tool call id of each event, "type id".
func eventTypes(t *testing.T, lines []string) []string {
	t.Helper()
	var got []string
	for _, l := range lines {
		var ev acpdialect.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.TrimSpace(ev.Type+" "+ev.ToolCallID))
	}
	return got
}

// TestV2UpdateCreatesToolCall: ACP v2 has no tool_call; the first
// tool_call_update of an id creates the tool call, so a card the agent's
// dialect does not recognize surfaces at once. On v1 the same frames are
// updates of a tool call never announced, which stay hidden until a
// dialect recognizes them.
func TestV2UpdateCreatesToolCall(t *testing.T) {
	read := update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read a.go","kind":"read","status":"pending"}`)
	done := update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`)
	same := update(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`)
	for _, c := range []struct {
		name   string
		frames []string
		want   []string
	}{
		{"v2: created, then updated, then unchanged", v2Frames(read, done, same), []string{"tool_call t1", "tool_call_update t1"}},
		{"v1: an update for a tool call never announced", v1Frames(read, done), nil},
		{"no initialize seen: v1", []string{read, done}, nil},
		{"v2: a tool_call still creates", v2Frames(update(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"x"}`), done),
			[]string{"tool_call t1", "tool_call_update t1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := acpdialect.NewRegistry().NewConn(acpdialect.Options{})
			got := eventTypes(t, feedFrames(t, conn, c.frames...))
			if !cmp.Equal(got, c.want) {
				t.Errorf("events %q, want %q", got, c.want)
			}
		})
	}
}
