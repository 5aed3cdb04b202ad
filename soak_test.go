package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/correlate"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/replay"
)

// The soak tests replay every recorded transcript of the repository (each
// dialect's testdata and testdata/subagents) hundreds of times through one
// long-lived Conn per dialect, each time under fresh session, tool call,
// task, terminal, message and JSON-RPC request ids, as a connection that
// runs for days sees them. They pin what the Conn promises about its
// memory on real traffic shapes rather than on synthetic floods:
//
//   - closing every session a round opens (session/close) releases what
//     it held: no session, card, late half, child link or run link is
//     left, and the budget's use comes back to what it was;
//   - with sessions never closed only the bounds hold memory: the
//     retained heap stays within the budget and does not grow from the
//     middle of the soak to its end;
//   - with the smallest budget (a 64 KiB MaxBytes, raised to
//     correlate.MinBudget) the budget holds after every frame.
//
// They take about a second, are skipped with -short, and under the race
// detector (which changes the heap's figures; nothing here involves
// goroutines).

// soakIDKeys are the members whose string values (or arrays of strings)
// name something a connection sees once: a session, tool call, task,
// terminal, message, run, thread. Every JSON string of a transcript equal
// to one of their values, member names included, is rewritten each round.
// A top-level "id" (the JSON-RPC request's) is rewritten by position;
// other "id" members (modes, auth methods, todos, options) and the mode,
// model and option ids are the agent's vocabulary, the same every time.
var soakIDKeys = map[string]bool{
	"sessionId": true, "toolCallId": true, "messageId": true, "parentToolUseId": true,
	"agentId": true, "terminal_id": true, "terminalId": true, "subagentSessionId": true,
	"compactionId": true, "parentAgentId": true, "threadId": true, "rootSessionId": true,
	"turnId": true, "runId": true, "asyncTaskId": true, "removedSessionIds": true,
	"parentSessionId": true, "itemId": true, "senderThreadId": true, "receiverThreadIds": true,
	"task_id": true, "taskId": true, "targetItemId": true, "senderSessionId": true,
	"reviewId": true, "recipientSessionId": true, "resultId": true, "promptId": true,
	"prompt_id": true, "planId": true, "nodeId": true, "targetNodeId": true,
	"forkedSessionId": true, "agentThreadId": true, "childSessionId": true, "callId": true,
	"call_id": true, "toolUseId": true, "tool_use_id": true,
}

// soakLine is one transcript line and where a round's ids go into it.
type soakLine struct {
	out    bool   // client -> agent
	closes bool   // a session/close request: left out when sessions are never closed
	raw    []byte // as recorded
	at     []soakMark
}

// soakMark is where a round's unique number goes into a line: before a
// string's closing quote (as a suffix), or before a numeric id (as a
// prefix: "1" and the number, zero-padded, so that ids stay integers and
// stay distinct).
type soakMark struct {
	off int
	num bool
}

// render appends the line with unique number u at every mark.
func (l *soakLine) render(buf []byte, u int) []byte {
	prev := 0
	for _, m := range l.at {
		buf = append(buf, l.raw[prev:m.off]...)
		if m.num {
			buf = append(buf, '1')
			s := strconv.Itoa(u)
			buf = append(buf, "0000000"[len(s):]...)
			buf = append(buf, s...)
		} else {
			buf = append(buf, '~')
			buf = strconv.AppendInt(buf, int64(u), 10)
		}
		prev = m.off
	}
	return append(buf, l.raw[prev:]...)
}

// jsonTok is one scalar token of a JSON text.
type jsonTok struct {
	start, end int    // its bytes; a string's with its quotes
	str, key   bool   // a string; a member name
	member     string // the member it is the value of (an array's element: the array's)
	depth      int    // the containers around it
}

// walkJSON calls f for every scalar token and member name of the valid
// JSON text s.
func walkJSON(s string, f func(jsonTok)) {
	type level struct {
		obj    bool
		member string
	}
	var stack []level
	inKey := false
	top := func() level {
		if len(stack) == 0 {
			return level{}
		}
		return stack[len(stack)-1]
	}
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '{', '[':
			stack = append(stack, level{obj: c == '{', member: top().member})
			inKey = c == '{'
			i++
		case '}', ']':
			stack = stack[:len(stack)-1]
			i++
		case ',':
			inKey = top().obj
			i++
		case ':':
			inKey = false
			i++
		case ' ', '\t', '\r', '\n':
			i++
		case '"':
			j := i + 1
			for s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			tok := jsonTok{start: i, end: j + 1, str: true, key: inKey, member: top().member, depth: len(stack)}
			if inKey {
				stack[len(stack)-1].member = s[i+1 : j]
			}
			f(tok)
			i = j + 1
		default:
			j := i
			for j < len(s) && strings.IndexByte("0123456789+-.eEtrufalsn", s[j]) >= 0 {
				j++
			}
			f(jsonTok{start: i, end: j, member: top().member, depth: len(stack)})
			i = j
		}
	}
}

// soakIDs collects the values of the id members of a transcript's lines.
func soakIDs(lines []soakLine) map[string]bool {
	ids := map[string]bool{}
	for _, l := range lines {
		s := string(l.raw)
		if !json.Valid(l.raw) {
			continue
		}
		walkJSON(s, func(t jsonTok) {
			if t.str && !t.key && soakIDKeys[t.member] && t.end-t.start > 2 {
				ids[s[t.start+1:t.end-1]] = true
			}
		})
	}
	return ids
}

// mark finds where a round's number goes into l: the top-level id, and
// every string equal to an id.
func (l *soakLine) mark(ids map[string]bool) {
	if !json.Valid(l.raw) {
		return // a transcript's malformed line, replayed as is
	}
	s := string(l.raw)
	walkJSON(s, func(t jsonTok) {
		switch {
		case t.depth == 1 && !t.key && t.member == "id" && !t.str:
			if strings.Trim(s[t.start:t.end], "0123456789") == "" {
				l.at = append(l.at, soakMark{off: t.start, num: true})
			}
		case t.depth == 1 && !t.key && t.member == "id" && t.str,
			t.str && ids[s[t.start+1:t.end-1]]:
			if !strings.Contains(s[t.start:t.end], `\`) {
				l.at = append(l.at, soakMark{off: t.end - 1})
			}
		}
	})
}

// soakTranscript is one recorded transcript, ready to be replayed.
type soakTranscript struct {
	name  string
	lines []soakLine
	bytes int
}

// soakGroup is the transcripts one dialect's Conn replays.
type soakGroup struct {
	agent       string // "" for an unknown agent
	transcripts []*soakTranscript
	bytes       int
}

// soakAgent returns the agent a transcript is replayed as (the one its
// initialize response identifies, else its directory's dialect, as the
// conformance tests do) and each line's direction.
func soakAgent(t *testing.T, reg *acpdialect.Registry, path string) (string, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	agent := replayAs(t, reg, raw, "", nil)
	if dir := filepath.Base(filepath.Dir(filepath.Dir(path))); agent == "" && reg.ByID(dir) != nil {
		agent = dir
	}
	return agent, raw
}

// replayAs replays raw as agent, calling dir with each valid line's
// number and direction, and returns the agent identified.
func replayAs(t *testing.T, reg *acpdialect.Registry, raw []byte, agent string, dir func(int, bool)) string {
	t.Helper()
	st, err := replay.NewStream(reg, replay.Options{Agent: agent}, replay.Sink{Frame: func(f replay.Frame) {
		if dir != nil {
			dir(f.Line, f.Dir == replay.ClientToAgent)
		}
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for n, l := range bytes.Split(raw, []byte("\n")) {
		if err := st.Line(n+1, l); err != nil {
			t.Fatal(err)
		}
	}
	return st.Finish().Agent
}

// soakGroups loads every transcript, grouped by the dialect it is
// replayed as, the groups sorted by agent.
func soakGroups(t *testing.T) []*soakGroup {
	t.Helper()
	reg := dialects.Registry()
	paths, _ := filepath.Glob(filepath.Join("*", "testdata", "*.jsonl"))
	sub, _ := filepath.Glob(filepath.Join("testdata", "subagents", "*.jsonl"))
	byAgent := map[string]*soakGroup{}
	for _, path := range append(paths, sub...) {
		if !strings.HasPrefix(path, "testdata") && reg.ByID(filepath.Dir(filepath.Dir(path))) == nil {
			continue // not a dialect's (wiretap's copies, the command's)
		}
		agent, raw := soakAgent(t, reg, path)
		tr := soakTranscript{name: path}
		dirs := map[int]bool{}
		replayAs(t, reg, raw, agent, func(n int, out bool) { dirs[n] = out })
		for n, l := range bytes.Split(raw, []byte("\n")) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				tr.lines = append(tr.lines, soakLine{out: dirs[n+1], raw: l,
					closes: bytes.Contains(l, []byte(`"method":"session/close"`))})
				tr.bytes += len(l) + 1
			}
		}
		ids := soakIDs(tr.lines)
		for i := range tr.lines {
			tr.lines[i].mark(ids)
		}
		g := byAgent[agent]
		if g == nil {
			g = &soakGroup{agent: agent}
			byAgent[agent] = g
		}
		g.transcripts = append(g.transcripts, &tr)
		g.bytes += tr.bytes
	}
	var out []*soakGroup
	for _, g := range byAgent {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b *soakGroup) int { return strings.Compare(a.agent, b.agent) })
	return out
}

// TestSoakRewrite: a round's rewrite keeps every line valid JSON, gives
// each round its own ids, and leaves the agent's vocabulary alone.
func TestSoakRewrite(t *testing.T) {
	l := soakLine{raw: []byte(`{"jsonrpc":"2.0","id":0,"method":"session/update","params":{"sessionId":"s1",` +
		`"update":{"toolCallId":"t\"1","modeId":"s1x","receiverThreadIds":["a","s1"],"s1":{"id":"plan"},"x":"s1"}}}`)}
	l.mark(soakIDs([]soakLine{l}))
	got := string(l.render(nil, 42))
	want := `{"jsonrpc":"2.0","id":100000420,"method":"session/update","params":{"sessionId":"s1~42",` +
		`"update":{"toolCallId":"t\"1","modeId":"s1x","receiverThreadIds":["a~42","s1~42"],"s1~42":{"id":"plan"},"x":"s1~42"}}}`
	if got != want || !json.Valid([]byte(got)) {
		t.Errorf("rewrite:\n got %s\nwant %s", got, want)
	}
}

// soak is one long-lived Conn replaying a group's transcripts round after
// round.
type soak struct {
	t      *testing.T
	g      *soakGroup
	c      *acpdialect.Conn
	close  bool      // close each transcript's sessions at its end
	now    time.Time // the Conn's clock: a minute per transcript
	u      int       // the unique number of the transcript being replayed
	buf    []byte
	frames int
	check  func() // after every frame, if set
}

func newSoak(t *testing.T, g *soakGroup, opts acpdialect.Options, close bool) *soak {
	s := &soak{t: t, g: g, close: close, now: time.Unix(1_700_000_000, 0)}
	opts.Agent = g.agent
	// The transcripts hold the client's answers; a blocking request one
	// leaves unanswered gets its default at its deadline, as wiretap
	// would give it.
	opts.ClientAnswers = true
	opts.Now = func() time.Time { return s.now }
	s.c = dialects.Registry().NewConn(opts)
	return s
}

// round replays every transcript of the group once.
func (s *soak) round() {
	for _, tr := range s.g.transcripts {
		for i := range tr.lines {
			l := &tr.lines[i]
			if l.closes && !s.close {
				continue
			}
			s.buf = l.render(s.buf[:0], s.u)
			s.feed(l.out, s.buf)
		}
		if s.close {
			s.closeAll()
		}
		s.now = s.now.Add(time.Minute)
		s.c.Expire(s.now)
		s.u++
	}
}

// feed hands one frame to the Conn; a transcript's malformed lines fail
// as they do in its golden test.
func (s *soak) feed(out bool, frame []byte) {
	s.frames++
	if out {
		s.c.Outbound(frame)
	} else {
		s.c.Inbound(frame)
	}
	if s.check != nil {
		s.check()
	}
}

// closeAll closes every session the Conn tracks, as a client does when
// it is done with them: a session/close request and its response.
func (s *soak) closeAll() {
	for i, sid := range s.c.Sessions() {
		id := strconv.Quote("close-" + strconv.Itoa(s.u) + "-" + strconv.Itoa(i))
		q, _ := json.Marshal(sid)
		s.feed(true, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"session/close","params":{"sessionId":`+string(q)+`}}`))
		s.feed(false, []byte(`{"jsonrpc":"2.0","id":`+id+`,"result":{}}`))
	}
}

// soakRounds is how many rounds a group is replayed: enough for the
// sessions it opens to pass MaxSessions three times over, so that the
// soak's second half runs at the bounds, and at least soakMinRounds. The
// sessions a round opens are counted in one round on a Conn of its own
// (child sessions too: they count against MaxSessions as well), since a
// transcript may open none (Auggie's three open two). The rounds are
// never fewer than one session per transcript would need: the cards of a
// group that opens more (the unknown agent's one transcript opens three)
// settle later than its sessions, and its heap still grew by a map's
// table between the 171st and the 342nd round.
func soakRounds(t *testing.T, g *soakGroup) int {
	s := newSoak(t, g, soakOptions(), false)
	s.round()
	perRound := max(len(s.c.Sessions()), 1)
	n := (3*acpdialect.DefaultMaxSessions + perRound - 1) / perRound
	m := (3*acpdialect.DefaultMaxSessions + len(g.transcripts) - 1) / len(g.transcripts)
	return max(n, m, soakMinRounds)
}

const soakMinRounds = 60

// soakOptions are the bounds of the soak's Conns: the defaults, but for
// two stores that outlive sessions by design, lowered so that they too
// reach their bound in the soak's first half. Answered blocking requests
// are kept (up to twice MaxRequests, until their session ends) to refuse
// a second answer, and OpenCode's subagent nodes wait for their card by
// child session alone (Child; one bucket of Pending.PerSession) until
// Conn.Close.
func soakOptions() acpdialect.Options {
	return acpdialect.Options{MaxRequests: 64, Pending: correlate.Limits{PerSession: 64}}
}

// soakGrowth is how much the retained heap, or the budget's use, may grow
// from the soak's middle to its end: the ids grow a digit or two longer,
// and a store's map, its entries coming and going, may grow its table
// once more before it settles (48 KiB for Auggie's 640 cards; it stays
// there at 16 times the rounds). A leak of one small entry per transcript
// replayed grows more than that in every group.
const soakGrowth = 64 << 10

// soakVariant is one way of running the soak.
type soakVariant struct {
	name  string
	close bool  // close each transcript's sessions at its end
	bytes int64 // Options.MaxBytes
}

func TestSoak(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("replays the transcripts tens of thousands of times; the race detector changes the heap's figures")
	}
	groups := soakGroups(t)
	variants := []soakVariant{
		{"closed", true, 0},
		{"never closed", false, 0},
		// 64 KiB: raised to correlate.MinBudget, the smallest budget.
		{"never closed, smallest budget", false, 64 << 10},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			for _, g := range groups {
				t.Run(cmpAgent(g.agent), func(t *testing.T) { soakGroupRun(t, g, v) })
			}
		})
	}
}

// cmpAgent names a group's subtest.
func cmpAgent(agent string) string {
	if agent == "" {
		return "unknown"
	}
	return agent
}

// soakGroupRun replays one group, measuring the retained heap at the
// soak's middle and end, and checks the bounds.
func soakGroupRun(t *testing.T, g *soakGroup, v soakVariant) {
	opts := soakOptions()
	opts.MaxBytes = v.bytes
	n := soakRounds(t, g)
	base := heapNow()
	s := newSoak(t, g, opts, v.close)
	limit := s.c.Stats().Budget.Limit
	if v.bytes != 0 {
		s.check = func() {
			if st := s.c.Stats().Budget; st.Used > st.Limit {
				t.Fatalf("frame %d: budget used %d > limit %d", s.frames, st.Used, st.Limit)
			}
		}
	}
	var mid, midUsed int64
	for r := 1; r <= n; r++ {
		s.round()
		if v.close {
			soakClosed(t, s)
		}
		if r == n/2 {
			mid, midUsed = heapNow()-base, s.c.Stats().Budget.Used
		}
	}
	end, st := heapNow()-base, s.c.Stats()
	t.Logf("%d rounds, %d frames, %.1f MB: heap at N/2 %d KiB, at N %d KiB; budget used %d / %d KiB; %d sessions, %d cards, %d late halves, %d evicted",
		n, s.frames, float64(n*g.bytes)/1e6, mid>>10, end>>10, midUsed>>10, st.Budget.Used>>10,
		len(s.c.Sessions()), st.Tools.Live, st.Pending.Live, st.Budget.Evicted)
	if end > limit+retainSlack {
		t.Errorf("retained %d KiB; the budget is %d KiB", end>>10, limit>>10)
	}
	if end > mid+soakGrowth || st.Budget.Used > midUsed+soakGrowth {
		t.Errorf("grew from the middle to the end: heap %d -> %d KiB, budget used %d -> %d KiB",
			mid>>10, end>>10, midUsed>>10, st.Budget.Used>>10)
	}
	if len(s.c.Sessions()) > acpdialect.DefaultMaxSessions || st.Budget.Used > st.Budget.Limit {
		t.Errorf("%d sessions, budget used %d of %d", len(s.c.Sessions()), st.Budget.Used, st.Budget.Limit)
	}
	s.c.Close()
	s.c.Expire(s.now.Add(time.Hour))
	if st := s.c.Stats(); st.Tools.Live+st.Pending.Live+st.Links.Live+st.Parents.Live+st.RunLinks.Live != 0 {
		t.Errorf("after Close: cards %d, late halves %d, links %d, parents %d, run links %d",
			st.Tools.Live, st.Pending.Live, st.Links.Live, st.Parents.Live, st.RunLinks.Live)
	}
	if table, order := s.c.AwaitHeld(); table != 0 || order != 0 {
		t.Errorf("after Close: %d blocking requests kept, %d in their order", table, order)
	}
}

// soakClosed checks that closing a round's sessions released what they
// held: what stays are OpenCode's nodes waiting by child session alone.
// A blocking request the round answered, or its Expire gave the default,
// is forgotten with its session.
func soakClosed(t *testing.T, s *soak) {
	t.Helper()
	if table, order := s.c.AwaitHeld(); table != 0 || order != 0 {
		t.Fatalf("after closing every session: %d blocking requests kept, %d in their order", table, order)
	}
	st := s.c.Stats()
	if n := len(s.c.Sessions()); n != 0 || st.Tools.Live != 0 || st.Links.Live != 0 || st.Parents.Live != 0 ||
		st.RunLinks.Live != 0 || st.Pending.Live > soakOptions().Pending.PerSession {
		t.Fatalf("after closing every session: %d sessions, cards %d, links %d, parents %d, run links %d, late halves %d",
			n, st.Tools.Live, st.Links.Live, st.Parents.Live, st.RunLinks.Live, st.Pending.Live)
	}
}
