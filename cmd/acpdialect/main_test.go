package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// cli runs the command in-process.
func cli(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSampleGolden(t *testing.T) {
	for _, tt := range []struct{ flag, golden string }{
		{"", "sample.view.golden"},
		{"--json", "sample.events.golden"},
		{"--final", "sample.final.golden"},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			args := []string{"replay"}
			if tt.flag != "" {
				args = append(args, tt.flag)
			}
			code, out, errs := cli(t, "", args...)
			if code != 0 || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			tw.Golden(t, filepath.Join("testdata", tt.golden), []byte(out))
		})
	}
}

func TestSampleView(t *testing.T) {
	code, out, _ := cli(t, "", "replay")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"subagent_task", `description="Summarize src JS files"`, `prompt="Read every .js file`,
		"model=composer-2.5-fast", "agent_id=eaa1c0de", "duration_ms=4200",
		"cursor/task -> {}", "cursor/unknown_method -> error -32601 Method not found",
		"agent=cursor tool_calls=2 bad_lines=0 replies=2 declined=1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
	for i, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line %d has trailing spaces: %q", i+1, l)
		}
	}
}

func TestJSONLinesAreEvents(t *testing.T) {
	code, out, _ := cli(t, "", "replay", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 5 {
		t.Fatalf("only %d events", len(lines))
	}
	for _, l := range lines {
		// An event, and nothing but: read back and written again, the line
		// is the same.
		var ev acpdialect.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil || ev.Type == "" || ev.Agent != "cursor" {
			t.Errorf("not an event: %s (%v)", l, err)
			continue
		}
		var again strings.Builder
		enc := json.NewEncoder(&again)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(ev); err != nil || again.String() != l+"\n" {
			t.Errorf("event written again differs (%v):\n%s\n%s", err, l, again.String())
		}
	}
}

// --final wins over --json, in either order.
func TestFinalWinsOverJSON(t *testing.T) {
	_, final, _ := cli(t, "", "replay", "--final")
	_, both, _ := cli(t, "", "replay", "--json", "--final")
	if final != both {
		t.Fatalf("--json --final differs from --final:\n%s\n%s", both, final)
	}
	last := strings.Split(strings.TrimSuffix(final, "\n"), "\n")
	if !strings.HasPrefix(last[len(last)-1], `{"type":"stats"`) {
		t.Fatalf("last final line is not stats: %s", final)
	}
}

func TestInputs(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	taskFrame := string(tw.CursorTask(5, map[string]any{"toolCallId": "t1"}))
	os.WriteFile(good, []byte(taskFrame+"\n"), 0o644)
	os.WriteFile(bad, []byte(taskFrame+"\n{oops\n\n[]\n"+taskFrame+"\n"), 0o644)

	tests := []struct {
		name      string
		stdin     string
		args      []string
		code      int
		outHas    string
		errHas    []string
		errHasNot string
	}{
		{"file", "", []string{"replay", "--agent", "cursor", good}, 0, "cursor/task -> {}", nil, "acpdialect:"},
		{"flags after file", "", []string{"replay", good, "--agent", "cursor", "--json"}, 0, `"result":{}`, nil, "acpdialect:"},
		{"stdin", taskFrame + "\n", []string{"replay", "--agent=cursor", "-"}, 0, "cursor/task -> {}", nil, ""},
		{"unknown agent by default", "", []string{"replay", good}, 0, "error -32601", nil, ""},
		{"bad lines skipped", "", []string{"replay", "--agent", "cursor", bad}, 0, "bad_lines=2",
			[]string{"acpdialect: line 2: invalid JSON", "acpdialect: line 4: not a JSON object"}, ""},
		{"strict", "", []string{"replay", "--strict", "--agent", "cursor", bad}, 1, "replies=1",
			[]string{"acpdialect: line 2: invalid JSON"}, "line 4"},
		{"missing file", "", []string{"replay", filepath.Join(dir, "nope.jsonl")}, 1, "",
			[]string{"acpdialect: open " + filepath.Join(dir, "nope.jsonl") + ": no such file"}, ""},
		{"directory", "", []string{"replay", dir}, 1, "", []string{"acpdialect: " + dir + " is a directory, not a transcript"}, ""},
		{"directory --json", "", []string{"replay", "--json", dir}, 1, "", []string{"is a directory"}, "no events"},
		{"unknown --agent", "", []string{"replay", "--agent", "no-such-agent", good}, 2, "",
			[]string{`acpdialect: unknown agent "no-such-agent"; known: cursor`}, ""},
		{"--agent none", "", []string{"replay", "--agent", "none", good}, 0, "error -32601", nil, ""},
		{"two files", "", []string{"replay", good, good}, 2, "", []string{"one FILE at most", "usage:"}, ""},
		{"bad flag", "", []string{"replay", "--frobnicate"}, 2, "", []string{"usage:"}, ""},
		{"no command", "", nil, 2, "", []string{"usage:"}, ""},
		{"unknown command", "", []string{"play"}, 2, "", []string{`unknown command "play"`}, ""},
		{"help", "", []string{"help"}, 0, "usage: acpdialect replay", nil, ""},
		{"-h", "", []string{"-h"}, 0, "usage: acpdialect replay", nil, ""},
		{"replay -h", "", []string{"replay", "-h"}, 0, "built-in dialects (cursor", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := cli(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errs)
			}
			if tt.code == 1 && tt.outHas == "" && out != "" {
				t.Errorf("a failed replay that read nothing printed:\n%s", out)
			}
			if !strings.Contains(out, tt.outHas) {
				t.Errorf("stdout lacks %q:\n%s", tt.outHas, out)
			}
			for _, h := range tt.errHas {
				if !strings.Contains(errs, h) {
					t.Errorf("stderr lacks %q:\n%s", h, errs)
				}
			}
			if tt.errHasNot != "" && strings.Contains(errs, tt.errHasNot) {
				t.Errorf("stderr has %q:\n%s", tt.errHasNot, errs)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("é", maxText+5)
	got := truncate(long)
	if n := len([]rune(got)); n != maxText || !strings.HasSuffix(got, "…") {
		t.Errorf("truncate: %d runes %q", n, got)
	}
	if truncate("short") != "short" {
		t.Error("short text changed")
	}
	if quote("") != "" || quote("a\nb") != `"a\nb"` {
		t.Errorf("quote: %q %q", quote(""), quote("a\nb"))
	}
}

// TestVersionHelp: version -h is help, as for every other command; other
// arguments are a usage error.
func TestVersionHelp(t *testing.T) {
	if code, out, _ := cli(t, "", "version", "-h"); code != exitOK || !strings.HasPrefix(out, "usage: acpdialect version") {
		t.Errorf("version -h: exit %d, out %q", code, out)
	}
	if code, _, _ := cli(t, "", "version", "x"); code != exitUsage {
		t.Errorf("version x: exit %d, want %d", code, exitUsage)
	}
}
