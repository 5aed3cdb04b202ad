package grok

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// referenceOptions is ConfigOptions as encoding/json wrote it before the
// writer: the bytes must stay the same.
func referenceOptions(c *Catalog) []byte {
	type value struct {
		Value string `json:"value"`
		Name  string `json:"name"`
	}
	type option struct {
		ID           string  `json:"id"`
		Name         string  `json:"name"`
		Category     string  `json:"category"`
		Type         string  `json:"type"`
		CurrentValue string  `json:"currentValue"`
		Options      []value `json:"options"`
	}
	opts := []option{}
	if len(c.Models) > 0 {
		o := option{ID: OptionModel, Name: "Model", Category: CategoryModel, Type: "select", CurrentValue: c.Current}
		for _, m := range c.Models {
			name := m.Name
			if name == "" {
				name = m.ID
			}
			o.Options = append(o.Options, value{m.ID, name})
		}
		opts = append(opts, o)
	}
	if m := c.find(c.Current); m != nil && len(m.Efforts) > 0 {
		o := option{ID: OptionEffort, Name: "Reasoning Effort", Category: CategoryThoughtLevel, Type: "select", CurrentValue: c.Effort}
		for _, e := range m.Efforts {
			o.Options = append(o.Options, value{e.Value, e.Name})
		}
		opts = append(opts, o)
	}
	b, _ := json.Marshal(opts)
	return b
}

// FuzzWriter: the writer writes strings as encoding/json and fmt's %q do,
// the config options and set_model params as encoding/json wrote them,
// each exactly the size it counted.
func FuzzWriter(f *testing.F) {
	f.Add("s1", "grok-4.5", "low", `{"availableModels":[{"modelId":"a","name":"A","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low",{"value":"hi<gh>","label":"H\u2028"}]}}],"currentModelId":"a"}`)
	f.Add("a\"b\\c\n", "\xff", "", `{"availableModels":[{"modelId":"é&"},{"modelId":"\u0001"}]}`)
	f.Fuzz(func(t *testing.T, sid, model, effort, models string) {
		for _, s := range []string{sid, model, effort} {
			want, _ := json.Marshal(s)
			if got := build(func(w *writer) { w.str(s) }); string(got) != string(want) || cap(got) != len(got) {
				t.Fatalf("str(%q) = %s, want %s", s, got, want)
			}
			if got := buildString(func(w *writer) { w.quote(s) }); got != fmt.Sprintf("%q", s) {
				t.Fatalf("quote(%q) = %s", s, got)
			}
		}
		type meta struct {
			ReasoningEffort string `json:"reasoningEffort"`
		}
		p := struct {
			SessionID string `json:"sessionId"`
			ModelID   string `json:"modelId"`
			Meta      *meta  `json:"_meta,omitempty"`
		}{SessionID: sid, ModelID: model}
		if effort != "" {
			p.Meta = &meta{effort}
		}
		want, _ := json.Marshal(p)
		if got := setModelParams(sid, model, effort); string(got) != string(want) || cap(got) != len(got) {
			t.Fatalf("params %s, want %s", got, want)
		}
		c, _ := ParseCatalog(gjson.Parse(models))
		for _, cur := range []string{c.Current, model} {
			c.Current, c.Effort = cur, effort
			got, want := c.ConfigOptions(), referenceOptions(&c)
			if string(got) != string(want) || cap(got) != len(got) {
				t.Fatalf("options %s, want %s", got, want)
			}
			result, opts := setConfigResult(&c)
			if string(result) != `{"configOptions":`+string(want)+`}` || string(opts) != string(want) {
				t.Fatalf("result %s, options %s", result, opts)
			}
		}
	})
}

// The refusals' messages are what fmt wrote.
func TestRefusalMessages(t *testing.T) {
	c, _ := ParseCatalog(gjson.Parse(`{"currentModelId":"a","availableModels":[{"modelId":"a","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","high"]}},{"modelId":"b\"x"}]}`))
	noEffort, _ := ParseCatalog(gjson.Parse(`{"availableModels":[{"modelId":"b"}]}`))
	for _, tt := range []struct {
		params string
		c      *Catalog
		want   string
	}{
		{`{"sessionId":"s","configId":"model","value":"z\n"}`, &c, fmt.Sprintf("unknown model %q; use one of: %s", "z\n", strings.Join([]string{"a", `b"x`}, ", "))},
		{`{"sessionId":"s","configId":"reasoning_effort","value":"x"}`, &c, fmt.Sprintf("unsupported reasoning effort %q for model %q; use one of: %s", "x", "a", "low, high")},
		{`{"sessionId":"s","configId":"reasoning_effort","value":"x"}`, &noEffort, fmt.Sprintf("model %q does not support reasoning effort", "b")},
		{`{"sessionId":"s","configId":"mode","value":"x"}`, &c, fmt.Sprintf("unknown config option %q; use one of: %s, %s", "mode", OptionModel, OptionEffort)},
		{`{"sessionId":"s","configId":7,"value":1}`, &c, fmt.Sprintf("the value of %q must be a string", "7")},
		{`{"configId":"model","value":"a"}`, &c, "session/set_config_option needs a sessionId"},
	} {
		red := SetConfigRequest(gjson.Parse(tt.params), tt.c)
		if red.Error == nil || red.Error.Code != -32602 || red.Error.Message != tt.want {
			t.Errorf("%s: %+v, want %q", tt.params, red.Error, tt.want)
		}
	}
}
