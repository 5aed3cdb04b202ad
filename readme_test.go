package acpdialect_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
