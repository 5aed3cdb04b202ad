// Package wiretap lets a client on the upstream github.com/coder/acp-go-sdk
// receive the vendor methods its agent's dialect allows, without a fork.
//
// The SDK answers every method without a "_" prefix that ACP does not
// define with -32601 (Method not found), so a Cursor "cursor/task" request
// never reaches the client. A Tap sits on the two byte streams the SDK
// already takes. Its Reader feeds every agent frame to an acpdialect.Conn
// and, for a vendor method the identified dialect allows, inserts one byte
// on the wire: "cursor/task" becomes "_cursor/task". The SDK then routes
// the frame to the client's HandleExtensionMethod with the id, params and
// cancellation it handles for any extension method, and sends the reply
// itself. Every other byte passes through unchanged. Its Writer feeds the
// client's frames to the Conn, so that it sees initialize, session/prompt
// and the rest in wire order.
//
// Every event of every frame, in both directions, goes to Options.OnEvent,
// synchronously and in wire order, from inside Read and Write: one ordered
// stream, so that a client applying the merged states as they arrive ends
// with the latest. That includes a renamed frame's events and the "reply"
// event of a vendor request, at the frame's place in the stream, even
// though the SDK runs the request's handler later on its own goroutine.
//
// The client answers the renamed requests from its own HandleExtensionMethod
// (so it must implement acp.ExtensionMethodHandler) with the Tap's help (a helper rather than a decorator, so that the
// client's other optional SDK interfaces stay visible to the SDK):
//
//	reg := acpdialect.NewRegistry(cursor.Dialect())
//	tap := wiretap.New(reg.NewConn(acpdialect.Options{}), wiretap.Options{
//		OnEvent: render, // every event, in wire order; must not block
//	})
//	stdin, _ := cmd.StdinPipe()   // cmd is the agent's *exec.Cmd
//	stdout, _ := cmd.StdoutPipe()
//	client := &myClient{tap: tap}
//	conn := acp.NewClientSideConnection(client,
//		tap.Writer(stdin),  // what the SDK writes to the agent
//		tap.Reader(stdout)) // what the SDK reads from the agent
//
//	func (c *myClient) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
//		result, handled, err := c.tap.HandleExtension(ctx, method, params)
//		if !handled {
//			return nil, acp.NewMethodNotFound(method)
//		}
//		return result, err
//	}
//
// HandleExtension recomputes the dialect's answer from the method and
// params: dialect methods are pure, and the tap renames only frames whose
// params the SDK reads as the Conn did, so it is the answer in the reply
// event OnEvent already got. It keeps no state per request: any number of
// requests may be in flight, and each gets exactly one reply.
//
// Blocking requests (Cursor's questions and plans) are the exception, when
// the Conn was made with acpdialect.Options.ClientAnswers: the request's
// event reaches OnEvent with its ID, and HandleExtension waits, on the
// SDK's goroutine for that request, until the client calls Tap.Answer, the
// Conn's AnswerTimeout passes or the agent cancels the request; the last
// two send the dialect's default. Without ClientAnswers the default goes at
// once, so that a client with no handler never stalls the agent's turn.
// The Conn decides each request's reply and the wire follows. An answer
// Tap.Answer accepted (returned nil) is the reply, whatever comes next: the
// Conn has it before it next decides anything (the deadline, a cancel, the
// turn's end, the bound), even when the deadline passed as the client
// answered from OnEvent. A default the Conn gives first is what the SDK
// sends, and a later Answer gets acpdialect.ErrNotPending. Deadlines are
// read on the Conn's clock (acpdialect.Options.Now). The SDK gives
// HandleExtensionMethod no request id, so the tap pairs a call with its
// request by method and params: two identical requests in flight may swap
// answers, though each still gets exactly one. A notification of a method
// whose request would wait for the client (Action.Await) never reaches
// HandleExtensionMethod, lest it take a request's place: it is not
// renamed, or, sent under the "_" name, loses its '_' (the SDK drops it);
// its events reach OnEvent all the same.
//
// A session/update of a kind of the dialect's own (Cursor's
// subagent_spawned), or of the drafts every connection reads
// (subagent_update, session_message, ACP v2's state_update,
// terminal_update and terminal_output_chunk: an unknown agent's too),
// which the SDK would misread as a standard update, is renamed to
// QuarantineMethod ("_session/update"): it reaches HandleExtensionMethod
// in order with the other notifications, params as sent, and
// HandleExtension reports it handled.
//
// A vendor method the client sends (Cursor's "cursor/list_available_models")
// goes through the SDK as its alias and loses the "_" on the wire: list it
// in Options.Outbound and call
//
//	conn.CallExtension(ctx, wiretap.Alias("cursor/list_available_models"), params)
//
// A dialect that rewrites frames (Grok's session/set_config_option, sent
// as session/set_model) is applied on the wire: the Writer sends the
// agent the rewritten request, the Reader hands the SDK the response
// turned back under the client's id, and a request the dialect refuses
// never reaches the agent: its error response comes from the Reader. For
// such a dialect, once the agent is identified, the Reader makes its reads
// of the agent's stream on a goroutine, one at a time, so that such a
// response does not wait for the agent's next frame. That goroutine never
// waits for the SDK: it ends with its read, so none outlives the agent's
// stream, even when the SDK stops reading (its connection ended on a line
// too long for it, say) and the application still holds it. A rewritten response longer
// than the SDK reads (MaxLine: 10 MiB less the '\n') is not made (see
// acpdialect.Conn.LimitLine, which New sets): the client gets -32603 for
// a Rewrite's request, or the agent's result as it was for a
// SessionHooks.Result (Grok's session/new without the config options it
// would add), and neither the rewrite's events nor its session state are
// kept, so that OnEvent and the Conn agree with what the client got. The
// agent's echo of the user's prompt is dropped unless Options.KeepEchoes.
//
// Only whole lines are inspected, up to Options.MaxFrame bytes (at most
// DefaultMaxFrame, one byte less than MaxLine, so that a renamed frame is
// still one the SDK reads: a frame of exactly MaxLine bytes, which the SDK
// reads, passes uninspected, as Stats.Oversize counts); responses
// and ids are never touched; a frame that the SDK would read differently
// from the Conn (invalid JSON), or a request for a method the dialect
// allows only as a notification (or the reverse), is left as it is, for
// the SDK to decline or drop as the Conn did. A frame whose method, id,
// params, result or error is repeated or in another case (the Conn reads
// a key's first occurrence, the SDK its last, in any case) is not fed to
// the Conn at all, so that no event contradicts what the SDK does with it
// (Stats.Ambiguous); the SDKs' own session/update layout is not checked.
// It passes as it is, unless the SDK would read its method as a dialect's
// "_" alias: then it is written again as the SDK reads it, without the
// '_', so that it never reaches HandleExtension, where it could take the
// place of a waiting request.
// Reads never write and never block beyond the agent's stream, and events
// are handed to Options.OnEvent synchronously, so OnEvent must not block.
package wiretap
