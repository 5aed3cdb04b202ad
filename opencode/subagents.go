package opencode

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// The opencode.dev/subagents extension (advertised in initialize's _meta
// as {"opencode.dev/subagents":{"version":1,"list":true,"subscribe":true}}).
const (
	// MethodSubagentsList is a client -> agent request, params
	// {rootSessionId?}, answered with a Snapshot: {generation, revision,
	// nodes: Node[]}.
	MethodSubagentsList = "_opencode/subagents/list"
	// MethodSubagentsSubscribe is the same request that also starts the
	// update notifications; it answers the first Snapshot.
	MethodSubagentsSubscribe = "_opencode/subagents/subscribe"
	// MethodSubagentsUpdate is the agent's notification of a change:
	// {generation, revision, upsert: Node[], removedSessionIds: string[]}.
	MethodSubagentsUpdate = "_opencode/subagents/update"
)

// Phases a node reports.
const (
	PhaseQueued    = "queued"
	PhaseRunning   = "running"
	PhaseCompleted = "completed"
	PhaseFailed    = "failed"
	PhaseCancelled = "cancelled"
	PhaseUnknown   = "unknown"
)

// PhaseRemoved is the subagent status of a child session the tree no
// longer holds (removedSessionIds): OpenCode deleted it.
const PhaseRemoved = "removed"

// Node is the part of a subagent tree node the dialect reads. Its strings
// are the caller's own.
type Node struct {
	SessionID       string // the child session, the node's key
	ParentSessionID string // the session that started it; "" for a root
	Agent           string // the subagent's agent (its type)
	Title           string // the child session's title
	Phase           string
	// Cwd is the directory the child session works in (its session's
	// directory): every node carries one.
	Cwd string
}

// ReadNode reads one node. A field of the wrong type is absent; of a key
// that appears twice the first counts.
func ReadNode(v gjson.Result) Node {
	var n Node
	var seen uint8
	frame.Members(v, func(k string, v gjson.Result) bool {
		switch {
		case k == "sessionId" && once(&seen, 1):
			n.SessionID = frame.View(v)
		case k == "parentSessionId" && once(&seen, 2):
			n.ParentSessionID = frame.View(v)
		case k == "agent" && once(&seen, 4):
			n.Agent = frame.View(v)
		case k == "title" && once(&seen, 8):
			n.Title = frame.View(v)
		case k == "phase" && once(&seen, 16):
			n.Phase = frame.View(v)
		case k == "cwd" && once(&seen, 32):
			n.Cwd = frame.View(v)
		}
		return true
	})
	if p := knownPhase(n.Phase); p != "" {
		n.Phase = p // a constant: no copy
	} else {
		frame.Own(&n.Phase)
	}
	frame.Own(&n.SessionID, &n.ParentSessionID, &n.Agent, &n.Title, &n.Cwd)
	return n
}

// knownPhase returns OpenCode's phases as constants, else "".
func knownPhase(p string) string {
	for _, known := range [...]string{PhaseQueued, PhaseRunning, PhaseCompleted, PhaseFailed, PhaseCancelled, PhaseUnknown} {
		if p == known {
			return known
		}
	}
	return ""
}

// CardStatus maps a node's phase to a tool call status: queued is
// pending, running in progress, and the three ends are ACP's; unknown
// (OpenCode has no status for the session) and anything else is "".
func CardStatus(phase string) string {
	switch phase {
	case PhaseQueued:
		return acpdialect.StatusPending
	case PhaseRunning:
		return acpdialect.StatusInProgress
	case PhaseCompleted:
		return acpdialect.StatusCompleted
	case PhaseFailed:
		return acpdialect.StatusFailed
	case PhaseCancelled:
		return acpdialect.StatusCancelled
	}
	return ""
}

// Child returns what a node says of its subagent's card, keyed by the
// child session; ok is false for a root node (no parentSessionId: a
// session the client opened, not a subagent's) and for one without a
// sessionId.
func (n Node) Child() (acpdialect.Child, bool) {
	if n.SessionID == "" || n.ParentSessionID == "" {
		return acpdialect.Child{}, false
	}
	return acpdialect.Child{
		Session: n.SessionID,
		Parent:  n.ParentSessionID,
		Payload: acpdialect.Payload{
			Kind:   acpdialect.KindSubagentTask,
			Status: CardStatus(n.Phase),
			SubagentTask: &acpdialect.SubagentTask{
				ChildSessionID: n.SessionID,
				SubagentType:   n.Agent,
				Status:         n.Phase,
				Cwd:            n.Cwd,
			},
		},
	}, true
}

// SnapshotChildren reads a list or subscribe result (a Snapshot) into
// what each subagent node says of its card. Nodes past MaxNodes are not
// read: OpenCode itself refuses a tree of more than 300 descendants.
func SnapshotChildren(result gjson.Result) []acpdialect.Child {
	return readNodes(result.Get("nodes"), nil)
}

// MaxNodes bounds the nodes read from one snapshot or update.
const MaxNodes = 1024

// readNodes appends the children of an array of nodes to out.
func readNodes(arr gjson.Result, out []acpdialect.Child) []acpdialect.Child {
	if !arr.IsArray() {
		return out
	}
	n := 0
	arr.ForEach(func(_, v gjson.Result) bool {
		n++
		if c, ok := ReadNode(v).Child(); ok {
			out = append(out, c)
		}
		return n < MaxNodes
	})
	return out
}

// HandleSubagentsUpdate reads an _opencode/subagents/update notification:
// each upserted subagent node, then each removed session as a child whose
// subagent status is PhaseRemoved (its card's status is left as it is).
// A removed session is named without its parent: it merges only into the
// card it is linked to or the node that waits for the link (see
// acpdialect.Child).
func HandleSubagentsUpdate(params gjson.Result) acpdialect.Action {
	var kids []acpdialect.Child
	var seen uint8
	frame.Members(params, func(k string, v gjson.Result) bool {
		switch {
		case k == "upsert" && once(&seen, 1):
			kids = readNodes(v, kids)
		case k == "removedSessionIds" && once(&seen, 2) && v.IsArray():
			n := 0
			v.ForEach(func(_, id gjson.Result) bool {
				n++
				if sid := frame.Str(id); sid != "" {
					kids = append(kids, acpdialect.Child{Session: sid, Payload: acpdialect.Payload{
						Kind:         acpdialect.KindSubagentTask,
						SubagentTask: &acpdialect.SubagentTask{ChildSessionID: sid, Status: PhaseRemoved},
					}})
				}
				return n < MaxNodes
			})
		}
		return true
	})
	return acpdialect.Action{Children: kids}
}
