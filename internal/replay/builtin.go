package replay

import (
	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
)

// Builtins returns a registry of every built-in dialect: the one list the
// CLI and the golden suites share. Add a new dialect here. (A vendor
// package's in-package tests must not import this package: it imports them.)
func Builtins() *acpdialect.Registry {
	return acpdialect.NewRegistry(cursor.Dialect())
}
