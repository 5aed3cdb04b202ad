package dialecttest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A dialect written in a module of its own, importing only the public API,
// passes the kit: the test writes such a module next to a copy of this
// one's go.sum and runs its tests with the go command.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command on a module of its own")
	}
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(here))
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/acme\n\ngo 1.26\n\n" +
			"require github.com/acpdialect/acpdialect v0.0.0\n\n" +
			"replace github.com/acpdialect/acpdialect => " + root + "\n",
		"go.sum":              string(sum),
		"acme.go":             outsideDialect,
		"acme_test.go":        outsideTest,
		"testdata/task.jsonl": outsideTranscript,
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// -update is the kit's own flag (a test that defined its own would
	// panic at start): the first run writes the goldens, the second
	// compares against them.
	for _, args := range [][]string{{"mod", "tidy"}, {"test", "./...", "-update"}, {"test", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
	}
	events, err := os.ReadFile(filepath.Join(dir, "testdata", "task.events.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(events), `"model":"m1"`) {
		t.Errorf("the golden -update wrote does not carry acme/task's model:\n%s", events)
	}
}

const outsideDialect = `// Package acme is a dialect outside acpdialect's module.
package acme

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// Dialect is the Acme agent's: acme/task names a tool call's model.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "acme",
		Match: func(name, _ string) bool { return name == "acme-agent" },
		Methods: []acpdialect.Method{{Name: "acme/task", Kind: acpdialect.Request, Handle: handleTask}},
		MergeLate: func(cur, late acpdialect.Payload) (acpdialect.Payload, bool) {
			if late.SubagentTask == nil {
				return cur, false
			}
			cur.Kind, cur.Generic, cur.SubagentTask = acpdialect.KindSubagentTask, nil, late.SubagentTask
			return cur, true
		},
	}
}

func handleTask(params gjson.Result) acpdialect.Action {
	return acpdialect.Action{Late: acpdialect.Late{
		ToolCallID: frame.Str(params.Get("toolCallId")),
		Payload: acpdialect.Payload{Kind: acpdialect.KindSubagentTask,
			SubagentTask: &acpdialect.SubagentTask{Model: frame.Str(params.Get("model"))}},
	}}
}
`

const outsideTest = `package acme_test

import (
	"os"
	"strings"
	"testing"

	"example.com/acme"
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialecttest"
)

func TestReplay(t *testing.T) {
	f, err := os.Open("testdata/task.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, events, err := dialecttest.Replay(acpdialect.NewRegistry(acme.Dialect()), f, "")
	if err != nil || !strings.Contains(string(events), "m1") {
		t.Fatalf("replay: %v\n%s", err, events)
	}
}

func TestConformance(t *testing.T) {
	dialecttest.Run(t, acme.Dialect(), dialecttest.Options{
		Agents: []string{"acme-agent"},
		Dir:    "testdata",
		Frames: [][]byte{dialecttest.Request(7, "acme/task", map[string]any{"toolCallId": "t1", "model": "m1"})},
	})
}
`

const outsideTranscript = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"acme-agent","version":"1.0"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Task","kind":"other","status":"in_progress"}}}
{"jsonrpc":"2.0","id":7,"method":"acme/task","params":{"toolCallId":"t1","model":"m1"}}
`
