package dialecttest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// Options says what the kit checks a dialect against. The zero value
// checks the hooks on frames built from the dialect's own tables.
type Options struct {
	// Agents are initialize agentInfo names the dialect must identify
	// (Match(name, "") true). The kit also tries near misses of each
	// (the name glued into a longer word), which it must not.
	Agents []string
	// NearMisses are more names the dialect must not identify, such as
	// another vendor's agent that mentions this one.
	NearMisses []string
	// Dir is a folder of transcripts (*.jsonl, one JSON-RPC message per
	// line, both directions in wire order), each with its goldens beside
	// it. Its agent -> client lines feed every rule.
	Dir string
	// Agent replays the transcripts in Dir as this agent (a dialect ID or
	// an agent name) instead of identifying it from their initialize
	// response: for recordings that start without one (without Agent,
	// such a transcript fails the goldens rule). Other rules are
	// unaffected.
	Agent string
	// Update rewrites the goldens instead of comparing them, as the
	// -update flag does: importing dialecttest defines that flag (go test
	// -update), so a test must not define its own. Set Update to rewrite
	// them without the flag, as a caller of Check outside a test would.
	Update bool
	// Registry replays the transcripts for the goldens. Default: a
	// registry of the dialect alone.
	Registry *acpdialect.Registry
	// Frames are more agent -> client frames of the dialect's, for every
	// rule but the goldens. They are told apart by shape: a request has a
	// method and an id, a notification a method alone, and a response (an
	// id and no method) is taken as the agent's answer to each of the
	// dialect's Calls (fed to their readers, after the client's request).
	Frames [][]byte
	// Conn is the base of the options of every connection the kit makes
	// (Agent is set by the kit).
	Conn acpdialect.Options
	// Versions are agentInfo versions to ask the dialect's ForVersion
	// about ("1.6.2", "2.6.0"): each variant it returns for them (each
	// once, however many versions return it) is checked against the
	// rules about hooks (table, pure, fail_closed, bounded) as the
	// dialect is. The versions rule asks about them and about odd
	// versions whatever Versions holds.
	Versions []string
}

// A rule is one of the checks, named as its sub-test.
type rule struct {
	name  string
	check func(k *kit) []string
}

var rules = []rule{
	{"table", checkTable},
	{"pure", checkPure},
	{"versions", checkVersions},
	{"isolation", checkIsolation},
	{"fail_closed", checkFailClosed},
	{"bounded", checkBounded},
	{"goldens", checkGoldens},
}

// run runs the rule's check. The rules recover the panics of the hooks
// they call where they can name the hook and frame; a panic that gets
// past them is still one failure of the rule, never the caller's crash.
func (r rule) run(k *kit) (fails []string) {
	if msg := protect(func() { fails = r.check(k) }); msg != "" {
		fails = append(fails, "the rule stopped: "+msg)
	}
	return fails
}

// Run checks d against every rule, each in a sub-test of t named after the
// rule, and reports each failure on its own line. Each variant of d for
// Options.Versions is checked in a sub-test named "version " and the
// first version that gave it, one sub-test per rule in it.
func Run(t *testing.T, d *acpdialect.Dialect, opts Options) {
	t.Helper()
	k, err := newKit(d, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			for _, msg := range r.run(k) {
				t.Error(msg)
			}
		})
	}
	for _, v := range k.variants() {
		t.Run("version "+v.version, func(t *testing.T) {
			err := runVariant(v, opts, func(r rule, k *kit) {
				t.Run(r.name, func(t *testing.T) {
					for _, msg := range r.run(k) {
						t.Error(msg)
					}
				})
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Check checks d against every rule and returns every failure, each as
// "rule: detail" ("version 2.6.0: rule: detail" for the variant of d for
// one of Options.Versions), joined into one error; nil when d keeps them
// all.
func Check(d *acpdialect.Dialect, opts Options) error {
	k, err := newKit(d, opts)
	if err != nil {
		return err
	}
	var errs []error
	for _, r := range rules {
		for _, msg := range r.run(k) {
			errs = append(errs, fmt.Errorf("%s: %s", r.name, msg))
		}
	}
	for _, v := range k.variants() {
		err := runVariant(v, opts, func(r rule, k *kit) {
			for _, msg := range r.run(k) {
				errs = append(errs, fmt.Errorf("version %s: %s: %s", v.version, r.name, msg))
			}
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// kit holds what the rules share: the dialect and its frames.
type kit struct {
	d      *acpdialect.Dialect
	opts   Options
	frames []sample // agent -> client frames of the dialect's
	// results are the results of the agent's responses to the dialect's
	// Calls found in the transcripts and in Options.Frames, by method.
	results map[string][]string
	// responses are the agent's responses those results came in, each with
	// the Call it answers, for the rules that feed a Conn.
	responses []sample
	// answers are the results of the agent's responses to the other
	// client requests in the transcripts, by method (for SessionHooks.Result
	// and Rewrite.Response), and clientParams the params of the client's
	// requests a Rewrite takes (for Rewrite.Request).
	answers, clientParams map[string][]string
	transcripts           []string // paths
}

// sample is one frame and where it came from, for messages. A response
// also names call, the method of the client's request it answers (one of
// the dialect's Calls), which the kit sends before it.
type sample struct {
	where string
	b     []byte
	call  string
}

// isResponse reports whether a frame has a response's shape: an id and no
// method.
func isResponse(b []byte) bool {
	return !gjson.GetBytes(b, "method").Exists() && gjson.GetBytes(b, "id").Exists()
}

func newKit(d *acpdialect.Dialect, opts Options) (*kit, error) {
	if d == nil {
		return nil, errors.New("dialecttest: nil dialect")
	}
	if d.ID == "" {
		return nil, errors.New("dialecttest: the dialect has no ID")
	}
	k := &kit{d: d, opts: opts, results: map[string][]string{}, answers: map[string][]string{}, clientParams: map[string][]string{}}
	k.frames = k.generated()
	for i, f := range opts.Frames {
		k.addFrame(sample{where: fmt.Sprintf("Options.Frames[%d]", i), b: f})
	}
	if opts.Dir != "" {
		paths, err := filepath.Glob(filepath.Join(opts.Dir, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(paths) == 0 {
			return nil, fmt.Errorf("dialecttest: no *.jsonl transcript in %s", opts.Dir)
		}
		k.transcripts = paths
		for _, p := range paths {
			if err := k.readTranscript(p); err != nil {
				return nil, err
			}
		}
	}
	return k, nil
}

// addFrame keeps one of Options.Frames. A response answers a request the
// kit cannot know: it is taken as a response to each of the dialect's
// Calls, whose readers must cope with any result; with no Calls it is fed
// as it is, and due no reply.
func (k *kit) addFrame(s sample) {
	if !isResponse(s.b) || len(k.d.Calls) == 0 {
		k.frames = append(k.frames, s)
		return
	}
	seen := map[string]bool{} // a method listed twice takes the response once
	for _, c := range k.d.Calls {
		if !seen[c.Name] {
			seen[c.Name] = true
			k.addResponse(sample{where: s.where, b: s.b, call: c.Name})
		}
	}
}

// addResponse keeps a response to the Call s.call.
func (k *kit) addResponse(s sample) {
	if r := gjson.GetBytes(s.b, "result"); r.Exists() {
		k.results[s.call] = append(k.results[s.call], r.Raw)
	}
	k.responses = append(k.responses, s)
}

// generated are the frames the dialect's tables name: a request and a
// notification per method (as its kind allows), with empty params, and an
// update per kind of its own.
func (k *kit) generated() []sample {
	var out []sample
	for _, m := range k.d.Methods {
		if m.Kind&acpdialect.Request != 0 {
			out = append(out, sample{where: "method table: " + m.Name, b: Request(1, m.Name, map[string]any{})})
		}
		if m.Kind&acpdialect.Notification != 0 {
			out = append(out, sample{where: "method table: " + m.Name, b: Notify(m.Name, map[string]any{})})
		}
	}
	for _, u := range k.d.Updates {
		out = append(out, sample{where: "update kinds: " + u.Kind, b: SessionUpdate("s1", map[string]any{"sessionUpdate": u.Kind})})
	}
	return out
}

// readTranscript keeps a transcript's lines that concern the dialect: its
// vendor methods and updates, tool calls, and the results of its Calls.
func (k *kit) readTranscript(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	lines, err := ReadTranscript(f)
	if err != nil {
		return fmt.Errorf("dialecttest: %s: %w", path, err)
	}
	calls := map[string]string{}    // request id -> Calls method
	requests := map[string]string{} // request id -> any other method
	for _, l := range lines {
		method := gjson.GetBytes(l.Bytes, "method").Str
		id := gjson.GetBytes(l.Bytes, "id").Raw
		where := fmt.Sprintf("%s:%d", path, l.N)
		if k.rewrite(method) != nil {
			k.clientParams[method] = append(k.clientParams[method], gjson.GetBytes(l.Bytes, "params").Raw)
		}
		switch {
		case k.isCall(method) && id != "":
			calls[id] = method
		case method != "" && id != "" && !k.concerns(method, l.Bytes):
			requests[id] = method
		case method == "" && calls[id] != "":
			k.addResponse(sample{where: where, b: l.Bytes, call: calls[id]})
		case method == "" && requests[id] != "":
			if r := gjson.GetBytes(l.Bytes, "result"); r.Exists() {
				k.answers[requests[id]] = append(k.answers[requests[id]], r.Raw)
			}
		case k.concerns(method, l.Bytes):
			k.frames = append(k.frames, sample{where: where, b: l.Bytes})
		}
	}
	return nil
}

func (k *kit) isCall(method string) bool {
	for _, c := range k.d.Calls {
		if c.Name == method {
			return true
		}
	}
	return false
}

// rewrite returns the dialect's Rewrite of a client method, or nil.
func (k *kit) rewrite(method string) *acpdialect.Rewrite {
	for i := range k.d.Rewrites {
		if k.d.Rewrites[i].Method == method {
			return &k.d.Rewrites[i]
		}
	}
	return nil
}

// concerns reports whether an agent -> client frame is one the dialect's
// hooks read.
func (k *kit) concerns(method string, b []byte) bool {
	if method == "session/update" {
		kind := gjson.GetBytes(b, "params.update.sessionUpdate").Str
		return kind == "tool_call" || kind == "tool_call_update" || k.update(kind) != nil
	}
	return k.method(method, true) != nil || k.method(method, false) != nil
}

// method returns the dialect's handler for a frame's method, or nil: as
// the Conn finds it, by its exact name, else (for a "_" method the table
// lists without it, the alias a client on the SDK knows) by the name
// without its "_".
func (k *kit) method(name string, isRequest bool) *acpdialect.Method {
	if m := k.methodNamed(name, isRequest); m != nil {
		return m
	}
	if len(name) > 1 && name[0] == '_' {
		return k.methodNamed(name[1:], isRequest)
	}
	return nil
}

func (k *kit) methodNamed(name string, isRequest bool) *acpdialect.Method {
	for i := range k.d.Methods {
		m := &k.d.Methods[i]
		want := acpdialect.Notification
		if isRequest {
			want = acpdialect.Request
		}
		if m.Name == name && m.Kind&want != 0 {
			return m
		}
	}
	return nil
}

// update returns the dialect's handler of an update kind, or nil.
func (k *kit) update(kind string) *acpdialect.Update {
	for i := range k.d.Updates {
		if k.d.Updates[i].Kind == kind {
			return &k.d.Updates[i]
		}
	}
	return nil
}
