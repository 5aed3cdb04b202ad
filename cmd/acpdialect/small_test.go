package main

import (
	"strings"
	"testing"

	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// TestSmallThings: the byte-order mark, the names --agent knows, --json
// with no events, the summary's counter names, the version.
func TestSmallThings(t *testing.T) {
	task := string(tw.CursorTask(5, map[string]any{"toolCallId": "t1"})) + "\n"
	t.Run("bom", func(t *testing.T) {
		code, out, errs := cli(t, "\xef\xbb\xbf"+task, "replay", "--json", "--agent", "cursor", "-")
		if code != 0 || errs != "" || !strings.Contains(out, `"id":5,"result":{}`) {
			t.Fatalf("exit %d, stderr %q, out %q", code, errs, out)
		}
	})
	t.Run("unknown agent", func(t *testing.T) {
		// (an agent no built-in dialect identifies; the list of known ones
		// grows with the built-ins and ends with "unknown")
		code, _, errs := cli(t, task, "replay", "--agent", "no-such-agent", "-")
		if code != exitUsage || !strings.Contains(errs, `unknown agent "no-such-agent"; known: cursor, claude, codex, grok, `) ||
			!strings.Contains(errs, `, unknown`) {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
	})
	t.Run("no events", func(t *testing.T) {
		chunk := string(tw.SessionUpdate("s1", map[string]any{"sessionUpdate": "agent_message_chunk",
			"content": map[string]any{"type": "text", "text": "hi"}})) + "\n"
		code, out, errs := cli(t, chunk, "replay", "--json", "-")
		if code != 0 || out != "" || !strings.Contains(errs, "acpdialect: no events") {
			t.Fatalf("exit %d, out %q, stderr %q", code, out, errs)
		}
	})
	t.Run("counter names", func(t *testing.T) {
		_, view, _ := cli(t, task, "replay", "--agent", "cursor", "-")
		_, final, _ := cli(t, task, "replay", "--final", "--agent", "cursor", "-")
		last := view[strings.LastIndex(strings.TrimSuffix(view, "\n"), "\n")+1:]
		for _, kv := range strings.Fields(last) {
			name, _, _ := strings.Cut(kv, "=")
			if name == "agent" || name == "tool_calls" {
				continue // the stats line's agent; the count of its tool_call lines
			}
			json := `"` + name + `":`
			if p, k, ok := strings.Cut(name, "."); ok {
				json = `"` + p + `":{` // a store's counters, e.g. pending.swept
				if !strings.Contains(final, `"`+k+`":`) {
					t.Errorf("--final has no %q", k)
				}
			}
			if !strings.Contains(final, json) {
				t.Errorf("summary counter %s is not named so in --final:\n%s", name, final)
			}
		}
	})
	t.Run("version", func(t *testing.T) {
		code, out, _ := cli(t, "", "version")
		if code != 0 || out != "acpdialect "+version()+"\n" || version() == "" {
			t.Fatalf("exit %d, out %q", code, out)
		}
	})
}

// TestRedactCommand: redact reads a file or stdin and keeps the line
// count; its usage errors are usage errors.
func TestRedactCommand(t *testing.T) {
	in := string(tw.Prompt(2, "s1", "my secret plan")) + "\n\nnot json\n"
	code, out, _ := cli(t, in, "redact", "-")
	if code != 0 || strings.Contains(out, "secret plan") || strings.Count(out, "\n") != 3 || !strings.Contains(out, `"method":"session/prompt"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if code, _, _ := cli(t, "", "redact"); code != exitUsage {
		t.Errorf("no argument: exit %d", code)
	}
	if code, _, _ := cli(t, "", "redact", "/nonexistent/x.jsonl"); code != exitFail {
		t.Errorf("missing file: exit %d", code)
	}
}
