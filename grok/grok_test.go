package grok_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, title string
		want        bool
	}{
		{"grok-build", "", true},
		{"Grok-Build", "", true},
		{" grok ", "", true},
		{"@xai-official/grok", "", true},
		{"", "Grok Build", true},
		{"acp-agent", "Grok", true},
		{"groklike", "", false},
		{"not-grok-agent", "", false},
		{"grok-cli", "", false},
		{"grokker", "", false},
		{"grok-build-plus", "", false},
		{"@xai-official/grok-extra", "", false},
		{"cursor", "Cursor Agent", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := grok.Match(tt.name, tt.title); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

// TestMatchResult pins the mark Grok 1.0.41 puts in an initialize result
// that has no agentInfo: _meta.grokShell, the boolean true only.
func TestMatchResult(t *testing.T) {
	tests := []struct {
		result string
		want   bool
	}{
		{`{"protocolVersion":1,"agentCapabilities":{},"_meta":{"grokShell":true,"agentVersion":"1.0.41"}}`, true},
		{`{"_meta":{"grokShell":false}}`, false},
		{`{"_meta":{"grokShell":"true"}}`, false},
		{`{"_meta":{"grokShell":1}}`, false},
		{`{"grokShell":true}`, false},
		{`{"_meta":{"x.ai/fs_notify":true}}`, false},
		{`{"_meta":true}`, false},
		{`{}`, false},
		{`[]`, false},
	}
	for _, tt := range tests {
		if got := grok.MatchResult(gjson.Parse(tt.result)); got != tt.want {
			t.Errorf("MatchResult(%s) = %v, want %v", tt.result, got, tt.want)
		}
	}
}

func TestParseCatalog(t *testing.T) {
	tests := []struct {
		name         string
		in           string
		ok           bool
		current      string
		effort       string
		efforts      []string
		contextWidth int64
	}{
		{"strings with a default", `{"currentModelId":"a","availableModels":[{"modelId":"a","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","high"],"reasoningEffort":"high","totalContextTokens":10}}]}`,
			true, "a", "high", []string{"low", "high"}, 10},
		{"objects, marked default", `{"currentModelId":"a","availableModels":[{"modelId":"a","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":[{"id":"x"},{"value":"y","label":"Why","default":true}]}}]}`,
			true, "a", "y", []string{"x", "y"}, 0},
		{"medium when offered", `{"currentModelId":"a","availableModels":[{"modelId":"a","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","medium"]}}]}`,
			true, "a", "medium", []string{"low", "medium"}, 0},
		{"else the first", `{"currentModelId":"a","availableModels":[{"modelId":"a","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","max"]}}]}`,
			true, "a", "low", []string{"low", "max"}, 0},
		{"efforts without support", `{"currentModelId":"a","availableModels":[{"modelId":"a","_meta":{"reasoningEfforts":["low"]}}]}`,
			true, "a", "", nil, 0},
		{"the only model is current", `{"availableModels":[{"modelId":"a"}]}`, true, "a", "", nil, 0},
		{"unknown current", `{"currentModelId":"z","availableModels":[{"modelId":"a"},{"modelId":"b"}]}`, true, "", "", nil, 0},
		{"wrong types", `{"currentModelId":5,"availableModels":[{"modelId":1},{"modelId":"a","_meta":{"totalContextTokens":"9","supportsReasoningEffort":"yes"}}]}`,
			true, "a", "", nil, 0},
		{"no models", `{"availableModels":[]}`, false, "", "", nil, 0},
		{"not an object", `[1,2]`, false, "", "", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := grok.ParseCatalog(gjson.Parse(tt.in))
			if ok != tt.ok || c.Current != tt.current || c.Effort != tt.effort {
				t.Fatalf("ok %v current %q effort %q", ok, c.Current, c.Effort)
			}
			if !ok {
				return
			}
			var efforts []string
			for _, m := range c.Models {
				if m.ID == c.Current {
					for _, e := range m.Efforts {
						efforts = append(efforts, e.Value)
					}
					if m.ContextTokens != tt.contextWidth {
						t.Errorf("context %d", m.ContextTokens)
					}
				}
			}
			if diff := cmp.Diff(tt.efforts, efforts); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func catalog(t *testing.T) *grok.Catalog {
	t.Helper()
	c, ok := grok.ParseCatalog(gjson.Parse(`{"currentModelId":"a","availableModels":[
		{"modelId":"a","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["low","medium","high"],"reasoningEffort":"high","totalContextTokens":1000}},
		{"modelId":"b","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":[{"value":"low","label":"Low"}],"totalContextTokens":500}},
		{"modelId":"c"}]}`))
	if !ok {
		t.Fatal("catalog")
	}
	return &c
}

func TestSetConfigRequest(t *testing.T) {
	tests := []struct {
		name, params string
		method, sent string // sent: the params sent
		errCode      int
	}{
		{"model keeps an allowed effort", `{"sessionId":"s","configId":"model","value":"b"}`, "", "", 0},
		{"model drops an effort it lacks", `{"sessionId":"s","configId":"model","value":"c"}`, grok.MethodSetModel, `{"sessionId":"s","modelId":"c"}`, 0},
		{"effort by name", `{"sessionId":"s","configId":"reasoning_effort","value":"Medium"}`, grok.MethodSetModel, `{"sessionId":"s","modelId":"a","_meta":{"reasoningEffort":"medium"}}`, 0},
		{"unknown model", `{"sessionId":"s","configId":"model","value":"zz"}`, "", "", -32602},
		{"unknown effort", `{"sessionId":"s","configId":"reasoning_effort","value":"max"}`, "", "", -32602},
		{"unknown option", `{"sessionId":"s","configId":"mode","value":"x"}`, "", "", -32602},
		{"not a string", `{"sessionId":"s","configId":"model","value":true}`, "", "", -32602},
		{"no session", `{"configId":"model","value":"a"}`, "", "", -32602},
		{"not an object", `7`, "", "", -32602},
	}
	c := catalog(t)
	// the current effort is high: b offers only low, so high is not sent
	tests[0].method, tests[0].sent = grok.MethodSetModel, `{"sessionId":"s","modelId":"b"}`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := grok.SetConfigRequest(gjson.Parse(tt.params), c)
			if tt.errCode != 0 {
				if r.Error == nil || r.Error.Code != tt.errCode || r.Method != "" {
					t.Fatalf("got %+v, want error %d", r, tt.errCode)
				}
				return
			}
			if r.Error != nil || r.Method != tt.method || string(r.Params) != tt.sent {
				t.Fatalf("got %s %s (%v)", r.Method, r.Params, r.Error)
			}
		})
	}
	low := *c
	low.Effort = "low"
	if r := grok.SetConfigRequest(gjson.Parse(`{"sessionId":"s","configId":"model","value":"b"}`), &low); string(r.Params) != `{"sessionId":"s","modelId":"b","_meta":{"reasoningEffort":"low"}}` {
		t.Errorf("a switch keeping low sent %s", r.Params)
	}
	if r := grok.SetConfigRequest(gjson.Parse(`{}`), nil); !r.Pass {
		t.Error("with no catalog the request must pass as it is")
	}
}

func TestSetConfigResponse(t *testing.T) {
	c := catalog(t)
	red := grok.SetConfigRequest(gjson.Parse(`{"sessionId":"s","configId":"model","value":"b"}`), c)
	tests := []struct {
		name, result, err string
		wantModel         string
		wantErr           string
	}{
		{"empty", `{}`, "", "b", ""},
		{"model string", `{"_meta":{"model":"b"}}`, "", "b", ""},
		{"model Ok", `{"_meta":{"model":{"Ok":"c"}}}`, "", "c", ""},
		{"incompatible by data", "", `{"code":-32600,"message":"Cannot switch","data":{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT"}}`, "", "Cannot switch. Start a new session to use this model."},
		{"incompatible, no message", "", `{"code":-32600,"data":{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT"}}`, "", "This model needs another agent. Start a new session to use this model."},
		{"incompatible by text", "", `{"code":-32600,"message":"x requires agent y. Start a new session to use this model."}`, "", "x requires agent y. Start a new session to use this model."},
		{"other error", "", `{"code":-32000,"message":"boom"}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := acpdialect.AgentResponse{Result: gjson.Parse(tt.result), Error: gjson.Parse(tt.err)}
			if tt.result == "" {
				resp.Result = gjson.Result{}
			}
			if tt.err == "" {
				resp.Error = gjson.Result{}
			}
			st := grok.SetConfigResponse(resp, c, red.Note)
			switch {
			case tt.wantModel != "":
				next, _ := st.State.(*grok.Catalog)
				if next == nil || next.Current != tt.wantModel || !gjson.ValidBytes(st.Result) || len(st.Events) != 1 {
					t.Fatalf("step %+v", st)
				}
				if got := gjson.GetBytes(st.Result, `configOptions.#(id=="model").currentValue`).Str; got != tt.wantModel {
					t.Errorf("result says %q", got)
				}
			case tt.wantErr != "":
				if st.Error == nil || st.Error.Message != tt.wantErr || st.State != nil || st.Events[0].ProviderError().Action != "new_session" {
					t.Fatalf("step %+v", st)
				}
				if !json.Valid([]byte(st.Error.Data)) {
					t.Errorf("data %s", st.Error.Data)
				}
			default:
				if st.Error != nil || st.Result != nil || st.State != nil {
					t.Fatalf("an unclassified error must go back as it is: %+v", st)
				}
			}
		})
	}
}

func TestContextWindow(t *testing.T) {
	c := catalog(t)
	tests := []struct {
		meta string
		want acpdialect.ContextWindow
		ok   bool
	}{
		{`{"totalTokens":400}`, acpdialect.ContextWindow{Used: 400, Size: 1000, Remaining: 600}, true},
		{`{"totalTokens":0}`, acpdialect.ContextWindow{Used: 0, Size: 1000, Remaining: 1000}, true},
		{`{"totalTokens":5000}`, acpdialect.ContextWindow{Used: 5000, Size: 1000, Remaining: 0}, true},
		{`{"totalTokens":-1}`, acpdialect.ContextWindow{}, false},
		{`{"totalTokens":1.5}`, acpdialect.ContextWindow{}, false},
		{`{"totalTokens":"4"}`, acpdialect.ContextWindow{}, false},
		{`{"totalTokens":9223372036854775808}`, acpdialect.ContextWindow{}, false},
		{`{}`, acpdialect.ContextWindow{}, false},
	}
	for _, tt := range tests {
		got, ok := grok.ContextWindow(gjson.Parse(tt.meta), c)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: %+v %v", tt.meta, got, ok)
		}
	}
	if _, ok := grok.ContextWindow(gjson.Parse(`{"totalTokens":1}`), nil); ok {
		t.Error("no catalog, no size")
	}
	noSize := *c
	noSize.Current = "c"
	if _, ok := grok.ContextWindow(gjson.Parse(`{"totalTokens":1}`), &noSize); ok {
		t.Error("a model without a size gives no sample")
	}
}

func TestParseUsage(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	tests := []struct {
		in   string
		want acpdialect.Usage
		ok   bool
	}{
		{`{"_meta":{"modelId":"m","usage":{"inputTokens":1,"outputTokens":2,"totalTokens":3,"reasoningTokens":4,"cachedReadTokens":5}}}`,
			acpdialect.Usage{Turn: true, Model: "m", InputTokens: n(1), OutputTokens: n(2), TotalTokens: n(3), ThoughtTokens: n(4), CachedReadTokens: n(5)}, true},
		{`{"_meta":{"inputTokens":1,"outputTokens":0}}`, acpdialect.Usage{Turn: true, Estimated: true, InputTokens: n(1), OutputTokens: n(0)}, true},
		// Grok 1.0.41: the turn's counts, a cache write count, and a turn
		// whose background subagent is still to report.
		{`{"_meta":{"inputTokens":9,"usage":{"inputTokens":1,"cacheCreationTokens":6,"usageIsIncomplete":true}}}`,
			acpdialect.Usage{Turn: true, Estimated: true, InputTokens: n(1), CachedWriteTokens: n(6)}, true},
		{`{"_meta":{"usage":{"inputTokens":1,"usageIsIncomplete":false}}}`, acpdialect.Usage{Turn: true, InputTokens: n(1)}, true},
		{`{"_meta":{"usage":{"inputTokens":1,"usageIsIncomplete":"true"}}}`, acpdialect.Usage{Turn: true, InputTokens: n(1)}, true},
		{`{"_meta":{"usage":{"inputTokens":-1,"outputTokens":"2"}}}`, acpdialect.Usage{Turn: true}, false},
		{`{"stopReason":"end_turn"}`, acpdialect.Usage{Turn: true, Estimated: true}, false},
	}
	for _, tt := range tests {
		got, ok := grok.ParseUsage(gjson.Parse(tt.in))
		if ok != tt.ok {
			t.Errorf("%s: ok %v", tt.in, ok)
		}
		if diff := cmp.Diff(tt.want, got); ok && diff != "" {
			t.Errorf("%s: %s", tt.in, diff)
		}
	}
}

func TestParseQuestionAndAnswers(t *testing.T) {
	q := grok.ParseQuestion(gjson.Parse(`{"toolCallId":"t","questions":[{"question":" Q1 ","options":[{"label":"A"},"B",{"label":""},3],"multiSelect":true},{"question":""},{"question":7},"x"]}`))
	want := acpdialect.Question{ToolCallID: "t", Questions: []acpdialect.QuestionItem{{ID: " Q1 ", Prompt: "Q1", AllowMultiple: true,
		Options: []acpdialect.QuestionOption{{ID: "A", Label: "A"}, {ID: "B", Label: "B"}}}}}
	if diff := cmp.Diff(want, q); diff != "" {
		t.Error(diff)
	}
	if got := string(grok.Answered(grok.Answer{Question: " Q1 ", Labels: []string{"A", " B "}})); got != `{"outcome":"accepted","answers":{" Q1 ":"A, B"}}` {
		t.Errorf("Answered: %s", got)
	}
	if got := string(grok.Answered(grok.Answer{Question: "Q1"})); got != `{"outcome":"cancelled"}` {
		t.Errorf("an empty answer: %s", got)
	}
	act := grok.HandleQuestion(gjson.Parse(`{"method":"x.ai/ask_user_question","params":{"questions":[{"question":"Q","options":["A"]}]}}`))
	if !act.Await || act.Event.Question() == nil || len(act.Event.Question().Questions) != 1 || string(act.Result) != `{"outcome":"cancelled"}` {
		t.Errorf("envelope: %+v", act)
	}
	if act := grok.HandleQuestion(gjson.Parse(`5`)); act.Event != nil || act.Await || string(act.Result) != `{"outcome":"cancelled"}` {
		t.Errorf("not an object: %+v", act)
	}
}

func TestUnwrap(t *testing.T) {
	tests := []struct{ method, params, wantMethod, wantParams string }{
		{"_x.ai/session_notification", `{"method":"x.ai/session_notification","params":{"a":1}}`, "x.ai/session_notification", `{"a":1}`},
		{"_x.ai/session_notification", `{"method":"_x.ai/fs_notify","params":{"a":1}}`, "x.ai/fs_notify", `{"a":1}`},
		{"_x.ai/fs_notify", `{"path":"p"}`, "x.ai/fs_notify", `{"path":"p"}`},
		{"x.ai/fs_notify", `{"method":"other/thing","params":{}}`, "x.ai/fs_notify", `{"method":"other/thing","params":{}}`},
		{"x.ai/fs_notify", `{"method":"x.ai/a","params":[1]}`, "x.ai/fs_notify", `{"method":"x.ai/a","params":[1]}`},
	}
	for _, tt := range tests {
		m, p := grok.Unwrap(tt.method, gjson.Parse(tt.params))
		if m != tt.wantMethod || p.Raw != tt.wantParams {
			t.Errorf("Unwrap(%s, %s) = %s, %s", tt.method, tt.params, m, p.Raw)
		}
	}
}

func TestParseTool(t *testing.T) {
	tool, ok := grok.ParseTool(gjson.Parse(`{"x.ai/tool":{"version":1,"name":"grep","kind":"search","namespace":"grok_build","label":"Search","read_only":true}}`))
	if !ok || tool != (acpdialect.Tool{Name: "grep", Kind: "search", Namespace: "grok_build", Label: "Search", ReadOnly: true}) {
		t.Errorf("%+v %v", tool, ok)
	}
	if tool, ok := grok.ParseTool(gjson.Parse(`{"x.ai/tool":{"label":"Search"}}`)); !ok || tool.Label != "Search" {
		t.Errorf("a label alone: %+v %v", tool, ok)
	}
	for _, in := range []string{`{}`, `{"x.ai/tool":"grep"}`, `{"x.ai/tool":{"kind":"read"}}`, `7`} {
		if _, ok := grok.ParseTool(gjson.Parse(in)); ok {
			t.Errorf("%s: ok", in)
		}
	}
}

// A reply with "error":null beside its result is a success (the switch
// took place), and an error that is not an object reaches the client with
// its text.
func TestSetConfigOddErrors(t *testing.T) {
	f, err := os.ReadFile("testdata/model-switch.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	hdr := strings.SplitN(string(f), "\n", 5)[:4]
	for _, tc := range []struct{ reply, want string }{
		{`{"jsonrpc":"2.0","id":2,"error":null,"result":{}}`, `"currentValue":"grok-code-fast"`},
		{`{"jsonrpc":"2.0","id":2,"error":"boom"}`, `"message":"acpdialect: the agent's error for session/set_config_option is not an object: \"boom\""`},
	} {
		c := acpdialect.NewRegistry(grok.Dialect()).NewConn(acpdialect.Options{})
		for i, l := range hdr {
			var err error
			if i%2 == 0 {
				_, err = c.Outbound([]byte(l))
			} else {
				_, err = c.Inbound([]byte(l))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.Outbound([]byte(`{"jsonrpc":"2.0","id":2,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"model","value":"grok-code-fast"}}`)); err != nil {
			t.Fatal(err)
		}
		r, err := c.Inbound([]byte(tc.reply))
		if err != nil || r.Wire == nil || !strings.Contains(string(r.Wire.Frame), tc.want) {
			t.Errorf("%s: %v, %+v; want %s in the frame", tc.reply, err, r.Wire, tc.want)
		}
	}
}

// A session/new whose current model is not among several gets no config
// options (a select's current value must be one of them), but keeps its
// catalog for a later switch; an effort's name capitalizes a non-ASCII
// first letter whole.
func TestCatalogWithoutCurrent(t *testing.T) {
	st := grok.SessionResult("session/new", gjson.Parse(`{"sessionId":"s2","models":{"currentModelId":"x","availableModels":[{"modelId":"a"},{"modelId":"b"}]}}`), nil)
	if st.Result != nil || len(st.Events) != 0 || st.State == nil {
		t.Errorf("result %s, %d events, state %v", st.Result, len(st.Events), st.State)
	}
	c, _ := grok.ParseCatalog(gjson.Parse(`{"availableModels":[{"modelId":"a","_meta":{"supportsReasoningEffort":true,"reasoningEfforts":["élevé"]}}]}`))
	if !strings.Contains(string(c.ConfigOptions()), `"value":"élevé","name":"Élevé"`) {
		t.Errorf("options %s", c.ConfigOptions())
	}
}

// TestIncompatibleKeepsAgentData: the incompatible switch's error data
// says what to do, and keeps what else the agent's data said.
func TestIncompatibleKeepsAgentData(t *testing.T) {
	tests := []struct{ err, want string }{
		{`{"code":-32600,"message":"m","data":{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","details":"keep me","n":[1,2]}}`,
			`{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","action":"new_session","details":"keep me","n":[1,2]}`},
		{`{"code":-32600,"message":"m","data":{"action":"retry","code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","d\u00e9tail":"x"}}`,
			`{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","action":"new_session","détail":"x"}`},
		{`{"code":-32600,"message":"x requires agent y. Start a new session to use this model.","data":"text"}`,
			`{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT","action":"new_session"}`},
	}
	for _, tt := range tests {
		e, ok := grok.ClassifyError(gjson.Parse(tt.err))
		if !ok || string(e.Data) != tt.want || !json.Valid([]byte(e.Data)) {
			t.Errorf("%s: data %s (%v), want %s", tt.err, e.Data, ok, tt.want)
		}
	}
}

// TestIncompatibleCode: the client's error keeps the agent's code when it
// is a JSON-RPC code, else gets -32600.
func TestIncompatibleCode(t *testing.T) {
	for code, want := range map[string]int{`-32001`: -32001, `0`: -32600, `1.5`: -32600, `1e400`: -32600,
		`9223372036854775807`: -32600, `"-32001"`: -32600, `null`: -32600} {
		e, ok := grok.ClassifyError(gjson.Parse(`{"code":` + code + `,"message":"m","data":{"code":"MODEL_SWITCH_INCOMPATIBLE_AGENT"}}`))
		if !ok || e.Code != want {
			t.Errorf("code %s: got %d (%v), want %d", code, e.Code, ok, want)
		}
	}
}
