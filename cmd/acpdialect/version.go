package main

import (
	"fmt"
	"runtime/debug"
)

// version is the module version the binary was built from: a tag for
// `go install ...@v1.2.3`, a pseudo-version for a commit, "(devel)" for a
// build in a checkout.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" {
		return "(devel)"
	}
	return info.Main.Version
}

func versionCmd(s stdio, args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprintln(s.out, "usage: acpdialect version\n\nPrints the module version the binary was built from.")
		return exitOK
	}
	if len(args) > 0 {
		s.errorf("version takes no arguments")
		return exitUsage
	}
	fmt.Fprintf(s.out, "acpdialect %s\n", version())
	return exitOK
}
