package acpdialect_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
)

// Every Go block in the README is a whole program under example/, byte for
// byte, so that a copied snippet compiles (go vet ./... builds example/)
// and a README example cannot rot.
func TestReadmeGoBlocksAreExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	programs := map[string]string{}
	paths, _ := filepath.Glob("example/*/main.go")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		programs[string(b)] = p
	}
	blocks := goBlocks(string(readme))
	if len(blocks) == 0 {
		t.Fatal("no Go block in README.md")
	}
	shown := map[string]bool{}
	for i, b := range blocks {
		p, ok := programs[b]
		if !ok {
			t.Errorf("README Go block %d (%.60q...) is not a program under example/: copy the file into the README whole", i+1, b)
		}
		shown[p] = true
	}
	for _, p := range paths {
		if !shown[p] {
			t.Errorf("%s is not shown in the README", p)
		}
	}
}

// goBlocks returns the contents of the README's ```go fences.
func goBlocks(md string) []string {
	var out []string
	for {
		i := strings.Index(md, "\n```go\n")
		if i < 0 {
			return out
		}
		md = md[i+len("\n```go\n"):]
		j := strings.Index(md, "\n```\n")
		if j < 0 {
			return append(out, md)
		}
		out = append(out, md[:j+1])
		md = md[j:]
	}
}

// Every JSON field of a card's payload, and of each of its objects, is
// named in the README's contract section, so that a field added to the
// output is documented where clients look.
func TestReadmeContractNamesPayloadFields(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	start := strings.Index(section, "## The normalized JSON contract")
	end := strings.Index(section, "## Dialects")
	if start < 0 || end < start {
		t.Fatal("no contract section")
	}
	section = section[start:end]
	seen := map[reflect.Type]bool{}
	var walk func(typ reflect.Type, where string)
	walk = func(typ reflect.Type, where string) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !strings.Contains(section, "`"+name+"`") && !strings.Contains(section, `"`+name+`"`) {
				t.Errorf("%s.%s (%q) is not in the README's contract section", where, f.Name, name)
			}
			ft := f.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && ft.PkgPath() == typ.PkgPath() {
				walk(ft, ft.Name())
			}
		}
	}
	walk(reflect.TypeOf(acpdialect.Event{}), "Event")
	walk(reflect.TypeOf(acpdialect.RPCError{}), "RPCError")
	walk(reflect.TypeOf(acpdialect.Payload{}), "Payload")
	for _, o := range []acpdialect.Object{&acpdialect.Question{}, &acpdialect.Plan{}, &acpdialect.Todos{},
		&acpdialect.Image{}, &acpdialect.Models{}, &acpdialect.Commands{}, &acpdialect.Usage{},
		&acpdialect.ContextWindow{}, &acpdialect.Capabilities{}, &acpdialect.Message{},
		&acpdialect.Compaction{}, &acpdialect.Permission{}, &acpdialect.ProviderError{},
		&acpdialect.AuthStatus{}, &acpdialect.SessionInfo{}, &acpdialect.Config{}} {
		typ := reflect.TypeOf(o).Elem()
		walk(typ, typ.Name())
	}
}

// The README's sample output is what `go run ./cmd/acpdialect replay`
// prints: the CLI's own golden file of that run, verbatim.
func TestReadmeSampleIsTheCLIOutput(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("cmd/acpdialect/testdata/sample.view.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+string(golden)+"```\n") {
		t.Errorf("the README's sample output is not cmd/acpdialect/testdata/sample.view.golden:\n%s", golden)
	}
}
