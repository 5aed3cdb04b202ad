package dialecttest

import (
	"fmt"
	"strings"

	"github.com/acpdialect/acpdialect"
)

// hostileVersions are agentInfo versions ForVersion is asked about besides
// Options.Versions: none that is a release, or odd ones.
var hostileVersions = []string{
	"", " ", "v", "latest", "2.x", "-1.0.0", "1.2.3.4", "99999999999999999999.0.0",
	"0.0.0", "2.6.0-", "2.6.0 (commit 1a2b3c)", "\xff\xfe", strings.Repeat("9", 4096),
}

// variantRules are the rules a variant is checked against: those about
// its hooks. Its names are its dialect's (Match is not asked of it: the
// registry identifies the dialect), and the transcripts replay through
// the dialect, which picks the variant by their initialize.
var variantRules = []rule{
	{"table", checkTable},
	{"pure", checkPure},
	{"fail_closed", checkFailClosed},
	{"bounded", checkBounded},
}

// checkVersions asks ForVersion about each of Options.Versions and some
// odd versions, twice: it must not panic, must answer the same dialect
// both times (a variant built once, which every connection of the
// release shares), and a variant must keep the dialect's ID (the Conn
// ignores one that does not).
func checkVersions(k *kit) []string {
	if k.d.ForVersion == nil {
		if len(k.opts.Versions) > 0 {
			return []string{"Options.Versions names releases, but the dialect has no ForVersion"}
		}
		return nil
	}
	var fails []string
	for _, v := range append(append([]string(nil), k.opts.Versions...), hostileVersions...) {
		var a, b *acpdialect.Dialect
		at := fmt.Sprintf("ForVersion(%.40q)", v)
		if msg := protect(func() { a, b = k.d.ForVersion(v), k.d.ForVersion(v) }); msg != "" {
			fails = append(fails, at+" "+msg)
			continue
		}
		switch {
		case a != b:
			fails = append(fails, at+" returned two dialects for one version: build each variant once, when the dialect is built, for every connection of the release to share")
		case a != nil && a.ID != k.d.ID:
			fails = append(fails, fmt.Sprintf("%s returned a variant with the ID %q: the Conn ignores a variant whose ID is not the dialect's (%q)", at, a.ID, k.d.ID))
		}
	}
	return fails
}

// variant is a dialect ForVersion returned, with the first of
// Options.Versions it returned it for.
type variant struct {
	version string
	d       *acpdialect.Dialect
}

// variants are the distinct variants ForVersion returns for
// Options.Versions, other than the dialect itself. One that panics or has
// another ID is checkVersions' failure, not a variant.
func (k *kit) variants() []variant {
	if k.d.ForVersion == nil {
		return nil
	}
	var out []variant
	seen := map[*acpdialect.Dialect]bool{k.d: true}
	for _, v := range k.opts.Versions {
		var d *acpdialect.Dialect
		if protect(func() { d = k.d.ForVersion(v) }) != "" || d == nil || d.ID != k.d.ID || seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, variant{v, d})
	}
	return out
}

// runVariant checks a variant against variantRules: each is a call of
// check with the rule and the variant's kit.
func runVariant(v variant, opts Options, check func(r rule, k *kit)) error {
	k, err := newKit(v.d, opts)
	if err != nil {
		return fmt.Errorf("dialecttest: the variant for %s: %w", v.version, err)
	}
	for _, r := range variantRules {
		check(r, k)
	}
	return nil
}
