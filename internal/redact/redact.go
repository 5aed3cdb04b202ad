// Package redact makes an ACP transcript safe to share: prompts, message
// and thought text, file contents, paths, command lines and outputs, and
// anything that looks like a secret become placeholders of the same kind
// (<text-3>, <path-1>, <command-2>, <output-4>, <secret-1>, <email-1>),
// consistent across the transcript, so that the same path is the same
// placeholder everywhere and correlations still hold. The JSON-RPC
// structure stays: keys (the _meta keys included), methods, ids, tool call
// ids, update kinds, statuses and the other enum-like values, numbers and
// booleans, and the key order.
package redact

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode"
)

// Redactor redacts the lines of one transcript; its placeholders are
// consistent across them.
type Redactor struct {
	seen  map[string]string // kind + "\x00" + original -> placeholder
	count map[string]int    // placeholders made, by kind
}

// New returns a Redactor for one transcript.
func New() *Redactor {
	return &Redactor{seen: map[string]string{}, count: map[string]int{}}
}

// Copy redacts every line of r to w. A line that is not JSON becomes
// InvalidLine, so that line numbers and bad-line reports stay.
func (rd *Redactor) Copy(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 256<<10)
	bw := bufio.NewWriter(w)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			out := rd.Line(line)
			bw.Write(out)
			if bytes.HasSuffix(line, []byte("\n")) {
				bw.WriteByte('\n')
			}
		}
		if errors.Is(err, io.EOF) {
			return bw.Flush()
		}
		if err != nil {
			return err
		}
	}
}

// InvalidLine replaces a line that is not JSON: it may hold anything.
const InvalidLine = "<invalid JSON line redacted>"

// Line returns one line, redacted, without its line ending.
func (rd *Redactor) Line(line []byte) []byte {
	b := bytes.TrimSpace(line)
	if len(b) == 0 {
		return nil
	}
	if !json.Valid(b) {
		return []byte(InvalidLine)
	}
	var out bytes.Buffer
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	w := walker{rd: rd, dec: dec, out: &out}
	if err := w.value(nil); err != nil {
		return []byte(InvalidLine)
	}
	return out.Bytes()
}

// walker re-writes one JSON value token by token, keeping key order.
type walker struct {
	rd  *Redactor
	dec *json.Decoder
	out *bytes.Buffer
}

// value writes the next value; path is the keys above it (an array adds
// none).
func (w *walker) value(path []string) error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return w.object(path)
		}
		return w.array(path)
	case string:
		w.str(w.rd.value(path, v))
	case json.Number:
		w.out.WriteString(v.String())
	case bool:
		fmt.Fprint(w.out, v)
	case nil:
		w.out.WriteString("null")
	}
	return nil
}

func (w *walker) object(path []string) error {
	w.out.WriteByte('{')
	for i := 0; w.dec.More(); i++ {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if i > 0 {
			w.out.WriteByte(',')
		}
		w.str(w.rd.key(key)) // keys stay, unless one is a secret or content
		w.out.WriteByte(':')
		if err := w.value(append(path[:len(path):len(path)], key)); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // }
	w.out.WriteByte('}')
	return err
}

func (w *walker) array(path []string) error {
	w.out.WriteByte('[')
	for i := 0; w.dec.More(); i++ {
		if i > 0 {
			w.out.WriteByte(',')
		}
		if err := w.value(path); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // ]
	w.out.WriteByte(']')
	return err
}

// str writes s as a JSON string, with <, > and & as they are.
func (w *walker) str(s string) {
	enc := json.NewEncoder(w.out)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	w.out.Truncate(w.out.Len() - 1) // Encode's newline
}

// keep are the keys whose string values are structure, not content: ids,
// methods, kinds, statuses and other enums, names of tools and models.
// Their values are still searched for secrets.
var keep = map[string]bool{
	"jsonrpc": true, "method": true, "id": true, "sessionUpdate": true, "kind": true, "status": true,
	"type": true, "stopReason": true, "role": true, "outcome": true, "mimeType": true, "priority": true,
	"version": true, "protocolVersion": true, "currency": true, "model": true, "name": true,
	"toolName": true, "_toolName": true, "severity": true, "code": true, "phase": true, "trigger": true,
	"origin": true, "effort": true, "encoding": true, "subagent_type": true, "subagentType": true,
	"state": true, "decisionReasonType": true, "level": true,
}

// identityKeys are objects whose strings identify the agent and client:
// the dialect is chosen by them.
var identityKeys = map[string]bool{"agentInfo": true, "clientInfo": true, "info": true}

// isID reports whether key names an identifier (toolCallId, session_id).
func isID(key string) bool {
	return strings.HasSuffix(key, "Id") || strings.HasSuffix(key, "ID") || strings.HasSuffix(key, "_id") ||
		strings.HasSuffix(key, "Ids") || strings.HasSuffix(key, "_ids")
}

// key is an object key, redacted only if it is a secret, a path or words.
func (rd *Redactor) key(k string) string {
	switch {
	case looksLikePath(k):
		return rd.placeholder("path", k)
	case strings.ContainsAny(k, " \t\n"):
		return rd.placeholder("text", k)
	}
	return rd.secrets(k)
}

// value is a string value at path, redacted.
func (rd *Redactor) value(path []string, s string) string {
	key := ""
	if len(path) > 0 {
		key = path[len(path)-1]
	}
	switch {
	case secretKey.MatchString(key) && s != "":
		return rd.placeholder("secret", s)
	case !hasAlnum(s):
		return s // nothing to hide: "", "---"
	case len(path) > 1 && identityKeys[path[len(path)-2]]:
		return rd.secrets(s)
	case (keep[key] || isID(key)) && !prose(key, s):
		return rd.secrets(s)
	}
	return rd.placeholder(kindOf(path, s), s)
}

// prose reports whether a value under a kept key reads as content rather
// than structure: words with spaces, or a path. Methods and kinds have
// slashes but never start with one.
func prose(key, s string) bool {
	return key != "method" && (strings.ContainsAny(s, " \t\n") || looksLikePath(s))
}

func hasAlnum(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// Placeholder kinds, by key.
var (
	pathKeys    = map[string]bool{"path": true, "cwd": true, "filePath": true, "file_path": true, "file": true, "uri": true, "abs_path": true, "absPath": true, "directory": true, "dir": true, "root": true, "outputFile": true, "output_file": true, "planUri": true, "referenceImagePaths": true, "paths": true, "additionalDirectories": true}
	commandKeys = map[string]bool{"command": true, "cmd": true, "commandLine": true, "args": true, "argv": true}
	outputKeys  = map[string]bool{"rawOutput": true, "output": true, "stdout": true, "stderr": true, "aggregated_output": true, "formatted_output": true}
)

// kindOf picks a placeholder kind for a redacted string.
func kindOf(path []string, s string) string {
	key := ""
	if len(path) > 0 {
		key = path[len(path)-1]
	}
	switch {
	case emailRE.MatchString(s) && emailRE.FindString(s) == s:
		return "email"
	case pathKeys[key] || looksLikePath(s):
		return "path"
	case commandKeys[key]:
		return "command"
	}
	for _, k := range path {
		if outputKeys[k] {
			return "output"
		}
	}
	return "text"
}

func looksLikePath(s string) bool {
	return !strings.ContainsAny(s, " \n") && (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/") ||
		strings.HasPrefix(s, "file://") || strings.HasPrefix(s, "./") || (len(s) > 2 && s[1] == ':' && s[2] == '\\'))
}

// placeholder returns the placeholder of kind for s, the same one every
// time s is seen.
func (rd *Redactor) placeholder(kind, s string) string {
	k := kind + "\x00" + s
	if p, ok := rd.seen[k]; ok {
		return p
	}
	rd.count[kind]++
	p := fmt.Sprintf("<%s-%d>", kind, rd.count[kind])
	rd.seen[k] = p
	return p
}

// Secrets: patterns for keys, tokens and addresses that may appear in any
// string, kept ones included.
var (
	secretKey = regexp.MustCompile(`(?i)(token|secret|password|passwd|api_?key|apikey|authorization|cookie|credential|private_?key)`)
	emailRE   = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)
	secretRE  = regexp.MustCompile(strings.Join([]string{
		`sk-[A-Za-z0-9_-]{16,}`,                                   // OpenAI, Anthropic (sk-ant-...), others
		`gh[pousr]_[A-Za-z0-9]{20,}`,                              // GitHub tokens
		`github_pat_[A-Za-z0-9_]{20,}`,                            // GitHub fine-grained tokens
		`(AKIA|ASIA)[0-9A-Z]{16}`,                                 // AWS access keys
		`xox[abprs]-[A-Za-z0-9-]{10,}`,                            // Slack
		`AIza[0-9A-Za-z_-]{30,}`,                                  // Google API keys
		`glpat-[A-Za-z0-9_-]{20,}`,                                // GitLab
		`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+`, // JWTs
		`(?i)bearer\s+[A-Za-z0-9._~+/=-]{8,}`,                     // Authorization: Bearer ...
		`(?i)(api[_-]?key|token|secret|password|passwd)["']?\s*[=:]\s*["']?[^\s"',;]{6,}`,
		`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`,
		`[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`, // credentials in a URL
	}, "|"))
)

// secrets replaces what looks like a secret or an e-mail address in s.
func (rd *Redactor) secrets(s string) string {
	s = secretRE.ReplaceAllStringFunc(s, func(m string) string { return rd.placeholder("secret", m) })
	return emailRE.ReplaceAllStringFunc(s, func(m string) string { return rd.placeholder("email", m) })
}
