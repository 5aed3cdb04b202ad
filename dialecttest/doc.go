// Package dialecttest checks that an acpdialect.Dialect keeps the rules
// every dialect keeps, the way testing/fstest checks an fs.FS: one call from
// the dialect's own tests, for a dialect built into acpdialect or written
// anywhere else.
//
// Typical usage inside a test is:
//
//	func TestConformance(t *testing.T) {
//		dialecttest.Run(t, mydialect.Dialect(), dialecttest.Options{
//			Agents: []string{"my-agent"}, // agentInfo names it must identify
//			Dir:    "testdata",           // transcripts (*.jsonl) and their goldens
//		})
//	}
//
// Importing the package defines the -update flag: go test -update rewrites
// the goldens (a test that defined its own -update would panic at start).
//
// Run runs one sub-test per rule; [Check] runs them all and returns every
// failure as one error, for use outside a test. The rules:
//
//   - table: a session/update kind listed more than once in Updates (two
//     readers of one kind's vendor data) adds only an Event in each later
//     entry, with the first entry's Standard: anything else there would be
//     ignored. A tool call kind is listed at most once.
//   - pure: every hook the dialect sets, fed the same input twice, returns
//     the same result, never the same event or kind object twice, and
//     nothing it returns views the frame (the kit overwrites the frame's
//     buffer after the call and looks again). The hooks and their inputs:
//     Methods' Handle on the dialect's frames; Updates' Handle, HandleAll,
//     Event, Mark and Marked on its updates; ToolCall, ToolEvent, Runs and EndNested
//     on tool_call and tool_call_update; Calls' Result and Children on
//     the transcripts' results and {}; MergeLate on every late half and
//     card those produced; EndBackground on those cards; the
//     SessionHooks' Notification, ContextWindow and Result, and Rewrites'
//     Request and Response, on the transcripts' frames, params and
//     results and on empty ones, with no session state; Match and
//     CommandDescription on names and descriptions; MatchResult on the
//     transcripts' initialize results, {} and null.
//     The cards ToolCall, MergeLate and EndBackground return are of one
//     of acpdialect's kinds and carry that kind's object and no other's.
//     MergeLate, ToolCall and EndBackground leave the payload they are
//     given unchanged,
//     and MergeLate leaves the late half unchanged when it does not merge
//     it (ok false).
//   - versions: ForVersion, if set, asked twice about each of
//     Options.Versions and about odd versions ("", "latest", a huge
//     number), never panics, returns the same dialect both times (a
//     variant built once, which every connection of the release shares)
//     or nil, and a variant keeps the dialect's ID (the Conn ignores one
//     that does not). Each variant it returns for Options.Versions is
//     checked as the dialect is against table, pure, fail_closed and
//     bounded, in a sub-test named "version" and the version; the
//     transcripts replay through the dialect, whose Conn picks the
//     variant by their initialize results' versions.
//   - isolation: the dialect's frames change nothing on a connection
//     identified as another agent or as an unknown one (the output is
//     byte-identical with and without the dialect registered), Match
//     accepts each of Options.Agents but none of their near misses, and
//     MatchResult accepts no initialize result without the agent's mark
//     (a plain one with another agent's agentInfo, {}, {"_meta":{}}).
//   - fail_closed: hostile variants of the dialect's frames (wrong types,
//     missing fields, huge values, deep nesting, invalid UTF-8, odd ids)
//     never panic, and every request gets exactly one reply whose id is the
//     request's, byte for byte, and never the Conn's refusal of a Result
//     that is not one JSON value or not valid UTF-8; a frame that is not
//     JSON gets none, nor
//     does a request ACP defines for the client that the dialect only
//     reads (session/request_permission), nor one Options.Conn.ClientMethods
//     names: the client answers those.
//   - bounded: a flood of the dialect's frames keeps the connection's heap
//     within its documented byte budget (acpdialect.Options.MaxBytes).
//     The heap it reads is the process's: a growth is a failure only when
//     three floods on fresh connections each show it, so that a test
//     running in parallel does not fail it, but a test that allocates
//     heavily all the while can; run the kit's test without t.Parallel
//     beside such tests.
//   - goldens: every transcript in Options.Dir replays to its
//     <name>.final.golden and <name>.events.golden (the acpdialect replay
//     --final and --json outputs), compared with go-cmp, or rewrites them
//     when Options.Update is set. Options.Agent replays them as a named
//     agent, for recordings without an initialize exchange; without it
//     such a transcript fails the rule (nothing would identify the agent,
//     and its goldens would pin standard ACP, not the dialect).
//
// The frames the kit works from are the dialect's own: one request and one
// notification per entry of its method table, one update per kind it
// reads, every matching line of the transcripts in Options.Dir (the
// agent's responses to the dialect's Calls included), and Options.Frames. The more real frames it is given, the more it checks.
//
// The package also holds the frame builders a dialect's tests need
// ([Request], [Notify], [Response], [SessionUpdate], [Initialize],
// [SessionNew], [Prompt], [PromptResponse]), a transcript reader
// ([ReadTranscript]), the golden-file compare ([Golden]), and [Replay]:
// what `acpdialect replay --final` and `--json` print, for a dialect the
// command does not know.
package dialecttest
