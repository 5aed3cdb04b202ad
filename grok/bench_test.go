package grok_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/grok"
)

// grokConn is a Conn with a session whose catalog is fuzzModels, in a turn.
func grokConn(b *testing.B) *acpdialect.Conn {
	c := acpdialect.NewRegistry(grok.Dialect()).NewConn(acpdialect.Options{Agent: grok.ID})
	c.Outbound([]byte(`{"jsonrpc":"2.0","id":"new","method":"session/new","params":{}}`))
	c.Inbound([]byte(`{"jsonrpc":"2.0","id":"new","result":{"sessionId":"s1","models":` + fuzzModels + `}}`))
	c.Outbound([]byte(`{"jsonrpc":"2.0","id":"p","method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`))
	return c
}

// BenchmarkGrokChunk: a message chunk with the context sample on its
// params, the sample unchanged (the usual case): no event, no allocation.
func BenchmarkGrokChunk(b *testing.B) {
	c := grokConn(b)
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
	c := grokConn(b)
	f := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"fix the failing test"}}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if res, _ := c.Inbound(f); res.Wire == nil || !res.Wire.Echo {
			b.Fatal("no echo")
		}
	}
}

// BenchmarkGrokSetConfig: a set_config_option sent as set_model and its
// reply turned back: both frames, with the dialect's hooks building the
// params and the options.
func BenchmarkGrokSetConfig(b *testing.B) {
	c := grokConn(b)
	req := []byte(`{"jsonrpc":"2.0","id":9,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"reasoning_effort","value":"low"}}`)
	resp := []byte(`{"jsonrpc":"2.0","id":9,"result":{}}`)
	b.ReportAllocs()
	for b.Loop() {
		out, _ := c.Outbound(req)
		in, _ := c.Inbound(resp)
		if out.Wire == nil || out.Wire.Frame == nil || in.Wire == nil || in.Wire.Frame == nil {
			b.Fatal("not rewritten")
		}
	}
}

// BenchmarkGrokRefusal: a refused set_config_option, answered at once.
func BenchmarkGrokRefusal(b *testing.B) {
	c := grokConn(b)
	req := []byte(`{"jsonrpc":"2.0","id":9,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"model","value":"nope"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if out, _ := c.Outbound(req); out.Wire == nil || out.Wire.Deliver == nil {
			b.Fatal("not refused")
		}
	}
}
