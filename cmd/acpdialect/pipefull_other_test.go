//go:build !linux

package main

import "time"

// canFillStdin says whether waitStdinFull can tell a full stdin pipe.
const canFillStdin = false

// waitStdinFull cannot see a pipe's fill here.
func waitStdinFull(time.Duration) bool { return false }
