package replay

import (
	"crypto/sha256"
	"strings"

	"github.com/acpdialect/acpdialect/internal/scan"
)

// Direction is which way a frame travels.
type Direction uint8

// Directions.
const (
	ClientToAgent Direction = iota // fed to Conn.Outbound
	AgentToClient                  // fed to Conn.Inbound
)

func (d Direction) String() string {
	if d == AgentToClient {
		return "agent->client"
	}
	return "client->agent"
}

// agentServes reports whether the agent serves method, that is whether a
// request or notification for it goes client -> agent. Every other method
// goes agent -> client.
func agentServes(method string) bool {
	switch method {
	case "initialize", "authenticate", "logout",
		"session/new", "session/load", "session/set_mode",
		"session/set_config_option", "session/set_model", "session/prompt",
		"session/cancel", "session/list", "session/delete", "session/resume",
		"session/close", "session/fork", "$/cancel_request",
		// Vendor methods that clients send to agents.
		"cursor/list_available_models",
		"authentication/status", "authentication/logout",
		// Auggie's (docs/auggie.md, section 2): editor completions, and
		// a saved session's messages (0.36.0 on).
		"completion/request", "completion/resolve", "completion/cancel",
		"augment/session/history":
		return true
	}
	// Unstable ACP method families served by the agent, and the session
	// extensions claude-agent-acp and codex-acp serve (_session/goal,
	// _session/steering, codex-acp 2.x's _session/archive, _session/rename,
	// _session/batch_get, _session/list/..., _session/async_task/stop and
	// its _codex/hooks/ methods).
	for _, p := range [...]string{"providers/", "nes/", "document/", "_session/", "_codex/hooks/"} {
		if strings.HasPrefix(method, p) {
			return true
		}
	}
	return false
}

// requests tracks the requests of both sides that still await a response,
// by id bytes, with the sequence number at which each was sent. At most
// limit per side are kept (the oldest is forgotten), so that a transcript
// of requests never answered does not grow the table; an id longer than
// maxIDKey is kept as its hash (idKey), so that huge ids do not grow it
// either.
type requests struct {
	seq    uint64
	limit  int
	client map[string]uint64 // sent by the client, answered by the agent
	agent  map[string]uint64 // sent by the agent, answered by the client
	order  [2][]sentReq      // per side, in sending order; may hold answered ones
}

type sentReq struct {
	id  string
	seq uint64
}

func newRequests(limit int) *requests {
	return &requests{limit: limit, client: map[string]uint64{}, agent: map[string]uint64{}}
}

func (r *requests) side(d Direction) map[string]uint64 {
	if d == ClientToAgent {
		return r.client
	}
	return r.agent
}

// maxIDKey is the longest id kept as is. Real ids are numbers or short
// strings; a longer one (a 1 MB string id) is kept as its SHA-256, so that
// the table's bytes stay bounded by its count: 2 sides x (limit + order)
// ids of at most this many bytes.
const maxIDKey = 128

// idKey is the table's key for a raw id: its key as the Conn matches it
// (scan.IDKey: a string by its value) when short, else a marker byte
// (never the first byte of a JSON value, so the two kinds never meet) and
// that key's SHA-256, equal for equal ids as the key is.
func idKey(id string) string {
	id = scan.IDKey(id)
	if len(id) <= maxIDKey {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "#" + string(sum[:])
}

func (r *requests) sent(d Direction, id string) {
	r.seq++
	m := r.side(d)
	// The line's buffer is reused: the key is a copy, even for an id seen
	// before, since assigning under a string key stores the key again.
	id = strings.Clone(idKey(id))
	m[id] = r.seq
	r.order[d] = append(r.order[d], sentReq{id, r.seq})
	for len(m) > r.limit && len(r.order[d]) > 0 {
		old := r.order[d][0]
		r.order[d] = r.order[d][1:]
		if m[old.id] == old.seq {
			delete(m, old.id)
		}
	}
	if len(r.order[d]) > 2*r.limit+64 {
		r.compact(d)
	}
}

// compact drops answered and superseded entries from a side's order.
func (r *requests) compact(d Direction) {
	m := r.side(d)
	kept := make([]sentReq, 0, len(m))
	for _, e := range r.order[d] {
		if m[e.id] == e.seq {
			kept = append(kept, e)
		}
	}
	r.order[d] = kept
}

// forget drops a request of side d that was answered out of band.
func (r *requests) forget(d Direction, id string) {
	id = idKey(id)
	if d == ClientToAgent {
		delete(r.client, id)
	} else {
		delete(r.agent, id)
	}
}

// answer decides which way a response with this id travels and forgets the
// request it answers:
//
//   - it answers the one side that has a request with this id outstanding;
//   - if both sides do (each side numbers its own requests, so ids collide),
//     it answers the more recent request: requests nest (the agent asks for
//     a permission inside a prompt turn), so the inner one is answered first;
//   - if neither does, it is taken as client -> agent, where the Conn
//     ignores it (an answer to an agent request the Conn does not track).
func (r *requests) answer(id string) Direction {
	id = idKey(id)
	c, cok := r.client[id]
	a, aok := r.agent[id]
	switch {
	case cok && (!aok || c > a):
		delete(r.client, id)
		return AgentToClient
	case aok:
		delete(r.agent, id)
	}
	return ClientToAgent
}

// AgentServes reports whether ACP (or a known vendor) has the agent serve
// method: a request or notification for it goes client -> agent.
func AgentServes(method string) bool { return agentServes(method) }
