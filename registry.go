package acpdialect

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Registry is the set of dialects a client supports. Build it explicitly;
// there is no global registry.
type Registry struct {
	dialects []*Dialect
}

// NewRegistry returns a registry of the given dialects, tried in order when
// identifying an agent. A nil dialect is skipped; of two dialects with the
// same ID the first is kept.
func NewRegistry(dialects ...*Dialect) *Registry {
	r := &Registry{}
	for _, d := range dialects {
		if d == nil || r.ByID(d.ID) != nil {
			continue
		}
		r.dialects = append(r.dialects, d)
	}
	return r
}

// Dialects returns the registered dialects in order.
func (r *Registry) Dialects() []*Dialect {
	if r == nil {
		return nil
	}
	return append([]*Dialect(nil), r.dialects...)
}

// ByID returns the dialect with this ID ("cursor", case-insensitive), or
// nil.
func (r *Registry) ByID(id string) *Dialect {
	if r == nil {
		return nil
	}
	for _, d := range r.dialects {
		if strings.EqualFold(d.ID, id) {
			return d
		}
	}
	return nil
}

// ByAgent returns the dialect whose Match accepts an agent's initialize
// agentInfo name and title, or nil for an unknown agent. This is how a
// Conn identifies its agent. The name decides first: the first dialect
// that accepts the name alone (title "") wins, and only when none does is
// each asked with the title too, so that an agent named as one dialect's
// and titled as another's is the first's whatever the registration
// order. Dialects match known names (MatchName), never a substring, so
// the order matters only for dialects that claim the same name.
func (r *Registry) ByAgent(name, title string) *Dialect {
	if r == nil || (name == "" && title == "") {
		return nil
	}
	if name != "" {
		for _, d := range r.dialects {
			if d.Match != nil && d.Match(name, "") {
				return d
			}
		}
	}
	for _, d := range r.dialects {
		if d.Match != nil && d.Match(name, title) {
			return d
		}
	}
	return nil
}

// ByResult returns the first dialect whose MatchResult accepts an
// initialize result, or nil. A Conn asks it when ByAgent finds no dialect
// for the result's agentInfo (or there is none), so that an agent that
// names itself only by a mark in its result is still identified.
func (r *Registry) ByResult(result gjson.Result) *Dialect {
	if r == nil || !result.IsObject() {
		return nil
	}
	for _, d := range r.dialects {
		if d.MatchResult != nil && d.MatchResult(result) {
			return d
		}
	}
	return nil
}

// resolve finds a dialect by an explicit name (Options.Agent): an ID first,
// else an agent name as ByAgent would see it. It returns nil when nothing
// matches.
func (r *Registry) resolve(name string) *Dialect {
	if d := r.ByID(name); d != nil {
		return d
	}
	return r.ByAgent(name, "")
}

// Allowlist returns the union of every dialect's vendor method names, in
// registration order without repeats. A connection still only accepts the
// methods of the dialect it was identified as.
func (r *Registry) Allowlist() []string {
	if r == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, d := range r.dialects {
		for _, m := range d.Methods {
			if !seen[m.Name] && !isClientMethod(m.Name) {
				seen[m.Name] = true
				out = append(out, m.Name)
			}
		}
	}
	return out
}

// MatchName reports whether name (an initialize agentInfo name or title)
// is one of an agent's known names: equal to one, ignoring case and
// surrounding space, or one followed by a version after a single ' ', '/'
// or '@' ("cursor-agent 1.2", "cursor-agent/2025.11", "Cursor Agent v2").
// Anything else is another agent, however much of a known name it holds:
// "precursor", "cursor-agent-shim", "claude-code (cursor-compatible)".
// A dialect's Match is usually MatchName on the name and the title.
func MatchName(name string, known ...string) bool {
	name = strings.TrimSpace(name)
	for _, k := range known {
		if k == "" || len(name) < len(k) || !strings.EqualFold(name[:len(k)], k) {
			continue
		}
		if rest := name[len(k):]; rest == "" || versionSuffix(rest) {
			return true
		}
	}
	return false
}

// MatchExact reports whether name (an initialize agentInfo name or title)
// is one of known: equal to it, ignoring case and surrounding space. It is
// MatchName without the version: for an agent that sends none.
func MatchExact(name string, known ...string) bool {
	name = strings.TrimSpace(name)
	for _, k := range known {
		if strings.EqualFold(name, k) {
			return true
		}
	}
	return false
}

// versionSuffix reports whether s is a separator (' ', '/', '@') and then
// a version: a digit, or 'v' and a digit, then anything.
func versionSuffix(s string) bool {
	if len(s) < 2 || (s[0] != ' ' && s[0] != '/' && s[0] != '@') {
		return false
	}
	v := s[1:]
	if v[0] == 'v' || v[0] == 'V' {
		v = v[1:]
	}
	return v != "" && v[0] >= '0' && v[0] <= '9'
}
