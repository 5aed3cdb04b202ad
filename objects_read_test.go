package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

func TestCompactionStatus(t *testing.T) {
	for in, want := range map[string]string{
		"pending": "in_progress", "in_progress": "in_progress", "completed": "completed",
		"failed": "failed", "cancelled": "cancelled", "done": "", "": "", "Completed": "",
	} {
		if got := acpdialect.CompactionStatus(in); got != want {
			t.Errorf("CompactionStatus(%q) = %q, want %q", in, got, want)
		}
	}
}

// The login state claude-agent-acp and codex-acp push: first of a key
// counts, wrong types are absent, no authStatus object is no status.
func TestAuthStatusReadUpdate(t *testing.T) {
	tests := []struct {
		params string
		want   acpdialect.AuthStatus
		ok     bool
	}{
		{`{"authStatus":{"kind":"account","label":"Claude Max","account":{"email":"a@b","organization":"O","plan":"max"}}}`,
			acpdialect.AuthStatus{Kind: "account", Label: "Claude Max", Email: "a@b", Organization: "O", Plan: "max"}, true},
		{`{"authStatus":{"kind":"gateway","label":"G","detail":"https://gw"}}`, acpdialect.AuthStatus{Kind: "gateway", Label: "G", Detail: "https://gw"}, true},
		{`{"authStatus":{"kind":"none","kind":"api_key","label":7}}`, acpdialect.AuthStatus{Kind: "none"}, true},
		{`{"authStatus":{}}`, acpdialect.AuthStatus{}, true},
		{`{"authStatus":"account"}`, acpdialect.AuthStatus{}, false},
		{`{"status":{"kind":"account"}}`, acpdialect.AuthStatus{}, false},
		{`[]`, acpdialect.AuthStatus{}, false},
	}
	for _, tt := range tests {
		var got acpdialect.AuthStatus
		ok := got.ReadUpdate(gjson.Parse(tt.params))
		if ok != tt.ok || !cmp.Equal(got, tt.want) {
			t.Errorf("ReadUpdate(%s) = %+v, %v; want %+v, %v", tt.params, got, ok, tt.want, tt.ok)
		}
	}
}

func TestStatusEnded(t *testing.T) {
	for s, want := range map[string]bool{"completed": true, "failed": true, "cancelled": true,
		"pending": false, "in_progress": false, "": false, "Completed": false} {
		if got := acpdialect.StatusEnded(s); got != want {
			t.Errorf("StatusEnded(%q) = %v, want %v", s, got, want)
		}
	}
}
