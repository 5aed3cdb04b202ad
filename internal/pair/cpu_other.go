//go:build !unix

package pair

import "time"

// cpuTime is not read here: Report gives wall-time ratios only.
func cpuTime() time.Duration { return 0 }
