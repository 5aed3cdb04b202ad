package opencode_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/dialects"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/opencode"
	"github.com/tidwall/gjson"
)

// conn is an OpenCode connection with session root open and a turn in
// flight on it.
func conn(t *testing.T, opts acpdialect.Options) *acpdialect.Conn {
	t.Helper()
	c := dialects.Registry().NewConn(opts)
	req, resp := tw.Initialize(0, "OpenCode")
	feed(t, c, req, true)
	feed(t, c, resp, false)
	req, resp = tw.SessionNew(1, "root")
	feed(t, c, req, true)
	feed(t, c, resp, false)
	feed(t, c, tw.Prompt(2, "root", "go"), true)
	if c.Agent() != opencode.ID {
		t.Fatalf("agent %q", c.Agent())
	}
	return c
}

// feed hands one frame to c (out: client -> agent) and returns its events
// as JSON lines.
func feed(t *testing.T, c *acpdialect.Conn, f []byte, out bool) string {
	t.Helper()
	var res acpdialect.Result
	var err error
	if out {
		res, err = c.Outbound(f)
	} else {
		res, err = c.Inbound(f)
	}
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, ev := range res.Events {
		j, _ := json.Marshal(ev)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

func chunk(sid, text string) []byte {
	return tw.SessionUpdate(sid, map[string]any{"sessionUpdate": "agent_message_chunk",
		"content": map[string]any{"type": "text", "text": text}})
}

func taskDone(sid, id, child string) []byte {
	return tw.SessionUpdate(sid, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id,
		"status": "completed", "kind": "think", "title": "t",
		"rawOutput": map[string]any{"output": "", "metadata": map[string]any{"sessionId": child}}})
}

func taskStart(sid, id string) []byte {
	return tw.SessionUpdate(sid, map[string]any{"sessionUpdate": "tool_call", "toolCallId": id,
		"status": "pending", "kind": "think", "title": "task", "rawInput": map[string]any{}})
}

// Held messages are bounded in events and bytes, oldest first out, and
// counted.
func TestHeldBounds(t *testing.T) {
	c := conn(t, acpdialect.Options{MaxHeld: 2, MaxHeldBytes: 8})
	feed(t, c, taskStart("root", "task1"), false)
	for _, text := range []string{"one", "two", "three", "0123456789"} {
		if out := feed(t, c, chunk("kid", text), false); out != "" {
			t.Fatalf("a held message went out: %s", out)
		}
	}
	out := feed(t, c, taskDone("root", "task1", "kid"), false)
	if strings.Contains(out, `"one"`) || strings.Contains(out, `0123456789`) ||
		!strings.Contains(out, `"text":"two","parent_tool_call_id":"task1"}}
{"type":"message","agent":"opencode","session_id":"kid","message":{"role":"assistant","text":"three","parent_tool_call_id":"task1"}}`) {
		t.Errorf("released:\n%s", out)
	}
	// "one" by the count, the 10-byte text alone by the bytes.
	if e := c.Stats().Early; e.Evicted != 2 || e.Released != 2 || e.Dropped != 0 {
		t.Errorf("early stats %+v", e)
	}
}

// What a possible child holds is dropped with the session whose turn it
// was first seen in; after that nothing is held for it.
func TestHeldDroppedWithParent(t *testing.T) {
	c := conn(t, acpdialect.Options{})
	feed(t, c, chunk("kid", "a"), false)
	feed(t, c, chunk("kid", "b"), false)
	feed(t, c, tw.Request(3, "session/close", map[string]any{"sessionId": "root"}), true)
	if e := c.Stats().Early; e.Dropped != 2 {
		t.Errorf("early stats %+v", e)
	}
	if out := feed(t, c, chunk("kid", "c"), false); out != "" {
		t.Errorf("a message of an unlinked session went out: %s", out)
	}
}

// A child first seen in a request of its own to the client (a permission
// request: OpenCode names the child session in it) may be a subagent as
// much as one first seen in an update: its messages are held until the
// link, not lost.
func TestFirstSeenInAgentRequest(t *testing.T) {
	c := conn(t, acpdialect.Options{})
	feed(t, c, taskStart("root", "task1"), false)
	feed(t, c, tw.Request(50, "session/request_permission", map[string]any{"sessionId": "kid",
		"toolCall": map[string]any{"toolCallId": "w1"}, "options": []any{}}), false)
	if out := feed(t, c, chunk("kid", "before the link"), false); out != "" {
		t.Fatalf("a held message went out: %s", out)
	}
	out := feed(t, c, taskDone("root", "task1", "kid"), false)
	if !strings.Contains(out, `"session_id":"kid","message":{"role":"assistant","text":"before the link","parent_tool_call_id":"task1"}`) {
		t.Errorf("released:\n%s", out)
	}
	if e := c.Stats().Early; e.Released != 1 {
		t.Errorf("early stats %+v", e)
	}
}

// A child first seen in an update the Conn reads for every agent (its
// slash commands: Grok's subagents list theirs before they speak) may be
// a subagent as much as one first seen in a chunk: its messages are held
// until the link, not lost.
func TestFirstSeenInCommandsUpdate(t *testing.T) {
	for _, first := range []map[string]any{
		{"sessionUpdate": "available_commands_update", "availableCommands": []any{map[string]any{"name": "compact", "description": "d"}}},
		{"sessionUpdate": "subagent_update", "subagentSessionId": "other", "state": "running"},
	} {
		c := conn(t, acpdialect.Options{})
		feed(t, c, taskStart("root", "task1"), false)
		feed(t, c, tw.SessionUpdate("kid", first), false)
		if out := feed(t, c, chunk("kid", "before the link"), false); out != "" {
			t.Fatalf("after a %s, a held message went out: %s", first["sessionUpdate"], out)
		}
		out := feed(t, c, taskDone("root", "task1", "kid"), false)
		if !strings.Contains(out, `"session_id":"kid","message":{"role":"assistant","text":"before the link","parent_tool_call_id":"task1"}`) {
			t.Errorf("after a %s, released:\n%s", first["sessionUpdate"], out)
		}
	}
}

// A session first seen with no turn in flight is no one's child: its
// messages are neither held nor reported, and the parent's own chunks
// never are.
func TestNoTurnNoHold(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: opencode.ID})
	if out := feed(t, c, chunk("lone", "hi"), false); out != "" {
		t.Errorf("out: %s", out)
	}
	c = conn(t, acpdialect.Options{})
	if out := feed(t, c, chunk("root", "hi"), false); out != "" {
		t.Errorf("the parent's chunk: %s", out)
	}
	if e := c.Stats().Early; e != (acpdialect.EarlyStats{}) {
		t.Errorf("early stats %+v", e)
	}
}

// A child linked before its first frame nests at once, and a child of the
// child nests under the child's own task card.
func TestLinkFirstAndGrandchild(t *testing.T) {
	c := conn(t, acpdialect.Options{})
	feed(t, c, taskStart("root", "task1"), false)
	feed(t, c, taskDone("root", "task1", "kid"), false)
	out := feed(t, c, chunk("kid", "hello"), false)
	if !strings.Contains(out, `"text":"hello","parent_tool_call_id":"task1"`) {
		t.Errorf("out: %s", out)
	}
	out = feed(t, c, taskStart("kid", "task2"), false)
	if !strings.Contains(out, `"tool_call_id":"task2","payload":{"kind":"subagent_task","status":"pending","title":"task","parent_tool_call_id":"task1"`) {
		t.Errorf("out: %s", out)
	}
	feed(t, c, chunk("grandkid", "deep"), false) // held: a turn is in flight on root
	out = feed(t, c, taskDone("kid", "task2", "grandkid"), false)
	if !strings.Contains(out, `"session_id":"grandkid","message":{"role":"assistant","text":"deep","parent_tool_call_id":"task2"}`) {
		t.Errorf("out: %s", out)
	}
	// The children end with the root session.
	feed(t, c, tw.Request(3, "session/close", map[string]any{"sessionId": "root"}), true)
	if n := len(c.Sessions()); n != 0 {
		t.Errorf("%d sessions left: %v", n, c.Sessions())
	}
}

// node is a subagent tree node of child session sid under parent.
func node(sid, parent, phase, agent string) map[string]any {
	return map[string]any{"runId": sid, "sessionId": sid, "rootSessionId": "root", "parentSessionId": parent,
		"phase": phase, "agent": agent, "cwd": "/w"}
}

// treeUpdate is an _opencode/subagents/update notification.
func treeUpdate(upsert []any, removed ...string) []byte {
	rm := []any{}
	for _, r := range removed {
		rm = append(rm, r)
	}
	return tw.Notify(opencode.MethodSubagentsUpdate, map[string]any{"generation": "g", "revision": 1,
		"upsert": upsert, "removedSessionIds": rm})
}

// A subagent node merges into the card its child is linked to, at once or
// at the link, whatever the Conn knew of its parent when it came; a
// removal marks the node wherever it is, so that a node removed before
// its link does not come back with its old phase; what waits is bounded.
func TestNodes(t *testing.T) {
	list := func(id int, nodes ...any) [][]byte {
		return [][]byte{
			tw.Request(id, opencode.MethodSubagentsList, map[string]any{}),
			tw.Response(id, map[string]any{"generation": "g", "revision": 0, "nodes": nodes}),
		}
	}
	type stats struct{ merged, dropped, live, evicted uint64 }
	tests := []struct {
		name    string
		opts    acpdialect.Options
		frames  [][]byte // fed in order; a request (has "method" and "id") goes out
		want    []string // in the events of the last frame
		notWant []string
		stats   stats
	}{{
		name: "linked child merges at once",
		frames: [][]byte{taskStart("root", "task1"), taskDone("root", "task1", "kid"),
			treeUpdate([]any{node("kid", "root", "failed", "general")})},
		want:  []string{`"tool_call_id":"task1","payload":{"kind":"subagent_task","status":"completed","title":"t","subagent_task":{"subagent_type":"general","status":"failed","child_session_id":"kid","cwd":"/w"}}`},
		stats: stats{merged: 1},
	}, {
		// The subagent's own subagent is listed before the subagent's
		// session sent anything: its node waits for the link.
		name: "parent not seen yet",
		frames: [][]byte{treeUpdate([]any{node("kid", "root", "running", "general"), node("gk", "kid", "running", "explore")}),
			taskStart("root", "task1"), taskDone("root", "task1", "kid"),
			taskStart("kid", "task2"), taskDone("kid", "task2", "gk")},
		want:  []string{`"session_id":"kid","tool_call_id":"task2","payload":{"kind":"subagent_task","status":"completed","title":"t","parent_tool_call_id":"task1","subagent_task":{"subagent_type":"explore","status":"running","child_session_id":"gk","cwd":"/w"}}`},
		stats: stats{merged: 2},
	}, {
		// A snapshot of a tree whose sessions the client has not opened
		// (listed after a load): the node waits until the parent's task is
		// replayed.
		name: "snapshot of an unknown tree",
		frames: append(list(7, map[string]any{"runId": "r2", "sessionId": "r2", "rootSessionId": "r2", "phase": "completed", "cwd": "/w"},
			node("c2", "r2", "completed", "explore")),
			taskStart("r2", "t9"), taskDone("r2", "t9", "c2")),
		want:  []string{`"session_id":"r2","tool_call_id":"t9","payload":{"kind":"subagent_task","status":"completed","title":"t","subagent_task":{"subagent_type":"explore","status":"completed","child_session_id":"c2","cwd":"/w"}}`},
		stats: stats{merged: 1},
	}, {
		name: "removed before its link",
		frames: [][]byte{treeUpdate([]any{node("kid", "root", "running", "general")}), treeUpdate(nil, "kid"),
			taskStart("root", "task1"), taskDone("root", "task1", "kid")},
		want:    []string{`"subagent_task":{"subagent_type":"general","status":"removed","child_session_id":"kid","cwd":"/w"}`},
		notWant: []string{`"status":"running"`},
		stats:   stats{merged: 1},
	}, {
		name: "removed then listed again",
		frames: [][]byte{treeUpdate([]any{node("kid", "root", "running", "general")}), treeUpdate(nil, "kid"),
			treeUpdate([]any{node("kid", "root", "completed", "general")}),
			taskStart("root", "task1"), taskDone("root", "task1", "kid")},
		want:  []string{`"subagent_task":{"subagent_type":"general","status":"completed","child_session_id":"kid","cwd":"/w"}`},
		stats: stats{merged: 1},
	}, {
		name:   "removal of a child nothing was kept of",
		frames: [][]byte{treeUpdate(nil, "ghost")},
		stats:  stats{dropped: 1},
	}, {
		// The waiting nodes are bounded by the late halves' per-session
		// entries, the oldest evicted first.
		name: "waiting nodes bounded",
		opts: acpdialect.Options{Pending: correlate.Limits{PerSession: 2}},
		frames: [][]byte{treeUpdate([]any{node("a", "x", "running", "ga"), node("b", "y", "running", "gb"), node("c", "z", "running", "gc")}),
			taskStart("root", "t1"), taskDone("root", "t1", "a"), taskStart("root", "t3"), taskDone("root", "t3", "c")},
		want:  []string{`"tool_call_id":"t3","payload":{"kind":"subagent_task","status":"completed","title":"t","subagent_task":{"subagent_type":"gc","status":"running","child_session_id":"c","cwd":"/w"}}`},
		stats: stats{merged: 1, live: 1, evicted: 1},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := conn(t, tt.opts)
			var out string
			for _, f := range tt.frames {
				v := gjson.ParseBytes(f)
				out = feed(t, c, f, v.Get("method").Exists() && v.Get("id").Exists())
			}
			tw.Fragments(t, out, tt.want, tt.notWant)
			st := c.Stats()
			if got := (stats{st.LateMerged, st.LateDropped, uint64(st.Pending.Live), st.Pending.Evicted}); got != tt.stats {
				t.Errorf("stats %+v, want %+v", got, tt.stats)
			}
		})
	}
}

// TestWaitingNodesLifetime: a waiting node outlives the end of its parent
// session (the client may load that session again, and its replayed task
// then links the child), but not the connection: Close drops it, counted
// as swept, as it drops what waits for the sessions.
func TestWaitingNodesLifetime(t *testing.T) {
	closeRoot := tw.Request(9, "session/close", map[string]any{"sessionId": "root"})
	tests := []struct {
		name   string
		close  bool     // Conn.Close after the frames
		frames [][]byte // agent frames, but closeRoot
		want   string   // in the last frame's events
		live   int
		swept  uint64
	}{
		{name: "its parent closed, then back", frames: [][]byte{treeUpdate([]any{node("kid", "root", "running", "general")}),
			closeRoot, taskStart("root", "task1"), taskDone("root", "task1", "kid")},
			want: `"subagent_task":{"subagent_type":"general","status":"running","child_session_id":"kid","cwd":"/w"}`},
		{name: "Close", close: true, frames: [][]byte{treeUpdate([]any{node("kid", "root", "running", "general"), node("gk", "kid", "running", "explore")})},
			swept: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := conn(t, acpdialect.Options{})
			var out string
			for _, f := range tt.frames {
				out = feed(t, c, f, bytes.Equal(f, closeRoot))
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("events\n%s\nwant %s", out, tt.want)
			}
			if tt.close {
				c.Close()
			}
			if st := c.Stats().Pending; st.Live != tt.live || st.Swept != tt.swept {
				t.Errorf("pending live %d, swept %d; want %d, %d", st.Live, st.Swept, tt.live, tt.swept)
			}
		})
	}
}

// The dialect's rules stay with its connections: on a connection of
// another agent, OpenCode's frames nest nothing and hold nothing.
func TestOtherAgentUnaffected(t *testing.T) {
	c := dialects.Registry().NewConn(acpdialect.Options{Agent: "claude"})
	req, resp := tw.SessionNew(1, "root")
	feed(t, c, req, true)
	feed(t, c, resp, false)
	feed(t, c, tw.Prompt(2, "root", "go"), true)
	feed(t, c, taskStart("root", "task1"), false)
	feed(t, c, tw.SessionUpdate("kid", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "bash", "kind": "execute"}), false)
	out := feed(t, c, taskDone("root", "task1", "kid"), false)
	if strings.Contains(out, "parent_tool_call_id") || strings.Contains(out, "subagent_task") {
		t.Errorf("out: %s", out)
	}
	if e := c.Stats().Early; e != (acpdialect.EarlyStats{}) {
		t.Errorf("early stats %+v", e)
	}
}

// A task in a child session that names an ancestor session (here the
// root) is not linked: the root would nest under its own descendant, a
// cycle a client walking the tree would never leave. The root's cards
// keep no parent and its text stays the standard chunk.
func TestNoLinkCycle(t *testing.T) {
	c := conn(t, acpdialect.Options{})
	feed(t, c, taskStart("root", "t1"), false)
	feed(t, c, taskDone("root", "t1", "c1"), false)
	feed(t, c, taskStart("c1", "t2"), false)
	feed(t, c, taskDone("c1", "t2", "c3"), false)
	feed(t, c, taskStart("c3", "t3"), false)
	out := feed(t, c, taskDone("c3", "t3", "root"), false) // the grandchild names the root
	out += feed(t, c, taskDone("root", "t1", "c1"), false)
	out += feed(t, c, chunk("root", "root text"), false)
	for _, bad := range []string{`"tool_call_id":"t1","payload":{"kind":"subagent_task","status":"completed","title":"t","parent_tool_call_id"`, `"message"`} {
		if strings.Contains(out, bad) {
			t.Errorf("a cycle: %s in\n%s", bad, out)
		}
	}
	if got := feed(t, c, chunk("c3", "grandchild text"), false); !strings.Contains(got, `"parent_tool_call_id":"t2"`) {
		t.Errorf("the grandchild's text no longer nests under its own card:\n%s", got)
	}
}

// A child named by a second task keeps the parent it took first (the
// first task's card); a task in it naming that parent's session makes no
// cycle either, though the second task's session is no descendant of the
// child: c1 nests under c2's t1, so c2 does not nest under c1's t3.
func TestNoRelinkCycle(t *testing.T) {
	c := conn(t, acpdialect.Options{})
	feed(t, c, taskStart("c2", "t1"), false)
	feed(t, c, taskDone("c2", "t1", "c1"), false)
	feed(t, c, taskStart("c1", "t4"), false) // c1 nests under t1
	feed(t, c, taskStart("root", "t2"), false)
	feed(t, c, taskDone("root", "t2", "c1"), false) // c1 named again
	feed(t, c, taskStart("c1", "t3"), false)
	out := feed(t, c, taskDone("c1", "t3", "c2"), false)
	out += feed(t, c, taskStart("c2", "t5"), false)
	if strings.Contains(out, `"parent_tool_call_id":"t3"`) {
		t.Errorf("c2 nests under its own descendant's card:\n%s", out)
	}
	if got := feed(t, c, taskStart("c1", "t6"), false); !strings.Contains(got, `"parent_tool_call_id":"t1"`) {
		t.Errorf("c1 no longer nests under t1:\n%s", got)
	}
}

// A task card names as its child session only a child that nests under
// it: one naming its own session, an ancestor of it, or a child already
// nested under a card of another session completes without the child, so
// that a client resolving a child's parent finds cards of one session
// only. A task resumed in its child session (a second card of the same
// session) names it, and so does a card that named it first.
func TestChildClaimedOnce(t *testing.T) {
	type step struct{ sid, id, child string }
	tests := []struct {
		name  string
		steps []step
		want  string // the child the last card names, as last reported
	}{
		{"its own session", []step{{"root", "t1", "root"}}, ""},
		{"an ancestor", []step{{"root", "t1", "c1"}, {"c1", "t2", "c3"}, {"c3", "t3", "root"}}, ""},
		{"another session's child", []step{{"c2", "t1", "c1"}, {"root", "t2", "c1"}}, ""},
		{"a resume in its parent session", []step{{"root", "t1", "c1"}, {"root", "t2", "c1"}}, "c1"},
		{"the first parent, again", []step{{"c2", "t1", "c1"}, {"root", "t2", "c1"}, {"c2", "t1", "c1"}}, "c1"},
		{"a card that claimed one before", []step{{"c2", "t1", "c1"}, {"root", "t2", "c3"}, {"root", "t2", "c1"}}, "c3"},
	}
	for _, tt := range tests {
		c := conn(t, acpdialect.Options{})
		var out string
		started := map[step]bool{}
		for _, s := range tt.steps {
			if card := (step{s.sid, s.id, ""}); !started[card] {
				started[card] = true // a second tool_call would start a fresh card
				feed(t, c, taskStart(s.sid, s.id), false)
			}
			out += feed(t, c, taskDone(s.sid, s.id, s.child), false)
		}
		last := tt.steps[len(tt.steps)-1]
		var got string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if gjson.Get(line, "session_id").Str == last.sid && gjson.Get(line, "tool_call_id").Str == last.id {
				got = gjson.Get(line, "payload.subagent_task.child_session_id").Str
			}
		}
		if got != tt.want {
			t.Errorf("%s: the card names child %q, want %q:\n%s", tt.name, got, tt.want, out)
		}
	}
}

// A text of exactly MaxHeldBytes is held, and released at the link.
func TestHeldTextAtTheBound(t *testing.T) {
	c := conn(t, acpdialect.Options{MaxHeldBytes: 8})
	feed(t, c, taskStart("root", "task1"), false)
	feed(t, c, chunk("kid", "01234567"), false)
	if out := feed(t, c, taskDone("root", "task1", "kid"), false); !strings.Contains(out, `"text":"01234567","parent_tool_call_id":"task1"`) {
		t.Errorf("released:\n%s", out)
	}
}

// A child's card first seen through an update, which nothing recognized,
// was never shown: the link nests it without reporting it.
func TestLinkNestsAHiddenCardQuietly(t *testing.T) {
	c := conn(t, acpdialect.Options{})
	feed(t, c, taskStart("root", "task1"), false)
	hidden := tw.SessionUpdate("kid", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "r1", "status": "in_progress"})
	if out := feed(t, c, hidden, false); out != "" {
		t.Fatalf("a card first seen through an update was shown: %s", out)
	}
	if out := feed(t, c, taskDone("root", "task1", "kid"), false); strings.Contains(out, `"tool_call_id":"r1"`) {
		t.Errorf("the link reported a card never shown:\n%s", out)
	}
}
