//go:build linux

// Package proc starts a command in a process group of its own and ends
// the whole group: what `acpdialect tap` needs to leave no agent process
// behind.
package proc

import (
	"os/exec"
	"syscall"
)

// Group makes cmd the leader of a new process group, killed with SIGKILL
// if the process that started it dies first (Linux's parent-death signal:
// it reaches the leader alone; what the leader started is left, unless
// the caller lived to end the group).
func Group(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// Signal sends sig to the process group whose leader is pid.
func Signal(pid int, sig syscall.Signal) error {
	return syscall.Kill(-pid, sig)
}
