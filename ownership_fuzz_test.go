package acpdialect_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/tidwall/gjson"
)

// The ownership tests hold the Conn to two promises of its contract (the
// README's "line may be reused after the call: the Conn copies what it
// keeps", and Result's and Event's docs): a Result never views the
// caller's frame, so overwriting the frame changes neither that Result nor
// anything the Conn produces later; and an event is a snapshot, which
// later frames (a merge into the same card) never change.

// ownLine is one transcript line and the way it travels.
type ownLine struct {
	out bool // client -> agent: Conn.Outbound; else Conn.Inbound
	b   []byte
}

// ownRun feeds lines to one Conn and keeps every Result with its encoding
// at the time it was returned. With clobber, each line is copied into one
// buffer that the next line reuses (as a bufio.Reader does), and that
// buffer is overwritten right after the call.
type ownRun struct {
	t       *testing.T
	c       *acpdialect.Conn
	clobber bool
	buf     []byte
	results [][]acpdialect.Result // by line, and the expired last
	enc     [][]byte
	replies *replyLedger // the replies the client owes the agent, if counted
}

// feed hands l to the Conn and, with clobber, checks that overwriting the
// line changed nothing the call returned.
func (r *ownRun) feed(l ownLine) {
	r.t.Helper()
	var frame []byte
	if r.clobber {
		r.buf = append(r.buf[:0], l.b...)
		frame = r.buf
	} else {
		frame = bytes.Clone(l.b) // fresh, never written again
	}
	var res acpdialect.Result
	if l.out {
		res, _ = r.c.Outbound(frame)
	} else {
		res, _ = r.c.Inbound(frame)
	}
	if r.replies != nil {
		if l.out {
			r.replies.outbound(l.b, res)
		} else {
			r.replies.inbound(l.b, res)
		}
	}
	then := appendResult(nil, res)
	if r.clobber {
		for i := range frame { // within its length only
			frame[i] = 'X'
		}
		if now := appendResult(nil, res); !bytes.Equal(now, then) {
			r.t.Fatalf("%s: the result changed when the line's buffer was overwritten:\n%s\nnow:\n%s", l.b, then, now)
		}
	}
	r.results = append(r.results, []acpdialect.Result{res})
	r.enc = append(r.enc, then)
}

// checkSnapshots fails if any Result encodes differently now than when it
// was returned: a later frame changed an event already handed out.
func (r *ownRun) checkSnapshots(lines []ownLine) {
	r.t.Helper()
	for i, res := range r.results {
		var now []byte
		for _, x := range res {
			now = appendResult(now, x)
		}
		if !bytes.Equal(now, r.enc[i]) {
			r.t.Fatalf("the result of line %d (%s) changed after later lines:\n%s\nnow:\n%s", i+1, lines[i].b, r.enc[i], now)
		}
	}
}

// appendResult appends what a caller may keep of res: the reply, the
// rewritten frames and every event's JSON.
func appendResult(b []byte, res acpdialect.Result) []byte {
	b = append(b, "reply "...)
	b = append(b, res.Reply...)
	if res.Awaiting {
		b = append(b, " awaiting"...)
	}
	if res.Quarantine {
		b = append(b, " quarantine"...)
	}
	if w := res.Wire; w != nil {
		b = append(b, "\nwire "...)
		b = append(b, w.Frame...)
		b = append(b, "\ndeliver "...)
		b = append(b, w.Deliver...)
		if w.Echo {
			b = append(b, " echo"...)
		}
	}
	for _, e := range res.Events {
		j, err := e.MarshalJSON()
		if err != nil {
			j = []byte("not encoded: " + err.Error())
		}
		b = append(append(b, '\n'), j...)
	}
	return append(b, '\n')
}

// checkOwnership replays lines on a Conn from reg with opts twice: on
// buffers overwritten after each call, then on fresh ones; then it expires
// every request still awaiting the client's answer. Each Result must not
// change when its buffer is overwritten, nor after later lines; and the
// two runs must produce the same, so that no state the Conn kept viewed an
// old buffer. The second run also counts the replies (replyLedger): every
// agent request the client does not serve gets exactly one.
func checkOwnership(t *testing.T, reg *acpdialect.Registry, opts acpdialect.Options, lines []ownLine) {
	t.Helper()
	a := &ownRun{t: t, c: reg.NewConn(opts), clobber: true}
	b := &ownRun{t: t, c: reg.NewConn(opts), replies: newReplyLedger(t)}
	for _, r := range []*ownRun{a, b} {
		for _, l := range lines {
			r.feed(l)
		}
		r.expire()
	}
	// Close ends every session: it too must leave the events handed out
	// as they were.
	a.c.Close()
	b.c.Close()
	all := append(lines[:len(lines):len(lines)], ownLine{b: []byte("(expired)")})
	a.checkSnapshots(all)
	for i := range a.enc {
		if !bytes.Equal(a.enc[i], b.enc[i]) {
			t.Fatalf("line %d (%s) gave, after earlier lines' buffers were overwritten:\n%s\non fresh buffers:\n%s",
				i+1, all[i].b, a.enc[i], b.enc[i])
		}
	}
}

// expire answers every request still waiting its default, as one more
// Result: their replies and events come from what the Conn kept.
func (r *ownRun) expire() {
	res := r.c.Expire(time.Unix(1<<62, 0))
	var enc []byte
	for _, x := range res {
		enc = appendResult(enc, x)
		if r.replies != nil {
			r.replies.replies([]byte("(expired)"), x)
		}
	}
	if r.replies != nil {
		r.replies.settled() // every waiting request is due by now
	}
	r.results = append(r.results, res)
	r.enc = append(r.enc, enc)
}

// ownCaptures are the real transcripts of every package: the dialects'
// captures, the wiretap's, the subagent drafts' and the CLI's sample.
func ownCaptures(tb testing.TB) []string {
	tb.Helper()
	var paths []string
	for _, g := range []string{"*/testdata/*.jsonl", "testdata/*/*.jsonl", "cmd/acpdialect/sample.jsonl"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	if len(paths) < 100 {
		tb.Fatalf("only %d captures found", len(paths))
	}
	return paths
}

// captureAgent is the agent a transcript is replayed as, as its goldens
// are: "" (identified by its initialize exchange), or, for one that has
// none, the dialect its folder or its name's prefix names (wiretap's
// codex__...).
func captureAgent(reg *acpdialect.Registry, path string, data []byte) string {
	if bytes.Contains(data, []byte(`"method":"initialize"`)) {
		return ""
	}
	dir := filepath.Base(filepath.Dir(filepath.Dir(path)))
	if reg.ByID(dir) != nil {
		return dir
	}
	prefix, _, _ := strings.Cut(filepath.Base(path), "__")
	if reg.ByID(prefix) != nil {
		return prefix
	}
	return ""
}

// captureLines reads a transcript's lines, with the directions its replay
// infers, and the agent to replay it as.
func captureLines(tb testing.TB, reg *acpdialect.Registry, path string) (lines []ownLine, agent string) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	agent = captureAgent(reg, path, data)
	s, err := replay.NewStream(reg, replay.Options{Agent: agent}, replay.Sink{Frame: func(f replay.Frame) {
		lines = append(lines, ownLine{out: f.Dir == replay.ClientToAgent, b: bytes.Clone(f.Raw)})
	}}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Feed(bytes.NewReader(data)); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	s.Finish()
	return lines, agent
}

// TestOwnershipCaptures checks the ownership promises on every capture,
// with the default options, and with the client answering blocking
// requests itself (as the replay does): its answers then come through
// Outbound, and what is left unanswered expires at the end.
func TestOwnershipCaptures(t *testing.T) {
	reg := dialects.Registry()
	for _, p := range ownCaptures(t) {
		t.Run(p, func(t *testing.T) {
			lines, agent := captureLines(t, reg, p)
			checkOwnership(t, reg, acpdialect.Options{Agent: agent}, lines)
			checkOwnership(t, reg, acpdialect.Options{Agent: agent, ClientAnswers: true}, lines)
		})
	}
}

// ownMaxLines and ownMaxLine bound one execution of FuzzOwnership: its
// first lines, and of those the ones no longer than ownMaxLine (longer
// ones are left out; the captures' longest is 3.2 KB). ownSeedLines,
// ownSeedLine and ownSeedsPerAgent shape the seeds (ownSeeds).
const (
	ownMaxLines      = 64
	ownMaxLine       = 4 << 10
	ownSeedLines     = 8
	ownSeedLine      = 600
	ownSeedsPerAgent = 2
)

// ownOut marks a line of a FuzzOwnership input that goes client -> agent.
const ownOut = '>'

// ownAnswers is the bit of an input's first byte that sets ClientAnswers.
const ownAnswers = 0x80

// ownAgents are the agents the first byte of a FuzzOwnership input picks
// from: every dialect, in dialects.All()'s order, then an unknown agent
// (standard ACP). A dialect added there changes which one the first byte
// of the inputs under testdata/fuzz/FuzzOwnership picks.
func ownAgents() []string {
	var ids []string
	for _, d := range dialects.All() {
		ids = append(ids, d.ID)
	}
	return append(ids, "unknown")
}

// FuzzOwnership checks the ownership promises on lines of any dialect.
// The input's first byte picks the agent (its low 7 bits, modulo
// len(ownAgents())) and, with its top bit, ClientAnswers; each line after
// it is a frame, fed to Outbound after a leading '>' (ownOut), else to
// Inbound. The connection has seqOpts's small bounds and a small
// MaxOutput, so that evictions, cuts, refusals and output tails come
// within a few frames.
func FuzzOwnership(f *testing.F) {
	agents, reg := ownAgents(), dialects.Registry()
	for _, s := range ownSeeds(f, reg, agents) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		opts := seqOpts
		opts.Agent = agents[int(in[0]&^ownAnswers)%len(agents)]
		opts.ClientAnswers = in[0]&ownAnswers != 0
		opts.MaxOutput = 16
		var lines []ownLine
		for l := range bytes.SplitSeq(in[1:], []byte("\n")) {
			if len(lines) == ownMaxLines {
				break
			}
			if len(l) <= ownMaxLine {
				out := len(l) > 0 && l[0] == ownOut
				if out {
					l = l[1:]
				}
				lines = append(lines, ownLine{out: out, b: l})
			}
		}
		checkOwnership(t, reg, opts, lines)
	})
}

// ownSeeds are FuzzOwnership inputs made of the captures' lines: of each
// agent's, the first line of every kind (method, update kind, response to
// what, tool kind, _meta keys: see ownKind) that is at most ownSeedLine
// long, in their order, ownSeedLines to a seed and ownSeedsPerAgent seeds
// an agent, the second with ClientAnswers. The initialize exchange is left
// out: the first byte names the agent.
//
// The seeds are few and short, and read without a replay (seedLines), for
// CI's fresh corpus and its 200 ms of minimizing an input: the fuzzer
// restarts a worker process whenever minimizing outlasts that, and every
// worker makes the seeds again. Replaying the captures for their
// directions (60 ms), or a seed for each eight lines of every capture
// (250 seeds, whose first mutations nearly all found new coverage and were
// minimized), left the target at 60 to 2,000 executions in 10 s.
func ownSeeds(tb testing.TB, reg *acpdialect.Registry, agents []string) [][]byte {
	tb.Helper()
	const want = ownSeedLines * ownSeedsPerAgent
	picked := map[string][]ownLine{}
	seen := map[string]bool{}
	for _, p := range ownCaptures(tb) {
		id := captureAgent(reg, p, nil)
		if id == "" {
			id = "unknown"
		}
		if len(picked[id]) == want {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		k := testwire.Kinder{}
		for _, l := range seedLines(reg.ByID(id), data) {
			kind := ownKind(&k, l)
			if key := id + " " + kind; !seen[key] && len(l.b) <= ownSeedLine && len(picked[id]) < want && !strings.Contains(kind, "initialize") {
				seen[key] = true
				picked[id] = append(picked[id], l)
			}
		}
	}
	var seeds [][]byte
	for i, id := range agents {
		for j, lines := range slices.Collect(slices.Chunk(picked[id], ownSeedLines)) {
			first := byte(i)
			if j%2 == 1 {
				first |= ownAnswers
			}
			seeds = append(seeds, ownSeed(first, lines))
		}
	}
	return seeds
}

// seedLines splits a transcript into lines with their directions, as the
// replay infers them but without its Conn: a request goes client -> agent
// when the agent serves its method (ownOutbound), a response the other
// way from the request of its id, or to the client when there is none.
func seedLines(d *acpdialect.Dialect, data []byte) []ownLine {
	var lines []ownLine
	byClient := map[string]bool{} // request ids: sent by the client
	for l := range bytes.Lines(data) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		m, id := gjson.GetBytes(l, "method"), gjson.GetBytes(l, "id").Raw
		var out bool
		if m.Exists() {
			out = ownOutbound(d, m.Str)
			byClient[id] = out
		} else {
			client, ok := byClient[id]
			out = ok && !client
		}
		lines = append(lines, ownLine{out: out, b: l})
	}
	return lines
}

// ownKind names a line's kind for ownSeeds: testwire's kind, with an
// update's tool kind and the vendor keys of its _meta.
func ownKind(k *testwire.Kinder, l ownLine) string {
	u := gjson.GetBytes(l.b, "params.update")
	kind := k.Kind(l.b, l.out) + " " + u.Get("kind").Str
	u.Get("_meta").ForEach(func(key, v gjson.Result) bool {
		kind += " " + key.Str
		v.ForEach(func(key, _ gjson.Result) bool {
			kind += "." + key.Str
			return true
		})
		return true
	})
	return kind
}

// ownSeed is a FuzzOwnership input: first, then lines, the client's
// marked.
func ownSeed(first byte, lines []ownLine) []byte {
	b := []byte{first}
	for i, l := range lines {
		if i > 0 {
			b = append(b, '\n')
		}
		if l.out {
			b = append(b, ownOut)
		}
		b = append(b, l.b...)
	}
	return b
}

// ownOutbound reports whether a request or notification of method goes
// client -> agent: a method the agent serves, or one of the dialect's
// client calls (d may be nil).
func ownOutbound(d *acpdialect.Dialect, method string) bool {
	if replay.AgentServes(method) {
		return true
	}
	if d == nil {
		return false
	}
	for _, c := range d.Calls {
		if c.Name == method {
			return true
		}
	}
	return false
}
