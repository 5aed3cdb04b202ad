package testwire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// CaptureUpdates returns the session/update lines of the real transcripts
// matched by the globs: the wire of agents the generated turns do not
// imitate.
func CaptureUpdates(globs ...string) ([][]byte, error) {
	var out [][]byte
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			for l := range bytes.Lines(b) {
				l = bytes.TrimRight(l, "\r\n")
				if bytes.Contains(l, []byte(`"method":"session/update"`)) {
					out = append(out, l)
				}
			}
		}
	}
	return out, nil
}

// CaptureValues returns, for every session/update line of the transcripts
// matched by the globs, the raw JSON at its gjson path where it has one:
// real agent bytes to seed a fuzz target that reads only part of a frame.
func CaptureValues(path string, globs ...string) ([]string, error) {
	lines, err := CaptureUpdates(globs...)
	var out []string
	for _, l := range lines {
		if v := gjson.GetBytes(l, path); v.Exists() {
			out = append(out, v.Raw)
		}
	}
	return out, err
}

// CaptureSeeds is CaptureValues over the Claude and Codex captures of the
// module whose directory is root (relative to the test's package), for the
// fuzz targets of packages that have none of their own; it fails tb when
// they give no value, which would leave the target with hand-made seeds only.
func CaptureSeeds(tb testing.TB, root, path string) []string {
	tb.Helper()
	vals, err := CaptureValues(path,
		filepath.Join(root, "claude", "testdata", "*.jsonl"), filepath.Join(root, "codex", "testdata", "*.jsonl"))
	if err != nil || len(vals) == 0 {
		tb.Fatalf("no %s in the captures under %s: %v", path, root, err)
	}
	return vals
}

// WriteMixed writes a Cursor session of the given number of turns, both
// directions in wire order, as a client records it: each turn a prompt,
// 300 message chunks with thoughts between, 8 file reads with outputs of
// 400 B to 30 KB (each twice, in content and rawOutput), a subagent with
// its cursor/task request and the client's reply, the captures' updates,
// and the prompt's response. A turn is about 270 KB; tool call ids are new
// in every turn, so cards keep coming.
func WriteMixed(w io.Writer, turns int, captures [][]byte) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	line := func(s string) { bw.WriteString(s); bw.WriteByte('\n') }
	const sid = "0f6c1a52-3c1e-4c55-9a3f-8d1f2b7e9c41"
	line(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	line(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"cursor-agent","version":"2026.11"}}}`)
	line(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/work/project","mcpServers":[]}}`)
	line(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"` + sid + `"}}`)
	words := strings.Fields("the tap renames vendor methods so that the upstream SDK routes them to the client and every other byte passes through unchanged")
	outputs := []int{400, 2 << 10, 8 << 10, 30 << 10}
	for turn := range turns {
		id := 2 + 2*turn
		line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"%s","prompt":[{"type":"text","text":"Summarize src, part %d"}]}}`, id, sid, turn))
		for i := range 300 {
			text := strings.Join(words[i%7:i%7+1+i%9], " ") + " "
			line(sdkUpdate(sid, "agent_message_chunk", `"content":{"type":"text","text":`+jsonString(text)+`}`))
			if i%5 == 0 {
				line(sdkUpdate(sid, "agent_thought_chunk", `"content":{"type":"text","text":`+jsonString("thinking about "+text)+`}`))
			}
			if i%40 == 0 {
				call := fmt.Sprintf("call-%d-%d", turn, i)
				out := strings.Repeat("line of output from the tool\n", outputs[(turn+i/40)%len(outputs)]/29)
				line(sdkUpdate(sid, "tool_call", `"toolCallId":"`+call+`","title":"Read src/main.go","kind":"read","status":"pending","rawInput":{"path":"/work/project/src/main.go"}`))
				line(sdkUpdate(sid, "tool_call_update", `"toolCallId":"`+call+`","status":"in_progress"`))
				line(sdkUpdate(sid, "tool_call_update", `"toolCallId":"`+call+`","status":"completed","content":[{"type":"content","content":{"type":"text","text":`+jsonString(out)+`}}],"rawOutput":{"output":`+jsonString(out)+`}`))
			}
		}
		task := fmt.Sprintf("task-%d", turn)
		line(sdkUpdate(sid, "tool_call", `"toolCallId":"`+task+`","title":"Task: Summarize src","kind":"other","status":"in_progress","rawInput":{"_toolName":"task","description":"Summarize src","prompt":"Read every file under src"}`))
		line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"cursor/task","params":{"toolCallId":"%s","description":"Summarize src","prompt":"Read every file under src","model":"composer-2.5-fast","agentId":"eaa1","subagentType":{"custom":{"unspecified":{}}}}}`, 100000+turn, task))
		line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, 100000+turn))
		line(sdkUpdate(sid, "tool_call_update", `"toolCallId":"`+task+`","status":"completed","rawOutput":{"durationMs":8123,"isBackground":false}`))
		for _, c := range captures {
			bw.Write(c)
			bw.WriteByte('\n')
		}
		line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"stopReason":"end_turn"}}`, id))
	}
	return bw.Flush()
}

// sdkUpdate is a session/update in the layout the ACP SDKs write.
func sdkUpdate(sid, kind, rest string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid +
		`","update":{"sessionUpdate":"` + kind + `",` + rest + `}}}`
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
