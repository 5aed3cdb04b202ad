package grok

import (
	"encoding/json"
	"strings"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// CodeIncompatibleSwitch is Grok's error data code for a switch to a
// model of another harness: it needs a new session.
const CodeIncompatibleSwitch = "MODEL_SWITCH_INCOMPATIBLE_AGENT"

// change is a set_config_option sent as session/set_model: the Note the
// Conn keeps until the agent's reply. It carries the catalog the reply
// should make (next), so that the usual reply, which confirms the change,
// takes it as the session's new state and makes none of its own.
type change struct {
	model  string // the model the agent was asked for
	effort string // the effort sent, "" for none
	next   Catalog
}

// SizeHint is what the note keeps, for the Conn's byte budget
// (acpdialect.SizeHint): the struct and its strings; next's models are
// the session's catalog's, counted with it.
func (ch *change) SizeHint() int { return 112 + len(ch.model) + len(ch.effort) }

// refuse is a refusal of a set_config_option: JSON-RPC's invalid params.
func refuse(msg string) acpdialect.Redirect {
	return acpdialect.Redirect{Error: &acpdialect.RPCError{Code: -32602, Message: msg}}
}

// SetConfigRequest turns a client's session/set_config_option into Grok's
// session/set_model: setting model sends {sessionId, modelId} (with the
// previous effort in _meta.reasoningEffort when the new model offers it);
// setting reasoning_effort sends the current modelId with
// _meta.reasoningEffort. A value the catalog does not offer is refused
// with the allowed values, and so is any other option. A session whose
// agent sent its own config options, or with no catalog, passes as it is.
//
// It runs once per request: it allocates the params and the note, and a
// refusal its error and message, nothing else.
func SetConfigRequest(params gjson.Result, state any) acpdialect.Redirect {
	c, _ := state.(*Catalog)
	if c == nil || c.AgentOptions {
		return acpdialect.Redirect{Pass: true}
	}
	sid, id, value := params.Get("sessionId"), params.Get("configId"), params.Get("value")
	if sid.Type != gjson.String {
		return refuse("session/set_config_option needs a sessionId")
	}
	if value.Type != gjson.String {
		return refuse(buildString(func(w *writer) {
			w.raw("the value of ")
			w.quote(id.String())
			w.raw(" must be a string")
		}))
	}
	switch id.String() {
	case OptionModel:
		return setModel(c, sid.Str, value.Str)
	case OptionEffort:
		return setEffort(c, sid.Str, value.Str)
	}
	return refuse(buildString(func(w *writer) {
		w.raw("unknown config option ")
		w.quote(id.String())
		w.raw("; use one of: " + OptionModel + ", " + OptionEffort)
	}))
}

func setModel(c *Catalog, sid, value string) acpdialect.Redirect {
	m := c.find(value)
	if m == nil {
		return refuse(buildString(func(w *writer) {
			w.raw("unknown model ")
			w.quote(value)
			w.raw("; use one of: ")
			for i, x := range c.Models {
				if i > 0 {
					w.raw(", ")
				}
				w.raw(x.ID)
			}
		}))
	}
	return redirect(c, sid, m.ID, m.match(c.Effort))
}

func setEffort(c *Catalog, sid, value string) acpdialect.Redirect {
	m := c.find(c.Current)
	switch {
	case m == nil:
		return refuse("no current model to set the reasoning effort of")
	case len(m.Efforts) == 0:
		return refuse(buildString(func(w *writer) {
			w.raw("model ")
			w.quote(m.ID)
			w.raw(" does not support reasoning effort")
		}))
	}
	v := m.match(value)
	if v == "" {
		return refuse(buildString(func(w *writer) {
			w.raw("unsupported reasoning effort ")
			w.quote(value)
			w.raw(" for model ")
			w.quote(m.ID)
			w.raw("; use one of: ")
			for i, e := range m.Efforts {
				if i > 0 {
					w.raw(", ")
				}
				w.raw(e.Value)
			}
		}))
	}
	return redirect(c, sid, m.ID, v)
}

// redirect is the session/set_model request for a change of c to model
// and effort, and its note with the catalog the agent's confirmation
// makes (as SetConfigResponse does).
func redirect(c *Catalog, sid, model, effort string) acpdialect.Redirect {
	ch := &change{model: model, effort: effort, next: *c}
	selected := c.Effort
	if effort != "" {
		selected = effort
	}
	ch.next.Current, ch.next.Effort = model, c.resolveEffort(model, selected)
	return acpdialect.Redirect{Method: MethodSetModel, Params: setModelParams(sid, model, effort), Note: ch}
}

// setModelParams is {"sessionId","modelId"[,"_meta":{"reasoningEffort"}]},
// as encoding/json writes it.
func setModelParams(sid, model, effort string) json.RawMessage {
	return build(func(w *writer) {
		w.raw(`{"sessionId":`)
		w.str(sid)
		w.raw(`,"modelId":`)
		w.str(model)
		if effort != "" {
			w.raw(`,"_meta":{"reasoningEffort":`)
			w.str(effort)
			w.raw(`}`)
		}
		w.raw(`}`)
	})
}

// SetConfigResponse turns Grok's reply to the session/set_model that
// SetConfigRequest sent into the session/set_config_option response the
// client asked for: on success {"configOptions":[...]} with the new
// selection (the effort rebuilt for a new model, kept when it allows it)
// and a config event; an incompatible switch becomes an error that says
// to start a new session, with a provider_error event; any other error
// goes back as the agent sent it.
//
// On success it allocates the result, whose options the config event
// shares, and the event; the new state is the note's, made with the
// request, unless the session's catalog changed since or the agent
// confirmed another model.
func SetConfigResponse(resp acpdialect.AgentResponse, state, note any) acpdialect.Step {
	ch, _ := note.(*change)
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
	if ch == nil {
		ch = &change{}
	}
	model := ch.model
	if m := c.find(setModelResult(resp.Result)); m != nil {
		model = m.ID // the agent says which model it runs
	}
	if c.find(model) == nil {
		// The catalog changed while the request waited (a session/load
		// brought another) and lacks the model: a select's current value
		// must be one of its options, so the selection stays as it is.
		result, _ := setConfigResult(c)
		return acpdialect.Step{Result: result}
	}
	selected := c.Effort
	if ch.effort != "" {
		selected = ch.effort
	}
	next := &ch.next
	if effort := c.resolveEffort(model, selected); !next.is(c, model, effort) {
		next = c.with(model, effort)
	}
	result, opts := setConfigResult(next)
	return acpdialect.Step{
		State:  next,
		Events: configEvents(opts),
		Result: result,
	}
}

// is reports whether n is c with the selection model and effort.
func (n *Catalog) is(c *Catalog, model, effort string) bool {
	return n.Current == model && n.Effort == effort && n.AgentOptions == c.AgentOptions &&
		len(n.Models) == len(c.Models) && (len(c.Models) == 0 || &n.Models[0] == &c.Models[0])
}

// setConfigResult is the set_config_option result {"configOptions":[...]}
// of a catalog, and the options in it.
func setConfigResult(c *Catalog) (result, options json.RawMessage) {
	const head = `{"configOptions":`
	result = build(func(w *writer) {
		w.raw(head)
		c.writeOptions(w)
		w.raw(`}`)
	})
	end := len(result) - 1
	return result, result[len(head):end:end]
}

// ParseSetModelResult reads the model a session/set_model reply confirms:
// _meta.model as a string, or as {"Ok": id}; "" when it names none ({}).
func ParseSetModelResult(result gjson.Result) string {
	return strings.Clone(setModelResult(result))
}

// setModelResult is ParseSetModelResult's model, viewing the frame.
func setModelResult(result gjson.Result) string {
	m := result.Get("_meta.model")
	if m.IsObject() {
		m = m.Get("Ok")
	}
	if m.Type != gjson.String {
		return ""
	}
	return m.Str
}

// ClassifyError reads a session/set_model error: ok when it is the
// incompatible switch (data.code, or the code or "requires agent" and
// "Start a new session" in its message). The error the client gets keeps
// the agent's code (-32600 for none, 0, or one that is not a whole
// number within 32 bits), says to start a new session, and has
// data {"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","action":"new_session"},
// followed by the other members of the agent's data.
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
	switch {
	case strings.TrimSpace(msg) == "":
		msg = "This model needs another agent. Start a new session to use this model."
	case !strings.Contains(msg, "Start a new session"):
		msg = strings.TrimSuffix(msg, ".") + ". Start a new session to use this model."
	}
	// A code that is not a whole number an int holds is not JSON-RPC's:
	// the client gets -32600, Invalid Request, as for none.
	c := -32600
	if n, ok := frame.Int64(e.Get("code")); ok && n != 0 && n == int64(int32(n)) {
		c = int(n)
	}
	return acpdialect.RPCError{Code: c, Message: msg, Data: acpdialect.RawJSON(incompatibleData(e.Get("data")))}, true
}

// incompatibleData is {"code":CodeIncompatibleSwitch,"action":"new_session"}
// followed by the other members of the agent's own error data, so that
// what the agent said (details, a model) still reaches the client.
func incompatibleData(agent gjson.Result) string {
	var b strings.Builder
	b.WriteString(`{"code":"` + CodeIncompatibleSwitch + `","action":"new_session"`)
	frame.Members(agent, func(k string, v gjson.Result) bool {
		if k != "code" && k != "action" {
			key, _ := json.Marshal(k)
			b.WriteByte(',')
			b.Write(key)
			b.WriteByte(':')
			b.WriteString(v.Raw)
		}
		return true
	})
	b.WriteByte('}')
	return b.String()
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
