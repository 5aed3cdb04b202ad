package pair

// testwire defines -update, so that go test ./... -update, which rewrites
// the goldens of the packages that have them, runs here too.
import _ "github.com/acpdialect/acpdialect/internal/testwire"
