package acpdialect

import "strings"

// Version is an agent's release as it reports it in the initialize
// result's agentInfo.version, read by ParseVersion: for a dialect's
// ForVersion, which tells releases of one agent apart.
type Version struct {
	Major, Minor, Patch int
	// Pre is the prerelease ("beta.1" of "2.6.0-beta.1"), or "". It views
	// the string parsed.
	Pre string
}

// maxVersionDigits bounds a version number's digits, so that a number
// always fits an int: a longer one is no version.
const maxVersionDigits = 9

// ParseVersion reads a release number as agents write it: a semantic
// version ("2.6.0"), after an optional 'v' ("v2.6.0"), with an optional
// prerelease ("2.6.0-beta.1") and build ("2.6.0+build.5", ignored), and
// an optional note in parentheses after a space ("0.32.0 (commit
// eb99b871)", as Auggie writes it, ignored); surrounding space is ignored,
// and a missing minor or patch number is 0 ("2", "2.6"). ok is false for
// anything else ("codex-acp 2.6.0", "2.6.0 beta", "2.6.0.1", "2.x", "", a
// number of more than 9 digits): the agent's release is then unknown.
func ParseVersion(s string) (v Version, ok bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " ("); i >= 0 && strings.HasSuffix(s, ")") {
		s = strings.TrimRight(s[:i], " ")
	}
	if s != "" && (s[0] == 'v' || s[0] == 'V') {
		s = s[1:]
	}
	core := s
	if i := strings.IndexByte(s, '+'); i >= 0 {
		if !identifiers(s[i+1:]) {
			return Version{}, false
		}
		core = s[:i]
	}
	if i := strings.IndexByte(core, '-'); i >= 0 {
		if !identifiers(core[i+1:]) {
			return Version{}, false
		}
		v.Pre, core = core[i+1:], core[:i]
	}
	nums := [...]*int{&v.Major, &v.Minor, &v.Patch}
	for i, more := 0, true; more; i++ {
		var part string
		part, core, more = strings.Cut(core, ".")
		if i == len(nums) || !versionNumber(part, nums[i]) {
			return Version{}, false // a fourth number, or not a number
		}
	}
	return v, true
}

// versionNumber reads s, a decimal number of at most maxVersionDigits
// digits, into n.
func versionNumber(s string, n *int) bool {
	if s == "" || len(s) > maxVersionDigits {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
		*n = *n*10 + int(s[i]-'0')
	}
	return true
}

// identifiers reports whether s is a prerelease or build: dot-separated,
// non-empty runs of ASCII letters, digits and '-'.
func identifiers(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if part == "" {
			return false
		}
		for i := range len(part) {
			c := part[i]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
				return false
			}
		}
	}
	return true
}

// AtLeast reports whether v is the release major.minor.patch or a later
// one, by semantic version precedence: a prerelease comes before its
// release, so 2.2.1-beta.1 is not at least 2.2.1 (a rule that a release
// brought may not be in its betas).
func (v Version) AtLeast(major, minor, patch int) bool {
	switch {
	case v.Major != major:
		return v.Major > major
	case v.Minor != minor:
		return v.Minor > minor
	case v.Patch != patch:
		return v.Patch > patch
	}
	return v.Pre == ""
}
