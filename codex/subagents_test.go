package codex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/correlate"
)

func TestSubagentRules(t *testing.T) {
	b, c := acpdialect.RunID("w1", "B"), acpdialect.RunID("w1", "C")
	tests := []struct {
		name    string
		frames  []string
		want    []string
		notWant []string
	}{
		{"spawn then activity for the same child", []string{
			spawn("tool_call", "w1", "main", "A", "running", "Checking weather"),
			activity("w1", "A", "/root/weather_research", "started"),
		}, []string{
			`{"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"w1","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","subagent_task":{"description":"Checking weather","prompt":"Do A.","status":"running","model":"gpt-5.2","child_session_id":"A"}}}`,
			// The activity fills the type, keeps the spawn's description
			// and does not take the status back to started.
			`{"type":"tool_call_update","agent":"codex","session_id":"s1","tool_call_id":"w1","payload":{"kind":"subagent_task","status":"completed","title":"Start subagent","subagent_task":{"description":"Checking weather","prompt":"Do A.","subagent_type":"weather_research","status":"running","model":"gpt-5.2","child_session_id":"A"}}}`,
		}, []string{`"status":"started"`, `acpdialect`}},
		{"one wire id reused for three children", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			spawn("tool_call", "w1", "main", "B", "running", "b"),
			spawn("tool_call", "w1", "main", "C", "running", "c"),
			activity("w1", "B", "/root/b_task", "completed"),
		}, []string{
			`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","subagent_task":{"description":"a"`,
			`{"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"` + b + `","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","wire_tool_call_id":"w1","subagent_task":{"description":"b"`,
			`{"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"` + c + `","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","wire_tool_call_id":"w1","subagent_task":{"description":"c"`,
			`{"type":"tool_call_update","agent":"codex","session_id":"s1","tool_call_id":"` + b + `","payload":{"kind":"subagent_task","status":"completed","title":"Start subagent","wire_tool_call_id":"w1","subagent_task":{"description":"b","prompt":"Do B.","subagent_type":"b_task","status":"completed"`,
		}, []string{`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","subagent_task":{"description":"b"`}},
		{"parent linkage", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			spawn("tool_call", "w2", "A", "B", "running", "b"),
		}, []string{`"tool_call_id":"w2","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","parent_tool_call_id":"w1"`}, nil},
		// Threads that each claim to have started the other: the second
		// spawn nests under the first, which does not nest under it then.
		{"no parent loop", []string{
			spawn("tool_call", "w1", "B", "A", "running", "a"),
			spawn("tool_call", "w2", "A", "B", "running", "b"),
			spawn("tool_call_update", "w1", "B", "A", "completed", "a"),
		}, []string{`"tool_call_id":"w2","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","parent_tool_call_id":"w1"`,
			`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"completed","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"completed"`},
			[]string{`"parent_tool_call_id":"w2"`}},
		// The id of A's card is reused by a plain tool call: A's link
		// outlives its run, and a read card is no spawn's parent.
		{"a reused card id is no longer the thread's", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w1","kind":"read","title":"Read f","status":"pending"}`),
			spawn("tool_call", "w2", "A", "B", "running", "b"),
		}, []string{`"tool_call_id":"w1","payload":{"kind":"generic"`, `"tool_call_id":"w2","payload":{"kind":"subagent_task"`},
			[]string{`parent_tool_call_id`}},
		{"two candidate parents: no link", []string{
			spawn("tool_call", "w1", "main", "A", "completed", "a"),
			activity("w3", "A", "/root/a_again", "started"), // a second run of A
			spawn("tool_call", "w4", "A", "C", "running", "c"),
		}, []string{`"tool_call_id":"w3","payload":{"kind":"subagent_task"`, `"tool_call_id":"w4","payload":{"kind":"subagent_task"`},
			[]string{`parent_tool_call_id`}},
		{"a status that would move backwards", []string{
			spawn("tool_call", "w1", "main", "A", "completed", "a"),
			spawn("tool_call_update", "w1", "main", "A", "running", "a"),
			activity("w1", "A", "/root/a", "started"),
		}, []string{`"status":"completed","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"completed"`},
			[]string{`"status":"running"`, `"status":"started"`, `"status":"in_progress"`}},
		{"reports move the child's card", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			collab("w5", codex.ToolWait, "errored", "A"),
		}, []string{
			`{"type":"tool_call","agent":"codex","session_id":"s1","tool_call_id":"w5","payload":{"kind":"generic","status":"completed","title":"wait","generic":{"acp_kind":"other"}}}`,
			`{"type":"tool_call_update","agent":"codex","session_id":"s1","tool_call_id":"w1","payload":{"kind":"subagent_task","status":"failed","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"errored"`,
		}, nil},
		{"an interaction under the run's own tool call id keeps its card", []string{
			spawn("tool_call", "w1", "main", "A", "completed", "a"),
			activity("w1", "A", "/root/a", "interacted"),
			collab("w1", codex.ToolWait, "running", "A"),
		}, []string{
			`{"type":"tool_call_update","agent":"codex","session_id":"s1","tool_call_id":"w1","payload":{"kind":"subagent_task","status":"completed","title":"Start subagent","subagent_task":{"description":"a","prompt":"Do A.","subagent_type":"a","status":"completed"`,
			`{"type":"tool_call_update","agent":"codex","session_id":"s1","tool_call_id":"w1","payload":{"kind":"subagent_task","status":"completed","title":"wait","subagent_task":{"description":"a","prompt":"Do A.","subagent_type":"a","status":"completed"`,
		}, []string{`"kind":"generic"`, `"status":"running"`}},
		// _meta names no sender or receivers: rawInput's do.
		{"a spawn's sender and a report's receivers from rawInput", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w2","kind":"other","title":"spawnAgent","status":"in_progress",` +
				`"rawInput":{"prompt":"Do B.","senderThreadId":"A","receiverThreadIds":["B"]},"_meta":{"codex":{"collaboration":{"tool":"spawnAgent","receiverThreadIds":["B"]}}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w3","kind":"other","title":"wait","status":"completed",` +
				`"rawInput":{"receiverThreadIds":["A"],"agentsStates":{"A":{"status":"interrupted"}}},"_meta":{"codex":{"collaboration":{"tool":"wait"}}}}`),
		}, []string{`"tool_call_id":"w2","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","parent_tool_call_id":"w1"`,
			// An interrupted child's card is cancelled.
			`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"cancelled","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"interrupted"`}, nil},
		// An interaction reports on the child's run (its card gets the
		// type from the path); a status it does not know is no run's: the
		// child keeps one card, the parent of its spawns.
		{"an interaction reports, an unknown activity is no run", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			activity("w6", "A", "/root/research/", "interacted"),
			activity("w7", "A", "/root/research", "thinking"),
			spawn("tool_call", "w8", "A", "B", "running", "b"),
		}, []string{`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","subagent_type":"research","status":"running"`,
			`"tool_call_id":"w6","payload":{"kind":"generic"`, `"tool_call_id":"w7","payload":{"kind":"generic"`,
			`"tool_call_id":"w8","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","parent_tool_call_id":"w1"`},
			[]string{`"tool_call_id":"w6","payload":{"kind":"subagent_task"`, `"tool_call_id":"w7","payload":{"kind":"subagent_task"`}},
		// A thread that names itself as its own spawn's sender: its earlier
		// card is no parent of the new one.
		{"a run is not its own parent", []string{
			activity("w1", "A", "/root/a", "started"),
			spawn("tool_call", "w2", "A", "A", "running", "a"),
		}, []string{`"tool_call_id":"w2","payload":{"kind":"subagent_task"`}, []string{`parent_tool_call_id`}},
		{"a child shut down completes its card, one not found fails it", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			spawn("tool_call", "w2", "main", "B", "running", "b"),
			collab("w3", codex.ToolCloseAgent, "shutdown", "A"),
			collab("w4", codex.ToolWait, "notFound", "B"),
		}, []string{`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"completed","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"shutdown"`,
			`"tool_call_id":"w2","payload":{"kind":"subagent_task","status":"failed","title":"spawnAgent","subagent_task":{"description":"b","prompt":"Do B.","status":"notFound"`}, nil},
		// Codex with multi_agent_v2 (live-2.6.0-stub-subagent.jsonl): a
		// child's end is an item of its own; it ends the child's card and
		// makes none. An end for a child with no card still makes one.
		{"an end under a new id ends the child's card", []string{
			activity("call_0", "A", "/root/counter", "started"),
			activity("subagent-completed-1", "A", "/root/counter", "completed"),
			activity("subagent-completed-2", "B", "/root/other", "errored"),
		}, []string{`"tool_call_id":"call_0","payload":{"kind":"subagent_task","status":"completed","title":"Start subagent","subagent_task":{"description":"counter","subagent_type":"counter","status":"completed","child_session_id":"A"}}}`,
			`"tool_call_id":"subagent-completed-2","payload":{"kind":"subagent_task","status":"failed"`},
			[]string{`"tool_call_id":"subagent-completed-1"`}},
		{"an end after the child's card id went to another call makes a card of its own", []string{
			activity("w1", "A", "/root/a", "started"),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w1","kind":"read","title":"Read f","status":"in_progress"}`),
			activity("subagent-completed-1", "A", "/root/a", "completed"),
		}, []string{`"tool_call_id":"w1","payload":{"kind":"generic","status":"in_progress","title":"Read f","generic":{"acp_kind":"read"}}}`,
			`"tool_call_id":"subagent-completed-1","payload":{"kind":"subagent_task","status":"completed"`},
			[]string{`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"in_progress","title":"Read f"`}},
		{"an end for an id the client was shown takes that card, and the child's", []string{
			activity("call_0", "A", "/root/a", "started"),
			update(`{"sessionUpdate":"tool_call","toolCallId":"x1","kind":"other","title":"x","status":"in_progress"}`),
			activity("x1", "A", "/root/a", "completed"),
		}, []string{`"tool_call_id":"x1","payload":{"kind":"subagent_task","status":"completed"`}, nil},
		{"reports and interactions make no card", []string{
			collab("w5", codex.ToolSendInput, "running", "Z"),
			activity("w6", "Z", "/root/z", "interacted"),
		}, []string{`"tool_call_id":"w5","payload":{"kind":"generic"`, `"tool_call_id":"w6","payload":{"kind":"generic"`},
			[]string{`subagent_task`}},
		// codex-acp 2.x tags none of these calls in _meta.codex: the tool
		// is the title, the threads and the activity are in rawInput.
		{"untagged spawn then activity (2.x)", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"w1","kind":"other","title":"spawnAgent","status":"in_progress",` +
				`"rawInput":{"prompt":"Do A.","senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"running","message":"Checking"}},"model":"gpt-5.2","reasoningEffort":null,"status":"inProgress"}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w9","kind":"other","title":"Start subagent weather","status":"in_progress",` +
				`"rawInput":{"agentThreadId":"B","agentPath":"/root/weather","activityKind":"started"}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"w9","status":"completed","rawInput":{"agentThreadId":"B","agentPath":"/root/weather","activityKind":"completed"}}`),
		}, []string{
			`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","subagent_task":{"description":"Checking","prompt":"Do A.","status":"running","model":"gpt-5.2","child_session_id":"A"}}`,
			`"tool_call_id":"w9","payload":{"kind":"subagent_task","status":"in_progress","title":"Start subagent weather","subagent_task":{"description":"weather","subagent_type":"weather","status":"started","child_session_id":"B"}}`,
			`"tool_call_id":"w9","payload":{"kind":"subagent_task","status":"completed","title":"Start subagent weather","subagent_task":{"description":"weather","subagent_type":"weather","status":"completed","child_session_id":"B"}}`,
		}, nil},
		{"untagged wait and followupTask report on the child (2.x)", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"w1","kind":"other","title":"spawnAgent","status":"in_progress",` +
				`"rawInput":{"prompt":"Do A.","senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"running","message":null}}},"_meta":{"jetbrains":{"air":{"version":1,"subagent":true}}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w2","kind":"other","title":"followupTask","status":"completed",` +
				`"rawInput":{"prompt":"More.","senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"running","message":null}}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w3","kind":"other","title":"wait","status":"completed",` +
				`"rawInput":{"senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"errored","message":null}}}}`),
		}, []string{
			`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","subagent_task":{"description":"Do A.","prompt":"Do A.","status":"running","child_session_id":"A"}}`,
			`"tool_call_id":"w2","payload":{"kind":"generic"`,
			`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"failed","title":"spawnAgent","subagent_task":{"description":"Do A.","prompt":"Do A.","status":"errored"`,
		}, nil},
		// An errored child's message is Codex's error text
		// (CollabAgentState): the card's error, not its description.
		{"an errored child's message is its error", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w3","kind":"other","title":"wait","status":"completed",` +
				`"rawInput":{"senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"errored","message":"stream disconnected before completion"}}}}`),
		}, []string{
			`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"failed","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"errored","model":"gpt-5.2","child_session_id":"A","error":"stream disconnected before completion"}}`,
		}, nil},
		{"a spawn of a child that errored at once", []string{
			spawn("tool_call", "w1", "main", "A", "errored", "model not found"),
		}, []string{
			`"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"failed","title":"spawnAgent","subagent_task":{"description":"Do A.","prompt":"Do A.","status":"errored","model":"gpt-5.2","child_session_id":"A","error":"model not found"}}`,
		}, nil},
		{"a later failure's text replaces, a completed child's message is no error", []string{
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w3","kind":"other","title":"wait","status":"completed",` +
				`"rawInput":{"senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"errored","message":"first"}}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w4","kind":"other","title":"wait","status":"completed",` +
				`"rawInput":{"senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"errored","message":"second"}}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w5","kind":"other","title":"wait","status":"completed",` +
				`"rawInput":{"senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"completed","message":"All done."}}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w6","kind":"other","title":"wait","status":"completed",` +
				`"rawInput":{"senderThreadId":"main","receiverThreadIds":["A"],"agentsStates":{"A":{"status":"errored","message":7}}}}`),
		}, []string{
			`"status":"failed","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"errored","model":"gpt-5.2","child_session_id":"A","error":"first"}}`,
			`"status":"failed","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"errored","model":"gpt-5.2","child_session_id":"A","error":"second"}}`,
			`"status":"completed","title":"spawnAgent","subagent_task":{"description":"a","prompt":"Do A.","status":"completed","model":"gpt-5.2","child_session_id":"A","error":"second"}}`,
		}, []string{`"error":"All done."`, `"description":"first"`}},
		{"thread ids under another title are no collaboration", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"w1","kind":"other","title":"Read notes","status":"in_progress",` +
				`"rawInput":{"senderThreadId":"main","receiverThreadIds":["A"]}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"w2","kind":"other","title":"Start","status":"in_progress","rawInput":{"agentThreadId":"B"}}`),
		}, []string{`"tool_call_id":"w1","payload":{"kind":"generic"`, `"tool_call_id":"w2","payload":{"kind":"generic"`},
			[]string{`subagent_task`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			has(t, feed(t, conn(t, acpdialect.Options{}), tt.frames...), tt.want, tt.notWant)
		})
	}
}

// TestStatusForward: a subagent's status moves from starting to running to
// final, never back; a status of no rank never replaces one of a rank.
func TestStatusForward(t *testing.T) {
	for _, tt := range []struct{ old, next, want string }{
		{"", "pending", "pending"},
		{"pending", "weird", "pending"},
		{"pendingInit", "running", "running"},
		{"running", "pending", "running"},
		{"running", "completed", "completed"},
		{"completed", "running", "completed"},
		{"completed", "", "completed"},
		{"weird", "started", "started"},
	} {
		if got := codex.Forward(tt.old, tt.next); got != tt.want {
			t.Errorf("Forward(%q, %q) = %q, want %q", tt.old, tt.next, got, tt.want)
		}
	}
}

// TestRunIDReversible: a derived id splits back into the wire id and the
// child, whatever they hold; other ids do not split.
func TestRunIDReversible(t *testing.T) {
	for _, tc := range [][2]string{{"w1", "thread-paris"}, {"a~run~b", "c~run~d"}, {"", ""}, {"x", "日本"}} {
		w, c, ok := acpdialect.SplitRunID(acpdialect.RunID(tc[0], tc[1]))
		if !ok || w != tc[0] || c != tc[1] {
			t.Errorf("SplitRunID(RunID(%q, %q)) = %q, %q, %v", tc[0], tc[1], w, c, ok)
		}
	}
	for _, id := range []string{"w1", "w1~run~", "w1~run~!!", "w1~run~YQ=="} {
		if _, _, ok := acpdialect.SplitRunID(id); ok && id != "w1~run~" {
			t.Errorf("SplitRunID(%q) ok", id)
		}
	}
}

// TestRunLinksBounded: past Options.MaxRunLinks the oldest link of a
// finished run goes first, counted in Stats.
func TestRunLinksBounded(t *testing.T) {
	c := conn(t, acpdialect.Options{MaxRunLinks: 2})
	feed(t, c,
		spawn("tool_call", "w1", "main", "A", "running", "a"),
		spawn("tool_call", "w2", "main", "B", "completed", "b"),
		spawn("tool_call", "w3", "main", "C", "running", "c"),
		collab("w4", codex.ToolWait, "completed", "A"), // A's link is kept
	)
	st := c.Stats().RunLinks
	if st.Stored != 3 || st.Evicted != 1 || st.Live != 2 {
		t.Fatalf("run links %+v, want 3 stored, 1 evicted, 2 live", st)
	}
	out := feed(t, c, collab("w5", codex.ToolCloseAgent, "shutdown", "B"))
	if strings.Contains(out, `"tool_call_id":"w2"`) {
		t.Errorf("B's link was kept, A's evicted:\n%s", out)
	}
}

// TestRunLinksKeepARunningChild: a run is finished when its child is, not
// when its tool call completes: an activity's tool call (and a spawn's)
// completes as soon as the child is started, and the link of that running
// child outlives an older link of a child that ended.
func TestRunLinksKeepARunningChild(t *testing.T) {
	c := conn(t, acpdialect.Options{MaxRunLinks: 2})
	feed(t, c,
		activity("w1", "A", "/root/a", "started"), // completed tool call, A running
		spawn("tool_call", "w2", "main", "B", "completed", "b"),
		spawn("tool_call", "w3", "main", "C", "running", "c"),
	)
	out := feed(t, c, collab("w4", codex.ToolWait, "completed", "A"))
	if !strings.Contains(out, `"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"completed"`) {
		t.Errorf("the running child's link was evicted before the ended one's:\n%s", out)
	}
	if st := c.Stats().RunLinks; st.Evicted != 1 || st.Live != 2 {
		t.Errorf("run links %+v, want 1 evicted, 2 live", st)
	}
}

// TestRunLinksDoneFollowsTheLatestFrame: the frame that names a run last
// says whether it ended: a report of its child's end makes its link the
// first evicted, a spawn frame of a child that runs again (resumed) makes
// it live again.
func TestRunLinksDoneFollowsTheLatestFrame(t *testing.T) {
	t.Run("a report ends it", func(t *testing.T) {
		c := conn(t, acpdialect.Options{MaxRunLinks: 2})
		feed(t, c,
			spawn("tool_call", "w1", "main", "A", "running", "a"),
			spawn("tool_call", "w2", "main", "B", "running", "b"),
			collab("w3", codex.ToolWait, "completed", "B"), // B's link ended
			spawn("tool_call", "w4", "main", "C", "running", "c"),
		)
		out := feed(t, c, collab("w5", codex.ToolWait, "errored", "A"))
		if !strings.Contains(out, `"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"failed"`) {
			t.Errorf("A's link was evicted, not B's ended one:\n%s", out)
		}
	})
	t.Run("a spawn frame resumes it", func(t *testing.T) {
		c := conn(t, acpdialect.Options{MaxRunLinks: 2})
		feed(t, c,
			spawn("tool_call", "w0", "main", "B", "running", "b"),
			spawn("tool_call", "w1", "main", "A", "completed", "a"),
			spawn("tool_call_update", "w1", "main", "A", "running", "a"), // A runs again
			spawn("tool_call", "w2", "main", "C", "running", "c"),
		)
		out := feed(t, c, collab("w5", codex.ToolWait, "errored", "A"))
		if !strings.Contains(out, `"tool_call_id":"w1","payload":{"kind":"subagent_task","status":"failed"`) {
			t.Errorf("A's link was evicted as ended after it resumed:\n%s", out)
		}
	})
}

// TestRunParentNoLoopThroughEvictedCards: a card the Conn evicted is still
// on the client's screen, with its parent. A wire id that comes back after
// its card was evicted is a new card to the Conn but the same card to the
// client, whose evicted children still nest under it: a parent whose chain
// passes through an evicted card may lead back to it. Without the rule the
// client walks w1 -> w5 -> w4 -> w3 -> w2 -> w1 forever.
func TestRunParentNoLoopThroughEvictedCards(t *testing.T) {
	c := conn(t, acpdialect.Options{Tools: correlate.Limits{PerSession: 3, Total: 6}})
	out := feed(t, c,
		spawn("tool_call", "w1", "main", "A", "running", "a"),
		spawn("tool_call", "w2", "A", "B", "running", "b"), // under w1
		spawn("tool_call", "w3", "B", "C", "running", "c"), // under w2
		spawn("tool_call", "w4", "C", "D", "running", "d"), // w1 evicted
		spawn("tool_call", "w5", "D", "E", "running", "e"), // w2 evicted: w4's chain is unknown past w2
		spawn("tool_call", "w1", "E", "F", "running", "f"), // w1 again, sent by w5's child
	)
	has(t, out, []string{
		`"tool_call_id":"w2","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","parent_tool_call_id":"w1"`,
		`"tool_call_id":"w4","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","parent_tool_call_id":"w3"`,
		`"tool_call_id":"w5","payload":{"kind":"subagent_task","status":"in_progress","title":"spawnAgent","subagent_task"`,
	}, nil)
	noParentLoop(t, out)
}

// noParentLoop fails when the cards' parents, as a client keeps them (the
// last payload of each id, evicted or not), make a cycle.
func noParentLoop(t *testing.T, out string) {
	t.Helper()
	parent := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		var ev acpdialect.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Payload != nil {
			parent[ev.ToolCallID] = ev.Payload.ParentToolCallID
		}
	}
	for id := range parent {
		seen := map[string]bool{}
		for k := id; parent[k] != ""; k = parent[k] {
			if seen[k] {
				t.Fatalf("the parents of %s make a cycle at %s:\n%s", id, k, out)
			}
			seen[k] = true
		}
	}
}

// TestNativeSubagentSessions: codex-acp 2.x opens each child of an AIR
// client that declares nativeSubagentSessions as a session of its own. The
// child's card comes from subagent_spawned, its work nests under it, and
// subagent_state_update ends it; without the two kinds the child's work
// nested under nothing.
func TestNativeSubagentSessions(t *testing.T) {
	tests := []struct {
		name    string
		frames  []string
		want    []string
		notWant []string
	}{
		{"spawned, worked, completed", []string{
			update(`{"sessionUpdate":"subagent_spawned","subagentSessionId":"thr-a","name":"weather_research","task":"Find the weather.","capabilities":{}}`),
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"thr-a","update":{"sessionUpdate":"tool_call","toolCallId":"cmd1","kind":"execute","title":"curl wttr.in","status":"in_progress","rawInput":{"command":"curl wttr.in","cwd":"/w"}}}}`,
			update(`{"sessionUpdate":"subagent_state_update","subagentSessionId":"thr-a","state":"completed"}`),
		}, []string{
			`"tool_call_id":"thr-a","payload":{"kind":"subagent_task","status":"in_progress","title":"weather_research","subagent_task":{"description":"weather_research","prompt":"Find the weather.","status":"running","child_session_id":"thr-a"}}`,
			`"tool_call_id":"cmd1","payload":{"kind":"shell","status":"in_progress","title":"curl wttr.in","parent_tool_call_id":"thr-a"`,
			`"tool_call_id":"thr-a","payload":{"kind":"subagent_task","status":"completed","title":"weather_research"`,
		}, nil},
		{"a reopened thread is a new child", []string{
			update(`{"sessionUpdate":"subagent_spawned","subagentSessionId":"thr-a","name":"a","task":"t","capabilities":{}}`),
			update(`{"sessionUpdate":"subagent_state_update","subagentSessionId":"thr-a","state":"cancelled"}`),
			update(`{"sessionUpdate":"subagent_spawned","subagentSessionId":"thr-a:generation:2","name":"a","task":"t","capabilities":{}}`),
		}, []string{
			`"tool_call_id":"thr-a","payload":{"kind":"subagent_task","status":"cancelled"`,
			`"tool_call_id":"thr-a:generation:2","payload":{"kind":"subagent_task","status":"in_progress"`,
		}, nil},
		{"without a child id: nothing", []string{
			update(`{"sessionUpdate":"subagent_spawned","name":"a","task":"t"}`),
		}, nil, []string{`subagent_task`}},
		{"v2: a state with no spawn before it (a client attached mid-run) makes the card, ended", []string{
			update(`{"sessionUpdate":"_subagent_update","subagentSessionId":"thr-b","state":"failed"}`),
		}, []string{
			`"tool_call_id":"thr-b","payload":{"kind":"subagent_task","status":"failed","subagent_task":{"status":"failed","child_session_id":"thr-b"}}`,
		}, nil},
		{"v2: a state without a child id: nothing", []string{
			update(`{"sessionUpdate":"_subagent_update","state":"completed"}`),
		}, nil, []string{`subagent_task`}},
	}
	// An ACP v2 client gets both records as _subagent_update: the v1
	// cases read the same under it.
	v2 := strings.NewReplacer(`"subagent_spawned"`, `"_subagent_update"`, `"subagent_state_update"`, `"_subagent_update"`)
	for _, tt := range tests {
		if strings.HasPrefix(tt.name, "v2: ") {
			continue
		}
		tt.name = "v2: " + tt.name
		tt.frames = append([]string(nil), tt.frames...)
		for i, f := range tt.frames {
			tt.frames[i] = v2.Replace(f)
		}
		tests = append(tests, tt)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			has(t, feed(t, conn(t, acpdialect.Options{}), tt.frames...), tt.want, tt.notWant)
		})
	}
}
