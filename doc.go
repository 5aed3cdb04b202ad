// Package acpdialect turns the vendor dialects of ACP agents into standard
// replies and typed events for Go clients.
//
// ACP (the Agent Client Protocol: JSON-RPC 2.0 over newline-delimited stdio)
// is standard at its core, but each agent CLI speaks a dialect around it:
// Cursor sends "cursor/task" requests that a spec-following client answers
// with -32601, so the subagent's prompt and model are lost; other agents
// hide subagents and usage in _meta. A [Dialect] holds one vendor's rules;
// a [Conn] applies them to one agent connection.
//
// # Who starts where
//
// A client builds a [Registry] of the dialects it supports (package
// dialects has them all), makes one [Conn] per agent connection with
// [Registry.NewConn], and feeds it every frame: [Conn.Inbound] for agent ->
// client, [Conn.Outbound] for client -> agent. Each call returns a [Result]:
// the [Result.Reply] frame the client owes the agent, if any, and the
// normalized [Event]s. An event is a tool call's merged state (a
// [Payload]: kind, status, title and one object per kind, such as a
// [SubagentTask]), a reply, or a session-level object ([Question], [Plan],
// [Todos], [Image], [Models], [Commands]) read with the accessor of its
// type ([Event.Question], ...). Blocking requests the user answers go
// through [Options.ClientAnswers], [Conn.Answer], [Conn.Deadline] and
// [Conn.Expire]. [Stats] counts what the connection saw.
//
// There are three ways in:
//
//   - A client on the upstream SDK (github.com/coder/acp-go-sdk) wraps the
//     agent's pipes with package wiretap, which feeds the Conn and renames
//     allowed vendor methods so that the SDK routes them to the client's
//     HandleExtensionMethod. No fork of the SDK.
//   - A client with its own JSON-RPC layer calls Inbound and Outbound
//     itself and writes [Result.Reply] to the agent.
//   - The acpdialect command replays a recorded transcript and prints what
//     a client would render (go run ./cmd/acpdialect replay).
//
// A dialect author fills a [Dialect], a table of pure hooks: its function
// fields (Match, ToolCall, MergeLate, ...) and those of its [Method],
// [Update] and [Call] entries, which read frames with the helpers of
// package frame and return data (an [Action], a [Late], an [Event]); the
// Conn keeps all state. Where one agent's releases mean different things
// by the same frames, [Dialect.ForVersion] gives the dialect's variant for
// the release the agent reports ([ParseVersion] reads it).
//
// An agent no dialect knows gets standard ACP behaviour, and what is on
// its way into the standard is part of it: the subagents draft's
// [UpdateSubagent] is read on every connection ([ReadSubagentUpdate]), so
// that a child session's card carries its state and the child's tool calls
// nest under it, unless the dialect reads the kind itself.
//
// # Example
//
//	reg := acpdialect.NewRegistry(cursor.Dialect())
//	c := reg.NewConn(acpdialect.Options{})
//	res, err := c.Inbound(line) // one agent -> client frame
//	if err == nil && res.Reply != nil {
//		// Whole JSON-RPC response lines, each ending in '\n': for
//		// cursor/task, {"jsonrpc":"2.0","id":93,"result":{}}.
//		agentStdin.Write(res.Reply)
//	}
//	for _, ev := range res.Events {
//		render(ev)
//	}
//
// # Rewrites
//
// Some agents lack a standard method the client uses (Grok has no
// session/set_config_option). A dialect describes, with pure hooks
// ([Rewrite], [SessionHooks]), the agent request to send instead and how
// to turn the agent's response back; the Conn keeps the little state the
// pairing needs and reports the frames in [Result.Wire]: on Outbound,
// [Wire.Frame] to send to the agent instead of the client's frame (nil
// when the request was refused, and [Wire.Deliver] is its response for the
// client); on Inbound, [Wire.Frame] to deliver to the client instead of
// the agent's frame, under the client's id. [Wire.Echo] marks the agent's
// echo of the user's prompt. wiretap puts all of this on the wire; a
// client with its own JSON-RPC layer writes the frames itself. Every frame
// not rewritten goes on byte for byte. A client that reads lines up to a
// length sets it with [Conn.LimitLine] (wiretap does): a rewritten response
// that would be longer is not made, and nothing of its step is applied.
//
// # Ownership and lifetime
//
// Frames are only read during a call: the caller may reuse the buffer
// afterwards. Everything in a Result stays valid after the call and after
// later calls (an event's ID is its own bytes, or a view of Reply, which is
// never reused), but is read-only: payload kind objects are shared with the
// Conn's state and with later events; copy one with [Payload.Clone] before
// changing it. A Conn is not safe for concurrent use.
//
// Vendor metadata that names a tool call (Cursor's cursor/task) is
// correlated with the session whose turn is in flight; with no turn in
// flight and no card for it, it is dropped and counted in
// [Stats.LateDropped].
//
// # Limits
//
// The package has no transport and no JSON-RPC layer of its own: it reads
// frames and writes reply frames. Every store a Conn keeps is bounded
// (see [Options]), starts no goroutine and ends with its turn or session.
// Malformed or surprising vendor data degrades to what was present; it
// never fails a request, panics or blocks other frames, and every vendor
// request gets exactly one reply.
package acpdialect
