// Package frame reads ACP frames without decoding them, for the authors of
// an acpdialect.Dialect.
//
// A dialect's hooks get a gjson.Result that views the raw bytes of the
// frame. The frame is only borrowed: the Conn may reuse its buffer once the
// hook returns, and everything a hook returns is kept. The readers here are
// total, like gjson's accessors: a value of the wrong type reads as absent
// (never coerced, never an error), and broken JSON stops the reading where
// it is, without a panic.
//
//   - Strings: [Str] returns a copy; [View] returns a view, and one call
//     to [Own] copies the views a parser keeps ([OwnTogether] into one
//     allocation, for strings kept and dropped together). [Set] and
//     [Fill] merge a string into a field without ever blanking it. [Head]
//     copies at most a bound's bytes of a string, cut at a rune.
//   - Numbers: [Int64] reads a whole number that fits an int64, exactly,
//     however it is written (42, 4.2e1, 42.0).
//   - Objects: [Members] visits an object's members in one pass, skipping
//     the values it is not asked about at byte-search speed (tool output
//     and message text can be megabytes). [Get], [First] and [Path] read
//     one field, the first of two names, or a dotted path as gjson's Get
//     does, faster than a gjson path.
//   - Nested params: a [Reader] reads a value in one pass, each byte once,
//     where Members on every level would read nested values again.
//   - Tool calls: [ReadToolUpdate] reads the top-level fields of a
//     tool_call or tool_call_update into a [ToolUpdate], the view a
//     Dialect.ToolCall hook receives.
//   - Merges: [Keep] is the copy-on-write step of a hook that merges a
//     frame into a payload's kind object.
//
// The package does not import acpdialect (only its internal JSON scanner),
// so a parser written with it can be tested on bytes alone.
package frame
