package grok_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/grok"
)

// grokConn is a Conn with a session whose catalog is fuzzModels, in a turn.
func grokConn() *acpdialect.Conn {
	c := setConfigConn(fuzzModels)
	c.Outbound([]byte(`{"jsonrpc":"2.0","id":"p","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`))
	return c
}

// setConfigConn is a Conn with a session whose catalog is models, and no
// request awaiting its response: the set_config_option benchmarks reuse
// their ids, which an open request would make the Conn's tracking
// compaction go over at every request once it has seen 8192 of them
// (that is the Conn's tracking, not the rewrite, and not the benchmarks'
// subject).
func setConfigConn(models string) *acpdialect.Conn {
	c := acpdialect.NewRegistry(grok.Dialect()).NewConn(acpdialect.Options{Agent: grok.ID})
	c.Outbound([]byte(`{"jsonrpc":"2.0","id":"new","method":"session/new","params":{}}`))
	c.Inbound([]byte(`{"jsonrpc":"2.0","id":"new","result":{"sessionId":"s1","models":` + models + `}}`))
	return c
}

// BenchmarkGrokChunk: a message chunk with the context sample on its
// params, the sample unchanged (the usual case): no event, no allocation.
func BenchmarkGrokChunk(b *testing.B) {
	c := grokConn()
	f := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Reading the repository layout before changing anything."}},"_meta":{"totalTokens":42}}}`)
	c.Inbound(f)
	b.SetBytes(int64(len(f)))
	b.ReportAllocs()
	for b.Loop() {
		if res, _ := c.Inbound(f); len(res.Events) != 0 {
			b.Fatal(res.Events)
		}
	}
}

// BenchmarkGrokEcho: the prompt's echo, flagged.
func BenchmarkGrokEcho(b *testing.B) {
	c := grokConn()
	f := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"fix the failing test"}}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if res, _ := c.Inbound(f); res.Wire == nil || !res.Wire.Echo {
			b.Fatal("no echo")
		}
	}
}

// The frames of the set_config_option round: the client's request (an
// effort change: the longest params), the agent's reply confirming the
// model as Grok does, and a request refused without reaching the agent.
var (
	setConfigRequest = []byte(`{"jsonrpc":"2.0","id":9,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"reasoning_effort","value":"low"}}`)
	setModelReply    = []byte(`{"jsonrpc":"2.0","id":9,"result":{"_meta":{"model":"a"}}}`)
	refusedRequest   = []byte(`{"jsonrpc":"2.0","id":9,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"model","value":"nope"}}`)
)

// BenchmarkGrokSetConfig: a set_config_option sent as set_model and its
// reply turned back: both frames, with the dialect's hooks building the
// params and the options.
func BenchmarkGrokSetConfig(b *testing.B) {
	c := setConfigConn(fuzzModels)
	b.ReportAllocs()
	for b.Loop() {
		out, _ := c.Outbound(setConfigRequest)
		in, _ := c.Inbound(setModelReply)
		if out.Wire == nil || out.Wire.Frame == nil || in.Wire == nil || in.Wire.Frame == nil {
			b.Fatal("not rewritten")
		}
	}
}

// setConfigBatch is setConfigRequest and setModelReply under n ids.
func setConfigBatch(n int) (reqs, replies [][]byte) {
	for i := range n {
		id := fmt.Appendf(nil, `"id":%d,`, i)
		reqs = append(reqs, bytes.Replace(setConfigRequest, []byte(`"id":9,`), id, 1))
		replies = append(replies, bytes.Replace(setModelReply, []byte(`"id":9,`), id, 1))
	}
	return reqs, replies
}

// BenchmarkGrokSetConfigOutbound: the set_config_option sent as
// set_model, alone: requests go in batches under their own ids, the timer
// stopped while the agent replies to a batch.
func BenchmarkGrokSetConfigOutbound(b *testing.B) {
	c := setConfigConn(fuzzModels)
	reqs, replies := setConfigBatch(100)
	b.ReportAllocs()
	for i := range b.N {
		k := i % len(reqs)
		if k == 0 && i > 0 {
			b.StopTimer()
			for _, r := range replies {
				c.Inbound(r)
			}
			b.StartTimer()
		}
		if out, _ := c.Outbound(reqs[k]); out.Wire == nil || out.Wire.Frame == nil {
			b.Fatal("not rewritten")
		}
	}
}

// BenchmarkGrokSetConfigInbound: the agent's reply turned back into the
// set_config_option response, with its config event, alone: the timer
// stops while a batch of requests goes.
func BenchmarkGrokSetConfigInbound(b *testing.B) {
	c := setConfigConn(fuzzModels)
	reqs, replies := setConfigBatch(100)
	b.ReportAllocs()
	for i := range b.N {
		k := i % len(reqs)
		if k == 0 {
			b.StopTimer()
			for _, r := range reqs {
				c.Outbound(r)
			}
			b.StartTimer()
		}
		if in, _ := c.Inbound(replies[k]); in.Wire == nil || in.Wire.Frame == nil || len(in.Events) != 1 {
			b.Fatal("not turned back")
		}
	}
}

// BenchmarkGrokRefusal: a refused set_config_option, answered at once.
func BenchmarkGrokRefusal(b *testing.B) {
	c := setConfigConn(fuzzModels)
	b.ReportAllocs()
	for b.Loop() {
		if out, _ := c.Outbound(refusedRequest); out.Wire == nil || out.Wire.Deliver == nil {
			b.Fatal("not refused")
		}
	}
}
