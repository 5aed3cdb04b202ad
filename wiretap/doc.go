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
// The client asks the Tap for the answer from its own HandleExtensionMethod
// (a helper rather than a decorator, so that the client's other optional
// SDK interfaces stay visible to the SDK):
//
//	reg := acpdialect.NewRegistry(cursor.Dialect())
//	tap := wiretap.New(reg.NewConn(acpdialect.Options{}), wiretap.Options{
//		OnEvent: render, // called inside Read and Write: must not block
//	})
//	stdin, _ := cmd.StdinPipe()   // cmd is the agent's *exec.Cmd
//	stdout, _ := cmd.StdoutPipe()
//	client := &myClient{tap: tap}
//	conn := acp.NewClientSideConnection(client,
//		tap.Writer(stdin),  // what the SDK writes to the agent
//		tap.Reader(stdout)) // what the SDK reads from the agent
//
//	func (c *myClient) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
//		result, events, handled, err := c.tap.HandleExtension(ctx, method, params)
//		if !handled {
//			return nil, acp.NewMethodNotFound(method)
//		}
//		c.render(events) // e.g. the subagent card of a cursor/task
//		return result, err
//	}
//
// The events HandleExtension returns are the ones the frame produced in the
// Conn, in order, ending with its "reply" event for a request; they are not
// also sent to OnEvent. The tap keeps them (keyed by alias and params bytes)
// until HandleExtension claims them, up to Options.MaxParked; a client that
// never calls HandleExtension gets them through OnEvent when they are
// dropped.
//
// A vendor method the client sends (Cursor's "cursor/list_available_models")
// goes through the SDK as its alias and loses the "_" on the wire: list it
// in Options.Outbound and call
//
//	conn.CallExtension(ctx, wiretap.Alias("cursor/list_available_models"), params)
//
// Only whole lines are inspected, up to Options.MaxFrame bytes; responses
// and ids are never touched; a frame that the SDK would read differently
// from the Conn (repeated keys, invalid JSON) is left as it is. Reads never
// write and never block beyond the agent's stream, and events are handed to
// Options.OnEvent synchronously, so OnEvent must not block.
package wiretap
