package dialecttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
)

// The flood: each of the dialect's frames, copied with fresh tool call and
// session ids and every string made long, until the copies hold several
// times the connection's budget. The smallest budget keeps it quick.
const (
	floodBudget = correlate.MinBudget
	floodTimes  = 6                // the flood's bytes over the budget
	floodString = 8 << 10          // each string's length in a copy
	heapSlack   = 2 << 20          // the allocator's rounding, maps and lists
	maxCopies   = floodTimes * 256 // per frame, whatever its size
)

// checkBounded floods a connection identified as the dialect, in a turn,
// with copies of its frames, and checks that the budget's count stays
// within its limit after every frame and that the heap the connection
// keeps stays within the budget (plus a slack for what the count leaves
// out: the allocator's rounding, empty maps and lists).
//
// The heap is the process's: another test running in parallel may grow
// it during a flood. So a flood that seems to grow it too much is run
// again on a fresh connection, up to floodTries times, and only a growth
// every flood shows (a dialect keeping what it reads grows it each time)
// is a failure.
func checkBounded(k *kit) []string {
	if len(k.frames) == 0 {
		return nil
	}
	var grown []int64
	for range floodTries {
		g, fails := k.flood()
		if len(fails) > 0 {
			return fails
		}
		if g <= floodBudget+heapSlack {
			return nil
		}
		grown = append(grown, g)
	}
	return []string{fmt.Sprintf("%d floods of the dialect's frames grew the heap by %v bytes; the connection's budget is %d (the limit checked: %d)", floodTries, grown, floodBudget, floodBudget+heapSlack)}
}

// floodTries is how many floods must each grow the heap past the limit.
const floodTries = 3

// flood runs one flood on a fresh connection and returns how much the
// heap grew, or what failed.
func (k *kit) flood() (grown int64, fails []string) {
	opts := k.opts.Conn
	opts.Agent, opts.MaxBytes = k.d.ID, floodBudget
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	c := acpdialect.NewRegistry(k.d).NewConn(opts)
	msg := protect(func() {
		_, _ = c.Outbound(Prompt(2, "s1", "go"))
		for _, s := range k.richest() {
			if f := floodFrame(c, s); f != "" {
				fails = append(fails, s.where+": "+f)
				return
			}
		}
	})
	if msg != "" {
		return 0, append(fails, "the flood "+msg)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(c)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc), fails
}

// richest returns, for each method and update kind, its longest frame:
// the one with the most for the connection to keep.
func (k *kit) richest() []sample {
	best := map[string]int{}
	var out []sample
	for _, s := range k.frames {
		kind := frameKind(s)
		i, ok := best[kind]
		switch {
		case !ok:
			best[kind] = len(out)
			out = append(out, s)
		case len(s.b) > len(out[i].b):
			out[i] = s
		}
	}
	return out
}

// floodFrame feeds copies of one frame until they hold floodTimes the
// budget, and reports the first frame after which the budget's count
// was over its limit.
func floodFrame(c *acpdialect.Conn, s sample) string {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(s.b))
	dec.UseNumber()
	if dec.Decode(&doc) != nil {
		return ""
	}
	fed := 0
	for i := 0; fed < floodTimes*floodBudget && i < maxCopies; i++ {
		b, err := json.Marshal(fatten(doc, i))
		if err != nil {
			return ""
		}
		fed += len(b)
		_, _ = c.Inbound(b)
		if st := c.Stats().Budget; st.Used > st.Limit {
			return fmt.Sprintf("after %d copies the budget counts %d bytes, over its limit of %d", i+1, st.Used, st.Limit)
		}
	}
	return ""
}

// fatten copies a decoded frame with every string long and unique to copy
// i, ids included, so that every copy is a new card, request or session
// whose strings the connection may keep. The envelope's method and the
// update's kind stay.
func fatten(v any, i int) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for key, e := range x {
			switch key {
			case "jsonrpc", "method", "sessionUpdate", "status", "kind", "type", "role":
				out[key] = e
			case "id":
				out[key] = i + 1000
			default:
				out[key] = fatten(e, i)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for j, e := range x {
			out[j] = fatten(e, i)
		}
		return out
	case string:
		return fmt.Sprintf("%s-%d-%s", x, i, strings.Repeat("x", floodString))
	}
	return v
}
