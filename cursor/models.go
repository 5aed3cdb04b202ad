package cursor

import (
	"encoding/json"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Client capability opt-ins Cursor reads from the initialize request's
// clientCapabilities._meta. Without MetaModelPicker Cursor explodes every
// model's effort/fast settings into separate variant ids; with it, models
// are bare ids and those settings become config options. MetaSubagents turns
// on native child sessions (subagent_spawned / subagent_state_update).
// Sources: docs/cursor.md section 7.1.
const (
	MetaModelPicker = "parameterizedModelPicker"
	MetaSubagents   = "subagents"
)

// ClientFeatures are the Cursor features a client opts in to.
type ClientFeatures struct {
	ModelPicker bool
	Subagents   bool
}

// ClientMeta returns the _meta a client puts in acp.ClientCapabilities.Meta:
// a new map holding meta's keys plus a true flag for each feature asked for.
// meta is never changed, because a caller may share one base map between
// connections to several agents, and only Cursor should see these flags.
func ClientMeta(meta map[string]any, f ClientFeatures) map[string]any {
	out := make(map[string]any, len(meta)+2)
	for k, v := range meta {
		out[k] = v
	}
	if f.ModelPicker {
		out[MetaModelPicker] = true
	}
	if f.Subagents {
		out[MetaSubagents] = true
	}
	return out
}

// Param is one key=value setting of a parameterized model id.
type Param struct {
	Key, Value string
}

// ModelID is a Cursor model id split into its base and its parameters:
// "grok-4.5[effort=high,fast=true]" is base "grok-4.5" with effort=high and
// fast=true. Ids without parameters ("default[]", Cursor's Auto, or a bare
// "gpt-5") are a Base alone.
type ModelID struct {
	Base   string
	Params []Param
}

// ParseModelID splits a parameterized model id. It follows kandev's
// ParseVariantModelID (docs/cursor.md section 7.2): the parameters are the text
// between the last "[" (which must not start the id) and a closing "]" that
// ends it, one or more comma-separated key=value pairs with non-empty keys
// and values and no key twice. Anything else is not parameterized: ok is
// false and the result is ModelID{Base: s}, so a caller can pass unknown ids
// through unchanged. Every id it accepts formats back to s exactly.
func ParseModelID(s string) (ModelID, bool) {
	open := strings.LastIndexByte(s, '[')
	if open <= 0 || !strings.HasSuffix(s, "]") || open == len(s)-1 {
		return ModelID{Base: s}, false
	}
	params, ok := parseParams(s[open+1 : len(s)-1])
	if !ok {
		return ModelID{Base: s}, false
	}
	return ModelID{Base: s[:open], Params: params}, true
}

// parseParams reads "k=v,k2=v2". Each pair splits at its first "=", so a
// value may hold "=" (it formats back the same); brackets and commas are
// refused anywhere, so a nested or ambiguous id stays unparsed.
func parseParams(list string) ([]Param, bool) {
	if list == "" {
		return nil, false
	}
	params := make([]Param, 0, strings.Count(list, ",")+1)
	for pair := range strings.SplitSeq(list, ",") {
		k, v, found := strings.Cut(pair, "=")
		if !found || !validPart(k) || !validPart(v) || hasKey(params, k) {
			return nil, false
		}
		params = append(params, Param{Key: k, Value: v})
	}
	return params, true
}

func validPart(s string) bool {
	return s != "" && !strings.ContainsAny(s, "[],")
}

func hasKey(params []Param, key string) bool {
	for _, p := range params {
		if p.Key == key {
			return true
		}
	}
	return false
}

// String formats the id as Cursor spells it: the base alone when there are
// no parameters, else base[k=v,...] in Params order. It does not escape: a
// key or value holding "[", "]" or "," (possible only through With) makes an
// id that ParseModelID will not split again.
func (m ModelID) String() string {
	if len(m.Params) == 0 {
		return m.Base
	}
	var b strings.Builder
	b.WriteString(m.Base)
	for i, p := range m.Params {
		if i == 0 {
			b.WriteByte('[')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(p.Key)
		b.WriteByte('=')
		b.WriteString(p.Value)
	}
	b.WriteByte(']')
	return b.String()
}

// Get returns the value of the parameter key.
func (m ModelID) Get(key string) (string, bool) {
	for _, p := range m.Params {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// With returns a copy of m with key set to value: replaced in place if the
// key is there (keeping the order Cursor sent), else appended. The copy
// never shares m.Params, so a ModelID can be used as a value safely.
func (m ModelID) With(key, value string) ModelID {
	params := make([]Param, len(m.Params), len(m.Params)+1)
	copy(params, m.Params)
	for i := range params {
		if params[i].Key == key {
			params[i].Value = value
			return ModelID{Base: m.Base, Params: params}
		}
	}
	return ModelID{Base: m.Base, Params: append(params, Param{Key: key, Value: value})}
}

// MethodListAvailableModels is the client->agent request for Cursor's model
// catalog. Its params are {}.
const MethodListAvailableModels = "cursor/list_available_models"

// modelLists are the result keys the catalog has used across Cursor
// releases (docs/cursor.md section 7.3), in the order they are preferred:
//   - "models": [{value, name, configOptions}], the current shape, as t3code
//     decodes it (pingdotgg/t3code CursorListAvailableModelsResponse, and
//     PR #2428 "Probe Cursor models via list_available_models");
//   - "availableModels": [{modelId, name}], ACP's own ModelInfo shape
//     (SessionModelState in acp-go-sdk), also read with id/displayName;
//   - "modelIds": ["a", "b"], bare ids.
var modelLists = [...]string{"models", "availableModels", "modelIds"}

// ParseModels normalizes a cursor/list_available_models result, whichever
// of its known shapes it has. The first list (in modelLists order) that
// yields a model wins, so an empty or useless current-shape list does not
// hide an older one sent next to it. Elements without an id are skipped;
// malformed input gives no models, never an error, because a model picker
// must degrade to "no catalog", not break the session. Items is never nil,
// so the JSON shows "items":[].
func ParseModels(result gjson.Result) acpdialect.Models {
	var lists [len(modelLists)]gjson.Result
	frame.Members(result, func(k string, v gjson.Result) bool {
		for i, name := range modelLists {
			if k == name && !lists[i].Exists() {
				lists[i] = v
			}
		}
		return true
	})
	for _, list := range lists {
		if items := parseModelList(list); len(items) > 0 {
			return acpdialect.Models{Items: items}
		}
	}
	return acpdialect.Models{Items: []acpdialect.Model{}}
}

// parseModelList reads one array of models; nil if it is not an array.
func parseModelList(list gjson.Result) []acpdialect.Model {
	if !list.IsArray() {
		return nil
	}
	var items []acpdialect.Model
	list.ForEach(func(_, v gjson.Result) bool {
		if m, ok := parseModel(v); ok {
			items = append(items, m)
		}
		return true
	})
	return items
}

// parseModel reads one element: a plain string is an id; an object names
// its id by value, modelId or id and its name by name or displayName (the
// first non-empty, in that order; of a key sent twice the first counts).
// The strings are copied: the result may outlive the frame.
func parseModel(v gjson.Result) (acpdialect.Model, bool) {
	if v.Type == gjson.String {
		id := frame.Str(v)
		return acpdialect.Model{ID: id}, id != ""
	}
	f := readModelFields(v)
	m := acpdialect.Model{ID: firstNonEmpty(f.value, f.modelID, f.id), Name: firstNonEmpty(f.name, f.displayName)}
	if m.ID == "" {
		return acpdialect.Model{}, false
	}
	frame.Own(&m.ID, &m.Name)
	m.ConfigOptions = f.configOptions
	return m, true
}

// modelFields are the members of a model object ParseModels reads; the
// strings view the frame until parseModel copies the ones it keeps.
type modelFields struct {
	value, modelID, id, name, displayName string
	configOptions                         json.RawMessage
}

func readModelFields(obj gjson.Result) modelFields {
	var f modelFields
	var seen uint8
	frame.Members(obj, func(k string, v gjson.Result) bool {
		dst, bit := f.field(k)
		if bit == 0 || seen&bit != 0 {
			return true
		}
		seen |= bit
		if dst != nil {
			*dst = frame.View(v)
		} else {
			f.configOptions = rawOptions(v)
		}
		return true
	})
	return f
}

// field maps a key to its string field (nil for configOptions) and
// a bit for first-wins reading; bit 0 means the key is not read.
func (f *modelFields) field(k string) (*string, uint8) {
	switch k {
	case "configOptions":
		return nil, 32
	case "value":
		return &f.value, 1
	case "modelId":
		return &f.modelID, 2
	case "id":
		return &f.id, 4
	case "name":
		return &f.name, 8
	case "displayName":
		return &f.displayName, 16
	}
	return nil, 0
}

// rawOptions copies a model's configOptions when it is an array or object
// of valid JSON; anything else is dropped, because a RawMessage that is not
// JSON would make the whole event fail to marshal.
func rawOptions(v gjson.Result) json.RawMessage {
	if !v.IsArray() && !v.IsObject() {
		return nil
	}
	raw := []byte(v.Raw) // a copy: the frame is only borrowed
	if !json.Valid(raw) {
		return nil
	}
	return raw
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// modelsEvent is the models event of a cursor/list_available_models result.
func modelsEvent(result gjson.Result) *acpdialect.Event {
	m := ParseModels(result)
	return &acpdialect.Event{Type: acpdialect.EventModels, Object: &m}
}
