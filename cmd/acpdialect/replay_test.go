package main

import (
	"bytes"
	"io"
	"os"
	"syscall"
	"testing"
)

// fullWriter fails every write as a write to /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// chunkReader returns at most n bytes a read, so that reads end mid-line.
type chunkReader struct {
	r io.Reader
	n int
}

func (c chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// TestReplayWriteError: a failed output is reported once, as a write of
// standard output, with exit status 1, and the line the failed flush cut
// short is not reported as a bad line.
func TestReplayWriteError(t *testing.T) {
	for _, mode := range []string{"", "--json", "--final"} {
		t.Run("mode "+mode, func(t *testing.T) {
			args := []string{"replay", "-"}
			if mode != "" {
				args = append(args, mode)
			}
			var errb bytes.Buffer
			code := run(args, chunkReader{bytes.NewReader(sample), 7}, fullWriter{}, &errb)
			if want := "acpdialect: write stdout: no space left on device\n"; code != exitFail || errb.String() != want {
				t.Errorf("exit %d, stderr %q; want exit %d, stderr %q", code, errb.String(), exitFail, want)
			}
		})
	}
}
