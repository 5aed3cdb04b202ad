package dialects_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/testwire"
	"github.com/google/go-cmp/cmp"
)

// clientMethods are the requests a client sends in the transcripts: the
// rest of their lines go to the client.
var clientMethods = map[string]bool{"initialize": true, "session/new": true, "session/load": true,
	"session/prompt": true, "session/cancel": true, "session/set_config_option": true, "session/set_mode": true}

// TestCheckedReadsAlike: a Conn told that its frames are checked
// (Options.Checked) skips its own check and nothing else: on every
// transcript in the repository it returns what a checking Conn returns,
// frame by frame, and ends with the same stats.
func TestCheckedReadsAlike(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "*", "testdata", "*.jsonl"))
	if len(paths) < 100 {
		t.Fatalf("%d transcripts found", len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := testwire.ReadTranscript(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		plain := dialects.Registry().NewConn(acpdialect.Options{})
		checked := dialects.Registry().NewConn(acpdialect.Options{Checked: true})
		for _, l := range lines {
			if !json.Valid(l.Bytes) {
				continue // the caller of a Checked Conn drops such a line
			}
			var head struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(l.Bytes, &head)
			send := (*acpdialect.Conn).Inbound
			if clientMethods[head.Method] {
				send = (*acpdialect.Conn).Outbound
			}
			want, werr := send(plain, l.Bytes)
			got, gerr := send(checked, l.Bytes)
			if diff := cmp.Diff(outcome(want, werr), outcome(got, gerr)); diff != "" {
				t.Fatalf("%s:%d: a Checked Conn differs (-plain +checked):\n%s", p, l.N, diff)
			}
		}
		if diff := cmp.Diff(plain.Stats(), checked.Stats()); diff != "" {
			t.Errorf("%s: stats differ (-plain +checked):\n%s", p, diff)
		}
	}
}

// outcome is what a client sees of a Result, as text.
func outcome(r acpdialect.Result, err error) []string {
	events, _ := json.Marshal(r.Events)
	wire, _ := json.Marshal(r.Wire)
	return []string{string(r.Reply), string(events), string(wire), strconv.FormatBool(r.Quarantine), strconv.FormatBool(r.Awaiting), fmt.Sprint(err)}
}
