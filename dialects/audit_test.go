package dialects_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acpdialect/acpdialect/dialects"
	"github.com/acpdialect/acpdialect/internal/audit"
)

// replayAgent is the agent each package's conformance test replays its
// transcripts as (dialecttest.Options.Agent): "" identifies the agent from
// the initialize response.
var replayAgent = map[string]string{
	"codex": "codex", // the captures have no initialize
}

// unread are, per judging dialect, the vendor methods, update kinds and
// _meta key paths of the built-in transcripts that the dialect does not
// read (nor list in Ignores), each group with why. An item of a
// transcript that is unknown to the dialect that judged it must be here:
// anything else is data the dialect reads without declaring it in Reads,
// or data it should read. An entry that is no longer unknown must go.
var unread = map[string][]struct {
	why   string
	items []string
}{
	"claude": {
		{"AskUserQuestion comes as elicitation/create, which the dialect does not read (docs/claude.md §15)",
			[]string{"meta _meta._claude/askUserQuestionOption.preview"}},
		{"a permission request's MCP server is read by name only",
			[]string{"meta _meta.claudeCode.mcpServer.source"}},
		{"a tool call's title is ACP's title; the _meta copy is not read",
			[]string{"meta _meta.claudeCode.title"}},
		{"tool responses of tools without a card kind (Edit, Read, ...) and fields no card shows",
			[]string{
				"meta _meta.claudeCode.toolResponse.canReadOutputFile",
				"meta _meta.claudeCode.toolResponse.decisionReason",
				"meta _meta.claudeCode.toolResponse.decisionReasonType",
				"meta _meta.claudeCode.toolResponse.description",
				"meta _meta.claudeCode.toolResponse.elapsedTimeSeconds",
				"meta _meta.claudeCode.toolResponse.filePath",
				"meta _meta.claudeCode.toolResponse.interrupted",
				"meta _meta.claudeCode.toolResponse.isImage",
				"meta _meta.claudeCode.toolResponse.message",
				"meta _meta.claudeCode.toolResponse.mode",
				"meta _meta.claudeCode.toolResponse.newString",
				"meta _meta.claudeCode.toolResponse.oldString",
				"meta _meta.claudeCode.toolResponse.originalFile",
				"meta _meta.claudeCode.toolResponse.replaceAll",
				"meta _meta.claudeCode.toolResponse.structuredPatch",
				"meta _meta.claudeCode.toolResponse.userModified",
			}},
		{"the compaction figures' schema version",
			[]string{"meta _meta.contextCompaction.version"}},
		{"the initialize response's goal and steering extensions (session/new's goal control method)",
			[]string{"meta _meta.goal.actions", "meta _meta.goal.controlMethod", "meta _meta.goal.version",
				"meta _meta.steering.supported"}},
		{"a mode's or config option value's kind (AIR's presentation)",
			[]string{"meta _meta.kind"}},
		{"a permission request's title and version for AIR; ACP's title is read",
			[]string{"meta _meta.permission.title", "meta _meta.permission.version"}},
		{"the auth methods' terminal login command, for the client to run",
			[]string{"meta _meta.terminal-auth", "meta _meta.terminal-auth.args", "meta _meta.terminal-auth.command",
				"meta _meta.terminal-auth.label"}},
		{"unknown vendor methods on purpose (vendor-notifications.jsonl): ignored and declined",
			[]string{"method _claude/unknownRequest", "method _claude/unknownThing"}},
		{"the v2 draft's user_message (the prompt echoed), which passes as is",
			[]string{"update user_message"}},
		{"Cursor's frames under Claude's name (cursor/testdata/claude-agent-same-frames.jsonl)",
			[]string{"method cursor/task", "meta _meta.parameterizedModelPicker"}},
	},
	"codex": {
		{"a permission option's decision and grant, and the request's raw app-server params: the options' ids and kinds are read",
			[]string{
				"meta _meta.codex.decision", "meta _meta.codex.grantRoot",
				"meta _meta.codex.params.command", "meta _meta.codex.params.cwd",
				"meta _meta.codex.params.environmentId", "meta _meta.codex.params.grantRoot",
				"meta _meta.codex.params.itemId",
				"meta _meta.codex.params.permissions.fileSystem.entries",
				"meta _meta.codex.params.permissions.fileSystem.read",
				"meta _meta.codex.params.permissions.fileSystem.write",
				"meta _meta.codex.params.permissions.network.enabled",
				"meta _meta.codex.params.proposedExecpolicyAmendment", "meta _meta.codex.params.reason",
				"meta _meta.codex.params.startedAtMs", "meta _meta.codex.params.threadId",
				"meta _meta.codex.params.turnId",
				"meta _meta.codex.permissions.fileSystem.entries", "meta _meta.codex.permissions.fileSystem.read",
				"meta _meta.codex.permissions.fileSystem.write", "meta _meta.codex.permissions.network.enabled",
				"meta _meta.permission.changes", "meta _meta.permission.version",
			}},
		{"a thread status's flags: only its type (systemError) is read",
			[]string{"meta _meta.codex.threadStatus.activeFlags"}},
		{"a slash command's action (config option shortcuts): commands pass as standard ACP",
			[]string{"meta _meta.commandAction.configId", "meta _meta.commandAction.kind",
				"meta _meta.commandAction.presentation", "meta _meta.commandAction.resetValue",
				"meta _meta.commandAction.value"}},
		{"the thread goal on session_info_update: only the title, archived and closed are read",
			[]string{"meta _meta.goal", "meta _meta.goal.controlMethod", "meta _meta.goal.createdAt",
				"meta _meta.goal.objective", "meta _meta.goal.status", "meta _meta.goal.timeUsedSeconds",
				"meta _meta.goal.tokenBudget", "meta _meta.goal.tokensUsed", "meta _meta.goal.updatedAt"}},
		{"a diff's kind (add, delete, update) in tool call content",
			[]string{"meta _meta.kind"}},
	},
	"grok": {
		{"a model's harness: the incompatible switch is read from the error instead",
			[]string{"meta _meta.agentType"}},
		{"session/new's auto mode, the client's own",
			[]string{"meta _meta.autoMode"}},
		{"the prompt response's session id: the request's is known",
			[]string{"meta _meta.sessionId"}},
		{"the fs_notify capability: x.ai/fs_notify is allowlisted whatever it says",
			[]string{"meta _meta.x.ai/fs_notify"}},
		{"the tool descriptor's version",
			[]string{"meta _meta.x.ai/tool.version"}},
		{"unknown vendor methods on purpose (vendor-methods.jsonl): declined and ignored",
			[]string{"method x.ai/git/status", "method x.ai/brand_new_notification"}},
	},
	"copilot": {
		{"the auth methods' terminal login command, for the client to run",
			[]string{"meta _meta.terminal-auth.args", "meta _meta.terminal-auth.command",
				"meta _meta.terminal-auth.label"}},
	},
	"cursor": {
		{"an unknown vendor method on purpose (notification-and-ids.jsonl): declined",
			[]string{"method cursor/unknown_method"}},
	},
}

// TestAuditTestdata audits every built-in dialect's transcripts as its
// conformance test replays them: every vendor method, update kind and
// _meta key path a dialect judges must be read, ignored, standard, or
// listed in unread. Items of a transcript no dialect identifies (another
// agent's on purpose) are judged by none and pass.
func TestAuditTestdata(t *testing.T) {
	reg := dialects.Registry()
	known := map[string]string{} // agent kind name -> why
	for agent, groups := range unread {
		for _, g := range groups {
			for _, it := range g.items {
				known[agent+" "+it] = g.why
			}
		}
	}
	used := map[string]bool{}
	for _, d := range dialects.All() {
		t.Run(d.ID, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join("..", d.ID, "testdata", "*.jsonl"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no transcripts in ../%s/testdata (%v)", d.ID, err)
			}
			a := audit.New()
			for _, name := range files {
				f, err := os.Open(name)
				if err != nil {
					t.Fatal(err)
				}
				err = a.File(reg, name, f, replayAgent[d.ID])
				f.Close()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			judged := 0
			for _, it := range a.Items() {
				if it.Agent == d.ID {
					judged++
				}
				if it.Status != audit.Unknown || it.Agent == "unknown" {
					continue
				}
				k := it.Agent + " " + it.Kind + " " + it.Name
				if _, ok := known[k]; ok {
					used[k] = true
					continue
				}
				t.Errorf("%s:%d: %s %s is unknown to the %s dialect: declare it in its Reads (or Ignores) if it reads it, else list it in unread with why",
					it.File, it.Line, it.Kind, it.Name, it.Agent)
			}
			if judged == 0 {
				t.Errorf("no item of ../%s/testdata was judged by the %s dialect", d.ID, d.ID)
			}
		})
	}
	if t.Failed() {
		return
	}
	for k := range known {
		if !used[k] {
			t.Errorf("unread lists %q, which no transcript has unknown any more: remove it", k)
		}
	}
}
