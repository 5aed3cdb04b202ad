// Package redact makes an ACP transcript safe to share: prompts, message
// and thought text, file contents, paths, command lines and outputs, and
// anything that looks like a secret become placeholders of the same kind
// (<text-3>, <path-1>, <command-2>, <output-4>, <secret-1>, <email-1>),
// consistent across the transcript, so that the same path is the same
// placeholder everywhere and correlations still hold. The JSON-RPC
// structure stays: keys (the _meta keys included), methods, ids, tool call
// ids, update kinds, statuses and the other enum-like values, numbers and
// booleans, and the key order.
//
// What the dialects key on stays too, so that the redacted transcript
// replays to the same events: an identifier-like value (one short token,
// such as spawnAgent, working or mcp__docs__search) outside the places
// that hold text, paths, commands, outputs and tool input; and, inside a
// text, the fixed phrases and markup agents write around their payload
// (Claude's <task-notification> envelopes with their task ids,
// "Monitor started (task <id>,", OpenCode's "task_id: <id>",
// <task id="<id>" state="<state>"> and <task_result>, Auggie's
// "sub-agent-<type>:" titles, Grok's "Subagent started in
// background.\nsubagent_id: <id>", Copilot's "Agent started in
// background with agent_id: <id>.", ...), the rest of the text still redacted. In a tool's input and output only what the
// dialects read stays (Claude's _meta.claudeCode.toolResponse is a
// tool's output too): ids, the tool's name, a subagent's type, kinds,
// statuses, triggers and content block types; a name or code there is
// the tool's data. Secrets win over all of it: everything under a key
// that names one (apiKey, X-Api-Key, Authorization, Set-Cookie,
// password, GITHUB_TOKEN), at any depth, numbers included; and a value
// once redacted as a secret is one wherever it comes back later (but as
// the value of an enum key such as status, which tells nothing).
//
// What stays keeps its bytes as written, escapes included: an id or a
// member name is the very bytes the agent or client sent.
package redact

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
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

// bom is the UTF-8 byte-order mark some editors write at a file's start;
// replay skips it there, and so does Copy (it is written back as it was).
var bom = []byte("\xef\xbb\xbf")

// Copy redacts every line of r to w. A line that is not JSON becomes
// InvalidLine, so that line numbers and bad-line reports stay. A
// byte-order mark at the start is kept, and the first line after it
// redacted as JSON.
func (rd *Redactor) Copy(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 256<<10)
	bw := bufio.NewWriter(w)
	for first := true; ; first = false {
		line, err := br.ReadBytes('\n')
		if first && bytes.HasPrefix(line, bom) {
			bw.Write(bom)
			line = line[len(bom):]
		}
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
	kind := gjson.GetBytes(b, "params.update.sessionUpdate").Str
	w := walker{rd: rd, in: b, out: &out, subagentUpdate: kind == "subagent_update",
		terminalUpdate: kind == "terminal_update" || kind == "terminal_output_chunk"}
	w.value(nil, false)
	return out.Bytes()
}

// walker re-writes one valid JSON value, keeping key order and the bytes
// of every member name and string it keeps, escapes included: replay
// shows ids as written ("p\u0031", not "p1"), so a re-encoded one would
// replay to other bytes. Whitespace between tokens is dropped.
type walker struct {
	rd  *Redactor
	in  []byte // valid JSON (json.Valid), so the scan needs no checks
	i   int    // the next byte to read
	out *bytes.Buffer
	// subagentUpdate says the line is a subagents RFD subagent_update,
	// whose description, when it is an identifier, is the child's role
	// (claude-agent-acp's subagent_type), which the Conn reads as such: it
	// stays (roleAt).
	subagentUpdate bool
	// terminalUpdate says the line is an ACP v2 terminal_update or
	// terminal_output_chunk, whose output bytes are base64: they are
	// redacted as output and encoded again (terminalData), so that the
	// redacted line still carries output the Conn reads.
	terminalUpdate bool
}

// terminalData reports whether path is a v2 terminal update's base64
// output: a terminal_update's output.data, a chunk's data.
func (w *walker) terminalData(path []string) bool {
	if !w.terminalUpdate || len(path) < 3 || path[0] != "params" || path[1] != "update" {
		return false
	}
	return len(path) == 3 && path[2] == "data" || len(path) == 4 && path[2] == "output" && path[3] == "data"
}

// roleAt reports whether path is a subagent_update's description.
func (w *walker) roleAt(path []string) bool {
	return w.subagentUpdate && len(path) == 3 && path[0] == "params" && path[1] == "update" && path[2] == "description"
}

// value writes the next value; path is the keys above it (an array adds
// none), secret whether one of them names a secret (secretName: worked
// out once per key, not once per value).
func (w *walker) value(path []string, secret bool) {
	w.space()
	switch w.in[w.i] {
	case '{':
		w.object(path, secret)
	case '[':
		w.array(path, secret)
	case '"':
		raw, s := w.readString()
		if w.terminalData(path) {
			if data, err := base64.StdEncoding.DecodeString(s); err == nil {
				red := w.rd.value([]string{"params", "update", "output"}, secret, string(data))
				w.keepOr(raw, s, base64.StdEncoding.EncodeToString([]byte(red)))
				return
			}
		}
		if w.roleAt(path) && roleRE.MatchString(s) && !secretShaped(s) {
			w.keepOr(raw, s, w.rd.secrets(s)) // a role, as subagent_type is
			return
		}
		w.keepOr(raw, s, w.rd.value(path, secret, s))
	default: // a number, true, false or null
		raw := w.literal()
		if isNumber(raw) && (secret || inEnv(path)) {
			w.str(w.rd.placeholder("secret", string(raw)))
			return
		}
		w.out.Write(raw)
	}
}

func (w *walker) object(path []string, secret bool) {
	w.i++ // {
	w.out.WriteByte('{')
	for n := 0; ; n++ {
		w.space()
		if w.in[w.i] == '}' {
			break
		}
		if n > 0 {
			w.i++ // ,
			w.out.WriteByte(',')
			w.space()
		}
		raw, key := w.readString()
		w.keepOr(raw, key, w.rd.key(key)) // keys stay, unless one is a secret or content
		w.space()
		w.i++ // :
		w.out.WriteByte(':')
		w.value(append(path[:len(path):len(path)], key), secret || secretName(key))
		w.space()
	}
	w.i++ // }
	w.out.WriteByte('}')
}

func (w *walker) array(path []string, secret bool) {
	w.i++ // [
	w.out.WriteByte('[')
	for n := 0; ; n++ {
		w.space()
		if w.in[w.i] == ']' {
			break
		}
		if n > 0 {
			w.i++ // ,
			w.out.WriteByte(',')
		}
		w.value(path, secret)
		w.space()
	}
	w.i++ // ]
	w.out.WriteByte(']')
}

func (w *walker) space() {
	for w.i < len(w.in) && (w.in[w.i] == ' ' || w.in[w.i] == '\t' || w.in[w.i] == '\n' || w.in[w.i] == '\r') {
		w.i++
	}
}

// readString reads the string at w.i: its bytes as written, quotes included,
// and its value.
func (w *walker) readString() (raw []byte, s string) {
	j := w.i + 1
	for w.in[j] != '"' {
		if w.in[j] == '\\' {
			j++ // the escaped byte, which may be a quote
		}
		j++
	}
	raw = w.in[w.i : j+1]
	w.i = j + 1
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return raw, string(inner)
	}
	json.Unmarshal(raw, &s) // valid: it cannot fail
	return raw, s
}

// literal reads the number, true, false or null at w.i, as written.
func (w *walker) literal() []byte {
	j := w.i
	for j < len(w.in) && !strings.ContainsRune(",]} \t\r\n", rune(w.in[j])) {
		j++
	}
	raw := w.in[w.i:j]
	w.i = j
	return raw
}

// isNumber reports whether a literal is a number (not true, false, null).
func isNumber(raw []byte) bool {
	return raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'
}

// keepOr writes raw, the string s as written, if redaction kept s as it
// is (got == s), else got.
func (w *walker) keepOr(raw []byte, s, got string) {
	if got == s {
		w.out.Write(raw)
		return
	}
	w.str(got)
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
// Their values are still searched for secrets. In a tool's input and
// output toolStructure decides instead.
var keep = withEnums("id", "version", "model", "name", "toolName", "_toolName", "code",
	"subagent_type", "subagentType")

// withEnums is the set of the enums and keys.
func withEnums(keys ...string) map[string]bool {
	m := maps.Clone(enums)
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// enums are the keep keys whose values come from a fixed vocabulary
// (JSON-RPC's, ACP's, a vendor's): a secret equal to one ("2.0",
// "completed") is not told by it, and redacting it there would change
// what the transcript replays to.
var enums = map[string]bool{
	"jsonrpc": true, "method": true, "sessionUpdate": true, "kind": true, "status": true, "type": true,
	"stopReason": true, "role": true, "outcome": true, "mimeType": true, "priority": true, "protocolVersion": true,
	"severity": true, "phase": true, "trigger": true, "origin": true, "effort": true, "encoding": true,
	"state": true, "decisionReasonType": true, "level": true, "currency": true,
}

// identity reports whether path is the agent's or the client's name,
// title or version in initialize: result.agentInfo (ACP v1), result.info
// (the v2 draft), params.clientInfo. The dialect is chosen by them. Only
// there: an info object elsewhere (a tool's output) is content.
func identity(path []string) bool {
	if len(path) != 3 || path[2] != "name" && path[2] != "title" && path[2] != "version" {
		return false
	}
	return path[0] == "result" && (path[1] == "agentInfo" || path[1] == "info") ||
		path[0] == "params" && path[1] == "clientInfo"
}

// nameLike reports whether s reads as a product's name, title or version
// ("Claude Agent", "@agentclientprotocol/claude-agent-acp", "0.32.0
// (commit eb99b871)"): one short line of a few words, not a path.
func nameLike(s string) bool {
	return len(s) <= 64 && len(strings.Fields(s)) <= 4 && !looksLikePath(s) &&
		strings.IndexFunc(s, unicode.IsControl) < 0
}

// isID reports whether key names an identifier (id, toolCallId,
// session_id).
func isID(key string) bool {
	return key == "id" || strings.HasSuffix(key, "Id") || strings.HasSuffix(key, "ID") || strings.HasSuffix(key, "_id") ||
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

// value is a string value at path, redacted; secret is whether a key
// of path names a secret: then the whole value is one, at any depth
// ({"password":{"value":...}}, {"apiKey":[...]}), as is an env or headers
// value.
func (rd *Redactor) value(path []string, secret bool, s string) string {
	key := ""
	if len(path) > 0 {
		key = path[len(path)-1]
	}
	switch {
	case (secret || inEnv(path)) && s != "":
		return rd.placeholder("secret", s)
	case rd.wasSecret(s) && !enums[key]:
		return rd.seen[s] // a secret already: so wherever it comes back
	case !hasAlnum(s):
		return s // nothing to hide: "", "---"
	case identity(path) && nameLike(s):
		return rd.secrets(s)
	case (isID(key) || keep[key] && !inTool(path) || inTool(path) && toolStructure(key, s)) && !prose(key, s):
		return rd.secrets(s)
	case phrases[s]:
		return s
	case identifier(s) && !content(path):
		return s
	}
	return rd.text(kindOf(path, s), s)
}

// inEnv reports whether a value is one of an environment's or of HTTP
// headers' (ACP's env and headers lists of {name, value}, or an object of
// them): where credentials are passed, whatever their names say. The
// names stay.
func inEnv(path []string) bool {
	n := len(path)
	return n >= 2 && (path[n-2] == "env" || path[n-2] == "headers") && path[n-1] != "name"
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

// identRE is an identifier: one short token of letters, digits and
// _ . + -, such as the names, kinds and states dialects compare values
// with (spawnAgent, working, mcp__docs__search, grok-4.5).
var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.+-]{0,63}$`)

// roleRE is a subagent's role: an agent's name, a plugin's agent
// (review-kit:reviewer) included.
var roleRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:+-]{0,127}$`)

// idRE is an id of the agent's in a text: one token, such as the ids
// under id keys.
var idRE = regexp.MustCompile(`^[A-Za-z0-9_.+-]{1,128}$`)

// fileNameRE is a name with a file extension (notes.md): content, not an
// identifier. A version (grok-4.5) has digits after its dot.
var fileNameRE = regexp.MustCompile(`\.[A-Za-z][A-Za-z0-9]{0,5}$`)

// identifier reports whether s is an identifier that is not shaped like
// a secret or a file name: what stays outside the content places.
func identifier(s string) bool {
	return identRE.MatchString(s) && !fileNameRE.MatchString(s) && !secretShaped(s)
}

// secretShaped reports whether s looks like a secret: it matches a
// secret pattern, names one (secretWord: a password, a token), or holds a
// long run of letters and digits that reads as random (16 or more with
// both letters and digits, or 32 or more).
func secretShaped(s string) bool {
	if secretRE.MatchString(s) || emailRE.MatchString(s) || secretWord.MatchString(s) {
		return true
	}
	run, letters, digits := 0, false, false
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isAlnumByte(s[i]) {
			run++
			letters = letters || s[i] > '9'
			digits = digits || s[i] <= '9'
			continue
		}
		if run >= 32 || run >= 16 && letters && digits {
			return true
		}
		run, letters, digits = 0, false, false
	}
	return false
}

func isAlnumByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// contentKeys hold text written by or for a person: an identifier-like
// value there is still a word of it (a streamed chunk is often one word),
// and is redacted. inputKeys hold a tool's input, whatever its keys.
var (
	contentKeys = map[string]bool{"text": true, "prompt": true, "description": true, "message": true, "content": true,
		"thought": true, "summary": true, "details": true, "detail": true, "hint": true, "reason": true,
		"body": true, "query": true, "pattern": true, "question": true, "answer": true,
		// a file's contents: a diff's, an edit's
		"oldText": true, "newText": true, "oldString": true, "newString": true, "originalFile": true}
	inputKeys = map[string]bool{"rawInput": true, "arguments": true, "input": true}
)

// content reports whether a value at path is content: under a content,
// path, command or output key, or in a tool's input.
func content(path []string) bool {
	if len(path) == 0 {
		return false
	}
	key := path[len(path)-1]
	if contentKeys[key] || pathKeys[key] || commandKeys[key] {
		return true
	}
	return inTool(path)
}

// inTool reports whether path is in a tool's input or output.
func inTool(path []string) bool {
	for _, k := range path {
		if outputKeys[k] || inputKeys[k] {
			return true
		}
	}
	return false
}

// toolStructure reports whether a value in a tool's input or output is
// structure the dialects read, and not the tool's data: the tool's name
// (Cursor's rawInput._toolName "task" makes a subagent), a subagent's
// type (OpenCode's task has one), a kind, status or trigger (Codex moves
// a subagent's status forward by rawInput's, Claude reads a compaction's
// trigger in rawOutput), a content block's type
// (Claude joins the "text" blocks of rawOutput), or a result's type that
// a dialect reads (outputTypes). Claude's
// _meta.claudeCode.toolResponse is a tool's output too (its agentType
// is a subagent's type). A kept key is not
// enough there: a name, code or type in a tool's input or output may be
// a file name or a secret code. Ids stay everywhere (isID).
func toolStructure(key, s string) bool {
	switch key {
	case "mode": // Copilot's task: sync or background
		return s == "sync" || s == "background"
	case "_toolName", "toolName", "subagent_type", "subagentType", "agentType", "agent_type", "kind", "status", "trigger",
		"activityKind": // Codex's subagent activity (started, interacted, ...), untagged in 2.x
		return true
	case "type":
		return blockTypes[s] || outputTypes[s]
	}
	return false
}

// outputTypes are the types of a tool's result that the dialects read
// (Grok's spawn_subagent: a foreground subagent's SubagentCompleted, a
// background one's start as Text).
var outputTypes = map[string]bool{"SubagentCompleted": true, "Text": true}

// blockTypes are the types of MCP's and ACP's content blocks.
var blockTypes = map[string]bool{"text": true, "image": true, "audio": true, "resource": true, "resource_link": true,
	"content": true, "diff": true, "terminal": true}

// Placeholder kinds, by key.
var (
	pathKeys    = map[string]bool{"path": true, "cwd": true, "filePath": true, "file_path": true, "file": true, "uri": true, "abs_path": true, "absPath": true, "directory": true, "dir": true, "root": true, "outputFile": true, "output_file": true, "planUri": true, "referenceImagePaths": true, "paths": true, "additionalDirectories": true}
	commandKeys = map[string]bool{"command": true, "cmd": true, "commandLine": true, "args": true, "argv": true}
	outputKeys  = map[string]bool{"rawOutput": true, "toolResponse": true, "output": true, "stdout": true, "stderr": true, "aggregated_output": true, "formatted_output": true}
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
	case !strings.ContainsAny(s, " \t\n") && secretRE.MatchString(s):
		// One word holding a secret (a token, a URL with credentials):
		// say so, so that a reviewer looking for <secret-N> finds it.
		return "secret"
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

// placeholder returns the placeholder for s, the same one every time s
// is seen, whatever the place: equal strings stay equal (a tool's output
// in rawOutput and again in _meta). Its kind is the one s was first seen
// as.
func (rd *Redactor) placeholder(kind, s string) string {
	if p, ok := rd.seen[s]; ok {
		return p
	}
	rd.count[kind]++
	p := fmt.Sprintf("<%s-%d>", kind, rd.count[kind])
	rd.seen[s] = p
	return p
}

// wasSecret reports whether s was made a secret placeholder before (an
// env value, a password): then it is one everywhere, even where a one-word
// value would stay (a title, a name, an id), or the secret would show
// there in clear next to its placeholder. A secret first seen after such a
// place cannot be taken back: the lines before are written.
func (rd *Redactor) wasSecret(s string) bool {
	p, ok := rd.seen[s]
	return ok && strings.HasPrefix(p, "<secret-")
}

// phrases are whole texts agents write that dialects compare: kept as
// they are wherever they appear.
var phrases = map[string]bool{
	// Claude's legacy compaction; the adapter sent the second after a blank line.
	"Compacting...": true, "Compacting completed.": true, "\n\nCompacting completed.": true,
	// The title of Codex's compaction call, which codex-acp 2.x sends
	// most clients untagged.
	"Compact conversation": true,
}

// Markup: what stays of a text that dialects read into (the rest of the
// text is redacted piece by piece, each piece a placeholder of the text's
// kind). A prefix applies at the start of a text, markup anywhere; the
// first group of either, if any, is an id of the agent's (a task id, a
// subagent type), kept as ids are.
var (
	prefixes = []*regexp.Regexp{
		regexp.MustCompile(`^Monitor started \(task ([A-Za-z0-9_-]+),`),                        // Claude: a Monitor's registration
		regexp.MustCompile(`^task_id: ([^\s]+)`),                                               // OpenCode: the task tool's output
		regexp.MustCompile(`^<task id="([^"\s]+)" state="[a-z_]+">`),                           // OpenCode 1.18: its opening tag, state a word of its own
		regexp.MustCompile(`^sub-agent-([^:]*):`),                                              // Auggie: a subagent's title
		regexp.MustCompile(`^sub-agent:`),                                                      // Auggie: the generic subagent's title
		regexp.MustCompile(`^Subagent started in background\.\nsubagent_id: ([^\s]+)`),         // Grok: a background subagent's start
		regexp.MustCompile(`^Agent started in background with agent_id: ([^\s]+?)\.?(?:\s|$)`), // Copilot: a background task's start
	}
	markup = regexp.MustCompile(strings.Join([]string{
		`<task-id>([^<]*)</task-id>`,                                         // Claude's task notification: its task id
		`(?:Human:[ \t\r\n]*)?</?(?:task-notification|event)>`,               // and its tags
		`</?task_result>`,                                                    // OpenCode's task tool output
		`requires agent|Start a new session|MODEL_SWITCH_INCOMPATIBLE_AGENT`, // Grok's incompatible model switch
		`(?i:model\s+is\s+at\s+capacity)`,                                    // Codex's capacity notice
	}, "|"))
	// markupNeedles are in every text markup matches (but for a capacity
	// notice in odd case): a text without them is not searched.
	markupNeedles = []string{"<task", "</task", "requires agent", "Start a new session", "MODEL_SWITCH", "apacity", "APACITY"}
)

// mayHoldMarkup reports whether s may hold markup, without a regexp.
func mayHoldMarkup(s string) bool {
	for _, n := range markupNeedles {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

// text redacts a text of kind: a placeholder, or, when it holds a prefix
// or markup, the prefix and markup kept and each piece between them a
// placeholder.
func (rd *Redactor) text(kind, s string) string {
	var b strings.Builder
	rest := s
	for _, re := range prefixes {
		if m := re.FindStringSubmatchIndex(rest); m != nil {
			rd.keep(&b, kind, rest, m)
			rest = rest[m[1]:]
			break
		}
	}
	for mayHoldMarkup(rest) {
		m := markup.FindStringSubmatchIndex(rest)
		if m == nil {
			break
		}
		rd.piece(&b, kind, rest[:m[0]])
		rd.keep(&b, kind, rest, m)
		rest = rest[m[1]:]
	}
	if rest == s {
		return rd.placeholder(kind, s)
	}
	rd.piece(&b, kind, rest)
	return b.String()
}

// keep writes the match m of s: as it is, but for its first group, an
// id of the agent's that stays as ids do (the same id elsewhere is under
// an id key: an OpenCode task_id is a sessionId): secrets in it replaced,
// and the whole a placeholder if it is not one token or names a secret.
func (rd *Redactor) keep(b *strings.Builder, kind, s string, m []int) {
	if len(m) < 4 || m[2] < 0 {
		b.WriteString(s[m[0]:m[1]])
		return
	}
	b.WriteString(s[m[0]:m[2]])
	if g := strings.TrimSpace(s[m[2]:m[3]]); idRE.MatchString(g) && !secretWord.MatchString(g) {
		b.WriteString(rd.secrets(s[m[2]:m[3]]))
	} else {
		rd.piece(b, kind, s[m[2]:m[3]])
	}
	b.WriteString(s[m[3]:m[1]])
}

// piece writes a piece of a text: a placeholder between the piece's own
// leading and trailing spaces (which end an id, or separate lines), or
// the piece as it is if it has nothing to hide (spaces, punctuation).
func (rd *Redactor) piece(b *strings.Builder, kind, s string) {
	if !hasAlnum(s) {
		b.WriteString(s)
		return
	}
	inner := strings.TrimSpace(s)
	i := strings.Index(s, inner)
	b.WriteString(s[:i])
	b.WriteString(rd.placeholder(kind, inner))
	b.WriteString(s[i+len(inner):])
}

// Secrets: patterns for keys, tokens and addresses that may appear in any
// string, kept ones included.
var (
	secretWord = regexp.MustCompile(`(?i)(token|secret|password|passwd|api[_-]?key|authorization|cookie|credential|private[_-]?key)`)
	emailRE    = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)
	secretRE   = regexp.MustCompile(strings.Join([]string{
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

// secretNameRE is what a key that names a secret holds, once lowercased
// and without separators (secretName): "token" only at its end, since
// inputTokens, token_count and tokenBudget count tokens.
var secretNameRE = regexp.MustCompile(`secret|passw(or)?d|passphrase|apikey|authorization|cookie|credential|privatekey|accesskey|bearer|token$`)

// secretName reports whether an object key names a secret, in any case
// and whatever separates its words: apiKey, x-api-key, OPENAI_API_KEY,
// Authorization, Proxy-Authorization, Set-Cookie, client_secret,
// GITHUB_TOKEN, x-auth-token.
func secretName(key string) bool {
	norm := strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.', ' ':
			return -1
		}
		return unicode.ToLower(r)
	}, key)
	return secretNameRE.MatchString(norm)
}

// secrets replaces what looks like a secret or an e-mail address in s.
func (rd *Redactor) secrets(s string) string {
	s = secretRE.ReplaceAllStringFunc(s, func(m string) string { return rd.placeholder("secret", m) })
	return emailRE.ReplaceAllStringFunc(s, func(m string) string { return rd.placeholder("email", m) })
}
