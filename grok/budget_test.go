package grok_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/grok"
	"github.com/tidwall/gjson"
)

// heapNow returns the live heap after a collection.
func heapNow() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// bigCatalogSession is a session/new request and its response with a full
// catalog of models with long names: about 180 KiB of state.
func bigCatalogSession(id int, name string) (req, resp []byte) {
	var models []string
	for m := range grok.MaxModels {
		models = append(models, fmt.Sprintf(`{"modelId":"m%d","name":"%s%d"}`, m, name, m))
	}
	req = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, id)
	resp = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"sessionId":"s%d","models":{"currentModelId":"m0","availableModels":[%s]}}}`,
		id, id, strings.Join(models, ","))
	return req, resp
}

// Grok's session state (its model catalog) counts towards its session in
// the byte budget: a flood of sessions with large catalogs stays within
// MaxBytes, the oldest sessions ended to make room, each counted.
func TestSessionStateWithinBudget(t *testing.T) {
	const limit = 4 << 20
	c := acpdialect.NewRegistry(grok.Dialect()).NewConn(acpdialect.Options{MaxBytes: limit, Agent: grok.ID})
	name := strings.Repeat("n", 512)
	var frames [][2][]byte // 100 sessions of about 180 KiB: 4 times the budget
	for i := range 100 {
		req, resp := bigCatalogSession(i+1, name)
		frames = append(frames, [2][]byte{req, resp})
	}
	before := heapNow()
	for _, f := range frames {
		if _, err := c.Outbound(f[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Inbound(f[1]); err != nil {
			t.Fatal(err)
		}
	}
	grown := heapNow() - before
	st := c.Stats()
	t.Logf("100 sessions with 256-model catalogs: heap +%.1f MiB, budget used %.1f MiB, sessions evicted %d, tracked %d",
		float64(grown)/(1<<20), float64(st.Budget.Used)/(1<<20), st.SessionsEvicted, len(c.Sessions()))
	if grown > limit+limit/8 {
		t.Errorf("heap grew %d KiB; the budget is %d KiB", grown>>10, limit>>10)
	}
	if st.Budget.Used > st.Budget.Limit || st.SessionsEvicted == 0 || len(c.Sessions())+int(st.SessionsEvicted) != 100 {
		t.Errorf("budget %+v, sessions evicted %d, tracked %d", st.Budget, st.SessionsEvicted, len(c.Sessions()))
	}
	// The newest session keeps its catalog: a set_config_option is
	// rewritten to session/set_model.
	res, err := c.Outbound([]byte(`{"jsonrpc":"2.0","id":1000,"method":"session/set_config_option","params":{"sessionId":"s100","configId":"model","value":"m1"}}`))
	if err != nil || res.Wire == nil || !strings.Contains(string(res.Wire.Frame), `"session/set_model"`) {
		t.Errorf("set_config_option on the newest session: %v, %+v", err, res.Wire)
	}
	runtime.KeepAlive(frames)
	runtime.KeepAlive(c)
}

// The catalog's SizeHint is what it keeps on the heap, give or take the
// allocator's rounding (at most an eighth), as the budget's other counts.
func TestCatalogSizeHint(t *testing.T) {
	_, resp := bigCatalogSession(1, strings.Repeat("n", 512))
	models := gjson.GetBytes(resp, "result.models")
	kept := make([]grok.Catalog, 20)
	before := heapNow()
	for i := range kept {
		kept[i], _ = grok.ParseCatalog(models)
	}
	grown := (heapNow() - before) / int64(len(kept))
	if hint := int64(kept[0].SizeHint()); hint+hint/8 < grown {
		t.Errorf("catalog: SizeHint %d, heap +%d each", hint, grown)
	}
	t.Logf("SizeHint %d, heap +%d each", kept[0].SizeHint(), grown)
	runtime.KeepAlive(kept)
}
