package acpdialect_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/cursor"
)

func TestParseVersion(t *testing.T) {
	type V = acpdialect.Version
	tests := []struct {
		in   string
		want V
		ok   bool
	}{
		{"2.6.0", V{Major: 2, Minor: 6}, true},
		{"1.6.2", V{Major: 1, Minor: 6, Patch: 2}, true},
		{"v2.6.0", V{Major: 2, Minor: 6}, true},
		{"V2.6.0", V{Major: 2, Minor: 6}, true},
		{" 2.6.0\n", V{Major: 2, Minor: 6}, true},
		{"2.6.0-beta.1", V{Major: 2, Minor: 6, Pre: "beta.1"}, true},
		{"2.6.0-rc-1", V{Major: 2, Minor: 6, Pre: "rc-1"}, true},
		{"2.6.0+build.5", V{Major: 2, Minor: 6}, true},
		{"2.6.0-rc.1+build-5", V{Major: 2, Minor: 6, Pre: "rc.1"}, true},
		{"2", V{Major: 2}, true},
		{"2.6", V{Major: 2, Minor: 6}, true},
		{"0.0.0", V{}, true},
		{"010.02.3", V{Major: 10, Minor: 2, Patch: 3}, true},
		{"999999999.0.0", V{Major: 999999999}, true},
		{"0.32.0 (commit eb99b871)", V{Minor: 32}, true},
		{"2026.05.12-4f1c2a9", V{Major: 2026, Minor: 5, Patch: 12, Pre: "4f1c2a9"}, true},
		// Not a version: the release is unknown.
		{"", V{}, false},
		{"v", V{}, false},
		{"garbage", V{}, false},
		{"codex-acp 2.6.0", V{}, false},
		{"2.x", V{}, false},
		{"2.6.0.1", V{}, false},
		{"2..0", V{}, false},
		{".2.6", V{}, false},
		{"2.6.", V{}, false},
		{"-1.0.0", V{}, false},
		{"+1.0.0", V{}, false},
		{"2.6.0-", V{}, false},
		{"2.6.0+", V{}, false},
		{"2.6.0-beta..1", V{}, false},
		{"2.6.0-béta", V{}, false},
		{"2.6.0 beta", V{}, false},
		{"2.6.0 (beta", V{}, false},
		{" (commit x)", V{}, false},
		{"vv2.6.0", V{}, false},
		{"1234567890.0.0", V{}, false},
		{"2.6.0-beta+", V{}, false},
	}
	for _, tc := range tests {
		got, ok := acpdialect.ParseVersion(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseVersion(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestVersionAtLeast(t *testing.T) {
	tests := []struct {
		version             string
		major, minor, patch int
		want                bool
	}{
		{"2.2.1", 2, 2, 1, true},
		{"2.6.0", 2, 2, 1, true},
		{"3.0.0", 2, 2, 1, true},
		{"2.3.0", 2, 2, 1, true},
		{"2.2.2", 2, 2, 1, true},
		{"2.2.0", 2, 2, 1, false},
		{"2.1.9", 2, 2, 1, false},
		{"1.13.1", 2, 2, 1, false},
		{"1.99.99", 2, 0, 0, false},
		// A prerelease comes before its release, and after the one
		// before.
		{"2.2.1-beta.1", 2, 2, 1, false},
		{"2.2.2-beta.1", 2, 2, 1, true},
		{"2.6.0-beta.1", 2, 2, 1, true},
		{"2.0.0", 2, 0, 0, true},
		{"2", 2, 0, 0, true},
	}
	for _, tc := range tests {
		v, ok := acpdialect.ParseVersion(tc.version)
		if !ok {
			t.Fatalf("ParseVersion(%q) failed", tc.version)
		}
		if got := v.AtLeast(tc.major, tc.minor, tc.patch); got != tc.want {
			t.Errorf("%s AtLeast(%d, %d, %d) = %v; want %v", tc.version, tc.major, tc.minor, tc.patch, got, tc.want)
		}
	}
}

// acmeDialects is a dialect whose releases from 2.0.0 on get a variant
// that allows the vendor method acme/v2. The variant's own ForVersion, and
// one returning a variant of another ID (for "9.0.0"), must be ignored.
func acmeDialects(t *testing.T) (base, variant *acpdialect.Dialect, asked *[]string) {
	asked = new([]string)
	base = &acpdialect.Dialect{
		ID:    "acme",
		Match: func(name, _ string) bool { return acpdialect.MatchExact(name, "acme-agent") },
	}
	variant = &acpdialect.Dialect{
		ID:      "acme",
		Match:   base.Match,
		Methods: []acpdialect.Method{{Name: "acme/v2", Kind: acpdialect.Notification}},
		ForVersion: func(string) *acpdialect.Dialect {
			t.Error("the variant's own ForVersion was called")
			return nil
		},
	}
	impostor := &acpdialect.Dialect{ID: "other"}
	base.ForVersion = func(version string) *acpdialect.Dialect {
		*asked = append(*asked, version)
		v, ok := acpdialect.ParseVersion(version)
		switch {
		case ok && v.AtLeast(9, 0, 0):
			return impostor
		case ok && v.AtLeast(2, 0, 0):
			return variant
		}
		return nil
	}
	return base, variant, asked
}

// TestForVersion: the Conn refines the dialect by the release the agent
// reports, whether it identified the agent or Options.Agent named it.
func TestForVersion(t *testing.T) {
	initialize := func(info string) string {
		return `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":` + info + `}}`
	}
	tests := []struct {
		name    string
		agent   string   // Options.Agent
		results []string // the initialize results, in order
		variant bool     // the connection ends on the variant
		asked   []string // the versions ForVersion was asked about
	}{
		{"identified, 2.x", "", []string{initialize(`{"name":"acme-agent","version":"2.6.0"}`)}, true, []string{"2.6.0"}},
		{"identified, v-prefixed prerelease", "", []string{initialize(`{"version":"v2.6.0-beta.1","name":"acme-agent"}`)}, true, []string{"v2.6.0-beta.1"}},
		{"identified, 1.x", "", []string{initialize(`{"name":"acme-agent","version":"1.6.2"}`)}, false, []string{"1.6.2"}},
		{"identified, garbage", "", []string{initialize(`{"name":"acme-agent","version":"latest"}`)}, false, []string{"latest"}},
		{"identified, no version: not asked", "", []string{initialize(`{"name":"acme-agent"}`)}, false, nil},
		{"identified, empty version: not asked", "", []string{initialize(`{"name":"acme-agent","version":""}`)}, false, nil},
		{"a variant of another ID is ignored", "", []string{initialize(`{"name":"acme-agent","version":"9.1.0"}`)}, false, []string{"9.1.0"}},
		{"named, 2.x: the agent names its release", "acme", []string{initialize(`{"name":"some-proxy","version":"2.0.0"}`)}, true, []string{"2.0.0"}},
		{"named, 1.x", "acme", []string{initialize(`{"name":"acme-agent","version":"1.0.0"}`)}, false, []string{"1.0.0"}},
		{"named, no initialize", "acme", nil, false, nil},
		{"named, an initialize without agentInfo", "acme", []string{`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`}, false, nil},
		// A second initialize refines the dialect again, from the base:
		// the variant is never asked.
		{"again, same release", "", []string{
			initialize(`{"name":"acme-agent","version":"2.6.0"}`), initialize(`{"name":"acme-agent","version":"2.7.0"}`),
		}, true, []string{"2.6.0", "2.7.0"}},
		{"again, with no version: the base", "acme", []string{
			initialize(`{"name":"acme-agent","version":"2.6.0"}`), initialize(`{"name":"acme-agent"}`),
		}, false, []string{"2.6.0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, variant, asked := acmeDialects(t)
			h := newHarness(t, acpdialect.NewRegistry(cursor.Dialect(), base), acpdialect.Options{Agent: tc.agent})
			for _, res := range tc.results {
				h.out([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`))
				h.quiet([]byte(res))
			}
			want := base
			if tc.variant {
				want = variant
			}
			if h.c.Dialect() != want || h.c.Agent() != "acme" {
				t.Errorf("Dialect() = %p (%s), want the %s %p", h.c.Dialect(), h.c.Agent(), map[bool]string{true: "variant", false: "base"}[tc.variant], want)
			}
			// The variant's rules run: it allows acme/v2, the base does not.
			if got := h.c.Allows("acme/v2"); got != tc.variant {
				t.Errorf("Allows(acme/v2) = %v", got)
			}
			if !slices.Equal(*asked, tc.asked) {
				t.Errorf("ForVersion asked about %q; want %q", *asked, tc.asked)
			}
		})
	}
}

// FuzzParseVersion: any agentInfo.version parses without a panic, and a
// version it reads is itself at least, unless a prerelease, and reads
// back the same when written out.
func FuzzParseVersion(f *testing.F) {
	// The versions of the recorded initialize results, and odd ones.
	for _, s := range []string{"2.6.0", "1.6.2", "0.0.0", "0.101.0", "1.18.33", "3000.11.3", "1", "1.0",
		"0.32.0 (commit eb99b871)", "2026.05.12-4f1c2a9", "<version>", "v2.6.0-beta.1+b.7", "", "9999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := acpdialect.ParseVersion(s)
		if !ok {
			if v != (acpdialect.Version{}) {
				t.Fatalf("ParseVersion(%q) = %+v, false: not the zero Version", s, v)
			}
			return
		}
		if v.Major < 0 || v.Minor < 0 || v.Patch < 0 {
			t.Fatalf("ParseVersion(%q) = %+v", s, v)
		}
		if v.AtLeast(v.Major, v.Minor, v.Patch) != (v.Pre == "") {
			t.Fatalf("%+v AtLeast itself = %v", v, !(v.Pre == ""))
		}
		out := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
		if v.Pre != "" {
			out += "-" + v.Pre
		}
		if back, ok := acpdialect.ParseVersion(out); !ok || back != v {
			t.Fatalf("ParseVersion(%q) = %+v, but %q reads back as %+v, %v", s, v, out, back, ok)
		}
	})
}
