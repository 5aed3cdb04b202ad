package acpdialect_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/google/go-cmp/cmp"
)

// An event's object is written under its name, after the other members,
// and read back into Object; the accessors return it only for its own type.
func TestEventObjectJSON(t *testing.T) {
	tests := []struct {
		name string
		ev   acpdialect.Event
		want string
	}{
		{"question", acpdialect.Event{Type: acpdialect.EventQuestion, SessionID: "s1", Method: "cursor/ask_question", ID: json.RawMessage(`7`),
			Object: &acpdialect.Question{Title: "Pick", Questions: []acpdialect.QuestionItem{{ID: "q", Options: []acpdialect.QuestionOption{}}}}},
			`{"type":"question","session_id":"s1","method":"cursor/ask_question","id":7,"question":{"title":"Pick","questions":[{"id":"q","options":[]}]}}`},
		{"plan", acpdialect.Event{Type: acpdialect.EventPlan, Object: &acpdialect.Plan{Name: "p", Todos: []acpdialect.Todo{}}},
			`{"type":"plan","plan":{"name":"p","todos":[]}}`},
		{"todos", acpdialect.Event{Type: acpdialect.EventTodos, ToolCallID: "t", Object: &acpdialect.Todos{ToolCallID: "t", Items: []acpdialect.Todo{{ID: "1", Status: "pending"}}}},
			`{"type":"todos","tool_call_id":"t","todos":{"items":[{"id":"1","status":"pending"}]}}`},
		{"image", acpdialect.Event{Type: acpdialect.EventImage, Object: &acpdialect.Image{FilePath: "/a.png"}},
			`{"type":"image","image":{"file_path":"/a.png"}}`},
		{"models", acpdialect.Event{Type: acpdialect.EventModels, Object: &acpdialect.Models{Items: []acpdialect.Model{{ID: "m"}}}},
			`{"type":"models","models":{"items":[{"id":"m"}]}}`},
		{"commands", acpdialect.Event{Type: acpdialect.EventCommands, Object: &acpdialect.Commands{Items: []acpdialect.Command{{Name: "review"}}}},
			`{"type":"commands","commands":{"items":[{"name":"review"}]}}`},
		{"usage", acpdialect.Event{Type: acpdialect.EventUsage, SessionID: "s1", Object: &acpdialect.Usage{Used: i64(0), Size: i64(200000),
			Cost: f64(0.25), Currency: "USD", Model: "m", Origin: "human", RateLimit: &acpdialect.RateLimit{Status: "allowed", Utilization: f64(0.5)}}},
			`{"type":"usage","session_id":"s1","usage":{"used":0,"size":200000,"cost":0.25,"currency":"USD","model":"m","origin":"human","rate_limit":{"status":"allowed","utilization":0.5}}}`},
		{"turn usage", acpdialect.Event{Type: acpdialect.EventUsage, Object: &acpdialect.Usage{Turn: true, InputTokens: i64(2), OutputTokens: i64(4),
			CachedReadTokens: i64(0), CachedWriteTokens: i64(9), ThoughtTokens: i64(1), TotalTokens: i64(16), Estimated: true}},
			`{"type":"usage","usage":{"turn":true,"input_tokens":2,"output_tokens":4,"cached_read_tokens":0,"cached_write_tokens":9,"thought_tokens":1,"total_tokens":16,"estimated":true}}`},
		{"context window", acpdialect.Event{Type: acpdialect.EventContextWindow, Object: &acpdialect.ContextWindow{Used: 0, Size: 10, Remaining: 10}},
			`{"type":"context_window","context_window":{"used":0,"size":10,"remaining":10}}`},
		{"capabilities", acpdialect.Event{Type: acpdialect.EventCapabilities, Object: &acpdialect.Capabilities{}},
			`{"type":"capabilities","capabilities":{"prompt_queueing":false}}`},
		{"message", acpdialect.Event{Type: acpdialect.EventMessage, Object: &acpdialect.Message{Role: acpdialect.RoleThought, Text: "hm", Phase: "commentary", ParentToolCallID: "t"}},
			`{"type":"message","message":{"role":"thought","text":"hm","phase":"commentary","parent_tool_call_id":"t"}}`},
		{"compaction", acpdialect.Event{Type: acpdialect.EventCompaction, Object: &acpdialect.Compaction{CompactionID: "c", Status: acpdialect.CompactionCompleted, Trigger: "auto", PreTokens: i64(9), PostTokens: i64(0)}},
			`{"type":"compaction","compaction":{"compaction_id":"c","status":"completed","trigger":"auto","pre_tokens":9,"post_tokens":0}}`},
		{"permission", acpdialect.Event{Type: acpdialect.EventPermission, ToolCallID: "t", Method: "session/request_permission", ID: json.RawMessage(`3`),
			Object: &acpdialect.Permission{ToolName: "mcp__gh__issue", Server: "gh", Tool: "issue", Options: []acpdialect.PermissionOption{{ID: "allow", Kind: "allow_once"}}}},
			`{"type":"permission","tool_call_id":"t","method":"session/request_permission","id":3,"permission":{"tool_name":"mcp__gh__issue","server":"gh","tool":"issue","options":[{"id":"allow","kind":"allow_once"}]}}`},
		{"provider error", acpdialect.Event{Type: acpdialect.EventProviderError, Object: &acpdialect.ProviderError{Severity: acpdialect.SeverityError, Code: "model_at_capacity", Action: "retry"}},
			`{"type":"provider_error","provider_error":{"severity":"error","code":"model_at_capacity","action":"retry"}}`},
		{"provider error with an incident id", acpdialect.Event{Type: acpdialect.EventProviderError, Object: &acpdialect.ProviderError{Severity: acpdialect.SeverityWarning, Code: "rate_limited", Title: "Rate limited", ID: "turn-1:error", Revision: 2}},
			`{"type":"provider_error","provider_error":{"severity":"warning","code":"rate_limited","title":"Rate limited","id":"turn-1:error","revision":2}}`},
		{"auth status", acpdialect.Event{Type: acpdialect.EventAuthStatus, Object: &acpdialect.AuthStatus{Kind: "account", Email: "a@b.c"}},
			`{"type":"auth_status","auth_status":{"kind":"account","email":"a@b.c"}}`},
		{"session info", acpdialect.Event{Type: acpdialect.EventSessionInfo, Object: &acpdialect.SessionInfo{Title: "T", Archived: boolp(false)}},
			`{"type":"session_info","session_info":{"title":"T","archived":false}}`},
		{"config", acpdialect.Event{Type: acpdialect.EventConfig, Object: &acpdialect.Config{Options: json.RawMessage(`[{"id":"model"}]`)}},
			`{"type":"config","config":{"options":[{"id":"model"}]}}`},
		{"state", acpdialect.Event{Type: acpdialect.EventState, SessionID: "s1", Object: &acpdialect.State{State: acpdialect.StateIdle, StopReason: "end_turn",
			Background: []acpdialect.BackgroundWork{{Type: "tool_call", ID: "t1"}}}},
			`{"type":"state","session_id":"s1","state":{"state":"idle","stop_reason":"end_turn","background":[{"type":"tool_call","id":"t1"}]}}`},
		{"subagent card", acpdialect.Event{Type: acpdialect.EventToolCallUpdate, Agent: "claude", SessionID: "s1", ToolCallID: "c1",
			Payload: &acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusFailed, Title: "Explore",
				SubagentTask: &acpdialect.SubagentTask{Description: "Explore", Status: acpdialect.SubagentFailed, ChildSessionID: "c1",
					DurationMs: i64(0), ResultText: "partial", Error: "API Error: 529 overloaded"}}},
			`{"type":"tool_call_update","agent":"claude","session_id":"s1","tool_call_id":"c1","payload":{"kind":"subagent_task","status":"failed","title":"Explore","subagent_task":{"description":"Explore","status":"failed","child_session_id":"c1","duration_ms":0,"result_text":"partial","error":"API Error: 529 overloaded"}}}`},
		{"no object", acpdialect.Event{Type: acpdialect.EventReply, Method: "cursor/task", ID: json.RawMessage(`"a"`), Result: json.RawMessage(`{}`)},
			`{"type":"reply","method":"cursor/task","id":"a","result":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.ev)
			if err != nil || string(b) != tt.want {
				t.Fatalf("Marshal = %s, %v; want %s", b, err, tt.want)
			}
			var back acpdialect.Event
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.ev, back); d != "" {
				t.Errorf("round trip (-want +got):\n%s", d)
			}
			n := 0
			for _, set := range []bool{back.Question() != nil, back.Plan() != nil, back.Todos() != nil,
				back.Image() != nil, back.Models() != nil, back.Commands() != nil, back.Usage() != nil,
				back.ContextWindow() != nil, back.Capabilities() != nil, back.Message() != nil,
				back.Compaction() != nil, back.Permission() != nil, back.ProviderError() != nil,
				back.AuthStatus() != nil, back.SessionInfo() != nil, back.Config() != nil, back.State() != nil} {
				if set {
					n++
				}
			}
			want := 0
			if tt.ev.Object != nil {
				want = 1
			}
			if n != want {
				t.Errorf("%d accessors return an object; want %d", n, want)
			}
		})
	}
}

// The object's strings are escaped for HTML exactly as the caller's
// encoder says, like the event's own.
func TestEventJSONFollowsTheEncodersHTMLSetting(t *testing.T) {
	ev := acpdialect.Event{Type: acpdialect.EventPlan, Method: "a<b", Object: &acpdialect.Plan{Markdown: "x < y && z", Todos: []acpdialect.Todo{}}}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"plan","method":"a\u003cb","plan":{"markdown":"x \u003c y \u0026\u0026 z","todos":[]}}`; string(b) != want {
		t.Errorf("json.Marshal = %s; want %s", b, want)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ev); err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"plan","method":"a<b","plan":{"markdown":"x < y && z","todos":[]}}` + "\n"; buf.String() != want {
		t.Errorf("Encode without HTML escaping = %s; want %s", buf.String(), want)
	}
}

// A newer version's members are ignored, not an error.
func TestEventUnmarshalIgnoresUnknownMembers(t *testing.T) {
	var ev acpdialect.Event
	if err := json.Unmarshal([]byte(`{"type":"weather","session_id":"s1","weather":{"sunny":true}}`), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Type != "weather" || ev.SessionID != "s1" || ev.Object != nil {
		t.Errorf("got %+v", ev)
	}
}

func i64(v int64) *int64     { return &v }
func f64(v float64) *float64 { return &v }
func boolp(v bool) *bool     { return &v }
