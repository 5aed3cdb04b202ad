// Command ownloop is a client with its own JSON-RPC loop: it feeds every
// frame to a Conn, writes the replies the Conn says the client owes, and
// prints the normalized events as JSON lines.
//
//	go run ./example/ownloop -prompt "Summarize src" agent acp
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"time"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/dialects"
	"github.com/tidwall/gjson"
)

func main() {
	prompt := flag.String("prompt", "Summarize this repository", "the prompt to send")
	flag.Parse()
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	cwd, _ := os.Getwd()
	l := &loop{conn: dialects.Registry().NewConn(acpdialect.Options{}), agent: stdin, out: json.NewEncoder(os.Stdout),
		prompt: *prompt, cwd: cwd}

	// One goroutine reads the agent; this one writes the client's
	// requests. A Conn is not safe for concurrent use, so feeding it and
	// writing to the agent are both done by the loop, in wire order.
	lines := make(chan []byte)
	go read(stdout, lines)
	l.send(0, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}})
	for line := range lines {
		l.inbound(line)
		l.client(line)
	}
	_ = cmd.Wait()
}

type loop struct {
	conn        *acpdialect.Conn
	agent       io.WriteCloser
	out         *json.Encoder
	prompt, cwd string
}

// client is the client's own logic, on each response it gets: from the
// agent, or delivered by the Conn for a request it refused (send).
func (l *loop) client(line []byte) {
	id, result := gjson.GetBytes(line, "id").Raw, gjson.GetBytes(line, "result")
	switch {
	case id == "0" && result.Exists():
		l.send(1, "session/new", map[string]any{"cwd": l.cwd, "mcpServers": []any{}})
	case id == "1" && result.Exists():
		l.send(2, "session/prompt", map[string]any{"sessionId": result.Get("sessionId").Str,
			"prompt": []any{map[string]any{"type": "text", "text": l.prompt}}})
	case id == "2", gjson.GetBytes(line, "error").Exists() && id != "":
		_ = l.agent.Close() // the turn is over, or a request failed
	}
}

// inbound handles one agent frame: the Conn's reply, if it owes one, goes
// straight back; anything else is the client's own business.
func (l *loop) inbound(line []byte) {
	res, err := l.conn.Inbound(line) // line may be reused after the call: the Conn copies what it keeps
	if err != nil {
		log.Printf("%v: %s", err, line) // not JSON, or not a JSON-RPC object
		return
	}
	l.emit(res)
	if res.Wire != nil && res.Wire.Frame != nil {
		line = res.Wire.Frame // the response the client asked for, turned back
	}
	if res.Reply == nil && gjson.GetBytes(line, "method").Exists() && gjson.GetBytes(line, "id").Exists() {
		// A standard request (permission, files, terminals): this client
		// declines them all.
		l.write(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"not supported"}}`+"\n",
			gjson.GetBytes(line, "id").Raw))
	}
	for _, r := range l.conn.Expire(time.Now()) { // blocking requests past their deadline
		l.emit(r)
	}
}

// send writes a client request, feeding it to the Conn first so that it
// sees turns begin. A dialect may rewrite it (Grok's
// session/set_config_option): then Wire says what to send instead.
func (l *loop) send(id int, method string, params any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	res, err := l.conn.Outbound(b)
	if err != nil {
		log.Print(err)
	}
	if res.Wire != nil {
		l.write(res.Wire.Frame) // nil: refused, nothing goes to the agent
		if res.Wire.Deliver != nil {
			l.client(res.Wire.Deliver) // the refusal, as if the agent had answered
		}
		return
	}
	l.write(append(b, '\n'))
}

func (l *loop) emit(res acpdialect.Result) {
	l.write(res.Reply) // nil when the client owes nothing
	for _, ev := range res.Events {
		_ = l.out.Encode(ev)
	}
}

func (l *loop) write(b []byte) {
	if len(b) > 0 {
		if _, err := l.agent.Write(b); err != nil {
			log.Print(err)
		}
	}
}

// read sends each line the agent writes, as its own copy.
func read(r io.Reader, lines chan<- []byte) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		lines <- append([]byte(nil), sc.Bytes()...)
	}
	close(lines)
}
