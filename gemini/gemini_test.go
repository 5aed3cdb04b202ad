package gemini_test

import (
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect/gemini"
	"github.com/tidwall/gjson"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"gemini-cli", "Gemini CLI", true},
		{"gemini-cli", "", true},
		{"", "gemini cli", true},
		{" @google/gemini-cli ", "", true},
		{"gemini", "", true},
		// near misses
		{"gemini-cli-proxy", "", false},
		{"gemini-api", "Gemini API", false},
		{"@google/gemini-cli-core", "", false},
		{"my-gemini", "", false},
		{"", "Gemini CLI (fork)", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := gemini.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

func TestTurnUsage(t *testing.T) {
	tests := []struct {
		name, result string
		want         string // the usage object's JSON, "" for no event
	}{
		{"one model",
			`{"stopReason":"end_turn","_meta":{"quota":{"token_count":{"input_tokens":120,"output_tokens":8},"model_usage":[{"model":"gemini-2.5-pro","token_count":{"input_tokens":120,"output_tokens":8}}]}}}`,
			`{"model":"gemini-2.5-pro","turn":true,"input_tokens":120,"output_tokens":8}`},
		{"two models: none named",
			`{"_meta":{"quota":{"token_count":{"input_tokens":3,"output_tokens":4},"model_usage":[{"model":"a"},{"model":"b"}]}}}`,
			`{"turn":true,"input_tokens":3,"output_tokens":4}`},
		// Gemini CLI 0.61.0 files the calls after a tool result under the
		// routing alias it was configured with (live-0.61.0-stub.jsonl).
		{"a routing alias beside one model: that model",
			`{"_meta":{"quota":{"token_count":{"input_tokens":2007,"output_tokens":47},"model_usage":[{"model":"gemini-3.8-flash","token_count":{"input_tokens":1003}},{"model":"auto","token_count":{"input_tokens":1004}}]}}}`,
			`{"model":"gemini-3.8-flash","turn":true,"input_tokens":2007,"output_tokens":47}`},
		{"aliases first, then the model",
			`{"_meta":{"quota":{"model_usage":[{"model":"auto-gemini-3"},{"model":"auto"},{"model":"gemini-3-pro"}]}}}`,
			`{"model":"gemini-3-pro","turn":true}`},
		{"an alias alone names no model",
			`{"_meta":{"quota":{"token_count":{"input_tokens":1,"output_tokens":1},"model_usage":[{"model":"auto"}]}}}`,
			`{"turn":true,"input_tokens":1,"output_tokens":1}`},
		{"an alias beside two models names none",
			`{"_meta":{"quota":{"token_count":{"input_tokens":1,"output_tokens":1},"model_usage":[{"model":"a"},{"model":"auto"},{"model":"b"}]}}}`,
			`{"turn":true,"input_tokens":1,"output_tokens":1}`},
		{"a name that only starts like an alias is a model",
			`{"_meta":{"quota":{"model_usage":[{"model":"automaton-1"},{"model":"auto"}]}}}`,
			`{"model":"automaton-1","turn":true}`},
		{"zeros are known counts",
			`{"_meta":{"quota":{"token_count":{"input_tokens":0,"output_tokens":0},"model_usage":[]}}}`,
			`{"turn":true,"input_tokens":0,"output_tokens":0}`},
		{"camelCase is not Gemini's quota: nothing read, no event",
			`{"_meta":{"quota":{"token_count":{"inputTokens":5,"outputTokens":6}}}}`,
			""},
		{"an empty quota: no event", `{"_meta":{"quota":{}}}`, ""},
		{"ACP's usage first, the quota fills the rest",
			`{"usage":{"inputTokens":10,"thoughtTokens":2,"totalTokens":15},"_meta":{"quota":{"token_count":{"input_tokens":99,"output_tokens":3}}}}`,
			`{"turn":true,"input_tokens":10,"output_tokens":3,"thought_tokens":2,"total_tokens":15}`},
		{"wrong types and negatives are absent: no event",
			`{"_meta":{"quota":{"token_count":{"input_tokens":"12","output_tokens":-1},"model_usage":[{"model":7}]}}}`,
			""},
		{"a model alone is a summary",
			`{"_meta":{"quota":{"model_usage":[{"model":"gemini-2.5-pro"}]}}}`,
			`{"model":"gemini-2.5-pro","turn":true}`},
		{"ACP's usage alone, without a quota",
			`{"stopReason":"end_turn","usage":{"inputTokens":7,"outputTokens":1}}`,
			`{"turn":true,"input_tokens":7,"output_tokens":1}`},
		{"no quota", `{"stopReason":"cancelled"}`, ""},
		{"quota not an object", `{"_meta":{"quota":[1]}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := gemini.TurnUsage(gjson.Parse(tt.result))
			if tt.want == "" {
				if ev != nil {
					t.Fatalf("got %+v, want no event", ev)
				}
				return
			}
			if ev == nil || ev.Usage() == nil {
				t.Fatal("no usage event")
			}
			got, _ := json.Marshal(ev.Usage())
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
