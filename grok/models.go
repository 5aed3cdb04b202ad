package grok

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Bounds of a session's catalog: a model or effort past them is dropped,
// so that an agent cannot grow the state the Conn keeps without bound.
const (
	MaxModels  = 256
	MaxEfforts = 32
	maxID      = 256 // bytes of a model id or effort value
)

// Config option ids and categories (ACP's names).
const (
	OptionModel          = "model"
	OptionEffort         = "reasoning_effort"
	CategoryModel        = "model"
	CategoryThoughtLevel = "thought_level"
)

// Model is one entry of Grok's model catalog.
type Model struct {
	ID   string
	Name string
	// Efforts are the reasoning efforts the model offers; nil when it does
	// not support reasoning effort.
	Efforts []Effort
	// DefaultEffort is the model's default (_meta.reasoningEffort).
	DefaultEffort string
	// ContextTokens is the model's context window (_meta.totalContextTokens),
	// 0 when unknown.
	ContextTokens int64
}

// Effort is one reasoning effort a model offers.
type Effort struct {
	Value   string
	Name    string
	Default bool // the entry marked default
}

// Catalog is a session's models and selection: the dialect's session
// state. It is a value: a change makes a new one.
type Catalog struct {
	Models  []Model
	Current string // the current model's id, "" when unknown
	Effort  string // the current effort, "" when the model has none
	// AgentOptions says the agent sent config options itself: the
	// dialect leaves them, and the client's set_config_option, alone.
	AgentOptions bool
}

// ParseCatalog reads the legacy models object of a session/new or
// session/load result ({availableModels, currentModelId}). Entries without
// a modelId, repeated ids and fields of the wrong type are skipped; past
// MaxModels only the current model is kept, in the last place. The
// current model is currentModelId when the catalog has it, else the only
// model, else none (which of several runs is not known). ok is false when
// there is no model.
func ParseCatalog(models gjson.Result) (Catalog, bool) {
	var c Catalog
	cur := models.Get("currentModelId")
	list := models.Get("availableModels")
	list.ForEach(func(_, m gjson.Result) bool {
		if x, ok := parseModel(m); ok && c.find(x.ID) == nil {
			c.Models = append(c.Models, x)
		}
		return len(c.Models) < MaxModels
	})
	if len(c.Models) == MaxModels && cur.Type == gjson.String && c.find(cur.Str) == nil {
		keepCurrent(&c, list, cur.Str)
	}
	if len(c.Models) == 0 {
		return Catalog{}, false
	}
	switch {
	case cur.Type == gjson.String && c.find(cur.Str) != nil:
		c.Current = c.find(cur.Str).ID
	case len(c.Models) == 1:
		c.Current = c.Models[0].ID
	}
	c.Effort = c.resolveEffort(c.Current, "")
	return c, true
}

// keepCurrent puts the current model, found past MaxModels, in the
// catalog's last place, so that a long catalog still has a selection.
func keepCurrent(c *Catalog, list gjson.Result, cur string) {
	list.ForEach(func(_, m gjson.Result) bool {
		if id := m.Get("modelId"); id.Type != gjson.String || id.Str != cur {
			return true
		}
		if x, ok := parseModel(m); ok {
			c.Models[MaxModels-1] = x
		}
		return false
	})
}

func parseModel(m gjson.Result) (Model, bool) {
	id := m.Get("modelId")
	if id.Type != gjson.String || id.Str == "" || len(id.Str) > maxID {
		return Model{}, false
	}
	x := Model{ID: id.Str, Name: frame.View(m.Get("name"))}
	meta := m.Get("_meta")
	if n, ok := frame.Int64(meta.Get("totalContextTokens")); ok && n > 0 {
		x.ContextTokens = n
	}
	if meta.Get("supportsReasoningEffort").Type == gjson.True {
		x.Efforts = parseEfforts(meta.Get("reasoningEfforts"))
		x.DefaultEffort = frame.View(meta.Get("reasoningEffort"))
	}
	frame.Own(&x.ID, &x.Name, &x.DefaultEffort)
	return x, true
}

// parseEfforts reads reasoningEfforts: strings, or objects with value (or
// id), label and default. A string's name is itself with a capital. A
// value already read is skipped: a select offers each value once.
func parseEfforts(list gjson.Result) []Effort {
	var out []Effort
	list.ForEach(func(_, e gjson.Result) bool {
		var x Effort
		switch {
		case e.Type == gjson.String:
			x.Value = strings.TrimSpace(e.Str)
		case e.IsObject():
			x.Value = frame.View(e.Get("value"))
			if x.Value == "" {
				x.Value = frame.View(e.Get("id"))
			}
			x.Name = frame.View(e.Get("label"))
			x.Default = e.Get("default").Type == gjson.True
		}
		if x.Value == "" || len(x.Value) > maxID || hasEffort(out, x.Value) {
			return true
		}
		if x.Name == "" {
			r, n := utf8.DecodeRuneInString(x.Value)
			x.Name = string(unicode.ToUpper(r)) + x.Value[n:]
		}
		frame.Own(&x.Value, &x.Name)
		out = append(out, x)
		return len(out) < MaxEfforts
	})
	return out
}

func hasEffort(efforts []Effort, value string) bool {
	for _, e := range efforts {
		if e.Value == value {
			return true
		}
	}
	return false
}

// find returns the model with this id, or nil.
func (c *Catalog) find(id string) *Model {
	for i := range c.Models {
		if c.Models[i].ID == id {
			return &c.Models[i]
		}
	}
	return nil
}

// match returns the effort of m that token names (by value or by name),
// or "".
func (m *Model) match(token string) string {
	if m == nil || token == "" {
		return ""
	}
	for _, e := range m.Efforts {
		if e.Value == token || e.Name == token {
			return e.Value
		}
	}
	return ""
}

// resolveEffort is the effort a model runs at: the selected one if the
// model offers it, else the model's default, else the entry marked
// default, else medium when offered, else the first; "" for a model
// without efforts.
func (c *Catalog) resolveEffort(modelID, selected string) string {
	m := c.find(modelID)
	if m == nil || len(m.Efforts) == 0 {
		return ""
	}
	for _, token := range [...]string{selected, m.DefaultEffort, markedDefault(m), "medium"} {
		if v := m.match(token); v != "" {
			return v
		}
	}
	return m.Efforts[0].Value
}

func markedDefault(m *Model) string {
	for _, e := range m.Efforts {
		if e.Default {
			return e.Value
		}
	}
	return ""
}

// with returns a copy of the catalog with another selection; the models
// are shared (never changed).
func (c *Catalog) with(model, effort string) *Catalog {
	n := *c
	n.Current, n.Effort = model, effort
	return &n
}

// ConfigOptions returns the catalog as ACP config options: the model
// select, then the reasoning effort select when the current model offers
// efforts. It is [] for an empty catalog, never null.
func (c *Catalog) ConfigOptions() json.RawMessage {
	return build(func(w *writer) { c.writeOptions(w) })
}

// writeOptions writes the config options as encoding/json writes
// [{"id","name","category","type","currentValue","options":[{"value","name"}]}].
func (c *Catalog) writeOptions(w *writer) {
	w.raw(`[`)
	if len(c.Models) > 0 {
		w.raw(`{"id":"` + OptionModel + `","name":"Model","category":"` + CategoryModel + `","type":"select","currentValue":`)
		w.str(c.Current)
		w.raw(`,"options":[`)
		for i, m := range c.Models {
			name := m.Name
			if name == "" {
				name = m.ID
			}
			writeValue(w, i, m.ID, name)
		}
		w.raw(`]}`)
	}
	if m := c.find(c.Current); m != nil && len(m.Efforts) > 0 {
		if len(c.Models) > 0 {
			w.raw(`,`)
		}
		w.raw(`{"id":"` + OptionEffort + `","name":"Reasoning Effort","category":"` + CategoryThoughtLevel + `","type":"select","currentValue":`)
		w.str(c.Effort)
		w.raw(`,"options":[`)
		for i, e := range m.Efforts {
			writeValue(w, i, e.Value, e.Name)
		}
		w.raw(`]}`)
	}
	w.raw(`]`)
}

// writeValue writes the i-th of a select's options.
func writeValue(w *writer, i int, value, name string) {
	if i > 0 {
		w.raw(`,`)
	}
	w.raw(`{"value":`)
	w.str(value)
	w.raw(`,"name":`)
	w.str(name)
	w.raw(`}`)
}

// configEvents is a config event with these options, in one allocation
// with its object (the Conn fills in the event's session in place).
func configEvents(options json.RawMessage) []acpdialect.Event {
	o := &struct {
		ev  [1]acpdialect.Event
		cfg acpdialect.Config
	}{cfg: acpdialect.Config{Options: options}}
	o.ev[0] = acpdialect.Event{Type: acpdialect.EventConfig, Object: &o.cfg}
	return o.ev[:]
}

// SessionResult reads the agent's result to a client request with the
// session's catalog: session/new and session/load carry the catalog (its
// config options are added to the result the client sees, when the agent
// sent none, and reported as a config event); session/set_model, sent by
// the client itself, reports the model the agent confirms.
func SessionResult(method string, result gjson.Result, state any) acpdialect.Step {
	switch method {
	case "session/new", "session/load":
		return sessionCatalog(result)
	case MethodSetModel:
		cur, _ := state.(*Catalog)
		id := ParseSetModelResult(result)
		if cur == nil || cur.AgentOptions || cur.find(id) == nil || id == cur.Current {
			return acpdialect.Step{}
		}
		next := cur.with(cur.find(id).ID, cur.resolveEffort(id, cur.Effort))
		return acpdialect.Step{State: next, Events: configEvents(next.ConfigOptions())}
	}
	return acpdialect.Step{}
}

// sessionCatalog builds a session's state from a session/new or
// session/load result.
func sessionCatalog(result gjson.Result) acpdialect.Step {
	if opts := result.Get("configOptions"); opts.IsArray() && len(opts.Array()) > 0 {
		c, _ := ParseCatalog(result.Get("models"))
		c.AgentOptions = true
		return acpdialect.Step{State: &c}
	}
	c, ok := ParseCatalog(result.Get("models"))
	if !ok {
		return acpdialect.Step{}
	}
	if c.Current == "" {
		// Which of several models runs is not known: a select needs its
		// current value among its options, and a guess would be invented.
		// The catalog waits for a switch or Grok's model_changed.
		return acpdialect.Step{State: &c}
	}
	opts := c.ConfigOptions()
	return acpdialect.Step{
		State:  &c,
		Events: configEvents(opts),
		Result: withMember(result, "configOptions", opts),
	}
}

// withMember returns the object obj with member key set to value (in
// place of any it had), the other members as they were.
func withMember(obj gjson.Result, key string, value []byte) json.RawMessage {
	b := make([]byte, 0, len(obj.Raw)+len(key)+len(value)+4)
	b = append(b, '{')
	obj.ForEach(func(k, v gjson.Result) bool {
		if k.Str != key {
			b = append(append(append(append(b, k.Raw...), ':'), v.Raw...), ',')
		}
		return true
	})
	kb, _ := json.Marshal(key)
	b = append(append(append(b, kb...), ':'), value...)
	return append(b, '}')
}

// SizeHint is what the catalog keeps, for the Conn's byte budget
// (acpdialect.SizeHint): the struct, its models' and efforts' arrays and
// their strings (64-bit). A catalog made from another (a new selection)
// shares its models: each counts them, which bounds the heap from above.
func (c *Catalog) SizeHint() int {
	n := 64 + len(c.Current) + len(c.Effort) + 80*cap(c.Models)
	for _, m := range c.Models {
		n += len(m.ID) + len(m.Name) + len(m.DefaultEffort) + 40*cap(m.Efforts)
		for _, e := range m.Efforts {
			n += len(e.Value) + len(e.Name)
		}
	}
	return n
}
