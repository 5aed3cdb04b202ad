package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestChunkMessage(t *testing.T) {
	tests := []struct {
		in   string
		want *acpdialect.Message
	}{
		{`{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"type":"text","text":"hi"}}`, &acpdialect.Message{Role: "assistant", Text: "hi"}},
		{`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hm"}}`, &acpdialect.Message{Role: "thought", Text: "hm"}},
		{`{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"..."}}`, nil},
		{`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":""}}`, nil},
		{`{"sessionUpdate":"agent_message_chunk","content":{"text":5}}`, nil},
		// The first of two equal keys counts, a second one of the wrong
		// type included.
		{`{"content":{"text":"a","text":"b"}}`, &acpdialect.Message{Role: "assistant", Text: "a"}},
		{`{"content":{"text":5,"text":"b"}}`, nil},
		{`{"sessionUpdate":"agent_thought_chunk","sessionUpdate":"agent_message_chunk","content":{"text":"t"}}`, &acpdialect.Message{Role: "thought", Text: "t"}},
		{`{"content":{"text":"a"},"content":{"text":"b"}}`, &acpdialect.Message{Role: "assistant", Text: "a"}},
		{`[1,2]`, nil},
	}
	for _, tt := range tests {
		ev := acpdialect.ChunkMessage(gjson.Parse(tt.in))
		var got *acpdialect.Message
		if ev != nil {
			got = ev.Message()
			if ev.Type != acpdialect.EventMessage {
				t.Errorf("ChunkMessage(%s).Type = %q", tt.in, ev.Type)
			}
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("ChunkMessage(%s): %s", tt.in, d)
		}
	}
}
