package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/dialects"
)

// The subagent frames of Cursor, OpenCode, Codex and Claude, built from a
// few ids so that random sequences of them meet: the same children, tool
// calls and sessions come back in any order (a state before its spawn, a
// node whose parent is unseen, a removal before the link, a child that
// names its own parent session, a run reported on before it was spawned,
// a card nested under a tool call that names it as its parent).
var (
	seqSessions = []string{"s1", "c1", "c2", "x9"}
	seqChildren = []string{"c1", "c2", "c3", "s1"}
	seqTools    = []string{"t1", "t2", "t3", "t4"}
	seqStates   = []string{"running", "completed", "cancelled", "disconnected"}
	seqRunState = []string{"pendingInit", "running", "completed", "errored"}
)

// pick returns the element of list that the bits of b from shift name,
// modulo its length (the two bits at shift, for a list of four).
func pick(list []string, b byte, shift uint) string { return list[int(b>>shift)%len(list)] }

// seqBig is a text over the per-value cap of seqOpts (MaxBytes/16): a
// card or half that holds it is cut, one whose id it is is not kept.
var seqBig = strings.Repeat("x", correlate.MinBudget/16+100)

// text is a JSON string: a short text, or seqBig when b's top bit is
// set. It is quoted once here: quoting seqBig anew for every frame took
// an eighth of the target's time.
func text(b byte) string {
	if b&0x80 != 0 {
		return seqBigJSON
	}
	return `"d"`
}

var seqBigJSON = `"` + seqBig + `"`

// seqUpdate is a session/update of sid carrying the update object u.
func seqUpdate(sid, u string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":%s}}`, sid, u)
}

// seqDialect builds one vendor's frames: frame returns the frame that op
// names with parameters a and b, and whether it goes client -> agent. id
// numbers a request.
type seqDialect struct {
	agent string
	frame func(op, a, b byte, id int) ([]byte, bool)
}

var seqDialects = []seqDialect{
	{"cursor", func(op, a, b byte, id int) ([]byte, bool) {
		sid, child, tool := pick(seqSessions, a, 0), pick(seqChildren, a, 2), pick(seqTools, a, 4)
		switch op % 8 {
		case 0:
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"title":"Task: t","kind":"other","status":"in_progress",`+
				`"rawInput":{"_toolName":"task","description":%s,"prompt":"p"}}`, tool, text(b))), false
		case 1:
			if b&1 != 0 {
				return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"cursor/task","params":{"toolCallId":%q,"agentId":%q,"model":"m"}}`, id, tool, child), false
			}
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"cursor/task","params":{"toolCallId":%q,"description":"d","prompt":%s}}`, id, tool, text(b)), false
		case 2:
			meta := ""
			if b&1 != 0 {
				meta = fmt.Sprintf(`,"_meta":{"cursor":{"toolCallId":%q}}`, tool)
			}
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"subagent_spawned","subagentSessionId":%q,"task":%s,"name":"n"%s}`, child, text(b), meta)), false
		case 3:
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"subagent_state_update","subagentSessionId":%q,"state":%q}`, child, pick(seqStates, b, 1))), false
		case 4:
			if b&1 != 0 {
				return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"subagent_update","sessionId":%q,"title":"T","description":"D","capabilities":{}}`, child)), false
			}
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"subagent_update","sessionId":%q,"state":{"state":"idle","stopReason":"end_turn"}}`, child)), false
		case 5:
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"cursor/update_todos","params":{"toolCallId":%q,"todos":[{"id":"1","content":"a","status":"inProgress"},`+
				`{"content":%q,"status":"completed"}],"merge":%t}}`, tool, child, b&1 != 0), false
		case 6:
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"cursor/ask_question","params":{"toolCallId":%q,"questions":[{"id":"q","options":[{"id":"y","label":"Y"}]}]}}`, id, tool), false
		}
		return seqCommon(a, b, id)
	}},
	{"opencode", func(op, a, b byte, id int) ([]byte, bool) {
		sid, child, tool := pick(seqSessions, a, 0), pick(seqChildren, a, 2), pick(seqTools, a, 4)
		switch op % 6 {
		case 0:
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"status":"pending","kind":"think","title":"task","rawInput":{}}`, tool)), false
		case 1:
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":%q,"status":"completed","kind":"think","title":"t",`+
				`"rawOutput":{"output":"","metadata":{"sessionId":%q}}}`, tool, child)), false
		case 2:
			node := fmt.Sprintf(`{"runId":%q,"sessionId":%q,"rootSessionId":"s1","parentSessionId":%q,"phase":%q,"agent":%s,"cwd":"/w"}`,
				child, child, pick(seqSessions, b, 1), pick(seqStates, b, 3), text(b))
			removed := ""
			if b&1 != 0 {
				removed = fmt.Sprintf("%q", pick(seqChildren, b, 5))
			}
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"_opencode/subagents/update","params":{"generation":"g","revision":1,"upsert":[%s],"removedSessionIds":[%s]}}`,
				node, removed), false
		case 3:
			if b&1 != 0 {
				return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"_opencode/subagents/list","params":{}}`, id), true
			}
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"generation":"g","revision":0,"nodes":[{"runId":%q,"sessionId":%q,"rootSessionId":"s1","parentSessionId":%q,"phase":"completed"}]}}`,
				id-1, child, child, sid), false
		case 4:
			return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":%q,"toolCall":{"toolCallId":%q},"options":[]}}`, id, sid, tool), false
		}
		return seqCommon(a, b, id)
	}},
	{"codex", func(op, a, b byte, id int) ([]byte, bool) {
		child, tool := pick(seqChildren, a, 2), pick(seqTools, a, 4)
		switch op % 4 {
		case 0:
			kind := "tool_call"
			if b&1 != 0 {
				kind = "tool_call_update"
			}
			sender := pick([]string{"main", "c1", "c2", "c3"}, b, 1)
			return seqUpdate("s1", fmt.Sprintf(`{"sessionUpdate":%q,"toolCallId":%q,"kind":"other","title":"spawnAgent","status":"in_progress",`+
				`"rawInput":{"prompt":"p","senderThreadId":%q,"receiverThreadIds":[%q],"agentsStates":{%q:{"status":%q,"message":%s}},"model":"g","status":"inProgress"},`+
				`"_meta":{"codex":{"collaboration":{"tool":"spawnAgent","senderThreadId":%q,"receiverThreadIds":[%q]}}}}`,
				kind, tool, sender, child, child, pick(seqRunState, b, 3), text(b), sender, child)), false
		case 1:
			act := pick([]string{"started", "interacted", "completed", "errored"}, b, 1)
			return seqUpdate("s1", fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"title":"Start subagent","kind":"other","status":"completed",`+
				`"rawInput":{"agentThreadId":%q,"agentPath":"/root/a","activityKind":%q},"_meta":{"codex":{"subagent":{"threadId":%q,"path":"/root/a","activity":%q}}}}`,
				tool, child, act, child, act)), false
		case 2:
			other := pick(seqChildren, b, 5)
			collab := pick([]string{"sendInput", "resumeAgent", "wait", "closeAgent"}, b, 1)
			st := pick(seqRunState, b, 3)
			return seqUpdate("s1", fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"kind":"other","title":%q,"status":"completed",`+
				`"rawInput":{"senderThreadId":"main","receiverThreadIds":[%q,%q],"agentsStates":{%q:{"status":%q,"message":null},%q:{"status":"running"}}},`+
				`"_meta":{"codex":{"collaboration":{"tool":%q,"senderThreadId":"main","receiverThreadIds":[%q,%q]}}}}`,
				tool, collab, child, other, child, st, other, collab, child, other)), false
		}
		return seqCommon(a, b, id)
	}},
	{"claude", func(op, a, b byte, id int) ([]byte, bool) {
		sid, child, tool := pick(seqSessions, a, 0), pick(seqChildren, a, 2), pick(seqTools, a, 4)
		parent := ""
		if b&0x40 != 0 {
			parent = fmt.Sprintf(`,"parentToolUseId":%q`, pick(seqTools, b, 4))
		}
		switch op % 9 {
		case 0:
			kind := "tool_call"
			if b&1 != 0 {
				kind = "tool_call_update"
			}
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":%q,"toolCallId":%q,"kind":"think","status":"in_progress","rawInput":{"description":%s,"prompt":"p","subagent_type":"x"},"_meta":{"claudeCode":{"toolName":"Task"%s}}}`, kind, tool, text(b), parent)), false
		case 1:
			st := pick([]string{"completed", "async_launched", "failed", "running"}, b, 1)
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":%q,"status":"completed","_meta":{"claudeCode":{"toolName":"Task","toolResponse":{"agentId":%q,"status":%q,"isAsync":%t,"content":[{"type":"text","text":"r"}]}%s}}}`, tool, child, st, st == "async_launched", parent)), false
		case 2:
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"kind":"read","status":"pending","_meta":{"claudeCode":{"toolName":"Read"%s}}}`, pick(seqTools, b, 1), parent)), false
		case 3:
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"<task-notification>\n<task-id>%s</task-id>\n<event>e</event>\n</task-notification>"},"_meta":{"claudeCode":{%s}}}`, pick(seqChildren, b, 1), strings.TrimPrefix(parent, ","))), false
		case 4:
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":%q,"status":"completed","rawInput":{"command":"tail"},"rawOutput":"Monitor started (task %s, timeout 1000ms)","_meta":{"claudeCode":{"toolName":"Monitor"%s}}}`, tool, pick(seqChildren, b, 1), parent)), false
		case 5:
			if b&1 != 0 {
				// A cwd, its replacement, its clearing (null) or one of a
				// wrong type.
				cwd := pick([]string{`"/w/a"`, `null`, `"/w/b"`, `7`}, b, 1)
				return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"subagent_update","sessionId":%q,"title":"T","description":%s,"cwd":%s,"capabilities":{}}`, child, text(b), cwd)), false
			}
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"subagent_update","sessionId":%q,"state":{"state":"idle","stopReason":%q}}`, child, pick([]string{"end_turn", "cancelled", "", "x"}, b, 1))), false
		case 6:
			tt := pick([]string{"shell", "monitor", "task", "workflow"}, b, 1)
			tc := ""
			if b&0x20 != 0 {
				tc = fmt.Sprintf(`,"toolCallId":%q`, tool)
			}
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"async_task_spawned","asyncTaskId":%q,"name":"n","taskType":%q,"description":%s%s}`, child, tt, text(b), tc)), false
		case 7:
			// A state may name the tool call a spawn did not: the task's
			// card hands over to the tool call's.
			st := pick([]string{"running", "completed", "failed", "stopped", "paused"}, b, 1)
			tc := ""
			if b&0x20 != 0 {
				tc = fmt.Sprintf(`,"toolCallId":%q`, tool)
			}
			return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"async_task_state_update","asyncTaskId":%q,"state":%q,"summary":"s"%s}`, child, st, tc)), false
		}
		return seqCommon(a, b, id)
	}},
}

// seqCommon is a frame every dialect sees: a turn's prompt or its end,
// a chunk, or a plain tool call in any session, children's included.
func seqCommon(a, b byte, id int) ([]byte, bool) {
	sid, tool := pick(seqSessions, a, 0), pick(seqTools, a, 4)
	switch b % 7 {
	case 5:
		// ACP v2's work state, with a background list when a's top bit is
		// set; an idle ends the turns a v2 agent accepted.
		list := ""
		if a&0x80 != 0 {
			list = fmt.Sprintf(`,"background":[{"type":"tool_call","toolCallId":%q}]`, tool)
		}
		return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"state_update","state":%q%s}`, pick(seqWorkStates, a, 1), list)), false
	case 6:
		// A v2 agent's acceptance of one of the last few requests.
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"messageId":"m"}}`, id-1-int(a>>6)), false
	case 0:
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":%q,"prompt":[]}}`, id, sid), true
	case 1:
		// The response to the prompt of one of the last few requests.
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"stopReason":"end_turn"}}`, id-1-int(a>>6)), false
	case 2:
		// A chunk over MaxHeldBytes when a's top bit is set: held for a
		// child session, it is dropped. Messages are not cut, so a chunk
		// of seqBig would only make the event checks slow.
		chunk := "d"
		if a&0x80 != 0 {
			chunk = "a chunk over the held bytes"
		}
		return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}`, chunk)), false
	case 3:
		tid := strconv.Quote(tool)
		if a&0x80 != 0 {
			tid = seqBigJSON // an id over the cap: the card is not kept
		}
		return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%s,"kind":"read","status":"pending"}`, tid)), false
	}
	return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":%q,"status":"completed"}`, tool)), false
}

// seqWorkStates are the states seqCommon's state_update reports.
var seqWorkStates = []string{acpdialect.StateRunning, acpdialect.StateIdle, acpdialect.StateRequiresAction, acpdialect.StateIdle, acpdialect.StateUnknown}

var seqOpts = acpdialect.Options{
	MaxBytes:     correlate.MinBudget,
	Pending:      correlate.Limits{PerSession: 2, Total: 4},
	Tools:        correlate.Limits{PerSession: 3, Total: 6},
	MaxSessions:  3,
	MaxRequests:  3,
	MaxRunLinks:  2,
	MaxHeld:      2,
	MaxHeldBytes: 8,
}

// seqGrok is Grok's program, picked by bit 0x40 of an input's first byte
// (no input written before it has that bit, and seqDialects' modulus is
// unchanged): spawn_subagent tool calls, their results naming a child
// (SubagentCompleted, or the background start's text), and the
// subagent_spawned and subagent_finished notifications, whose start
// claims its child for the only open spawn (Child.Claim).
var seqGrok = seqDialect{"grok", func(op, a, b byte, id int) ([]byte, bool) {
	sid, child, tool := pick(seqSessions, a, 0), pick(seqChildren, a, 2), pick(seqTools, a, 4)
	spawn := `"_meta":{"x.ai/tool":{"name":"spawn_subagent","kind":"task"}}`
	switch op % 6 {
	case 0:
		return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":%q,"title":"spawn_subagent","rawInput":{"prompt":%s,"background":%t},%s}`,
			tool, text(b), b&1 != 0, spawn)), false
	case 1:
		out := fmt.Sprintf(`{"type":"SubagentCompleted","subagent_id":%q,"output":%s}`, child, text(b))
		if b&1 != 0 {
			out = fmt.Sprintf(`{"type":"Text","text":"Subagent started in background.\nsubagent_id: %s\n"}`, child)
		}
		return seqUpdate(sid, fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":%q,"status":%q,"rawOutput":%s}`,
			tool, pick([]string{"completed", "completed", "failed", "in_progress"}, b, 1), out)), false
	case 2, 3:
		u := fmt.Sprintf(`{"sessionUpdate":"subagent_spawned","subagent_id":%q,"parent_session_id":%q,"child_session_id":%q,"description":%s}`,
			child, sid, child, text(b))
		if op%6 == 3 {
			u = fmt.Sprintf(`{"sessionUpdate":"subagent_finished","subagent_id":%q,"child_session_id":%q,"status":%q,"output":%s}`,
				child, child, pick([]string{"completed", "failed", "cancelled", "running"}, b, 1), text(b))
		}
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"_x.ai/session_notification","params":{"sessionId":%q,"update":%s}}`, sid, u), false
	}
	return seqCommon(a, b, id)
}}

// seqSeeds: each dialect's subagent told in order and out of it.
var seqSeeds = [][]byte{
	// An ACP v2 Cursor connection: a prompt accepted, running, a tool
	// call, idle, then unknown with a background list.
	{0x80, 7, 0, 0, 7, 0, 6, 7, 0, 5, 0, 0, 0, 7, 0x02, 5, 7, 0x80, 5},
	// Cursor: Task tool call, cursor/task, spawn, state; then the state first.
	{0, 0, 0x00, 0, 1, 0x00, 1, 2, 0x00, 1, 3, 0x00, 2, 3, 0x00, 2, 7, 0x00, 0},
	{0, 3, 0x00, 2, 2, 0x00, 1, 0, 0x00, 0, 1, 0x00, 1, 7, 0x0c, 1},
	// OpenCode: a node before its task, a removal, the link, a child's chunk.
	{1, 2, 0x04, 0x02, 2, 0x04, 0x01, 0, 0x00, 0, 1, 0x04, 0, 7, 0x02, 2},
	{1, 3, 0x04, 1, 3, 0x04, 0, 2, 0x08, 0x0a, 1, 0x08, 0},
	// Codex: a report before its spawn, the spawn, an activity, a finish.
	{2, 2, 0x04, 0x0a, 0, 0x04, 0x02, 1, 0x04, 0x02, 1, 0x04, 0x06, 3, 0x00, 1},
	// Claude: a Task, a Read made inside it, its native child session
	// opened, the child's Read, the Task's response, the child's end; then
	// a Read naming its Task before the Task, the Task naming the Read as
	// its own parent (a cycle: not taken), an async task spawned and ended.
	{3, 0, 0x00, 0x00, 2, 0x00, 0x42, 5, 0x00, 0x01, 2, 0x01, 0x04, 1, 0x00, 0x00, 5, 0x00, 0x00},
	{3, 2, 0x00, 0x42, 0, 0x00, 0x51, 6, 0x04, 0x24, 7, 0x04, 0x02},
	// Claude: an async task spawned with no tool call, a tool call, and
	// the task's end naming that tool call (the hand-over).
	{3, 6, 0x00, 0x00, 0, 0x00, 0x00, 7, 0x00, 0x22},
	// Values over the per-value cap: a Cursor Task and spawn, a Codex
	// spawn, a held chunk, a card whose id is too long.
	{0, 0, 0x00, 0x80, 2, 0x00, 0x81, 7, 0x80, 3, 7, 0x88, 2},
	{2, 0, 0x04, 0x82, 7, 0x88, 2, 7, 0x80, 3},
	// Grok: a spawn claimed by its start, the child's chunk, the finish
	// and the result; two spawns side by side, neither claimed, then a
	// background one named by its start text.
	{0x40, 0, 0x00, 0x00, 2, 0x04, 0x00, 4, 0x02, 2, 3, 0x04, 0x00, 1, 0x04, 0x00},
	{0x40, 0, 0x00, 0x00, 0, 0x10, 0x00, 2, 0x04, 0x00, 4, 0x02, 2, 1, 0x14, 0x00, 3, 0x14, 0x00,
		0, 0x20, 0x01, 1, 0x28, 0x01, 4, 0x03, 2},
}

// seqMaxFrames bounds the frames of one execution. The fuzzer grows its
// inputs to hundreds of frames, which made each execution slow; the
// failures it found took at most 15 frames once minimized, and the small
// bounds of seqOpts are met within a few.
const seqMaxFrames = 48

// seqMaxBig bounds the frames of one execution that carry seqBig: later
// ones are left out. Each costs as much as a hundred small frames, and
// one or two over the cap meet the cut and refused cards all the same.
const seqMaxBig = 2

// FuzzSubagentFrames feeds a random sequence of one vendor's subagent
// frames (the first byte picks the vendor, modulo len(seqDialects): 0
// Cursor, 1 OpenCode, 2 Codex, 3 Claude; each three bytes after it a
// frame) to a connection with small bounds, and checks after every frame
// that the Conn stays within them, that every event encodes and decodes
// to itself, that a card is updated only after it was reported, and that
// the cards' parents, as a client sees them, make no cycle (see walk). A
// vendor added to seqDialects changes the modulus: the first byte of every
// input under testdata/fuzz/FuzzSubagentFrames and of seqSeeds must still
// pick the vendor it was written for.
func FuzzSubagentFrames(f *testing.F) {
	for _, s := range seqSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) == 0 {
			return
		}
		d := seqDialects[int(prog[0])%len(seqDialects)]
		if prog[0]&0x40 != 0 {
			d = seqGrok
		}
		opts := seqOpts
		opts.Agent = d.agent
		v := &seqView{t: t, c: dialects.Registry().NewConn(opts), cards: map[[2]string]*acpdialect.Payload{}, stale: seqNamesParents[d.agent]}
		if prog[0]&0x80 != 0 {
			// An ACP v2 agent: its prompt answers may only accept.
			v.feed([]byte(`{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":2}}`), true)
			v.feed([]byte(`{"jsonrpc":"2.0","id":9,"result":{"protocolVersion":2,"info":{"name":"`+d.agent+`"}}}`), false)
		}
		id := 10
		v.feed(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`, id), true)
		ops := prog[1:]
		if len(ops) > 3*seqMaxFrames {
			ops = ops[:3*seqMaxFrames]
		}
		big := 0
		for ; len(ops) >= 3; ops = ops[3:] {
			id++
			fr, out := d.frame(ops[0], ops[1], ops[2], id)
			if len(fr) > len(seqBig) {
				if big++; big > seqMaxBig {
					continue
				}
			}
			v.feed(fr, out)
		}
		// Close ends the sessions and what is kept by session, and
		// OpenCode's waiting nodes (keyed by child alone); tracked client
		// requests outlive them, by design.
		v.c.Close()
		if st := v.c.Stats(); st.Tools.Live != 0 || st.RunLinks.Live != 0 || st.Pending.Live != 0 || len(v.c.Sessions()) != 0 {
			t.Fatalf("after Close: %+v", st)
		}
	})
}

// seqNamesParents are the vendors whose agent names a card's parent by
// its id (Claude's parentToolUseId), which the Conn takes before it holds
// that card (a subagent's tool call may come before its Task's): it
// refuses only the cycles through cards it holds. Of the other vendors'
// cards no cycle is allowed, through cards the Conn evicted either.
var seqNamesParents = map[string]bool{"claude": true}

// seqView is a client's view of a Conn's cards: the last payload of each,
// by session and tool call id. With stale, a cycle through a card the Conn
// no longer holds (or has not reported again since) is the client's stale
// copy of it, and not a failure (seqNamesParents).
type seqView struct {
	t     *testing.T
	c     *acpdialect.Conn
	cards map[[2]string]*acpdialect.Payload
	stale bool
}

// feed hands one frame to the Conn and checks the invariants.
func (v *seqView) feed(fr []byte, out bool) {
	t := v.t
	t.Helper()
	var r acpdialect.Result
	var err error
	if out {
		r, err = v.c.Outbound(fr)
	} else {
		r, err = v.c.Inbound(fr)
	}
	if err != nil {
		t.Fatalf("%s: %v", fr, err)
	}
	st := v.c.Stats()
	if st.Pending.Live > seqOpts.Pending.Total || st.Tools.Live > seqOpts.Tools.Total ||
		st.RunLinks.Live > seqOpts.MaxRunLinks || len(v.c.Sessions()) > seqOpts.MaxSessions || st.Budget.Used > st.Budget.Limit {
		t.Fatalf("after %s: bounds broken: %+v, sessions %v", fr, st, v.c.Sessions())
	}
	if broken := v.c.TurnsBroken(); broken != "" {
		t.Fatalf("after %s: turn counts broken: %s", fr, broken)
	}
	for _, e := range r.Events {
		b := roundTrip(t, e)
		k := [2]string{e.SessionID, e.ToolCallID}
		switch e.Type {
		case acpdialect.EventToolCall:
			v.cards[k] = e.Payload
		case acpdialect.EventToolCallUpdate:
			if v.cards[k] == nil {
				t.Fatalf("after %s: update %s of a card never reported", fr, b)
			}
			v.cards[k] = e.Payload
		}
		if p := e.Payload; p != nil && (p.Kind == "" || !oneKind(p)) {
			t.Fatalf("event %s: a card with no kind, or a kind object of another kind", b)
		}
	}
	v.forgetEnded()
	for k := range v.cards {
		v.walk(k, fr)
	}
}

// forgetEnded drops the cards of the sessions the Conn has ended to keep
// within its bounds (MaxSessions, the budget), as the contract asks of a
// client: an ended session is forgotten with its cards and child links,
// so if it comes back its cards may reuse ids and name children that its
// old cards named. The Conn vouches for the parents of the sessions it
// tracks, which the walk checks.
func (v *seqView) forgetEnded() {
	live := map[string]bool{}
	for _, s := range v.c.Sessions() {
		live[s] = true
	}
	for k := range v.cards {
		if !live[k[0]] {
			delete(v.cards, k)
		}
	}
}

// roundTrip checks that event e encodes and decodes to itself, and
// returns its encoding. The check is of the event's shape, which a
// value's length does not change: an event that carries seqBig (an id
// over the cap is reported, only not kept) is only encoded, and one whose
// id is seqBig not even that; the two took four fifths of the target's
// time, which CI's floor on executions a second caught.
func roundTrip(t *testing.T, e acpdialect.Event) []byte {
	t.Helper()
	if len(e.ToolCallID) > 4<<10 {
		return fmt.Appendf(nil, "%s of %.40s...", e.Type, e.ToolCallID)
	}
	b, err := e.MarshalJSON() // json.Marshal would compact it again: a fifth of the time
	if err != nil {
		t.Fatalf("event %+v does not encode: %v", e, err)
	}
	if len(b) > 4<<10 {
		return b
	}
	var back acpdialect.Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("event %s does not decode: %v", b, err)
	}
	// Encoded as it was: json.Marshal escapes the "<" of a Claude task
	// notification, which MarshalJSON leaves as it is.
	if again, _ := back.MarshalJSON(); !bytes.Equal(again, b) {
		t.Fatalf("event %s decodes to %s", b, again)
	}
	return b
}

// walk follows card k's parents as a client does and fails on a cycle
// (with v.stale, only on one through cards the Conn holds). A parent is
// the card of that id in another session whose child is k's session (a
// subagent's session nests under its card), else the card of that id in
// k's session (a Codex run nests under its parent thread's run), if that
// is not k.
func (v *seqView) walk(k [2]string, fr []byte) {
	var path [][2]string
	at := map[[2]string]int{}
	for p := v.cards[k]; p != nil && p.ParentToolCallID != ""; p = v.cards[k] {
		at[k] = len(path)
		path = append(path, k)
		next := [2]string{k[0], p.ParentToolCallID}
		for pk, pp := range v.cards {
			if pk[1] == p.ParentToolCallID && pk[0] != k[0] && pp.SubagentTask != nil && pp.SubagentTask.ChildSessionID == k[0] {
				next = pk
			}
		}
		if next == k {
			return // a parent of the card's own id: not a card a client would find
		}
		if i, ok := at[next]; ok {
			if !v.stale || v.kept(path[i:]) {
				v.t.Fatalf("after %s: the parents of %v make a cycle at %v", fr, path[0], next)
			}
			return
		}
		k = next
	}
}

// kept reports whether the Conn keeps every card of cards.
func (v *seqView) kept(cards [][2]string) bool {
	for _, k := range cards {
		if !v.c.KeepsCard(k[0], k[1]) {
			return false
		}
	}
	return true
}

// oneKind reports whether a payload holds no kind object but the one its
// Kind names (Payload: exactly one is set; a generic card may have none).
func oneKind(p *acpdialect.Payload) bool {
	ok := func(set bool, kind string) bool { return !set || p.Kind == kind }
	return ok(p.SubagentTask != nil, acpdialect.KindSubagentTask) && ok(p.Shell != nil, acpdialect.KindShell) &&
		ok(p.MCPTool != nil, acpdialect.KindMCPTool) && ok(p.Monitor != nil, acpdialect.KindMonitor) &&
		ok(p.Wakeup != nil, acpdialect.KindWakeup) && ok(p.Generic != nil, acpdialect.KindGeneric)
}
