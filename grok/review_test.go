package grok_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/tidwall/gjson"
)

// feed runs frames through c, ">" from the client and "<" from the agent,
// and returns the last frame's result.
func feed(t *testing.T, c *acpdialect.Conn, frames ...string) acpdialect.Result {
	t.Helper()
	var res acpdialect.Result
	for _, f := range frames {
		var err error
		if f[0] == '>' {
			res, err = c.Outbound([]byte(f[1:]))
		} else {
			res, err = c.Inbound([]byte(f[1:]))
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	return res
}

// selectOf returns a config option's current value and its values.
func selectOf(options gjson.Result, id string) (current string, values []string) {
	o := options.Get(`#(id=="` + id + `")`)
	o.Get("options").ForEach(func(_, v gjson.Result) bool {
		values = append(values, v.Get("value").Str)
		return true
	})
	return o.Get("currentValue").Str, values
}

// A set_config_option whose reply comes after a session/load brought
// another catalog, one without the model asked for, leaves the selection
// on a model of the catalog: the client's select never shows a current
// value that is not among its options, and the context window keeps its
// size.
func TestSetConfigReplyAfterLoad(t *testing.T) {
	c := acpdialect.NewRegistry(grok.Dialect()).NewConn(acpdialect.Options{Agent: grok.ID})
	feed(t, c,
		`>{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`,
		`<{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","models":{"currentModelId":"a","availableModels":[{"modelId":"a"},{"modelId":"b"}]}}}`,
		`>{"jsonrpc":"2.0","id":2,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"model","value":"b"}}`,
		`>{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}`,
		`<{"jsonrpc":"2.0","id":3,"result":{"models":{"currentModelId":"x","availableModels":[{"modelId":"x","_meta":{"totalContextTokens":100}},{"modelId":"y"}]}}}`)
	res := feed(t, c, `<{"jsonrpc":"2.0","id":2,"result":{}}`)
	if res.Wire == nil || gjson.GetBytes(res.Wire.Frame, "id").Raw != "2" {
		t.Fatalf("no response under the client's id: %+v", res.Wire)
	}
	cur, values := selectOf(gjson.GetBytes(res.Wire.Frame, "result.configOptions"), grok.OptionModel)
	if fmt.Sprint(values) != "[x y]" || cur != "x" {
		t.Errorf("model select: current %q of %v, want x of [x y]", cur, values)
	}
	for _, ev := range res.Events {
		if o := ev.Config(); o != nil {
			if cur, values := selectOf(gjson.ParseBytes(o.Options), grok.OptionModel); !strings.Contains(fmt.Sprint(values), cur) || cur == "" {
				t.Errorf("config event: current %q of %v", cur, values)
			}
		}
	}
	res = feed(t, c, `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}},"_meta":{"totalTokens":10}}}`)
	if len(res.Events) == 0 || res.Events[len(res.Events)-1].ContextWindow() == nil ||
		*res.Events[len(res.Events)-1].ContextWindow() != (acpdialect.ContextWindow{Used: 10, Size: 100, Remaining: 90}) {
		t.Errorf("context window after the reply: %+v", res.Events)
	}
}

// ParseCatalog keeps the current model of a catalog longer than
// MaxModels, in the last place, and reads each effort value once.
func TestParseCatalogBoundsAndRepeats(t *testing.T) {
	many := func(n int, current string) string {
		var b strings.Builder
		b.WriteString(`{"currentModelId":"` + current + `","availableModels":[`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"modelId":"m%d","_meta":{"totalContextTokens":%d}}`, i, 1000+i)
		}
		return b.String() + `]}`
	}
	last := fmt.Sprintf("m%d", grok.MaxModels-1)
	var efforts, kept []string
	for i := range grok.MaxEfforts + 1 {
		efforts = append(efforts, fmt.Sprintf(`"e%d"`, i))
		if i < grok.MaxEfforts {
			kept = append(kept, fmt.Sprintf("e%d", i))
		}
	}
	tests := []struct {
		name, in      string
		current, tail string // the current model and the last model kept
		efforts       string // the current model's effort values
	}{
		{"current past the bound", many(10000, "m9999"), "m9999", "m9999", "[]"},
		{"current within the bound", many(10000, "m3"), "m3", last, "[]"},
		{"current repeated past the bound", many(grok.MaxModels, "m0")[:len(many(grok.MaxModels, "m0"))-2] + `,{"modelId":"m0","name":"again"}]}`, "m0", last, "[]"},
		{"repeated efforts", `{"currentModelId":"a","availableModels":[{"modelId":"a","_meta":{"supportsReasoningEffort":true,
			"reasoningEfforts":["low","low",{"value":"low","label":"Lo"},{"id":"high"},"high","High"]}}]}`, "a", "a", "[low high High]"},
		{"efforts past the bound", `{"currentModelId":"a","availableModels":[{"modelId":"a","_meta":{"supportsReasoningEffort":true,
			"reasoningEfforts":[` + strings.Join(efforts, ",") + `]}}]}`, "a", "a", fmt.Sprint(kept)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := grok.ParseCatalog(gjson.Parse(tt.in))
			if !ok || c.Current != tt.current || len(c.Models) > grok.MaxModels || c.Models[len(c.Models)-1].ID != tt.tail {
				t.Fatalf("ok %v, current %q, %d models, last %q", ok, c.Current, len(c.Models), c.Models[len(c.Models)-1].ID)
			}
			cur, values := selectOf(gjson.ParseBytes(c.ConfigOptions()), grok.OptionModel)
			if cur != tt.current || len(values) != len(c.Models) {
				t.Errorf("model select: current %q of %d", cur, len(values))
			}
			_, efforts := selectOf(gjson.ParseBytes(c.ConfigOptions()), grok.OptionEffort)
			if got := fmt.Sprint(append([]string{}, efforts...)); got != tt.efforts {
				t.Errorf("efforts %s, want %s", got, tt.efforts)
			}
		})
	}
}

// A prompt result whose _meta.usage has no count falls back to the flat
// counters beside it, as when there is no usage object.
func TestParseUsageFallsBack(t *testing.T) {
	for _, in := range []string{
		`{"_meta":{"modelId":"m","usage":{},"inputTokens":5,"outputTokens":2}}`,
		`{"_meta":{"modelId":"m","usage":{"inputTokens":"5","outputTokens":-1},"inputTokens":5,"outputTokens":2}}`,
	} {
		u, ok := grok.ParseUsage(gjson.Parse(in))
		if !ok || !u.Estimated || u.Model != "m" || u.InputTokens == nil || *u.InputTokens != 5 || u.OutputTokens == nil || *u.OutputTokens != 2 {
			t.Errorf("%s: %+v, %v", in, u, ok)
		}
	}
}
