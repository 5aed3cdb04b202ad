package cursor_test

import (
	"testing"

	"github.com/acpdialect/acpdialect/cursor"
)

func TestCommandDescription(t *testing.T) {
	tests := []struct{ in, want string }{
		{"---", ""},
		{"-", ""},
		{"  ---\n", ""},
		{"\t-----\t", ""},
		{"", ""},
		{"   ", "   "}, // not dashes: left as sent
		{"- - -", "- - -"},
		{"--- Run tests", "--- Run tests"},
		{"Run tests", "Run tests"},
		{"  Run tests  ", "  Run tests  "},
		{"—", "—"}, // an em dash is text, not a placeholder
		{"-a-", "-a-"},
	}
	for _, tt := range tests {
		if got := cursor.CommandDescription(tt.in); got != tt.want {
			t.Errorf("CommandDescription(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
