package codex_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/terminal"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// seeds adds the update objects (or params) of every recorded line, and
// a few hand-made frames, to f.
func seeds(f *testing.F, path string) {
	f.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if v := gjson.Get(sc.Text(), path); v.Exists() {
				f.Add(v.Raw)
			}
		}
		fh.Close()
	}
	for _, s := range []string{`{}`, `null`, `[]`, `"x"`, `{"_meta":{"codex":"x"}}`, `{"_meta":{"codex":{"collaboration":[],"subagent":7}}}`,
		`{"sessionUpdate":"tool_call","toolCallId":"c","kind":"execute","rawInput":{"command":["bash","-lc","ls"]},"_meta":{"terminal_exit":{"exit_code":1}}}`} {
		f.Add(s)
	}
}

// FuzzToolCall feeds any update object to the tool call hooks: they never
// panic, keep the payload they are given, and name bounded runs.
func FuzzToolCall(f *testing.F) {
	seeds(f, "params.update")
	f.Fuzz(func(t *testing.T, s string) {
		u := frame.ReadToolUpdate(gjson.Parse(s))
		if runs := codex.Runs(u); len(runs) > acpdialect.MaxRunsPerFrame {
			t.Fatalf("%d runs", len(runs))
		}
		for _, prev := range []acpdialect.Payload{
			{Kind: acpdialect.KindGeneric},
			{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "thread-paris", Status: "completed"}},
			{Kind: acpdialect.KindMCPTool, MCPTool: &acpdialect.MCPTool{Server: "s", Tool: "t", Output: "o"}},
			{Kind: acpdialect.KindShell, Shell: &acpdialect.Shell{Command: "ls", TerminalID: "t", Output: "a\n"}},
		} {
			keep := prev.Clone()
			next := codex.ToolCall(u, prev)
			if !prev.Equal(keep) {
				t.Fatal("ToolCall changed the payload it was given")
			}
			if st := next.SubagentTask; st != nil && codex.StatusRank(st.Status) < codex.StatusRank(subStatus(keep)) {
				t.Fatalf("status moved back: %q -> %q", subStatus(keep), st.Status)
			}
			if m := next.MCPTool; m != nil && len(m.Output) > codex.MaxMCPOutput {
				t.Fatalf("output of %d bytes", len(m.Output))
			}
			if sh := next.Shell; sh != nil && len(sh.Output) > terminal.Limit {
				t.Fatalf("shell output of %d bytes", len(sh.Output))
			}
			if sh := next.Shell; sh != nil && sh.ExitCode != nil && *sh.ExitCode != 0 &&
				next.Status != acpdialect.StatusFailed && next.Status != acpdialect.StatusCancelled {
				t.Fatalf("exit %d, status %q", *sh.ExitCode, next.Status)
			}
			if (next.Kind == acpdialect.KindShell) != (next.Shell != nil) {
				t.Fatalf("kind %q with shell %v", next.Kind, next.Shell)
			}
		}
		_ = codex.CompactionEvent(u)
		_, _, _ = codex.ParseMCPOutput(u.RawOutput)
	})
}

// FuzzUpdateEvents feeds any update object to the update hooks.
func FuzzUpdateEvents(f *testing.F) {
	seeds(f, "params.update")
	f.Add(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Reconnecting","codexErrorInfo":{"responseStreamDisconnected":{"httpStatusCode":429}},"willRetry":true}}}}`)
	f.Add(`{"sessionUpdate":"_subagent_update","subagentSessionId":"thr-a","name":"a","task":"t","capabilities":{}}`)
	f.Add(`{"sessionUpdate":"_subagent_update","subagentSessionId":"thr-a","state":"completed"}`)
	f.Fuzz(func(t *testing.T, s string) {
		u := gjson.Parse(s)
		_ = codex.UsageEvent(u)
		if ev := codex.SessionInfoEvent(u); ev != nil && ev.Type == acpdialect.EventProviderError {
			if p := ev.ProviderError(); p == nil || p.Message == "" || len(p.Message) > 1024 {
				t.Fatalf("turn error %+v", p)
			}
		}
		_, _ = codex.SystemError(u)
		if l := codex.HandleV2Subagent(u); l.Payload.SubagentTask != nil && l.Payload.SubagentTask.ChildSessionID == "" {
			t.Fatalf("a child's half without its session: %+v", l)
		}
		if ev := codex.PhaseEvent(u); ev != nil && ev.Message().Phase == "" {
			t.Fatal("a message event without a phase")
		}
		if ev := codex.CapacityError(u); ev != nil && !codex.IsCapacityText(codex.ParseChunk(u).Text) {
			t.Fatal("a capacity error without capacity text")
		}
	})
}

// FuzzParsePermission feeds any params to the permission reader.
func FuzzParsePermission(f *testing.F) {
	seeds(f, "params")
	f.Fuzz(func(t *testing.T, s string) {
		_, p := codex.ParsePermission(gjson.Parse(s))
		if p == nil || p.Options == nil || len(p.Options) > codex.MaxPermissionOptions {
			t.Fatalf("permission %+v", p)
		}
	})
}

// FuzzResults feeds any result to the Calls' readers.
func FuzzResults(f *testing.F) {
	for _, s := range []string{`{"type":"chat-gpt","email":"a@b"}`, `{"type":7}`,
		`{"usage":{"totalTokens":1},"_meta":{"quota":{"token_count":{"totalTokens":1},"model_usage":[{"model":"gpt-5.2[high]"}]}}}`} {
		f.Add(s)
	}
	seeds(f, "result")
	f.Fuzz(func(t *testing.T, s string) {
		r := gjson.Parse(s)
		_ = codex.AuthStatusEvent(r)
		base, exact := codex.TurnUsage(r), codex.PromptUsage(r)
		if base != nil && !base.Usage().Estimated {
			t.Fatal("a turn summary not marked estimated")
		}
		// 2.2.1 and later: the same summary, not marked.
		if (base == nil) != (exact == nil) {
			t.Fatalf("TurnUsage %v, PromptUsage %v", base, exact)
		}
		if exact != nil {
			u := *exact.Usage()
			u.Estimated = true
			if d := cmp.Diff(*base.Usage(), u); d != "" {
				t.Fatalf("PromptUsage differs from TurnUsage by more than the mark (-TurnUsage +PromptUsage):\n%s", d)
			}
		}
	})
}

// FuzzParseModelID: the split loses nothing.
func FuzzParseModelID(f *testing.F) {
	for _, s := range []string{"gpt-5.2[high]", "a[]", "[x]", "a[b[c]", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		m, e := codex.ParseModelID(id)
		if e == "" && m != id || e != "" && m+"["+e+"]" != id {
			t.Fatalf("ParseModelID(%q) = %q, %q", id, m, e)
		}
	})
}

// FuzzRunID: every derived id splits back into what made it.
func FuzzRunID(f *testing.F) {
	f.Add("call-spawn-weather", "thread-paris")
	f.Add("a~run~b", "~run~")
	f.Fuzz(func(t *testing.T, wire, child string) {
		w, c, ok := acpdialect.SplitRunID(acpdialect.RunID(wire, child))
		if !ok || w != wire || c != child {
			t.Fatalf("SplitRunID(RunID(%q, %q)) = %q, %q, %v", wire, child, w, c, ok)
		}
		if w, c, ok := acpdialect.SplitRunID(wire); ok && acpdialect.RunID(w, c) != wire {
			t.Fatalf("SplitRunID(%q) = %q, %q: not its RunID", wire, w, c)
		}
	})
}

func subStatus(p acpdialect.Payload) string {
	if p.SubagentTask == nil {
		return ""
	}
	return p.SubagentTask.Status
}

// FuzzPermissionOptions: the one-pass read of the options finds what
// gjson's Get found in each option, on any valid params.
func FuzzPermissionOptions(f *testing.F) {
	seeds(f, "params")
	f.Add(`{"options":[{"optionId":"a","name":"A","kind":"allow_once","optionId":"b"},{"name":"x"},1,{"optionId":"c\u00e9","kind":2}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return // the Conn reads only valid frames
		}
		_, p := codex.ParsePermission(gjson.Parse(s))
		var want []acpdialect.PermissionOption
		if opts := gjson.Parse(s).Get("options"); opts.IsArray() {
			opts.ForEach(func(_, o gjson.Result) bool {
				if id := frame.Str(o.Get("optionId")); id != "" {
					want = append(want, acpdialect.PermissionOption{ID: id, Name: frame.Str(o.Get("name")), Kind: frame.Str(o.Get("kind"))})
				}
				return len(want) < codex.MaxPermissionOptions
			})
		}
		if len(want) == 0 && len(p.Options) == 0 {
			return
		}
		if diff := cmp.Diff(want, p.Options); diff != "" {
			t.Fatalf("options of %s (-gjson +one pass):\n%s", s, diff)
		}
	})
}

// FuzzNativeUpdates feeds any update object to the readers of codex-acp
// 2.x's own kinds (native child sessions, compaction_update): they never
// panic, and MergeLate keeps the card it is given.
func FuzzNativeUpdates(f *testing.F) {
	seeds(f, "params.update")
	for _, s := range []string{
		`{"sessionUpdate":"subagent_spawned","subagentSessionId":"thr-a","name":"weather_research","task":"Find the weather.","capabilities":{}}`,
		`{"sessionUpdate":"subagent_state_update","subagentSessionId":"thr-a:generation:2","state":"cancelled"}`,
		`{"sessionUpdate":"compaction_update","compactionId":"k1","status":"failed","error":"Codex ended the turn before compaction completed."}`,
		`{"sessionUpdate":"notice","severity":"warning","title":"Configuration warning","description":"Unknown key"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := gjson.Parse(s)
		if ev := codex.CompactionUpdateEvent(u); ev != nil && ev.Compaction().CompactionID == "" {
			t.Fatal("a compaction without an id")
		}
		if ev := air.NoticeEvent(u); ev != nil {
			if p := ev.ProviderError(); p == nil || p.Title == "" || len(p.Title) > 1024 || len(p.Message) > 1024 {
				t.Fatalf("notice %+v", p)
			}
		}
		card := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "thr-a", Status: "running"}}
		for _, l := range []acpdialect.Late{codex.HandleSubagentSpawned(u), codex.HandleSubagentState(u)} {
			if st := l.Payload.SubagentTask; st != nil && st.ChildSessionID == "" {
				t.Fatalf("a child half without a child: %+v", st)
			}
			keep := card.Clone()
			_, _ = codex.MergeLate(card, l.Payload)
			if !card.Equal(keep) {
				t.Fatal("MergeLate changed the card it was given")
			}
		}
	})
}

// FuzzAuthStatus feeds any params to the _auth/status_update reader.
func FuzzAuthStatus(f *testing.F) {
	seeds(f, "params")
	f.Add(`{"authStatus":{"kind":"account","label":"ChatGPT Plus","account":{"email":"dev@example.com","plan":"plus"}}}`)
	f.Add(`{"authStatus":{"kind":"gateway","label":"Custom model gateway","detail":"wire"}}`)
	f.Fuzz(func(t *testing.T, s string) {
		act := codex.HandleAuthStatus(gjson.Parse(s))
		if act.Event != nil && act.Event.AuthStatus() == nil {
			t.Fatal("an auth_status event without its object")
		}
	})
}
