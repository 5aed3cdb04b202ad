package main

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// canFillStdin says whether waitStdinFull can tell a full stdin pipe.
const canFillStdin = true

// waitStdinFull waits until the pipe on this process's stdin is full: it
// holds more than half its size unread, and no more comes for 100ms (the
// writer is blocked; a pipe of whole lines is full before all its bytes
// are used, each line kept in one page). It gives up after limit, and
// says whether the pipe was full.
func waitStdinFull(limit time.Duration) bool {
	size, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 0, syscall.F_GETPIPE_SZ, 0)
	if errno != 0 {
		return false
	}
	last, since := int32(-1), time.Now()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); {
		var n int32
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, 0, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
			return false
		}
		if n != last {
			last, since = n, time.Now()
		} else if int(n) > int(size)/2 && time.Since(since) > 100*time.Millisecond {
			return true
		}
		time.Sleep(10 * time.Millisecond) // polls a pipe's fill: no event to wait on
	}
	os.Stderr.WriteString("fake agent: its stdin did not fill\n")
	return false
}
