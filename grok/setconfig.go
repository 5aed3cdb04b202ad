package grok

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// CodeIncompatibleSwitch is Grok's error data code for a switch to a
// model of another harness: it needs a new session.
const CodeIncompatibleSwitch = "MODEL_SWITCH_INCOMPATIBLE_AGENT"

// change is a set_config_option sent as session/set_model: the Note the
// Conn keeps until the agent's reply.
type change struct {
	model  string // the model the agent was asked for
	effort string // the effort sent, "" for none
}

// SizeHint is what the note keeps, for the Conn's byte budget
// (acpdialect.SizeHint): the struct, boxed, and its strings.
func (ch change) SizeHint() int { return 32 + len(ch.model) + len(ch.effort) }

// invalid is a refusal of a set_config_option: JSON-RPC's invalid params.
func invalid(format string, args ...any) acpdialect.Redirect {
	return acpdialect.Redirect{Error: &acpdialect.RPCError{Code: -32602, Message: fmt.Sprintf(format, args...)}}
}

// SetConfigRequest turns a client's session/set_config_option into Grok's
// session/set_model: setting model sends {sessionId, modelId} (with the
// previous effort in _meta.reasoningEffort when the new model offers it);
// setting reasoning_effort sends the current modelId with
// _meta.reasoningEffort. A value the catalog does not offer is refused
// with the allowed values, and so is any other option. A session whose
// agent sent its own config options, or with no catalog, passes as it is.
func SetConfigRequest(params gjson.Result, state any) acpdialect.Redirect {
	c, _ := state.(*Catalog)
	if c == nil || c.AgentOptions {
		return acpdialect.Redirect{Pass: true}
	}
	sid, id, value := params.Get("sessionId"), params.Get("configId"), params.Get("value")
	if sid.Type != gjson.String {
		return invalid("session/set_config_option needs a sessionId")
	}
	if value.Type != gjson.String {
		return invalid("the value of %q must be a string", id.String())
	}
	switch id.String() {
	case OptionModel:
		return setModel(c, sid.Str, value.Str)
	case OptionEffort:
		return setEffort(c, sid.Str, value.Str)
	}
	return invalid("unknown config option %q; use one of: %s, %s", id.String(), OptionModel, OptionEffort)
}

func setModel(c *Catalog, sid, value string) acpdialect.Redirect {
	m := c.find(value)
	if m == nil {
		ids := make([]string, len(c.Models))
		for i, x := range c.Models {
			ids[i] = x.ID
		}
		return invalid("unknown model %q; use one of: %s", value, strings.Join(ids, ", "))
	}
	ch := change{model: m.ID, effort: m.match(c.Effort)}
	return acpdialect.Redirect{Method: MethodSetModel, Params: setModelParams(sid, ch), Note: ch}
}

func setEffort(c *Catalog, sid, value string) acpdialect.Redirect {
	m := c.find(c.Current)
	switch {
	case m == nil:
		return invalid("no current model to set the reasoning effort of")
	case len(m.Efforts) == 0:
		return invalid("model %q does not support reasoning effort", m.ID)
	}
	v := m.match(value)
	if v == "" {
		vals := make([]string, len(m.Efforts))
		for i, e := range m.Efforts {
			vals[i] = e.Value
		}
		return invalid("unsupported reasoning effort %q for model %q; use one of: %s", value, m.ID, strings.Join(vals, ", "))
	}
	ch := change{model: m.ID, effort: v}
	return acpdialect.Redirect{Method: MethodSetModel, Params: setModelParams(sid, ch), Note: ch}
}

type (
	setModelJSON struct {
		SessionID string    `json:"sessionId"`
		ModelID   string    `json:"modelId"`
		Meta      *metaJSON `json:"_meta,omitempty"`
	}
	metaJSON struct {
		ReasoningEffort string `json:"reasoningEffort"`
	}
)

func setModelParams(sid string, ch change) json.RawMessage {
	p := setModelJSON{SessionID: sid, ModelID: ch.model}
	if ch.effort != "" {
		p.Meta = &metaJSON{ReasoningEffort: ch.effort}
	}
	b, _ := json.Marshal(p) // strings only: it cannot fail
	return b
}

// SetConfigResponse turns Grok's reply to the session/set_model that
// SetConfigRequest sent into the session/set_config_option response the
// client asked for: on success {"configOptions":[...]} with the new
// selection (the effort rebuilt for a new model, kept when it allows it)
// and a config event; an incompatible switch becomes an error that says
// to start a new session, with a provider_error event; any other error
// goes back as the agent sent it.
func SetConfigResponse(resp acpdialect.AgentResponse, state, note any) acpdialect.Step {
	ch, _ := note.(change)
	c, _ := state.(*Catalog)
	if resp.Error.Exists() || !resp.Result.Exists() {
		if e, ok := ClassifyError(resp.Error); ok {
			return acpdialect.Step{Error: &e, Events: []acpdialect.Event{incompatibleEvent(e.Message)}}
		}
		return acpdialect.Step{}
	}
	if c == nil {
		return acpdialect.Step{Result: json.RawMessage(`{"configOptions":[]}`)}
	}
	model := ch.model
	if id := ParseSetModelResult(resp.Result); id != "" && c.find(id) != nil {
		model = c.find(id).ID // the agent says which model it runs
	}
	selected := c.Effort
	if ch.effort != "" {
		selected = ch.effort
	}
	next := c.with(model, c.resolveEffort(model, selected))
	return acpdialect.Step{
		State:  next,
		Events: []acpdialect.Event{configEvent(next)},
		Result: setConfigResult(next),
	}
}

func setConfigResult(c *Catalog) json.RawMessage {
	opts := c.ConfigOptions()
	b := make([]byte, 0, len(opts)+20)
	b = append(b, `{"configOptions":`...)
	b = append(b, opts...)
	return append(b, '}')
}

// ParseSetModelResult reads the model a session/set_model reply confirms:
// _meta.model as a string, or as {"Ok": id}; "" when it names none ({}).
func ParseSetModelResult(result gjson.Result) string {
	m := result.Get("_meta.model")
	if m.IsObject() {
		m = m.Get("Ok")
	}
	if m.Type != gjson.String {
		return ""
	}
	return strings.Clone(m.Str)
}

// ClassifyError reads a session/set_model error: ok when it is the
// incompatible switch (data.code, or the code or "requires agent" and
// "Start a new session" in its message). The error the client gets keeps
// the agent's code, says to start a new session, and has
// data {"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","action":"new_session"}.
func ClassifyError(e gjson.Result) (acpdialect.RPCError, bool) {
	if !e.IsObject() {
		return acpdialect.RPCError{}, false
	}
	msg := frame.Str(e.Get("message"))
	code := e.Get("data.code")
	if !(code.Type == gjson.String && code.Str == CodeIncompatibleSwitch) &&
		!strings.Contains(msg, CodeIncompatibleSwitch) &&
		!(strings.Contains(msg, "requires agent") && strings.Contains(msg, "Start a new session")) {
		return acpdialect.RPCError{}, false
	}
	if !strings.Contains(msg, "Start a new session") {
		msg = strings.TrimSuffix(msg, ".") + ". Start a new session to use this model."
	}
	c := int(e.Get("code").Int())
	if c == 0 {
		c = -32600
	}
	return acpdialect.RPCError{Code: c, Message: msg,
		Data: `{"code":"` + CodeIncompatibleSwitch + `","action":"new_session"}`}, true
}

func incompatibleEvent(msg string) acpdialect.Event {
	return acpdialect.Event{Type: acpdialect.EventProviderError, Object: &acpdialect.ProviderError{
		Severity: acpdialect.SeverityError,
		Code:     "model_switch_incompatible",
		Title:    "This model needs a new session",
		Message:  msg,
		Action:   "new_session",
	}}
}
