package dialecttest

import (
	"bytes"
	"fmt"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
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
		with, err1 := replayed(tc.with, t)
		bare, err2 := replayed(tc.bare, t)
		switch {
		case err1 != nil || err2 != nil:
			fails = append(fails, fmt.Sprintf("replay as %s: %v %v", tc.agent, err1, err2))
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

// replayed is the --json and --final output of a transcript.
func replayed(reg *acpdialect.Registry, transcript []byte) ([]byte, error) {
	r, err := replay.Run(reg, bytes.NewReader(transcript), replay.Options{})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := r.WriteEvents(&out); err != nil {
		return nil, err
	}
	err = r.WriteFinal(&out)
	return out.Bytes(), err
}

// checkNames checks that Match accepts the dialect's agent names and
// rejects their near misses.
func (k *kit) checkNames() []string {
	var fails []string
	if k.d.Match == nil {
		if len(k.opts.Agents) > 0 {
			fails = append(fails, "Options.Agents names agents, but the dialect has no Match")
		}
		return fails
	}
	for _, name := range k.opts.Agents {
		if !k.d.Match(name, "") {
			fails = append(fails, fmt.Sprintf("Match(%q, \"\") = false: the dialect does not identify its own agent", name))
		}
	}
	for _, name := range k.nearMisses() {
		if k.d.Match(name, "") || k.d.Match("", name) {
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
