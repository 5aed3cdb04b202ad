package acpdialect_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// bigNote is a request note that says its size.
type bigNote struct{ value string }

func (n *bigNote) SizeHint() int { return 16 + len(n.value) }

// noter rewrites session/set_config_option to vendor/set, noting the
// value the client set until the agent's response.
func noter() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    "noter",
		Match: func(name, _ string) bool { return name == "noter" },
		Rewrites: []acpdialect.Rewrite{{
			Method: "session/set_config_option",
			Request: func(p gjson.Result, _ any) acpdialect.Redirect {
				return acpdialect.Redirect{Method: "vendor/set", Params: json.RawMessage(`{}`),
					Note: &bigNote{strings.Clone(p.Get("value").String())}}
			},
			Response: func(acpdialect.AgentResponse, any, any) acpdialect.Step { return acpdialect.Step{} },
		}},
	}
}

// The notes of rewritten requests in flight count towards their tracked
// requests in the byte budget: a flood of requests with large notes stays
// within the requests' share, the oldest forgotten, and a note too large
// to keep refuses its request.
func TestRewriteNotesWithinBudget(t *testing.T) {
	const limit = 4 << 20
	h := newHarness(t, acpdialect.NewRegistry(noter()), acpdialect.Options{MaxBytes: limit})
	h.initialize("noter")
	value := strings.Repeat("v", 100<<10)
	frames := make([][]byte, 200) // 20 MB of notes: 5 times the budget
	for i := range frames {
		frames[i] = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"x","value":"%s%d"}}`,
			i+10, value, i)
	}
	before := heapNow()
	for _, f := range frames {
		if r, err := h.c.Outbound(f); err != nil || r.Wire == nil || r.Wire.Frame == nil {
			t.Fatalf("not rewritten: %v, %+v", err, r.Wire)
		}
	}
	grown := heapNow() - before
	st := h.c.Stats()
	t.Logf("200 rewritten requests with 100 KiB notes: heap +%.1f MiB, budget used %.1f MiB, requests evicted %d",
		float64(grown)/(1<<20), float64(st.Budget.Used)/(1<<20), st.RequestsEvicted)
	if grown > limit+limit/8 {
		t.Errorf("heap grew %d KiB; the budget is %d KiB", grown>>10, limit>>10)
	}
	if st.Budget.Used > st.Budget.Limit || st.RequestsEvicted == 0 {
		t.Errorf("budget %+v, requests evicted %d", st.Budget, st.RequestsEvicted)
	}
	// A note larger than MaxValue (256 KiB here): refused at once.
	r, err := h.c.Outbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":5,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"x","value":"%s"}}`,
		strings.Repeat("v", 300<<10)))
	if err != nil || r.Wire == nil || r.Wire.Frame != nil || !strings.Contains(string(r.Wire.Deliver), `"code":-32603`) {
		t.Errorf("an oversized note: %v, %+v", err, r.Wire)
	}
	if st := h.c.Stats(); st.Budget.Refused != 1 || st.Refused != 1 {
		t.Errorf("refused: budget %+v, stats %d", st.Budget, st.Refused)
	}
	runtime.KeepAlive(frames)
	runtime.KeepAlive(h.c)
}
