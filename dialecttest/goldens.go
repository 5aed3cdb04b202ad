package dialecttest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/acpdialect/acpdialect/internal/testwire"
)

// checkGoldens replays every transcript in Options.Dir and compares its
// --final and --json outputs with the goldens beside it, or rewrites them.
func checkGoldens(k *kit) []string {
	reg := k.opts.Registry
	if reg == nil {
		reg = acpdialect.NewRegistry(k.d)
	}
	var fails []string
	for _, path := range k.transcripts {
		final, events, err := replayFile(reg, path, k.opts.Agent)
		if err != nil {
			fails = append(fails, err.Error())
			continue
		}
		base := strings.TrimSuffix(path, ".jsonl")
		for _, g := range []struct {
			path string
			got  []byte
		}{{base + ".final.golden", final}, {base + ".events.golden", events}} {
			if err := testwire.CompareGolden(g.path, g.got, k.opts.Update || *testwire.Update); err != nil {
				fails = append(fails, err.Error())
			}
		}
	}
	return fails
}

// replayFile replays the transcript at path strictly, as replay.FileAs
// does, and returns its --final and --json outputs. A panic (a dialect's
// hook, called by the Conn) is an error naming the line it happened on.
func replayFile(reg *acpdialect.Registry, path, agent string) (final, events []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	initialized := false
	final, events, err = replayed(reg, f, replay.Options{Agent: agent, Strict: true, Frame: func(fr replay.Frame) {
		initialized = initialized || fr.Method == "initialize"
	}})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if !initialized && agent == "" {
		// Without an initialize exchange nothing identifies the agent: the
		// goldens would pin standard ACP behaviour, not the dialect's, and
		// -update would bless them without a word.
		return nil, nil, fmt.Errorf("%s: no initialize exchange, so the replay cannot identify the agent and would pin standard ACP only: add one, or set Options.Agent", path)
	}
	return final, events, nil
}

// Replay replays a transcript (JSONL, one JSON-RPC message per line, both
// directions in wire order) through a connection from reg, as `acpdialect
// replay` does for the built-in dialects, and returns its --final and
// --json outputs: what the goldens hold. It is for a dialect outside
// acpdialect, which the CLI does not know: print them to look at a
// recording (reg: acpdialect.NewRegistry(mydialect.Dialect())). agent,
// unless "", names the dialect (its ID or an agent name) for a recording
// without an initialize exchange, as Options.Agent does. A line that is
// not a JSON-RPC message is an error, and so is a panic in a hook (with
// the line it happened on).
func Replay(reg *acpdialect.Registry, transcript io.Reader, agent string) (final, events []byte, err error) {
	return replayed(reg, transcript, replay.Options{Agent: agent, Strict: true})
}

// replayed replays a transcript and returns its --final and --json
// outputs, with a panic returned as an error naming the line.
func replayed(reg *acpdialect.Registry, r io.Reader, opts replay.Options) (final, events []byte, err error) {
	line := 0
	seen := opts.Frame
	opts.Frame = func(f replay.Frame) {
		line = f.Line
		if seen != nil {
			seen(f)
		}
	}
	var rep *replay.Replay
	if msg := protect(func() { rep, err = replay.Run(reg, r, opts) }); msg != "" {
		return nil, nil, &panicError{line, msg}
	}
	if err != nil {
		return nil, nil, err
	}
	var fb, eb bytes.Buffer
	if err := rep.WriteFinal(&fb); err != nil {
		return nil, nil, err
	}
	if err := rep.WriteEvents(&eb); err != nil {
		return nil, nil, err
	}
	return fb.Bytes(), eb.Bytes(), nil
}

// panicError is a panic during a replay, on the transcript's line.
type panicError struct {
	line int
	msg  string
}

func (e *panicError) Error() string { return fmt.Sprintf("line %d: replaying it %s", e.line, e.msg) }
