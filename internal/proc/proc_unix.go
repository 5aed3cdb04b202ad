//go:build unix && !linux

package proc

import (
	"os/exec"
	"syscall"
)

// Group makes cmd the leader of a new process group.
func Group(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Signal sends sig to the process group whose leader is pid.
func Signal(pid int, sig syscall.Signal) error {
	return syscall.Kill(-pid, sig)
}
