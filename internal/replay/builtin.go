package replay

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
)

// Builtins returns a registry of every built-in dialect (package dialects
// keeps the list), shared by the CLI and the golden suites. (A vendor
// package's in-package tests must not import this package: it imports them.)
func Builtins() *acpdialect.Registry {
	return dialects.Registry()
}
