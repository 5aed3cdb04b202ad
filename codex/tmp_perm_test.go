package codex_test

import (
	"bytes"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/internal/scan"
	"github.com/tidwall/gjson"
)

func permLines(b *testing.B) [][]byte {
	lines, _ := captureLines(b)
	var out [][]byte
	for _, l := range lines {
		if bytes.Contains(l, []byte(`"session/request_permission"`)) {
			out = append(out, l)
		}
	}
	return out
}

func BenchmarkTmpPermConn(b *testing.B) {
	ls := permLines(b)
	c := conn(b, acpdialect.Options{})
	for b.Loop() {
		for _, l := range ls {
			c.Inbound(l)
		}
	}
}
func BenchmarkTmpPermValid(b *testing.B) {
	ls := permLines(b)
	for b.Loop() {
		for _, l := range ls {
			scan.Valid(scan.UnsafeString(l))
		}
	}
}
func BenchmarkTmpPermParse(b *testing.B) {
	ls := permLines(b)
	var ps []gjson.Result
	for _, l := range ls {
		ps = append(ps, gjson.GetBytes(l, "params"))
	}
	for b.Loop() {
		for _, p := range ps {
			codex.ParsePermission(p)
		}
	}
}
