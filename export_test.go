package acpdialect

import "github.com/acpdialect/acpdialect/correlate"

// KeepsCard reports whether the Conn keeps the card id of session sid, so
// that FuzzSubagentFrames can tell a client's copy of a card the Conn
// evicted (which the Conn no longer answers for) from a kept one.
func (c *Conn) KeepsCard(sid, id string) bool {
	return c.tools.Get(correlate.Key{Session: sid, ID: id}) != nil
}
