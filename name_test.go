package acpdialect_test

import (
	"testing"

	"github.com/acpdialect/acpdialect"
)

func TestMatchName(t *testing.T) {
	known := []string{"cursor-agent", "Cursor Agent"}
	tests := []struct {
		name string
		want bool
	}{
		{"cursor-agent", true},
		{"CURSOR-AGENT", true},
		{"Cursor Agent", true},
		{"  cursor agent\t", true},
		{"cursor-agent 1.2", true},
		{"cursor-agent/2025.11.25", true},
		{"cursor-agent@v3", true},
		{"Cursor Agent V2 (beta)", true},
		{"", false},
		{"cursor", false},
		{"cursor-agen", false},
		{"precursor-agent", false},
		{"cursor-agent-shim", false},
		{"cursor-agentx", false},
		{"cursor-agent beta", false},
		{"cursor-agent (compatible)", false},
		{"cursor-agent/", false},
		{"cursor-agent@", false},
		{"cursor-agent v", false},
		{"cursor-agent  1.2", false}, // one separator, then the version
		{"cursor-agent-1.2", false},  // '-' continues the name
		{"claude-code (cursor-agent)", false},
	}
	for _, tc := range tests {
		if got := acpdialect.MatchName(tc.name, known...); got != tc.want {
			t.Errorf("MatchName(%q) = %v; want %v", tc.name, got, tc.want)
		}
	}
	if acpdialect.MatchName("anything") || acpdialect.MatchName("", "") || acpdialect.MatchName("x", "") {
		t.Error("no known name (or an empty one) matched")
	}
}

func TestMatchExact(t *testing.T) {
	known := []string{"goose", "Kimi CLI"}
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"goose", true}, {"  GOOSE ", true}, {"kimi cli", true},
		{"goose 1.2", false}, {"goose-proxy", false}, {"mongoose", false}, {"", false}, {"Kimi", false},
	} {
		if got := acpdialect.MatchExact(tc.name, known...); got != tc.want {
			t.Errorf("MatchExact(%q) = %v; want %v", tc.name, got, tc.want)
		}
	}
}
