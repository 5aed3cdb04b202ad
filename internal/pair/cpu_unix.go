//go:build unix

package pair

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time, user and system, all threads (the
// garbage collector's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
