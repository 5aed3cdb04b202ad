package dialecttest

import (
	"io"
	"testing"

	"github.com/acpdialect/acpdialect/internal/testwire"
)

// Frame builders. Each returns one JSON-RPC 2.0 line without a trailing
// newline, with "jsonrpc" first and the members in wire order, encoded
// with encoding/json. An id is encoded as given: pass a json.RawMessage to
// pin exact bytes such as 1.50. They panic on a value encoding/json cannot
// encode: that is a bug in the test, not a wire condition.

// Request is a JSON-RPC request; a nil id is written as null.
func Request(id any, method string, params any) []byte { return testwire.Request(id, method, params) }

// Notify is a JSON-RPC notification (no id).
func Notify(method string, params any) []byte { return testwire.Notify(method, params) }

// Response is a success response; a nil result is written as {}.
func Response(id any, result any) []byte { return testwire.Response(id, result) }

// ErrorResponse is an error response.
func ErrorResponse(id any, code int, msg string) []byte {
	return testwire.ErrorResponse(id, code, msg)
}

// SessionUpdate is a session/update notification carrying update.
func SessionUpdate(sessionID string, update any) []byte {
	return testwire.SessionUpdate(sessionID, update)
}

// Initialize is the client's initialize request and the agent's response
// naming itself agentName in agentInfo.
func Initialize(id any, agentName string) (req, resp []byte) {
	return testwire.Initialize(id, agentName)
}

// SessionNew is a session/new request and its response creating sessionID.
func SessionNew(id any, sessionID string) (req, resp []byte) {
	return testwire.SessionNew(id, sessionID)
}

// Prompt is a session/prompt request with one text block: a turn starts.
func Prompt(id any, sessionID, text string) []byte { return testwire.Prompt(id, sessionID, text) }

// PromptResponse ends a turn with stopReason ("end_turn" when empty).
func PromptResponse(id any, stopReason string) []byte {
	return testwire.PromptResponse(id, stopReason)
}

// Line is one non-blank line of a transcript: N is its 1-based line
// number, Bytes the line without its ending.
type Line = testwire.Line

// ReadTranscript splits JSONL into lines, with no limit on line length.
// Blank lines are skipped but counted, so N is the line an editor shows.
func ReadTranscript(r io.Reader) ([]Line, error) { return testwire.ReadTranscript(r) }

// Golden compares got with the golden file at path, line by line, and
// fails t with a go-cmp diff (-want +got) when they differ. It rewrites the
// file instead when update is true or the test runs with -update, the flag
// importing dialecttest defines (so a test must not define its own).
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if err := testwire.CompareGolden(path, got, update || *testwire.Update); err != nil {
		t.Errorf("%v", err)
	}
}
