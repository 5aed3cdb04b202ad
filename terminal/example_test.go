package terminal_test

import (
	"fmt"

	"github.com/acpdialect/acpdialect/terminal"
	"github.com/tidwall/gjson"
)

// A shell card's terminal metadata, update by update: the terminal, the
// whole output so far, more output, the exit.
func Example() {
	var sh = terminal.Fold(nil, terminal.ReadMeta(gjson.Parse(`{"terminal_info":{"terminal_id":"t1","cwd":"/app"}}`)))
	for _, meta := range []string{
		`{"terminal_output":{"terminal_id":"t1","data":"cc a.o\n"}}`,
		`{"terminal_output_delta":{"terminal_id":"t1","data":"ld app\n"}}`,
		`{"terminal_exit":{"terminal_id":"t1","exit_code":0,"signal":null}}`,
	} {
		sh = terminal.Fold(sh, terminal.ReadMeta(gjson.Parse(meta)))
	}
	fmt.Printf("%s %s %q exit %d\n", sh.TerminalID, sh.Cwd, sh.Output, *sh.ExitCode)
	// Output:
	// t1 /app "cc a.o\nld app\n" exit 0
}
