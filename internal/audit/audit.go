// Package audit lists the vendor surface of ACP transcripts: every vendor
// method, session/update kind and _meta key path seen, with how often and
// where first, each marked as read by the identified dialect, known and
// ignored on purpose, standard ACP, or unknown. It tells a dialect's
// maintainer what a new agent release added.
package audit

import (
	"io"
	"slices"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	"github.com/tidwall/gjson"
)

// Statuses.
const (
	Read     = "read"     // the identified dialect reads it
	Ignored  = "ignored"  // the dialect knows it and leaves it on purpose
	Standard = "standard" // ACP defines it
	Unknown  = "unknown"
)

// Kinds of item.
const (
	KindMethod = "method"
	KindUpdate = "update"
	KindMeta   = "meta"
)

// Item is one vendor method, update kind or _meta key path, for one agent.
type Item struct {
	Status string `json:"status"`
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Agent  string `json:"agent"` // the dialect that judged it, "unknown" for none
	Count  int    `json:"count"`
	File   string `json:"file"` // where it was first seen
	Line   int    `json:"line"`
}

// Audit collects items over transcripts.
type Audit struct {
	// Bad, if set, gets each line of a file that is skipped (not JSON,
	// not JSON-RPC): an audit that saw nothing must say why.
	Bad func(file string, b replay.BadLine)
	// BadLines counts those lines over all files.
	BadLines int

	items map[[3]string]*Item // kind, name, agent
	order []*Item
}

// New returns an empty audit.
func New() *Audit { return &Audit{items: map[[3]string]*Item{}} }

// Items returns the items: unknown first, then ignored, read, standard;
// by kind and name within.
func (a *Audit) Items() []Item {
	out := make([]Item, 0, len(a.order))
	for _, it := range a.order {
		out = append(out, *it)
	}
	rank := map[string]int{Unknown: 0, Ignored: 1, Read: 2, Standard: 3}
	slices.SortStableFunc(out, func(x, y Item) int {
		if d := rank[x.Status] - rank[y.Status]; d != 0 {
			return d
		}
		return strings.Compare(x.Kind+" "+x.Name, y.Kind+" "+y.Name)
	})
	return out
}

// seen is one occurrence in a file, judged when the file's dialect is
// known.
type seen struct {
	kind, name string
	line       int
	count      int
}

// File audits one transcript. agent names the dialect as --agent does
// ("" identifies it from the initialize response).
func (a *Audit) File(reg *acpdialect.Registry, name string, r io.Reader, agent string) error {
	var occ []seen
	index := map[[2]string]int{} // into occ
	note := func(kind, n string, line int) {
		// n views the reader's buffer, which the next lines reuse: it is
		// only looked up (assigning to a map under a string key stores
		// the key again), and the first occurrence keeps a copy.
		if i, ok := index[[2]string{kind, n}]; ok {
			occ[i].count++
			return
		}
		n = strings.Clone(n)
		index[[2]string{kind, n}] = len(occ)
		occ = append(occ, seen{kind, n, line, 1})
	}
	bad := func(b replay.BadLine) {
		a.BadLines++
		if a.Bad != nil {
			a.Bad(name, b)
		}
	}
	s, err := replay.NewStream(reg, replay.Options{Agent: agent}, replay.Sink{Frame: func(f replay.Frame) {
		frameItems(f, note)
	}, Bad: bad}, nil)
	if err != nil {
		return err
	}
	ferr := s.Feed(r)
	sum := s.Finish()
	d := reg.ByID(sum.Agent)
	for _, o := range occ {
		a.add(o, o.count, name, d)
	}
	return ferr
}

func (a *Audit) add(o seen, n int, file string, d *acpdialect.Dialect) {
	agent := "unknown"
	if d != nil {
		agent = d.ID
	}
	k := [3]string{o.kind, o.name, agent}
	it := a.items[k]
	if it == nil {
		it = &Item{Status: judge(d, o.kind, o.name), Kind: o.kind, Name: o.name, Agent: agent, File: file, Line: o.line}
		a.items[k] = it
		a.order = append(a.order, it)
	}
	it.Count += n
}

// frameItems notes a frame's vendor method, its update kind and its _meta
// key paths.
func frameItems(f replay.Frame, note func(kind, name string, line int)) {
	if f.Method != "" && !standardMethod(f.Method) {
		note(KindMethod, f.Method, f.Line)
	}
	if f.Method == "session/update" {
		if k := gjson.Get(f.Params, "update.sessionUpdate"); k.Type == gjson.String {
			note(KindUpdate, k.Str, f.Line)
		}
	}
	metaPaths(gjson.ParseBytes(f.Raw), 0, func(p string) { note(KindMeta, p, f.Line) })
}

// maxDepth bounds the walk of a frame and of a _meta object.
const maxDepth = 16

// metaPaths calls fn with the key path of every leaf of every _meta
// object in v ("_meta.claudeCode.toolName").
func metaPaths(v gjson.Result, depth int, fn func(string)) {
	if depth > maxDepth || !(v.IsObject() || v.IsArray()) {
		return
	}
	v.ForEach(func(k, x gjson.Result) bool {
		if k.Str == "_meta" && x.IsObject() {
			leaves(x, "_meta", 0, fn)
			return true
		}
		metaPaths(x, depth+1, fn)
		return true
	})
}

func leaves(o gjson.Result, prefix string, depth int, fn func(string)) {
	o.ForEach(func(k, x gjson.Result) bool {
		p := prefix + "." + k.Str
		if x.IsObject() && depth < maxDepth && len(x.Map()) > 0 {
			leaves(x, p, depth+1, fn)
		} else {
			fn(p)
		}
		return true
	})
}

// judge marks one item for a dialect (nil: no dialect).
func judge(d *acpdialect.Dialect, kind, name string) string {
	decl := name
	if kind == KindUpdate {
		decl = "update:" + name
	}
	// A method's "_" alias (Grok's _x.ai/...) is the method, for the
	// declarations as for the Conn.
	alias := decl
	if kind == KindMethod && len(name) > 1 && name[0] == '_' {
		alias = name[1:]
	}
	switch {
	case d != nil && reads(d, kind, name):
		return Read
	case d != nil && (covered(d.Reads, decl) || covered(d.Reads, alias)):
		return Read
	case d != nil && (covered(d.Ignores, decl) || covered(d.Ignores, alias)):
		return Ignored
	case kind == KindUpdate && standardUpdate[name]:
		return Standard
	}
	return Unknown
}

// reads reports whether the dialect's hooks read a method or update kind.
func reads(d *acpdialect.Dialect, kind, name string) bool {
	switch kind {
	case KindMethod:
		// The Conn reads "_"+method (the alias an SDK client knows a
		// vendor method by, Grok's _x.ai/...) as the method.
		if d.Accepts(name) {
			return true
		}
		return slices.ContainsFunc(d.Calls, func(c acpdialect.Call) bool { return c.Name == name })
	case KindUpdate:
		return slices.ContainsFunc(d.Updates, func(u acpdialect.Update) bool { return u.Kind == name })
	}
	return false
}

// covered reports whether a declaration covers path: equal, a path above
// it, or one below it (a declared leaf makes its parents read too).
func covered(decls []string, path string) bool {
	for _, d := range decls {
		if match(d, path) {
			return true
		}
	}
	return false
}

func match(decl, path string) bool {
	ds, ps := strings.Split(decl, "."), strings.Split(path, ".")
	n := min(len(ds), len(ps))
	for i := range n {
		if ds[i] != "*" && ds[i] != ps[i] {
			return false
		}
	}
	return true
}

// standardMethod reports whether ACP defines method, for either side.
func standardMethod(m string) bool {
	if replay.AgentServes(m) && !vendorServed(m) {
		return true
	}
	switch m {
	case "session/update", "session/request_permission", "fs/read_text_file", "fs/write_text_file",
		"terminal/create", "terminal/output", "terminal/release", "terminal/wait_for_exit", "terminal/kill",
		"elicitation/create", "elicitation/complete", "mcp/connect", "mcp/disconnect", "mcp/message":
		return true
	}
	return false
}

// vendorServed reports whether m is one of the vendor methods AgentServes
// knows (Cursor's, Grok's authentication/, Auggie's completion/ and
// augment/, any "_" extension): served by the agent, but not ACP's.
func vendorServed(m string) bool {
	return strings.Contains(m, "cursor/") || strings.HasPrefix(m, "_") ||
		strings.HasPrefix(m, "authentication/") || strings.HasPrefix(m, "completion/") ||
		strings.HasPrefix(m, "augment/")
}

// standardUpdate are the session/update kinds ACP (and its RFDs on their
// way in) defines.
var standardUpdate = map[string]bool{
	"user_message_chunk": true, "agent_message_chunk": true, "agent_thought_chunk": true,
	"tool_call": true, "tool_call_update": true, "plan": true, "available_commands_update": true,
	"current_mode_update": true, "config_option_update": true, "session_info_update": true,
	"usage_update": true, "compaction_update": true,
	// The subagents RFD's kinds, which the Conn reads on every connection.
	acpdialect.UpdateSubagent: true, acpdialect.UpdateSessionMessage: true,
	// ACP v2's work state, which the Conn reads on every connection too.
	acpdialect.UpdateState: true, acpdialect.UpdateTerminal: true, acpdialect.UpdateTerminalOutput: true,
	// ACP v2's other kinds (@agentclientprotocol/sdk 2.4.0's v2 schema and
	// its unstable additions), which pass as standard: whole messages and
	// plans, notices, and the chunks of a tool call's content, a
	// compaction's summary and a child's message.
	"user_message": true, "agent_message": true, "agent_thought": true,
	"plan_update": true, "plan_removed": true, "notice": true,
	"tool_call_content_chunk": true, "compaction_summary_chunk": true, "session_message_chunk": true,
}
