package air_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/air"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

// FuzzFailure feeds any JSON (or not) to the readers, as a _meta object,
// an update and a prompt result: they never panic, give the same event
// twice, and an event is a provider_error with an id and a title, a
// severity, code and action of the contract's, and bounded texts.
// Seeded from the update objects, prompt results and _meta objects of
// the Claude and Codex transcripts.
func FuzzFailure(f *testing.F) {
	transcriptLines(f, func(line string) {
		if !strings.Contains(line, "jetbrains") && !strings.Contains(line, "stopReason") {
			return
		}
		for _, path := range []string{"params.update", "result", "params.update._meta", "result._meta"} {
			if v := gjson.Get(line, path); v.Exists() {
				f.Add(v.Raw)
			}
		}
	})
	for _, s := range []string{`{}`, `null`, `[]`, `"sessionFailure"`, meta(`{"id":"i","title":"T"}`),
		meta(`{"id":"i","revision":1e400,"title":"T","actions":["retry","login","new_session","x"]}`),
		`{"_meta":` + meta(`{"id":"\u00e9","title":"\ud800","details":"é","category":"limit","severity":"warning","actions":[]}`) + `}`} {
		f.Add(s)
	}
	severities := map[string]bool{acpdialect.SeverityError: true, acpdialect.SeverityWarning: true}
	codes := map[string]bool{air.CodeAuthRequired: true, air.CodeTransportLost: true, air.CodeBadRequest: true,
		air.CodeQuotaExhausted: true, air.CodeRateLimited: true, air.CodeLimitReached: true, air.CodeProviderError: true, air.CodeNotice: true}
	actions := map[string]bool{"": true, air.ActionRetry: true, air.ActionLogin: true, air.ActionNewSession: true}
	f.Fuzz(func(t *testing.T, s string) {
		v := gjson.Parse(s)
		for _, read := range []func(gjson.Result) *acpdialect.Event{air.Failure, air.UpdateEvent, air.PromptEvent} {
			ev := read(v)
			if d := cmp.Diff(ev, read(v)); d != "" {
				t.Fatalf("two reads differ:\n%s", d)
			}
			if ev == nil {
				continue
			}
			p := ev.ProviderError()
			if ev.Type != acpdialect.EventProviderError || p == nil {
				t.Fatalf("event %+v is not a provider_error", ev)
			}
			if strings.TrimSpace(p.ID) == "" || strings.TrimSpace(p.Title) == "" {
				t.Fatalf("no id or title: %+v", p)
			}
			if !severities[p.Severity] || !codes[p.Code] || !actions[p.Action] || p.Revision < 0 {
				t.Fatalf("outside the contract: %+v", p)
			}
			if len(p.Title) > air.MaxText || len(p.Message) > air.MaxText {
				t.Fatalf("text past %d bytes: %d, %d", air.MaxText, len(p.Title), len(p.Message))
			}
			if utf8.ValidString(s) && (!utf8.ValidString(p.Title) || !utf8.ValidString(p.Message)) {
				t.Fatalf("cut inside a character: %q, %q", p.Title, p.Message)
			}
		}
	})
}

// FuzzTask feeds any JSON (or not) to the async task reader, viewed as
// the Conn passes a frame: it never panics, reads the same twice, keeps
// nothing of the frame (the Late is unchanged when the bytes are
// overwritten), and its Late is named by the task id, of a kind and
// status of the contract's, with a bounded event. Seeded from the async
// task updates of the Claude and Codex transcripts.
func FuzzTask(f *testing.F) {
	transcriptLines(f, func(line string) {
		if u := gjson.Get(line, "params.update"); strings.Contains(u.Raw, "async_task") {
			f.Add(u.Raw)
		}
	})
	for _, s := range []string{`{}`, `null`, `[]`, claudeShellSpawn, claudeMonitor, codexSpawn,
		`{"sessionUpdate":"async_task_progress","asyncTaskId":"t","summary":"\u00e9\ud800","usage":{"durationMs":1e400,"toolUses":-1,"totalTokens":"9"}}`,
		`{"sessionUpdate":"async_task_state_update","asyncTaskId":"t","state":"stopped","toolCallId":"c"}`,
		`{"sessionUpdate":"async_task_state_update","asyncTaskId":"m","state":"paused"}`} {
		f.Add(s)
	}
	kinds := map[string]bool{"": true, acpdialect.KindShell: true, acpdialect.KindMonitor: true}
	statuses := map[string]bool{"": true, acpdialect.StatusInProgress: true, acpdialect.StatusCompleted: true,
		acpdialect.StatusFailed: true, acpdialect.StatusCancelled: true, acpdialect.StatusPaused: true}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		b := []byte(s)
		v := gjson.Parse(unsafe.String(&b[0], len(b)))
		l := air.ReadTask(v).Late()
		if d := cmp.Diff(l, air.ReadTask(v).Late()); d != "" {
			t.Fatalf("two reads differ:\n%s", d)
		}
		before := cmp.Diff(acpdialect.Late{}, l)
		for i := range b {
			b[i] = 'x'
		}
		if after := cmp.Diff(acpdialect.Late{}, l); after != before {
			t.Fatalf("the Late changed with the frame:\n%s\n%s", before, after)
		}
		if l.Alias == "" {
			if d := cmp.Diff(acpdialect.Late{}, l); d != "" {
				t.Fatalf("a Late without a task id:\n%s", d)
			}
			return
		}
		p := l.Payload
		if !kinds[p.Kind] || !statuses[p.Status] {
			t.Fatalf("outside the contract: kind %q, status %q", p.Kind, p.Status)
		}
		if m := p.Monitor; m != nil {
			if m.TaskID != l.Alias || len(m.RecentEvents) > 1 || m.EventCount != int64(len(m.RecentEvents)) {
				t.Fatalf("monitor %+v of task %q", m, l.Alias)
			}
			for _, e := range m.RecentEvents {
				if len(e) > air.MaxEvent || (utf8.ValidString(s) && !utf8.ValidString(e)) {
					t.Fatalf("event of %d bytes, or cut inside a character", len(e))
				}
			}
		}
	})
}

// transcriptLines calls fn with each line of the Claude and Codex
// transcripts, the seeds of the AIR readers' fuzz targets.
func transcriptLines(f *testing.F, fn func(line string)) {
	f.Helper()
	for _, dir := range []string{"claude", "codex"} {
		files, _ := filepath.Glob(filepath.Join("..", dir, "testdata", "*.jsonl"))
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			for line := range strings.Lines(string(data)) {
				fn(strings.TrimSpace(line))
			}
		}
	}
}
