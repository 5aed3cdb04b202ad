package wiretap_test

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/wiretap"
	"github.com/tidwall/gjson"
)

// heapNow returns the live heap after a collection.
func heapNow() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// A client that sends refused requests with huge ids and never reads: the
// tap queues their responses within 16 MiB (and 1,024 frames), the oldest
// dropped and counted, not 1,024 responses of any size.
func TestDeliveriesBoundedInBytes(t *testing.T) {
	refuser := &acpdialect.Dialect{
		ID:    "refuser",
		Match: func(name, _ string) bool { return name == "refuser" },
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(gjson.Result, any) acpdialect.Redirect {
				return acpdialect.Redirect{Error: &acpdialect.RPCError{Code: -32602, Message: "no"}}
			},
			Response: func(acpdialect.AgentResponse, any, any) acpdialect.Step { return acpdialect.Step{} },
		}},
	}
	tap := wiretap.New(acpdialect.NewRegistry(refuser).NewConn(acpdialect.Options{Agent: "refuser"}), wiretap.Options{})
	w := tap.Writer(io.Discard)
	id := strings.Repeat("i", 1<<20)
	frame := func(i int) []byte {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":"%s%d","method":"session/set_config_option","params":{"sessionId":"s1","configId":"x","value":"v"}}`+"\n", id, i)
	}
	before := heapNow()
	for i := range 100 { // 100 MiB of responses
		if _, err := w.Write(frame(i)); err != nil {
			t.Fatal(err)
		}
	}
	grown := heapNow() - before
	st := tap.Stats()
	t.Logf("100 refused requests with 1 MiB ids, never read: heap +%.1f MiB, %+v", float64(grown)/(1<<20), st)
	if grown > 16<<20+2<<20 {
		t.Errorf("heap grew %d MiB; the queue's bound is 16 MiB", grown>>20)
	}
	if st.Refused != 100 || st.Undelivered == 0 || st.Undelivered > 100-15 {
		t.Errorf("refused %d, undelivered %d", st.Refused, st.Undelivered)
	}
	runtime.KeepAlive(tap)
}
