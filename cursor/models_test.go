package cursor_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
	acp "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestClientMeta(t *testing.T) {
	tests := []struct {
		name string
		meta map[string]any
		f    cursor.ClientFeatures
		want map[string]any
	}{
		{"nil, nothing asked", nil, cursor.ClientFeatures{}, map[string]any{}},
		{"nil, picker", nil, cursor.ClientFeatures{ModelPicker: true},
			map[string]any{"parameterizedModelPicker": true}},
		{"nil, subagents", nil, cursor.ClientFeatures{Subagents: true},
			map[string]any{"subagents": true}},
		{"keeps caller keys", map[string]any{"terminal_output": true}, cursor.ClientFeatures{ModelPicker: true, Subagents: true},
			map[string]any{"terminal_output": true, "parameterizedModelPicker": true, "subagents": true}},
		{"asked feature overrides a false", map[string]any{"subagents": false}, cursor.ClientFeatures{Subagents: true},
			map[string]any{"subagents": true}},
		{"unasked feature keeps the caller's value", map[string]any{"subagents": false}, cursor.ClientFeatures{},
			map[string]any{"subagents": false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := cloneMap(tt.meta)
			got := cursor.ClientMeta(tt.meta, tt.f)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ClientMeta (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.meta); diff != "" {
				t.Errorf("input changed (-before +after):\n%s", diff)
			}
		})
	}
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func TestClientMetaIsANewMap(t *testing.T) {
	base := map[string]any{"x": 1}
	got := cursor.ClientMeta(base, cursor.ClientFeatures{})
	got["y"] = 2
	if _, ok := base["y"]; ok {
		t.Error("writing the result changed the caller's map")
	}
}

// The flags must land where Cursor reads them: clientCapabilities._meta of
// the initialize request, as the SDK marshals it.
func TestClientMetaInInitialize(t *testing.T) {
	req := acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientCapabilities: acp.ClientCapabilities{
			Meta: cursor.ClientMeta(nil, cursor.ClientFeatures{ModelPicker: true, Subagents: true}),
		},
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	got := gjson.GetBytes(b, "clientCapabilities._meta").Raw
	if want := `{"parameterizedModelPicker":true,"subagents":true}`; got != want {
		t.Errorf("clientCapabilities._meta = %s, want %s (request %s)", got, want, b)
	}
	if !strings.Contains(string(b), `"clientCapabilities":{"_meta":{"parameterizedModelPicker":true,`) {
		t.Errorf("request %s lacks the picker flag first in clientCapabilities._meta", b)
	}
}

func params(kv ...string) []cursor.Param {
	var ps []cursor.Param
	for i := 0; i+1 < len(kv); i += 2 {
		ps = append(ps, cursor.Param{Key: kv[i], Value: kv[i+1]})
	}
	return ps
}

func TestParseModelID(t *testing.T) {
	tests := []struct {
		in     string
		base   string
		params []cursor.Param
		ok     bool
	}{
		{"claude-opus-4-8[effort=max]", "claude-opus-4-8", params("effort", "max"), true},
		{"grok-4.5[effort=high,fast=true]", "grok-4.5", params("effort", "high", "fast", "true"), true},
		{"x[a=b=c]", "x", params("a", "b=c"), true},   // split at the first "="
		{"a[b][k=v]", "a[b]", params("k", "v"), true}, // the last "[" wins
		{"a[b[k=v]", "a[b", params("k", "v"), true},
		{"modèle-é[niveau=élevé,速度=快]", "modèle-é", params("niveau", "élevé", "速度", "快"), true},
		{"m[ k = v ]", "m", params(" k ", " v "), true}, // spaces are kept, not trimmed

		{"gpt-5", "gpt-5", nil, false},
		{"", "", nil, false},
		{"default[]", "default[]", nil, false},
		{"[effort=max]", "[effort=max]", nil, false}, // "[" at index 0
		{"m[effort=max", "m[effort=max", nil, false}, // no "]"
		{"m[effort=max]x", "m[effort=max]x", nil, false},
		{"m[a=1,,b=2]", "m[a=1,,b=2]", nil, false},
		{"m[a=1,]", "m[a=1,]", nil, false},
		{"m[,a=1]", "m[,a=1]", nil, false},
		{"m[=v]", "m[=v]", nil, false},
		{"m[k=]", "m[k=]", nil, false},
		{"m[k]", "m[k]", nil, false},
		{"m[a=1,a=2]", "m[a=1,a=2]", nil, false},
		{"x[a=[1]]", "x[a=[1]]", nil, false},
		{"x[a=1]]", "x[a=1]]", nil, false},
		{"x[a]=1]", "x[a]=1]", nil, false},
		{"m[", "m[", nil, false},
		{"m]", "m]", nil, false},
		{"[", "[", nil, false},
		{"]", "]", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := cursor.ParseModelID(tt.in)
			want := cursor.ModelID{Base: tt.base, Params: tt.params}
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ParseModelID (-want +got):\n%s", diff)
			}
			if s := got.String(); s != tt.in {
				t.Errorf("String() = %q, want %q", s, tt.in)
			}
		})
	}
}

func TestModelIDString(t *testing.T) {
	tests := []struct {
		id   cursor.ModelID
		want string
	}{
		{cursor.ModelID{}, ""},
		{cursor.ModelID{Base: "gpt-5"}, "gpt-5"},
		{cursor.ModelID{Base: "gpt-5", Params: []cursor.Param{}}, "gpt-5"},
		{cursor.ModelID{Base: "g", Params: params("effort", "high")}, "g[effort=high]"},
		{cursor.ModelID{Base: "g", Params: params("b", "2", "a", "1")}, "g[b=2,a=1]"},
	}
	for _, tt := range tests {
		if got := tt.id.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func TestModelIDGet(t *testing.T) {
	id, _ := cursor.ParseModelID("grok-4.5[effort=high,fast=true]")
	tests := []struct {
		key, want string
		ok        bool
	}{
		{"effort", "high", true},
		{"fast", "true", true},
		{"context", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := id.Get(tt.key)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Get(%q) = %q, %v; want %q, %v", tt.key, got, ok, tt.want, tt.ok)
		}
	}
}

func TestModelIDWith(t *testing.T) {
	tests := []struct {
		in, key, value, want string
	}{
		{"grok-4.5[effort=high,fast=true]", "effort", "low", "grok-4.5[effort=low,fast=true]"},
		{"grok-4.5[effort=high,fast=true]", "fast", "false", "grok-4.5[effort=high,fast=false]"},
		{"grok-4.5[effort=high]", "fast", "true", "grok-4.5[effort=high,fast=true]"},
		{"gpt-5", "effort", "max", "gpt-5[effort=max]"},
	}
	for _, tt := range tests {
		id, _ := cursor.ParseModelID(tt.in)
		if got := id.With(tt.key, tt.value).String(); got != tt.want {
			t.Errorf("ParseModelID(%q).With(%q, %q) = %q, want %q", tt.in, tt.key, tt.value, got, tt.want)
		}
		if got := id.String(); got != tt.in {
			t.Errorf("With changed its receiver: %q, want %q", got, tt.in)
		}
	}
}

// With must copy even when appending fits the receiver's capacity, or two
// values derived from one id would overwrite each other's parameters.
func TestModelIDWithDoesNotAlias(t *testing.T) {
	base := cursor.ModelID{Base: "m", Params: make([]cursor.Param, 1, 4)}
	base.Params[0] = cursor.Param{Key: "a", Value: "1"}
	x := base.With("b", "x")
	y := base.With("b", "y")
	if x.String() != "m[a=1,b=x]" || y.String() != "m[a=1,b=y]" {
		t.Errorf("appends share storage: x = %s, y = %s", x, y)
	}
	z := base.With("a", "2")
	z.Params[0].Value = "3"
	if got := base.String(); got != "m[a=1]" {
		t.Errorf("changing With's result changed the receiver: %s", got)
	}
}

func TestParseModels(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []acpdialect.Model
	}{
		{
			name: "models (current shape)",
			in: `{"models":[{"value":"default[]","name":"Auto"},` +
				`{"value":"claude-opus-4-8","name":"Opus 4.8","configOptions":[{"id":"effort","type":"select","currentValue":"high","options":[{"value":"high","name":"High"}]}]}]}`,
			want: []acpdialect.Model{
				{ID: "default[]", Name: "Auto"},
				{ID: "claude-opus-4-8", Name: "Opus 4.8", ConfigOptions: json.RawMessage(`[{"id":"effort","type":"select","currentValue":"high","options":[{"value":"high","name":"High"}]}]`)},
			},
		},
		{
			name: "configOptions object kept, scalar dropped",
			in:   `{"models":[{"value":"a","configOptions":{"fast":true}},{"value":"b","configOptions":"x"},{"value":"c","configOptions":null}]}`,
			want: []acpdialect.Model{{ID: "a", ConfigOptions: json.RawMessage(`{"fast":true}`)}, {ID: "b"}, {ID: "c"}},
		},
		{
			name: "availableModels with modelId",
			in:   `{"availableModels":[{"modelId":"gpt-5","name":"GPT-5","description":"d"},{"modelId":"sonnet-4.6"}]}`,
			want: []acpdialect.Model{{ID: "gpt-5", Name: "GPT-5"}, {ID: "sonnet-4.6"}},
		},
		{
			name: "availableModels with id and displayName",
			in:   `{"availableModels":[{"id":"gpt-5","displayName":"GPT 5"}]}`,
			want: []acpdialect.Model{{ID: "gpt-5", Name: "GPT 5"}},
		},
		{
			name: "id keys in order value, modelId, id; names name, displayName",
			in:   `{"models":[{"id":"c","modelId":"b","value":"a","displayName":"D","name":"N"},{"id":"c","modelId":"","displayName":"D","name":""}]}`,
			want: []acpdialect.Model{{ID: "a", Name: "N"}, {ID: "c", Name: "D"}},
		},
		{
			name: "first of a repeated key counts",
			in:   `{"models":[{"value":"a","value":"b","name":"x","name":"y"}]}`,
			want: []acpdialect.Model{{ID: "a", Name: "x"}},
		},
		{
			name: "first of a repeated list key counts",
			in:   `{"models":[{"value":"a"}],"models":[{"value":"b"}]}`,
			want: []acpdialect.Model{{ID: "a"}},
		},
		{
			name: "modelIds",
			in:   `{"modelIds":["a","b[effort=max]"]}`,
			want: []acpdialect.Model{{ID: "a"}, {ID: "b[effort=max]"}},
		},
		{
			name: "plain strings in any list",
			in:   `{"models":["a",{"value":"b"}]}`,
			want: []acpdialect.Model{{ID: "a"}, {ID: "b"}},
		},
		{
			name: "elements without an id skipped",
			in:   `{"models":[{"name":"no id"},{"value":""},"",1,null,true,[],{"value":5},{"value":"ok"}]}`,
			want: []acpdialect.Model{{ID: "ok"}},
		},
		{
			name: "escaped strings unescaped",
			in:   `{"modelIds":["a\u00e9\"b"]}`,
			want: []acpdialect.Model{{ID: "aé\"b"}},
		},
		{
			name: "models wins over the others",
			in:   `{"modelIds":["z"],"availableModels":[{"modelId":"y"}],"models":[{"value":"x"}]}`,
			want: []acpdialect.Model{{ID: "x"}},
		},
		{
			name: "empty models falls through",
			in:   `{"models":[],"availableModels":[{"modelId":"y"}],"modelIds":["z"]}`,
			want: []acpdialect.Model{{ID: "y"}},
		},
		{
			name: "models without ids falls through",
			in:   `{"models":[{"name":"x"}],"modelIds":["z"]}`,
			want: []acpdialect.Model{{ID: "z"}},
		},
		{
			name: "wrong-typed models falls through",
			in:   `{"models":{"value":"x"},"modelIds":["z"]}`,
			want: []acpdialect.Model{{ID: "z"}},
		},
		{name: "empty object", in: `{}`, want: []acpdialect.Model{}},
		{name: "all lists empty", in: `{"models":[],"availableModels":[],"modelIds":[]}`, want: []acpdialect.Model{}},
		{name: "null", in: `null`, want: []acpdialect.Model{}},
		{name: "empty input", in: ``, want: []acpdialect.Model{}},
		{name: "array", in: `[{"value":"a"}]`, want: []acpdialect.Model{}},
		{name: "string", in: `"models"`, want: []acpdialect.Model{}},
		{name: "modelIds a string", in: `{"modelIds":"a"}`, want: []acpdialect.Model{}},
		// Lenient like the rest of the library's readers: what can be read
		// of a broken frame is read, and nothing panics.
		{name: "truncated", in: `{"models":[{"value":"a"`, want: []acpdialect.Model{{ID: "a"}}},
		{name: "truncated in a key", in: `{"models":[{"val`, want: []acpdialect.Model{}},
		{
			name: "broken configOptions dropped",
			in:   `{"models":[{"value":"a","configOptions":[1,}]}`,
			want: []acpdialect.Model{{ID: "a"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cursor.ParseModels(gjson.Parse(tt.in))
			if diff := cmp.Diff(tt.want, got.Items); diff != "" {
				t.Errorf("ParseModels(%s) (-want +got):\n%s", tt.in, diff)
			}
			if got.Items == nil {
				t.Error("Items is nil")
			}
		})
	}
}

func TestParseModelsEmptyJSON(t *testing.T) {
	b, err := json.Marshal(cursor.ParseModels(gjson.Parse(`{}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"items":[]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// The result is kept after the frame's buffer is reused: no string or
// ConfigOptions may view it.
func TestParseModelsCopies(t *testing.T) {
	buf := []byte(`{"models":[{"value":"abc","name":"Name","configOptions":[{"id":"e"}]}]}`)
	got := cursor.ParseModels(gjson.ParseBytes(buf))
	for i := range buf {
		buf[i] = 'X'
	}
	want := []acpdialect.Model{{ID: "abc", Name: "Name", ConfigOptions: json.RawMessage(`[{"id":"e"}]`)}}
	if diff := cmp.Diff(want, got.Items); diff != "" {
		t.Errorf("after reusing the buffer (-want +got):\n%s", diff)
	}
}
