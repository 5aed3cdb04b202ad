package redact

import (
	"encoding/base64"
	"testing"
)

// redactsTo checks each line's redaction, each with a Redactor of its own.
func redactsTo(t *testing.T, tests []struct{ in, want string }) {
	t.Helper()
	for _, tt := range tests {
		if got := string(New().Line([]byte(tt.in))); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.in, got, tt.want)
		}
	}
}

// TestIdentity: the agent's and client's names, titles and versions in
// initialize stay (the dialect is chosen by them), but only there and
// only when they read as a name; an info object elsewhere (a tool's
// output) is content like any other.
func TestIdentity(t *testing.T) {
	redactsTo(t, []struct{ in, want string }{
		{`{"id":1,"result":{"info":{"name":"@agentclientprotocol/claude-agent-acp","title":"Claude Agent","version":"0.80.0"}}}`,
			`{"id":1,"result":{"info":{"name":"@agentclientprotocol/claude-agent-acp","title":"Claude Agent","version":"0.80.0"}}}`},
		{`{"id":1,"result":{"agentInfo":{"name":"Kimi Code CLI","title":"Auggie Agent","version":"0.32.0 (commit eb99b871)"}}}`,
			`{"id":1,"result":{"agentInfo":{"name":"Kimi Code CLI","title":"Auggie Agent","version":"0.32.0 (commit eb99b871)"}}}`},
		{`{"id":0,"method":"initialize","params":{"clientInfo":{"name":"example-client","version":"0.4.0"}}}`,
			`{"id":0,"method":"initialize","params":{"clientInfo":{"name":"example-client","version":"0.4.0"}}}`},
		// not a name: words, a path, secrets
		{`{"id":1,"result":{"agentInfo":{"name":"acme","title":"the quarterly numbers are bad and nobody may know it yet"}}}`,
			`{"id":1,"result":{"agentInfo":{"name":"acme","title":"<text-1>"}}}`},
		{`{"id":1,"result":{"info":{"name":"acme","title":"line one\nline two"}}}`, `{"id":1,"result":{"info":{"name":"acme","title":"<text-1>"}}}`},
		{`{"id":1,"result":{"info":{"name":"acme","title":"/home/alice/plan"}}}`, `{"id":1,"result":{"info":{"name":"acme","title":"<path-1>"}}}`},
		{`{"id":1,"result":{"info":{"name":"acme sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx"}}}`, `{"id":1,"result":{"info":{"name":"acme <secret-1>"}}}`},
		// an info object elsewhere is content
		{`{"params":{"update":{"rawOutput":{"info":{"x":"falcon","details":"the quarterly numbers are bad"}}}}}`,
			`{"params":{"update":{"rawOutput":{"info":{"x":"<output-1>","details":"<output-2>"}}}}}`},
		{`{"params":{"update":{"_meta":{"vendor":{"info":{"note":"the quarterly numbers are bad"}}}}}}`,
			`{"params":{"update":{"_meta":{"vendor":{"info":{"note":"<text-1>"}}}}}}`},
		{`{"params":{"agentInfo":{"note":"the quarterly numbers are bad"}}}`, `{"params":{"agentInfo":{"note":"<text-1>"}}}`},
	})
}

// TestSecretKeyNames: a key that names a secret, in any case and with -
// or _ between its words (HTTP headers, environment variables), has its
// value redacted; a key that counts tokens does not.
func TestSecretKeyNames(t *testing.T) {
	for _, key := range []string{"x-api-key", "X-Api-Key", "api-key", "api_key", "apiKey", "OPENAI_API_KEY", "x-goog-api-key",
		"Authorization", "proxy-authorization", "Cookie", "set-cookie", "Set-Cookie", "x-auth-token", "GITHUB_TOKEN", "access_token",
		"refreshToken", "token", "client_secret", "clientSecret", "password", "db-passwd", "private-key", "privateKey",
		"credentials", "aws_access_key_id", "passphrase"} {
		in := `{"_meta":{"http":{"` + key + `":"plainvalue42"}}}`
		want := `{"_meta":{"http":{"` + key + `":"<secret-1>"}}}`
		if got := string(New().Line([]byte(in))); got != want {
			t.Errorf("%s\n got  %s\n want %s", in, got, want)
		}
	}
	for _, key := range []string{"inputTokens", "totalTokens", "token_count", "tokenBudget", "tokensUsed", "max_tokens", "authMethods", "tokenizer"} {
		in := `{"_meta":{"usage":{"` + key + `":"plainvalue42"}}}`
		if got := string(New().Line([]byte(in))); got != in {
			t.Errorf("%s\n got  %s\n want it as it is", in, got)
		}
	}
}

// TestSecretKeyValues: everything under a secret-named key is a secret,
// however deep and whatever its type: strings and numbers become
// placeholders; true, false and null, which hold no secret, and the keys
// stay.
func TestSecretKeyValues(t *testing.T) {
	redactsTo(t, []struct{ in, want string }{
		{`{"password":"hunter2"}`, `{"password":"<secret-1>"}`},
		{`{"password":{"value":"hunter2"}}`, `{"password":{"value":"<secret-1>"}}`},
		{`{"apiKey":["sk-x1","plain"]}`, `{"apiKey":["<secret-1>","<secret-2>"]}`},
		{`{"secret":12345678}`, `{"secret":"<secret-1>"}`},
		{`{"x-api-key":-1.5e3}`, `{"x-api-key":"<secret-1>"}`},
		{`{"credentials":{"user":"alice","nested":[{"pin":1234,"code":"x9"}],"on":true,"off":false,"none":null,"empty":""}}`,
			`{"credentials":{"user":"<secret-1>","nested":[{"pin":"<secret-2>","code":"<secret-3>"}],"on":true,"off":false,"none":null,"empty":""}}`},
		{`{"token":1234,"other":1234}`, `{"token":"<secret-1>","other":1234}`},
		{`{"env":{"PORT":5432},"headers":[{"name":"X-Pin","value":1234}]}`, `{"env":{"PORT":"<secret-1>"},"headers":[{"name":"X-Pin","value":"<secret-2>"}]}`},
		// counts of tokens are no secrets
		{`{"usage":{"inputTokens":12,"totalTokens":40,"token_count":3,"tokenBudget":1000}}`, `{"usage":{"inputTokens":12,"totalTokens":40,"token_count":3,"tokenBudget":1000}}`},
	})
}

// TestToolInputOutput: in a tool's input and output, a one-word value is
// the tool's data (a file name, a code) even under a key kept elsewhere
// (name, code, type, model); only what the dialects read stays: ids, the
// tool's name, a subagent's type, kinds, statuses, triggers and content
// block types.
func TestToolInputOutput(t *testing.T) {
	redactsTo(t, []struct{ in, want string }{
		{`{"rawOutput":{"name":"falcon","code":"X7Q"}}`, `{"rawOutput":{"name":"<output-1>","code":"<output-2>"}}`},
		{`{"rawInput":{"type":"confidential","name":"Falcon","model":"falcon9","version":"v2","role":"ceo"}}`,
			`{"rawInput":{"type":"<text-1>","name":"<text-2>","model":"<text-3>","version":"<text-4>","role":"<text-5>"}}`},
		{`{"arguments":{"name":"report"},"output":{"mimeType":"secretformat"}}`, `{"arguments":{"name":"<text-1>"},"output":{"mimeType":"<output-1>"}}`},
		// what the dialects read stays
		{`{"rawInput":{"_toolName":"task","subagent_type":"explore","id":"web-1","senderThreadId":"th_1","receiverThreadIds":["th_2"],"status":"inProgress","agentsStates":{"th_2":{"status":"running","message":"Checking"}}}}`,
			`{"rawInput":{"_toolName":"task","subagent_type":"explore","id":"web-1","senderThreadId":"th_1","receiverThreadIds":["th_2"],"status":"inProgress","agentsStates":{"th_2":{"status":"running","message":"<text-1>"}}}}`},
		{`{"rawOutput":[{"type":"text","text":"Found"},{"type":"resource_link","uri":"/a/b"}],"kind":"x"}`,
			`{"rawOutput":[{"type":"text","text":"<output-1>"},{"type":"resource_link","uri":"<path-1>"}],"kind":"x"}`},
		{`{"rawOutput":{"trigger":"automatic","preTokens":1000,"metadata":{"sessionId":"ses_1","model":{"providerID":"p","modelID":"m"}}}}`,
			`{"rawOutput":{"trigger":"automatic","preTokens":1000,"metadata":{"sessionId":"ses_1","model":{"providerID":"p","modelID":"m"}}}}`},
		// outside a tool's input and output, kept keys keep their values
		{`{"name":"falcon","code":"X7Q","type":"confidential","model":"falcon9"}`, `{"name":"falcon","code":"X7Q","type":"confidential","model":"falcon9"}`},
	})
}

// TestTerminalOutputBase64: ACP v2's terminal output is base64 bytes: it
// is redacted as output and encoded again, so that the line still carries
// output; data that is not base64 is redacted as it is. v1's
// _meta.terminal_output data is text.
func TestTerminalOutputBase64(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	redactsTo(t, []struct{ in, want string }{
		{`{"params":{"update":{"sessionUpdate":"terminal_update","terminalId":"t1","output":{"data":"` + b64([]byte("secret plans")) + `"}}}}`,
			`{"params":{"update":{"sessionUpdate":"terminal_update","terminalId":"t1","output":{"data":"` + b64([]byte("<output-1>")) + `"}}}}`},
		{`{"params":{"update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"` + b64([]byte("more plans")) + `"}}}`,
			`{"params":{"update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"` + b64([]byte("<output-1>")) + `"}}}`},
		{`{"params":{"update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"not base64!"}}}`,
			`{"params":{"update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t1","data":"<text-1>"}}}`},
		{`{"params":{"update":{"sessionUpdate":"tool_call_update","_meta":{"terminal_output":{"data":"plain text"}}}}}`,
			`{"params":{"update":{"sessionUpdate":"tool_call_update","_meta":{"terminal_output":{"data":"<text-1>"}}}}}`},
	})
}

// TestSecretSeenBefore: a value once redacted as a secret (an env or
// header value, anything under a secret-named key) is a secret wherever
// it comes back, even where a one-word value would stay: a tool call's
// title, a name, an id. The placeholder is the same.
func TestSecretSeenBefore(t *testing.T) {
	lines := []struct{ in, want string }{
		{`{"id":1,"method":"session/new","params":{"mcpServers":[{"name":"db","env":[{"name":"DB_PASSWORD","value":"hunter2"}],"headers":{"X-Trace":"tr4ce"}}]}}`,
			`{"id":1,"method":"session/new","params":{"mcpServers":[{"name":"db","env":[{"name":"DB_PASSWORD","value":"<secret-1>"}],"headers":{"X-Trace":"<secret-2>"}}]}}`},
		{`{"params":{"update":{"toolCallId":"t1","title":"hunter2","_meta":{"x":{"name":"tr4ce"}}}}}`,
			`{"params":{"update":{"toolCallId":"t1","title":"<secret-1>","_meta":{"x":{"name":"<secret-2>"}}}}}`},
		{`{"params":{"password":{"v":"s3cr3t"}}}`, `{"params":{"password":{"v":"<secret-3>"}}}`},
		{`{"params":{"sessionId":"s3cr3t","update":{"name":"s3cr3t"}}}`, `{"params":{"sessionId":"<secret-3>","update":{"name":"<secret-3>"}}}`},
		// an enum's value stays: it tells nothing, and replay reads it
		{`{"params":{"env":{"API_VERSION":"2.0","MODE":"completed"}}}`, `{"params":{"env":{"API_VERSION":"<secret-4>","MODE":"<secret-5>"}}}`},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"status":"completed"}}}`,
			`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"status":"completed"}}}`},
	}
	rd := New()
	for _, tt := range lines {
		if got := string(rd.Line([]byte(tt.in))); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.in, got, tt.want)
		}
	}
}

// TestFileContentWords: a file's contents are redacted even when they
// are one word: the old and new text of a diff, and Claude's
// toolResponse (the tool's structured output: an edit's strings, the
// file read); what the Claude dialect reads there (the subagent's type,
// status and ids, the content blocks' types) stays.
func TestFileContentWords(t *testing.T) {
	redactsTo(t, []struct{ in, want string }{
		{`{"params":{"update":{"content":[{"type":"diff","path":"/a","oldText":"alpha","newText":"beta"}]}}}`,
			`{"params":{"update":{"content":[{"type":"diff","path":"<path-1>","oldText":"<text-1>","newText":"<text-2>"}]}}}`},
		{`{"params":{"update":{"_meta":{"claudeCode":{"toolName":"Edit","toolResponse":{"oldString":"localhost","newString":"prodhost","originalFile":"hello","replaceAll":false}}}}}}`,
			`{"params":{"update":{"_meta":{"claudeCode":{"toolName":"Edit","toolResponse":{"oldString":"<output-1>","newString":"<output-2>","originalFile":"<output-3>","replaceAll":false}}}}}}`},
		{`{"params":{"update":{"_meta":{"claudeCode":{"toolName":"Glob","toolResponse":{"filenames":["README","Makefile"],"mode":"files"}}}}}}`,
			`{"params":{"update":{"_meta":{"claudeCode":{"toolName":"Glob","toolResponse":{"filenames":["<output-1>","<output-2>"],"mode":"<output-3>"}}}}}}`},
		{`{"params":{"update":{"_meta":{"claudeCode":{"toolName":"Task","toolResponse":{"status":"completed","agentId":"a-1","agentType":"general-purpose","content":[{"type":"text","text":"Done"}]}}}}}}`,
			`{"params":{"update":{"_meta":{"claudeCode":{"toolName":"Task","toolResponse":{"status":"completed","agentId":"a-1","agentType":"general-purpose","content":[{"type":"text","text":"<output-1>"}]}}}}}}`},
	})
}

// TestSecretValueKind: a value that is one word holding a secret (a token,
// a URL with credentials), wherever it stands, gets a secret placeholder,
// as the README says, not a text or output one; a sentence holding one is
// text, and a whole e-mail address is an email.
func TestSecretValueKind(t *testing.T) {
	redactsTo(t, []struct{ in, want string }{
		{`{"params":{"update":{"_meta":{"tok":"ghp_0123456789abcdefghijABCDEFGHIJ0123"}}}}`,
			`{"params":{"update":{"_meta":{"tok":"<secret-1>"}}}}`},
		{`{"params":{"update":{"_meta":{"aws":"AKIAIOSFODNN7EXAMPLE"}}}}`, `{"params":{"update":{"_meta":{"aws":"<secret-1>"}}}}`},
		{`{"params":{"update":{"_meta":{"db":"postgres://admin:pa55word@db.internal:5432/app"}}}}`,
			`{"params":{"update":{"_meta":{"db":"<secret-1>"}}}}`},
		{`{"params":{"update":{"rawOutput":{"output":"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx"}}}}`,
			`{"params":{"update":{"rawOutput":{"output":"<secret-1>"}}}}`},
		{`{"params":{"update":{"_meta":{"note":"use sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx now"}}}}`,
			`{"params":{"update":{"_meta":{"note":"<text-1>"}}}}`},
		{`{"params":{"update":{"_meta":{"user":"alice@example.com"}}}}`, `{"params":{"update":{"_meta":{"user":"<email-1>"}}}}`},
	})
}
