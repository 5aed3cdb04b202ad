package acpdialect

import (
	"fmt"

	"github.com/acpdialect/acpdialect/correlate"
	"github.com/tidwall/gjson"
)

// KeepsCard reports whether the Conn keeps the card id of session sid and
// reported it, so that FuzzSubagentFrames can tell a client's copy of the
// Conn's card from a stale one: of a card the Conn evicted, or whose id
// it now keeps for a new card it has not reported.
func (c *Conn) KeepsCard(sid, id string) bool {
	st := c.tools.Get(correlate.Key{Session: sid, ID: id})
	return st != nil && st.surfaced
}

// AwaitHeld reports how many blocking requests the Conn keeps, waiting or
// answered, and the places in their order: what a session's end or Close
// must leave none of.
func (c *Conn) AwaitHeld() (table, order int) { return len(c.awaiting), len(c.awaitOrder) }

// ReadSubagentUpdateNulls is ReadSubagentUpdate with whether the update's
// cwd and title are null and whether its capabilities withdraw cancel,
// which the Conn's merge applies: FuzzReadSubagentUpdate holds the
// readings together.
func ReadSubagentUpdateNulls(update gjson.Result) (l Late, cwdNull, titleNull, noCancel bool) {
	l, nulls := readSubagentUpdate(update)
	return l, nulls&clearCwd != 0, nulls&clearTitle != 0, nulls&clearCancel != 0
}

// Turns reports how many turns of session sid the Conn counts as going on
// (-1 for a session it does not track): TestStateIdleEndsAcceptedTurn
// checks that a turn whose cards the agent ends itself did end.
func (c *Conn) Turns(sid string) int {
	if s := c.sessions[sid]; s != nil {
		return s.turns
	}
	return -1
}

// TurnsBroken reports a session whose turn counts disagree: more turns
// accepted, ended early or forgotten than go on. FuzzSubagentFrames
// checks it after every frame.
func (c *Conn) TurnsBroken() string {
	for id, s := range c.sessions {
		if s.accepted < 0 || s.finished < 0 || s.forgotten < 0 || s.accepted+s.finished+s.forgotten > s.turns {
			return fmt.Sprintf("%s: turns %d, accepted %d, finished %d, forgotten %d", id, s.turns, s.accepted, s.finished, s.forgotten)
		}
	}
	return ""
}
