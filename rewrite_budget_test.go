package acpdialect_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
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
	rewritten := 0
	for _, f := range frames {
		r, err := h.c.Outbound(f)
		switch {
		case err != nil || r.Wire == nil:
			t.Fatalf("not rewritten: %v, %+v", err, r.Wire)
		case r.Wire.Frame != nil:
			rewritten++
		case !strings.Contains(string(r.Wire.Deliver), "too many rewritten requests"):
			t.Fatalf("refused with %q", r.Wire.Deliver)
		}
	}
	grown := heapNow() - before
	st := h.c.Stats()
	t.Logf("200 rewritten requests with 100 KiB notes: heap +%.1f MiB, budget used %.1f MiB, %d rewritten, %d refused",
		float64(grown)/(1<<20), float64(st.Budget.Used)/(1<<20), rewritten, st.Refused)
	if grown > limit+limit/8 {
		t.Errorf("heap grew %d KiB; the budget is %d KiB", grown>>10, limit>>10)
	}
	// Rewritten requests are never forgotten (their responses could not be
	// turned back): past half the requests' share the rest are refused.
	if st.Budget.Used > st.Budget.Limit || st.RequestsEvicted != 0 || rewritten == 0 || st.Refused != uint64(len(frames)-rewritten) {
		t.Errorf("budget %+v, requests evicted %d, %d rewritten, %d refused", st.Budget, st.RequestsEvicted, rewritten, st.Refused)
	}
	refused := st.Refused
	// A note larger than MaxValue (256 KiB here): refused at once.
	r, err := h.c.Outbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":5,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"x","value":"%s"}}`,
		strings.Repeat("v", 300<<10)))
	if err != nil || r.Wire == nil || r.Wire.Frame != nil || !strings.Contains(string(r.Wire.Deliver), `"code":-32603`) {
		t.Errorf("an oversized note: %v, %+v", err, r.Wire)
	}
	if st := h.c.Stats(); st.Budget.Refused != 1 || st.Refused != refused+1 {
		t.Errorf("refused: budget %+v, stats %d", st.Budget, st.Refused)
	}
	runtime.KeepAlive(frames)
	runtime.KeepAlive(h.c)
}

// A rewritten request is never forgotten to keep within MaxRequests: its
// response, the Rewrite forgotten, would reach the client as the agent
// sent it (Grok's session/set_model result for a set_config_option). The
// oldest request not rewritten goes instead, and a rewrite that would
// leave no room for the others is refused at once.
func TestRewriteNeverForgotten(t *testing.T) {
	const catalog = `{"currentModelId":"a","availableModels":[{"modelId":"a"},{"modelId":"b"}]}`
	set := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"model","value":"b"}}`, id)
	}
	prompt := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`, id)
	}
	for _, tc := range []struct {
		name    string
		out     []string // the client's requests after session/new
		refused []int    // the indices of out the Conn refuses
		answer  int      // the request the agent then answers: turned back
		evicted uint64
	}{
		{"prompts after the rewrite", []string{set(2), prompt(3), prompt(4), prompt(5)}, nil, 2, 1},
		{"prompts before the rewrite", []string{prompt(2), prompt(3), set(4), prompt(5)}, nil, 4, 1},
		{"rewrites beyond MaxRequests-1", []string{set(2), set(3), set(4), prompt(5), prompt(6)}, []int{2}, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dialects.Registry().NewConn(acpdialect.Options{Agent: "grok", MaxRequests: 3})
			for i, f := range []string{`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`,
				`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","models":` + catalog + `}}`} {
				var err error
				if i == 0 {
					_, err = c.Outbound([]byte(f))
				} else {
					_, err = c.Inbound([]byte(f))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for i, f := range tc.out {
				r, err := c.Outbound([]byte(f))
				refused := r.Wire != nil && r.Wire.Frame == nil
				if err != nil || refused != slices.Contains(tc.refused, i) {
					t.Fatalf("%s: %v, %+v; refused: want %v", f, err, r.Wire, !refused)
				}
				if refused && !strings.Contains(string(r.Wire.Deliver), `"code":-32603`) {
					t.Errorf("refused with %q", r.Wire.Deliver)
				}
			}
			r, err := c.Inbound(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{}}`, tc.answer))
			if err != nil || r.Wire == nil || !strings.Contains(string(r.Wire.Frame), `"configOptions"`) {
				t.Errorf("the response to the rewritten request %d: %v, %+v; want it turned back", tc.answer, err, r.Wire)
			}
			if st := c.Stats(); st.RequestsEvicted != tc.evicted {
				t.Errorf("requests evicted %d; want %d", st.RequestsEvicted, tc.evicted)
			}
		})
	}
}
