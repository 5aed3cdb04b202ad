package frame

// Keep returns a pointer to a copy of v. It is the copy-on-write step of a
// merge that builds a payload's kind object on the stack, from the one the
// card has, and keeps the new one only when it differs:
//
//	var sh acpdialect.Shell
//	if prev.Shell != nil {
//		sh = *prev.Shell
//	}
//	... // merge the frame into sh
//	if prev.Shell == nil || !sameShell(*prev.Shell, sh) {
//		prev.Shell = frame.Keep(sh)
//	}
//
// Taking &sh there instead would move sh to the heap on every call, so
// that a frame that changes nothing would still cost an allocation.
func Keep[T any](v T) *T { return &v }
