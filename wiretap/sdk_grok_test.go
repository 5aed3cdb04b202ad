package wiretap_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/acpdialect/acpdialect/wiretap"
	acp "github.com/coder/acp-go-sdk"
	"github.com/tidwall/gjson"
)

// grokModels is a session/new result's legacy catalog: one model with
// efforts, one without.
var grokModels = map[string]any{
	"currentModelId": "grok-4.5",
	"availableModels": []any{
		map[string]any{"modelId": "grok-4.5", "name": "Grok 4.5", "_meta": map[string]any{
			"supportsReasoningEffort": true, "reasoningEfforts": []any{"low", "medium", "high"},
			"reasoningEffort": "high", "totalContextTokens": 500000}},
		map[string]any{"modelId": "grok-build", "name": "Grok Build", "_meta": map[string]any{"totalContextTokens": 2000000}},
	},
}

// grokHandshake runs initialize and session/new against a Grok agent
// whose session/new result carries grokModels; it returns what the SDK
// gave the client.
func (h *harness) grokHandshake() acp.NewSessionResponse {
	h.t.Helper()
	wait := call(h, func(ctx context.Context) (acp.InitializeResponse, error) {
		return h.csc.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	})
	_, resp := testwire.Initialize(h.expect("initialize"), "grok-build")
	h.send(resp)
	wait()
	h.sid = "s1"
	waitNew := call(h, func(ctx context.Context) (acp.NewSessionResponse, error) {
		return h.csc.NewSession(ctx, acp.NewSessionRequest{Cwd: "/work", McpServers: []acp.McpServer{}})
	})
	h.send(testwire.Response(h.expect("session/new"), map[string]any{"sessionId": "s1", "models": grokModels}))
	return waitNew()
}

// selects returns each select option's id and current value.
func selects(opts []acp.SessionConfigOption) map[string]string {
	out := map[string]string{}
	for _, o := range opts {
		if o.Select != nil {
			out[string(o.Select.Id)] = string(o.Select.CurrentValue)
		}
	}
	return out
}

func setOption(h *harness, id, value string) func() (acp.SetSessionConfigOptionResponse, error) {
	type res struct {
		v   acp.SetSessionConfigOptionResponse
		err error
	}
	ch := make(chan res, 1)
	go func() {
		v, err := h.csc.SetSessionConfigOption(context.Background(), acp.SetSessionConfigOptionRequest{
			ValueId: &acp.SetSessionConfigOptionValueId{SessionId: acp.SessionId(h.sid), ConfigId: acp.SessionConfigId(id), Value: acp.SessionConfigValueId(value)}})
		ch <- res{v, err}
	}()
	return func() (acp.SetSessionConfigOptionResponse, error) {
		r := <-ch
		return r.v, r.err
	}
}

// TestSDKGrokConfigOptions: an ordinary SDK client gets Grok's model
// catalog as config options from NewSession, sets one with
// SetSessionConfigOption and gets the updated options while the agent
// sees only session/set_model, and gets a refusal for an unknown model
// that never reaches the agent.
func TestSDKGrokConfigOptions(t *testing.T) {
	h := startConn(t, acpdialect.Options{}, wiretap.Options{})
	got := h.grokHandshake()
	if s := selects(got.ConfigOptions); s["model"] != "grok-4.5" || s["reasoning_effort"] != "high" || len(s) != 2 {
		t.Fatalf("NewSession config options: %v", s)
	}
	if got.Models == nil || len(got.Models.AvailableModels) != 2 {
		t.Errorf("NewSession lost the agent's own models: %+v", got.Models)
	}

	wait := setOption(h, "model", "grok-build")
	f := h.next()
	if m := gjson.GetBytes(f, "method").Str; m != grok.MethodSetModel || gjson.GetBytes(f, "params.modelId").Str != "grok-build" ||
		gjson.GetBytes(f, "params._meta").Exists() {
		t.Fatalf("agent got %s, want session/set_model for grok-build without an effort", f)
	}
	h.send(testwire.Response(json.RawMessage(gjson.GetBytes(f, "id").Raw), map[string]any{"_meta": map[string]any{"model": map[string]any{"Ok": "grok-build"}}}))
	resp, err := wait()
	if err != nil {
		t.Fatal(err)
	}
	if s := selects(resp.ConfigOptions); s["model"] != "grok-build" || len(s) != 1 {
		t.Errorf("SetSessionConfigOption options: %v", s)
	}

	_, err = setOption(h, "model", "grok-9")()
	var re *acp.RequestError
	if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "grok-4.5, grok-build") {
		t.Fatalf("unknown model: err %v, want -32602 listing the models", err)
	}
	end := h.prompt() // the agent's next frame is the prompt: the refusal never reached it
	end()
	if st := h.tap.Stats(); st.Redirected != 1 || st.Refused != 1 || st.Rewritten != 2 {
		t.Errorf("stats %+v", st)
	}
	if evs := h.rec.all(); len(evs) == 0 {
		t.Error("no events")
	}
}

// TestSDKGrokQuestion: x.ai/ask_user_question reaches the client as a
// question event, the client answers it through Tap.Answer with
// grok.Answered, and the agent gets that answer under its id; the echo of
// the prompt never reaches the client.
func TestSDKGrokQuestion(t *testing.T) {
	h := startConn(t, acpdialect.Options{ClientAnswers: true}, wiretap.Options{})
	h.grokHandshake()
	end := h.prompt()
	h.send(testwire.Request(30, grok.MethodAskUserQuestion, map[string]any{"sessionId": "s1", "toolCallId": "call_q",
		"questions": []any{map[string]any{"question": "Which database?", "options": []any{
			map[string]any{"label": "Postgres"}, map[string]any{"label": "SQLite"}}}}}))
	ev := h.waitEvent(acpdialect.EventQuestion)
	q := ev.Question()
	if q == nil || len(q.Questions) != 1 || q.Questions[0].ID != "Which database?" {
		t.Fatalf("question event %+v", ev)
	}
	if err := h.tap.Answer(ev.ID, grok.Answered(grok.Answer{Question: q.Questions[0].ID, Labels: []string{"SQLite"}})); err != nil {
		t.Fatal(err)
	}
	reply := h.next()
	if gjson.GetBytes(reply, "id").Raw != "30" || gjson.GetBytes(reply, `result.answers.Which database\?`).Str != "SQLite" ||
		gjson.GetBytes(reply, "result.outcome").Str != "accepted" {
		t.Fatalf("agent got %s", reply)
	}
	h.send(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": "go"}}))
	end()
	if st := h.tap.Stats(); st.Echoes != 1 {
		t.Errorf("echoes %d, want 1", st.Echoes)
	}
	log, _ := h.client.calls()
	for _, l := range log {
		if l == "other" {
			t.Errorf("the echo reached the client: %v", log)
		}
	}
}

// TestSDKGrokCatalogTooLong: a session/new result that fits in the SDK's
// line but not once Grok's config options are added to it reaches the
// client as the agent sent it: NewSession succeeds, without config
// options, and OnEvent gets no config event for options the client never
// got.
func TestSDKGrokCatalogTooLong(t *testing.T) {
	h := startConn(t, acpdialect.Options{}, wiretap.Options{})
	wait := call(h, func(ctx context.Context) (acp.InitializeResponse, error) {
		return h.csc.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	})
	_, resp := testwire.Initialize(h.expect("initialize"), "grok-build")
	h.send(resp)
	wait()
	// The agent's frame is about 7.5 MiB; its config options would add
	// the model's 3.5 MiB name again.
	models := []any{map[string]any{"modelId": "grok-long", "name": strings.Repeat("n", 7<<19)}}
	catalog := map[string]any{"currentModelId": "grok-long", "availableModels": models}
	waitNew := call(h, func(ctx context.Context) (acp.NewSessionResponse, error) {
		return h.csc.NewSession(ctx, acp.NewSessionRequest{Cwd: "/work", McpServers: []acp.McpServer{}})
	})
	frame := testwire.Response(h.expect("session/new"), map[string]any{"sessionId": "s1", "models": catalog, "pad": strings.Repeat("p", 4<<20)})
	if len(frame) >= 10<<20 {
		t.Fatalf("the agent's frame is %d bytes: too long for the SDK itself", len(frame))
	}
	h.send(frame)
	got := waitNew()
	if got.SessionId != "s1" || len(got.ConfigOptions) != 0 || got.Models == nil || len(got.Models.AvailableModels) != len(models) {
		t.Errorf("NewSession: session %q, %d config options, models %v; want s1 with the agent's models only",
			got.SessionId, len(got.ConfigOptions), got.Models != nil)
	}
	if evs := eventsOf(h.rec.all(), acpdialect.EventConfig); len(evs) != 0 {
		t.Errorf("%d config events; want none: the client got no config options", len(evs))
	}
	h.sid = "s1"
	end := h.prompt() // the connection still works
	end()
}

// TestSDKGrokKeepEchoes: with Options.KeepEchoes the echo of the user's
// prompt reaches the client as Grok sent it, and is not counted as dropped.
func TestSDKGrokKeepEchoes(t *testing.T) {
	h := startConn(t, acpdialect.Options{}, wiretap.Options{KeepEchoes: true})
	h.grokHandshake()
	end := h.prompt()
	h.send(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": "go"}}))
	h.send(testwire.SessionUpdate("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "after"}}))
	end()
	var log []string
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if log, _ = h.client.calls(); slices.Contains(log, "chunk:after") {
			break
		}
	}
	if i := slices.Index(log, "chunk:after"); i < 1 || log[i-1] != "other" {
		t.Errorf("the echo did not reach the client before the next chunk: %v", log)
	}
	if st := h.tap.Stats(); st.Echoes != 0 {
		t.Errorf("echoes %d, want 0", st.Echoes)
	}
}
