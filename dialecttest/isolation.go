package dialecttest

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/tidwall/gjson"
)

// checkIsolation replays the dialect's frames on a connection identified
// as another agent, and on one of an unknown agent, with and without the
// dialect registered: the outputs must be the same. Then it checks Match
// on the dialect's names and their near misses.
func checkIsolation(k *kit) []string {
	other := &acpdialect.Dialect{ID: "other", Match: func(name, _ string) bool { return name == "other-agent" }}
	var fails []string
	for _, tc := range []struct {
		agent      string
		with, bare *acpdialect.Registry
	}{
		{"other-agent", acpdialect.NewRegistry(other, k.d), acpdialect.NewRegistry(other)},
		{"unknown-agent", acpdialect.NewRegistry(k.d), acpdialect.NewRegistry()},
	} {
		t := k.transcript(tc.agent)
		with, err1 := replayedBoth(tc.with, t)
		bare, err2 := replayedBoth(tc.bare, t)
		switch {
		case err1 != nil:
			fails = append(fails, fmt.Sprintf("replay as %s, with the dialect registered: %v%s", tc.agent, err1, k.frameAt(err1)))
		case err2 != nil:
			fails = append(fails, fmt.Sprintf("replay as %s, without the dialect: %v", tc.agent, err2))
		case !bytes.Equal(with, bare):
			fails = append(fails, fmt.Sprintf("the dialect changed the output of a connection identified as %s:\nwith it:\n%s\nwithout it:\n%s", tc.agent, with, bare))
		}
	}
	return append(fails, k.checkNames()...)
}

// transcript is one turn of a session in which an agent called agent sends
// all of the dialect's frames.
func (k *kit) transcript(agent string) []byte {
	var b bytes.Buffer
	line := func(f []byte) {
		b.Write(f)
		b.WriteByte('\n')
	}
	req, resp := Initialize(0, agent)
	line(req)
	line(resp)
	req, resp = SessionNew(1, "s1")
	line(req)
	line(resp)
	line(Prompt(2, "s1", "go"))
	for _, s := range k.frames {
		line(s.b)
	}
	line(PromptResponse(2, ""))
	return b.Bytes()
}

// transcriptHead is how many lines the transcript holds before the
// dialect's frames: initialize, session/new, their responses, the prompt.
const transcriptHead = 5

// frameAt names the frame a replay's panic happened on, if it is one of
// the kit's.
func (k *kit) frameAt(err error) string {
	var p *panicError
	if !errors.As(err, &p) {
		return ""
	}
	if i := p.line - transcriptHead - 1; i >= 0 && i < len(k.frames) {
		return " (the frame of " + k.frames[i].where + ")"
	}
	return ""
}

// replayedBoth is the --json and then --final output of a transcript.
func replayedBoth(reg *acpdialect.Registry, transcript []byte) ([]byte, error) {
	final, events, err := replayed(reg, bytes.NewReader(transcript), replay.Options{})
	return append(events, final...), err
}

// checkNames checks that Match accepts the dialect's agent names and
// rejects their near misses, and that MatchResult claims no initialize
// result that lacks the agent's own mark: a plain one, as any other agent
// may send, or an empty one.
func (k *kit) checkNames() []string {
	var fails []string
	if k.d.MatchResult != nil {
		_, plain := Initialize(0, "unknown-agent")
		for _, r := range []string{gjson.GetBytes(plain, "result").Raw, `{}`, `{"_meta":{}}`} {
			var ok bool
			if msg := protect(func() { ok = k.d.MatchResult(gjson.Parse(r)) }); msg != "" {
				fails = append(fails, fmt.Sprintf("MatchResult(%s) %s", r, msg))
			} else if ok {
				fails = append(fails, fmt.Sprintf("MatchResult accepts %s, an initialize result without the agent's mark", r))
			}
		}
	}
	if k.d.Match == nil {
		if len(k.opts.Agents) > 0 {
			fails = append(fails, "Options.Agents names agents, but the dialect has no Match")
		}
		return fails
	}
	for _, name := range k.opts.Agents {
		var ok bool
		if msg := protect(func() { ok = k.d.Match(name, "") }); msg != "" {
			fails = append(fails, fmt.Sprintf("Match(%q, \"\") %s", name, msg))
		} else if !ok {
			fails = append(fails, fmt.Sprintf("Match(%q, \"\") = false: the dialect does not identify its own agent", name))
		}
	}
	for _, name := range k.nearMisses() {
		var ok bool
		if msg := protect(func() { ok = k.d.Match(name, "") || k.d.Match("", name) }); msg != "" {
			fails = append(fails, fmt.Sprintf("Match on %q, a near miss of its agent names, %s", name, msg))
		} else if ok {
			fails = append(fails, fmt.Sprintf("Match accepts %q, a near miss of its agent names", name))
		}
	}
	return fails
}

// nearMisses are names close to the dialect's that are not its: the
// author's, and each agent name glued into a longer word at the front and
// at both ends ("precursor", "xcursorx"), which no rule by exact name,
// prefix or whole word accepts.
func (k *kit) nearMisses() []string {
	out := append([]string(nil), k.opts.NearMisses...)
	for _, n := range k.opts.Agents {
		if n != "" {
			out = append(out, "pre"+n, "x"+n+"x")
		}
	}
	return out
}
