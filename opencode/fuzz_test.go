package opencode_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/acpdialect/acpdialect/opencode"
	"github.com/tidwall/gjson"
)

// seeds adds the values at path of every transcript line, and a few
// hand-made ones, to f.
func seeds(f *testing.F, path string, more ...string) {
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
	for _, s := range append([]string{`{}`, `null`, `[]`, `"x"`, `{"a":`}, more...) {
		f.Add(s)
	}
}

// FuzzToolCall: the recognizer never panics, keeps the payload it is
// given, and claims only what IsShell (a shell card with its object) or
// IsTask claims; a task card stays one, a shell card too. A todos event
// comes only from a completed update, and each todo has an id.
func FuzzToolCall(f *testing.F) {
	seeds(f, "params.update", `{"title":"task","rawOutput":{"output":"task_id: \u0000\n<task_result></task_result>","metadata":{"model":{"providerID":1}}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		u := frame.ReadToolUpdate(gjson.Parse(s))
		for _, prev := range []acpdialect.Payload{
			{Kind: acpdialect.KindGeneric},
			{Kind: acpdialect.KindSubagentTask, SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k", Status: "running"}},
			{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusFailed, SubagentTask: &acpdialect.SubagentTask{ChildSessionID: "k"}},
			{Kind: acpdialect.KindGeneric, Generic: &acpdialect.Generic{ACPKind: opencode.KindExecute}},
			{Kind: acpdialect.KindShell, Shell: &acpdialect.Shell{Command: "c", Cwd: "/w"}},
		} {
			keep := prev.Clone()
			next := opencode.ToolCall(u, prev)
			if !prev.Equal(keep) {
				t.Fatal("ToolCall changed the payload it was given")
			}
			switch {
			case prev.Kind == acpdialect.KindGeneric && next.Kind == acpdialect.KindShell:
				if !opencode.IsShell(u, prev) || next.Shell == nil {
					t.Fatalf("a shell card IsShell rejects, or without its object: %s", s)
				}
			case prev.Kind == acpdialect.KindGeneric && next.Kind != prev.Kind && !opencode.IsTask(u):
				t.Fatalf("claimed a tool call IsTask rejects: %s", s)
			case prev.Kind != acpdialect.KindGeneric && next.Kind != prev.Kind:
				t.Fatalf("a %s card became %s: %s", prev.Kind, next.Kind, s)
			}
			if st := next.SubagentTask; st != nil && st.Error != "" && prev.Status != acpdialect.StatusFailed {
				t.Fatalf("an error on a card that did not fail: %s", s)
			}
		}
		_ = opencode.ReadTask(u)
		_ = opencode.ReadShell(u)
		if ev := opencode.TodosEvent(u); ev != nil {
			todos := ev.Todos()
			if u.Status.Str != acpdialect.StatusCompleted || todos == nil || todos.Items == nil || len(todos.Items) > acpdialect.MaxTodos {
				t.Fatalf("todos %+v from %s", ev, s)
			}
			for _, it := range todos.Items {
				if it.ID == "" {
					t.Fatalf("a todo without an id from %s", s)
				}
			}
		}
	})
}

// FuzzParseOutput: the output parser never panics and returns parts of
// its input.
func FuzzParseOutput(f *testing.F) {
	seeds(f, "params.update.rawOutput.output", "task_id: a\n<task_result>\nb\n</task_result>", "<task_result></task_result><task_result>",
		"<task id=\"a\" state=\"completed\">\n<task_result>\nb\n</task_result>\n</task>",
		"<task id=\"a\" state=\"running\">\n<summary>s</summary>\n<task_result>\nb\n</task_result>\n</task>")
	f.Fuzz(func(t *testing.T, s string) {
		id, result := opencode.ParseOutput(s)
		if !strings.Contains(s, id) || !strings.Contains(s, result) {
			t.Fatalf("ParseOutput(%q) = %q, %q", s, id, result)
		}
		tagID, state := opencode.ParseTaskTag(s)
		if (tagID == "") != (state == "") || !strings.HasPrefix(s, `<task id="`+tagID+`" state="`+state+`">`) && tagID != "" {
			t.Fatalf("ParseTaskTag(%q) = %q, %q", s, tagID, state)
		}
		if tagID != "" && (id != tagID || state != "completed" && result != "") {
			t.Fatalf("ParseOutput(%q) = %q, %q beside the tag's %q, %q", s, id, result, tagID, state)
		}
	})
}

// FuzzSubagents: the tree readers never panic, read bounded children,
// each with a child session, and MergeLate keeps the card it is given.
func FuzzSubagents(f *testing.F) {
	seeds(f, "params", `{"upsert":[{"sessionId":"k","parentSessionId":"r","phase":"running","cwd":"/w"}],"removedSessionIds":["k"]}`)
	seeds(f, "result")
	f.Fuzz(func(t *testing.T, s string) {
		v := gjson.Parse(s)
		kids := append(opencode.HandleSubagentsUpdate(v).Children, opencode.SnapshotChildren(v)...)
		if len(kids) > 3*opencode.MaxNodes {
			t.Fatalf("%d children", len(kids))
		}
		card := acpdialect.Payload{Kind: acpdialect.KindSubagentTask, Status: acpdialect.StatusInProgress, SubagentTask: &acpdialect.SubagentTask{}}
		for _, k := range kids {
			if k.Session == "" || k.Payload.SubagentTask == nil {
				t.Fatalf("child %+v", k)
			}
			keep := card.Clone()
			if _, ok := opencode.MergeLate(card, k.Payload); !ok || !card.Equal(keep) {
				t.Fatalf("MergeLate: ok %v, changed %v", ok, !card.Equal(keep))
			}
		}
		_ = opencode.ReadNode(v)
	})
}

// FuzzUsage: the usage and message readers never panic and report only
// counts that are not negative.
func FuzzUsage(f *testing.F) {
	seeds(f, "params.update", `{"used":1e400,"cost":{"amount":-0}}`)
	seeds(f, "result")
	f.Fuzz(func(t *testing.T, s string) {
		v := gjson.Parse(s)
		for _, ev := range []*acpdialect.Event{opencode.UsageEvent(v), opencode.TurnUsage(v)} {
			if ev == nil {
				continue
			}
			u := ev.Usage()
			for _, n := range []*int64{u.Used, u.Size, u.InputTokens, u.OutputTokens, u.TotalTokens, u.ThoughtTokens, u.CachedReadTokens, u.CachedWriteTokens} {
				if n != nil && *n < 0 {
					t.Fatalf("negative count in %s", s)
				}
			}
			if u.Cost != nil && !(*u.Cost >= 0) {
				t.Fatalf("cost %v", *u.Cost)
			}
		}
		_ = acpdialect.ChunkMessage(v)
	})
}
