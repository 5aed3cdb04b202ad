package wiretap_test

import (
	"bufio"
	"bytes"
	"io"
	"testing"
	"unsafe"

	"github.com/acpdialect/acpdialect/frame"
	"github.com/tidwall/gjson"
)

// floorReader is the plain line copy plus the least any correct
// normalizer must do with the mixed transcript: read each SDK-layout
// update's kind, and walk the top-level members of every tool call update
// (its status, rawInput, rawOutput and _meta may follow a large output).
// Everything else (cards, events, correlation, the captures' frames, the
// renames) is left out, so this is a lower bound on the tap's cost.
type floorReader struct {
	lineCopy
	sink int
}

// newFloor reads lines with a buffer that holds the transcript's longest,
// so that each is inspected whole, then copies them out as lineCopy does.
func newFloor(r io.Reader) io.Reader {
	return &floorReader{lineCopy: lineCopy{br: bufio.NewReaderSize(r, 1<<20)}}
}

var sdkUpdateHead = []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"`)

func (f *floorReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(f.pend) == 0 {
			if f.err != nil || (n > 0 && f.br.Buffered() == 0) {
				break
			}
			f.pend, f.err = f.br.ReadSlice('\n')
			f.inspect(f.pend)
		}
		k := copy(p[n:], f.pend)
		f.pend = f.pend[k:]
		n += k
	}
	if n == 0 && f.err != nil {
		return 0, f.err
	}
	return n, nil
}

func (f *floorReader) inspect(line []byte) {
	if !bytes.HasPrefix(line, sdkUpdateHead) {
		return
	}
	// The kind follows the session id at a fixed offset, as on the Conn's
	// fast path.
	sid := bytes.IndexByte(line[len(sdkUpdateHead):], '"')
	rest := line[len(sdkUpdateHead)+max(sid, 0):]
	if sid < 0 || !bytes.HasPrefix(rest, []byte(`","update":{"sessionUpdate":"tool_call`)) {
		return
	}
	start := len(line) - len(rest) + len(`","update":`)
	u := frame.ReadToolUpdate(gjson.Parse(unsafeStr(line[start:])))
	f.sink += len(u.Status.Raw)
}

// BenchmarkFloorMixed is floorReader over the mixed transcript: what the
// tap's throughput cannot exceed, whatever its design, as long as it reads
// every tool call update.
func BenchmarkFloorMixed(b *testing.B) {
	benchRead(b, mixedTranscript(b), newFloor)
}

// unsafeStr views b as a string, as the tap does: no copy.
func unsafeStr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
