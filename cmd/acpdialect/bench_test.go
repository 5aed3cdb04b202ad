package main

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/internal/replay"
	tw "github.com/acpdialect/acpdialect/internal/testwire"
)

// mixed is a large mixed transcript: 16 turns of a Cursor session (about
// 4.4 MB: chunks, file reads with outputs up to 30 KB, subagents with
// cursor/task) with the real Claude and Codex captures' updates in every
// turn.
func mixed(b *testing.B) []byte {
	caps, err := tw.CaptureUpdates(filepath.Join("..", "..", "testdata", "*.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tw.WriteMixed(&buf, 16, caps); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkReplayJSON is `acpdialect replay --json -` on the mixed
// transcript, output discarded.
func BenchmarkReplayJSON(b *testing.B) {
	in := mixed(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"replay", "--json", "-"}, bytes.NewReader(in), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkConnAlone feeds the same lines to a Conn, each in its
// direction (worked out beforehand): the floor a replay adds to.
func BenchmarkConnAlone(b *testing.B) {
	in := mixed(b)
	type line struct {
		b   []byte
		out bool
	}
	var lines []line
	s, _ := replay.NewStream(replay.Builtins(), replay.Options{}, replay.Sink{Frame: func(f replay.Frame) {
		lines = append(lines, line{bytes.Clone(f.Raw), f.Dir == replay.ClientToAgent})
	}}, nil)
	s.Feed(bytes.NewReader(in))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		c := replay.Builtins().NewConn(acpdialect.Options{ClientAnswers: true})
		for _, l := range lines {
			if l.out {
				c.Outbound(l.b)
			} else {
				c.Inbound(l.b)
			}
		}
	}
}
