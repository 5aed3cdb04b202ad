//go:build !unix

// Package proc starts a command in a process group of its own and ends
// the whole group. On systems without process groups it ends the command
// alone.
package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// Group leaves cmd as it is: there are no process groups here.
func Group(*exec.Cmd) {}

// Signal kills the process pid.
func Signal(pid int, _ syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
