package acpdialect_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// runner is a test dialect whose tool calls name the runs they speak of
// in rawInput: runs (the children), touch (they only report on them), and
// cardStatus, the status its ToolCall gives the card it reads the frame
// into. Codex's lists are bounded as the Conn's, and its reports never set
// a status back: these rules of the Conn are seen only through it.
func runner() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "runner",
		Match: func(name, _ string) bool { return name == "runner" },
		Runs: func(u frame.ToolUpdate) []acpdialect.Run {
			var runs []acpdialect.Run
			u.RawInput.Get("runs").ForEach(func(_, v gjson.Result) bool {
				runs = append(runs, acpdialect.Run{Child: v.String(), Touch: u.RawInput.Get("touch").Bool()})
				return true
			})
			return runs
		},
		ToolCall: func(u frame.ToolUpdate, p acpdialect.Payload) acpdialect.Payload {
			if s := u.RawInput.Get("cardStatus"); s.Exists() {
				p.Status = s.String()
			}
			return p
		},
	}
}

// runFrame is a runner tool call frame of session s1.
func runFrame(kind, id, status, rawInput string) string {
	return fmt.Sprintf(`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":%q,"toolCallId":%q,"status":%q,"rawInput":%s}}}`,
		kind, id, status, rawInput)
}

// TestRunsPerFrameBound: past MaxRunsPerFrame a frame's runs are ignored.
func TestRunsPerFrameBound(t *testing.T) {
	c := acpdialect.NewRegistry(runner()).NewConn(acpdialect.Options{Agent: "runner"})
	var kids []string
	for i := range acpdialect.MaxRunsPerFrame + 1 {
		kids = append(kids, fmt.Sprintf("%q", fmt.Sprint("c", i)))
	}
	got := feedFrames(t, c, runFrame("tool_call", "s", "in_progress", `{"runs":[`+strings.Join(kids, ",")+`]}`))
	if len(got) != acpdialect.MaxRunsPerFrame {
		t.Errorf("%d cards, want %d:\n%s", len(got), acpdialect.MaxRunsPerFrame, strings.Join(got, "\n"))
	}
}

// TestRunReports: a frame that reports on a run reads into the run's card
// only when that card is another tool call's, shown, and never sets its
// status back.
func TestRunReports(t *testing.T) {
	report := runFrame("tool_call", "b", "completed", `{"runs":["k"],"touch":true,"cardStatus":"pending"}`)
	tests := []struct {
		name   string
		frames []string
		want   []string // the last frame's events
	}{
		{"a status set back is kept",
			[]string{runFrame("tool_call", "a", "completed", `{"runs":["k"]}`), report},
			[]string{`{"type":"tool_call","agent":"runner","session_id":"s1","tool_call_id":"b","payload":{"kind":"generic","status":"pending","generic":{}}}`}},
		{"a card never shown stays hidden",
			[]string{runFrame("tool_call_update", "a", "in_progress", `{"runs":["k"]}`),
				runFrame("tool_call", "b", "completed", `{"runs":["k"],"touch":true,"cardStatus":"failed"}`)},
			[]string{`{"type":"tool_call","agent":"runner","session_id":"s1","tool_call_id":"b","payload":{"kind":"generic","status":"failed","generic":{}}}`}},
		// The run's card id was reused by a plain tool call: the report
		// is that id's frame, read as such, not into the plain card.
		{"the run's card id reused: read as its own frame",
			[]string{runFrame("tool_call", "a", "completed", `{"runs":["k"]}`), runFrame("tool_call", "a", "in_progress", `{}`),
				runFrame("tool_call", "a", "completed", `{"runs":["k"],"touch":true,"cardStatus":"failed"}`)},
			[]string{`{"type":"tool_call","agent":"runner","session_id":"s1","tool_call_id":"a","payload":{"kind":"generic","status":"failed","generic":{}}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := acpdialect.NewRegistry(runner()).NewConn(acpdialect.Options{Agent: "runner"})
			var got []string
			for _, f := range tt.frames {
				got = feedFrames(t, c, f)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
