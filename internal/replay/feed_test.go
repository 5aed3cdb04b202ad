package replay

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestFeedReadErrorCutsNoLine: the part of a line that a read error cut
// (an output that failed to flush, a disk error) is not reported as a bad
// line: only the error is.
func TestFeedReadErrorCutsNoLine(t *testing.T) {
	cut := errors.New("write stdout: no space left on device")
	tests := []struct {
		name string
		in   io.Reader
		want error
		bad  int
	}{
		{"cut mid-line", io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"res`), errReader{cut}), cut, 0},
		{"cut after a line", io.MultiReader(strings.NewReader("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"), errReader{cut}), cut, 0},
		{"last line without newline", strings.NewReader(`{"jsonrpc":"2.0","id":1,"res`), nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bad []BadLine
			s, err := NewStream(Builtins(), Options{}, Sink{Bad: func(b BadLine) { bad = append(bad, b) }}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Feed(tt.in); !errors.Is(err, tt.want) {
				t.Errorf("Feed = %v, want %v", err, tt.want)
			}
			if len(bad) != tt.bad {
				t.Errorf("bad lines %+v, want %d", bad, tt.bad)
			}
		})
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
