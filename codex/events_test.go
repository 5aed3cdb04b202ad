package codex_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/acpdialect/acpdialect"
	"github.com/acpdialect/acpdialect/codex"
	"github.com/acpdialect/acpdialect/cursor"
	"github.com/tidwall/gjson"
)

func TestEventRules(t *testing.T) {
	big := strings.Repeat("x", codex.MaxMCPOutput)
	tests := []struct {
		name    string
		frames  []string
		want    []string
		notWant []string
	}{
		{"MCP failure", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","kind":"execute","title":"mcp.fs.read","status":"in_progress","rawInput":{"server":" fs ","tool":"read","arguments":{"path":"a"}},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"reading"}}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"a"}}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":{"result":null,"error":{"message":"no such file"}}}`),
		}, []string{
			`"payload":{"kind":"mcp_tool","status":"in_progress","title":"mcp.fs.read","mcp_tool":{"server":"fs","tool":"read","arguments":{"path":"a"},"output":"reading\na"}}`,
			`"payload":{"kind":"mcp_tool","status":"failed","title":"mcp.fs.read","mcp_tool":{"server":"fs","tool":"read","arguments":{"path":"a"},"output":"reading\na","error":"no such file"}}`,
		}, nil},
		{"MCP result unwrapped", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":{"result":{"content":[{"type":"text","text":"one"},{"type":"text","text":"two"}]},"error":null}}`),
		}, []string{`"status":"completed","mcp_tool":{"server":"fs","tool":"read","output":"one\ntwo"}}`}, []string{`"error"`}},
		{"MCP output bounded, tail kept", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"` + big + `"}}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"END"}}}`),
		}, []string{`xxx\nEND","output_truncated":true}`}, nil},
		{"MCP progress messages: one a line", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"Downloading"}}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"Done"}}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"ends in a break\n"}}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"last"}}}`),
		}, []string{`"output":"Downloading\nDone\nends in a break\nlast"}`}, []string{`DownloadingDone`, `\n\n`}},
		{"MCP result of many blocks: the tail of them all kept", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":{"result":{"content":[{"type":"text","text":"` +
				strings.Repeat("A", 40000) + `"},{"type":"text","text":"` + strings.Repeat("B", 40000) + `"},{"type":"text","text":"` + strings.Repeat("C", 40000) + `END"}]}}}`),
		}, []string{`CCCEND","output_truncated":true}`}, nil},
		{"MCP error: the call stays failed", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","rawOutput":{"error":"E"}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":{"result":"ok2","error":null}}`),
		}, []string{`"status":"failed","mcp_tool":{"server":"fs","tool":"read","output":"ok2","error":"E"}}`}, []string{`"status":"completed"`}},
		{"MCP error of a wrong type is none", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed","rawOutput":{"result":"ok","error":false}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"m2","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m2","status":"completed","rawOutput":{"result":"ok","error":{}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"m3","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m3","status":"completed","rawOutput":{"result":"ok","error":{"code":5}}}`),
		}, []string{`"tool_call_id":"m1","payload":{"kind":"mcp_tool","status":"completed"`, `"tool_call_id":"m2","payload":{"kind":"mcp_tool","status":"completed"`,
			`"tool_call_id":"m3","payload":{"kind":"mcp_tool","status":"failed","mcp_tool":{"server":"fs","tool":"read","output":"ok","error":"{\"code\":5}"}}`},
			[]string{`"error":"false"`, `"error":"{}"`}},
		{"not MCP without server and tool", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"  ","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
		}, []string{`"kind":"generic"`}, []string{`mcp_tool`}},
		{"the capacity error", []string{
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"m0","content":{"type":"text","text":"The selected model is at capacity."}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"systemError"}}}}`),
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Working on it"}}`),
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"m2","content":{"type":"text","text":"Selected  model is AT\ncapacity. Please try a different model."}}`),
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"m3","content":{"type":"text","text":"Selected model is at capacity."}}`),
		}, []string{`{"type":"provider_error","agent":"codex","session_id":"s1","provider_error":{"severity":"error","code":"model_at_capacity","title":"Model at capacity","message":"Selected model is at capacity. Please try a different model.","action":"switch_model","replaces_message_id":"m2","replaces_text":"Selected  model is AT\ncapacity. Please try a different model."}}`},
			[]string{`"m0"`, `"m1"`, `"m3"`}},
		{"the capacity error after text of its own message: only the chunk is named", []string{
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"systemError"}}}}`),
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Here is the plan. "}}`),
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Selected model is at capacity."}}`),
		}, []string{`"replaces_message_id":"m1","replaces_text":"Selected model is at capacity."`}, []string{`Here is the plan`}},
		{"the capacity error: a legacy mark, a chunk without id", []string{
			update(`{"sessionUpdate":"session_info_update","_meta":{"threadStatus":{"type":"systemError"}}}`),
			update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"model is at capacity"}}`),
		}, []string{`"replaces_text":"model is at capacity"`}, nil},
		{"the capacity error: a later status clears the mark", []string{
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"systemError"}}}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"active"}}}}`),
			update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"model is at capacity"}}`),
		}, nil, []string{`provider_error`}},
		{"the capacity error: the turn's end clears the mark", []string{
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"systemError"}}}}`),
			`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`,
			update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"model is at capacity"}}`),
		}, nil, []string{`provider_error`}},
		{"the capacity error: a queued prompt's turn starts without the mark", []string{
			`>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"threadStatus":{"type":"systemError"}}}}`),
			`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`,
			update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"model is at capacity"}}`),
		}, nil, []string{`provider_error`}},
		{"an MCP approval by tool call id alone names the card's server and tool", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","kind":"execute","title":"mcp.fs.write","status":"in_progress","rawInput":{"server":"fs","tool":"write"},"_meta":{"is_mcp_tool_call":true}}`),
			`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"m1","kind":"execute","status":"pending","_meta":{"is_mcp_tool_approval":true}},` +
				`"options":[{"optionId":"approved","name":"Allow","kind":"allow_once"}]}}`,
			update(`{"sessionUpdate":"tool_call","toolCallId":"x1","kind":"execute","title":"ls","status":"in_progress","rawInput":{"command":"ls"}}`),
			`{"jsonrpc":"2.0","id":8,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"x1","kind":"execute","status":"pending"},"options":[]}}`,
			`{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"m1","rawInput":{"serverName":"own"}},"options":[]}}`,
		}, []string{`"id":7,"permission":{"acp_kind":"execute","server":"fs","tool":"write","options":[{"id":"approved"`,
			`"id":8,"permission":{"acp_kind":"execute","options":[]}`,
			`"id":9,"permission":{"server":"own","options":[]}`}, nil},
		{"turn errors on session_info_update", []string{
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Reconnecting... 1/5","codexErrorInfo":"serverOverloaded","additionalDetails":"secret raw details","turnId":"t1","willRetry":true}}}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Too many requests","codexErrorInfo":{"responseStreamDisconnected":{"httpStatusCode":429}},"turnId":"t0","willRetry":false}}}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Stream lost","codexErrorInfo":{"httpConnectionFailed":{"httpStatusCode":null}},"willRetry":false}}}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Sign in","codexErrorInfo":{"responseStreamConnectionFailed":{"httpStatusCode":401}}}}}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Brand new","codexErrorInfo":"somethingNew"}}}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Full","codexErrorInfo":"contextWindowExceeded","willRetry":false}}}}`),
		}, []string{
			`{"type":"provider_error","agent":"codex","session_id":"s1","provider_error":{"severity":"warning","code":"overloaded","title":"Service overloaded","message":"Reconnecting... 1/5"}}`,
			`"provider_error":{"severity":"error","code":"rate_limited","title":"Rate limited","message":"Too many requests","action":"retry"}`,
			`"provider_error":{"severity":"error","code":"transport_lost","title":"Connection lost","message":"Stream lost","action":"retry"}`,
			`"provider_error":{"severity":"error","code":"auth_required","title":"Sign-in required","message":"Sign in","action":"login"}`,
			`"provider_error":{"severity":"error","code":"provider_error","title":"Provider error","message":"Brand new","action":"retry"}`,
			`"provider_error":{"severity":"error","code":"context_exhausted","title":"Context window full","message":"Full","action":"new_session"}`,
		}, []string{`secret`}},
		// codex-acp reads the first member of an object codexErrorInfo.
		{"a turn error's kind is its first member", []string{
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"Lost","codexErrorInfo":{"httpConnectionFailed":{"httpStatusCode":null},"other":{}}}}}}`),
		}, []string{`"provider_error":{"severity":"error","code":"transport_lost","title":"Connection lost","message":"Lost","action":"retry"}`}, nil},
		{"a cancelled MCP call that reports an error stays cancelled", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"cancelled","rawOutput":{"error":"aborted"}}`),
		}, []string{`"status":"cancelled","mcp_tool":{"server":"fs","tool":"read","error":"aborted"}}`}, []string{`"status":"failed"`}},
		{"turn errors that say nothing, or beside session info", []string{
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"  ","codexErrorInfo":"serverOverloaded"}}}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"codexErrorInfo":"serverOverloaded"}}}}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":"overloaded"}}}`),
			update(`{"sessionUpdate":"session_info_update","title":"Kept","_meta":{"codex":{"error":{"message":"x"}}}}`),
		}, []string{`"session_info":{"title":"Kept"}`}, []string{`provider_error`}},
		{"phased chunks", []string{
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"c","content":{"type":"text","text":"Looking."},"_meta":{"codex":{"phase":"commentary"}}}`),
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"plain","content":{"type":"text","text":"no phase here"}}`),
			update(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"Hi"},"_meta":{"codex":{"phase":"final_answer"}}}`),
			update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"the word \"phase\" alone"}}`),
		}, []string{
			`{"type":"message","agent":"codex","session_id":"s1","message":{"role":"assistant","text":"Looking.","phase":"commentary"}}`,
			`{"type":"message","agent":"codex","session_id":"s1","message":{"role":"user","text":"Hi","phase":"final_answer"}}`,
		}, []string{`no phase here`, `alone`}},
		// codex-acp 2.x: the phase goes to AIR clients alone, under
		// jetbrains.air; codex's wins when a chunk has both.
		{"phased chunks for AIR (2.x)", []string{
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"c","content":{"type":"text","text":"Looking."},"_meta":{"jetbrains":{"air":{"version":1,"phase":"commentary"}}}}`),
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"f","content":{"type":"text","text":"Done."},"_meta":{"jetbrains":{"air":{"phase":"commentary"}},"codex":{"phase":"final_answer"}}}`),
			update(`{"sessionUpdate":"agent_message_chunk","messageId":"g","content":{"type":"text","text":"odd"},"_meta":{"jetbrains":{"phase":"commentary"}}}`),
		}, []string{
			`{"type":"message","agent":"codex","session_id":"s1","message":{"role":"assistant","text":"Looking.","phase":"commentary"}}`,
			`{"type":"message","agent":"codex","session_id":"s1","message":{"role":"assistant","text":"Done.","phase":"final_answer"}}`,
		}, []string{`odd`}},
		{"usage", []string{
			update(`{"sessionUpdate":"usage_update","used":2500,"size":258400}`),
		}, []string{`{"type":"usage","agent":"codex","session_id":"s1","usage":{"used":2500,"size":258400}}`}, nil},
		{"turn summary: gpt-5.2[high], estimated", []string{
			`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn","usage":{"totalTokens":120,"inputTokens":80,"cachedReadTokens":20,"outputTokens":40,"thoughtTokens":10},"_meta":{"quota":{"token_count":{"totalTokens":120,"cachedInputTokens":20,"reasoningOutputTokens":10},"model_usage":[{"model":"gpt-5.2[high]","token_count":{"totalTokens":120}}]}}}}`,
		}, []string{`{"type":"usage","agent":"codex","session_id":"s1","method":"session/prompt","id":1,"usage":{"model":"gpt-5.2","effort":"high","turn":true,"input_tokens":80,"output_tokens":40,"cached_read_tokens":20,"thought_tokens":10,"total_tokens":120,"estimated":true}}`}, nil},
		{"turn summary from the quota alone", []string{
			`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn","_meta":{"quota":{"token_count":{"totalTokens":7,"cachedInputTokens":2,"reasoningOutputTokens":1}}}}}`,
		}, []string{`"usage":{"turn":true,"cached_read_tokens":2,"thought_tokens":1,"total_tokens":7,"estimated":true}`}, nil},
		// 2.6.0's token_count names the cache writes cacheWriteInputTokens.
		{"turn summary: cache writes from the quota", []string{
			`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn","usage":{"totalTokens":9},"_meta":{"quota":{"token_count":{"totalTokens":9,"cachedInputTokens":0,"cacheWriteInputTokens":3}}}}}`,
		}, []string{`"usage":{"turn":true,"cached_read_tokens":0,"cached_write_tokens":3,"total_tokens":9,"estimated":true}`}, nil},
		{"a turn summary with no count and no model is none", []string{
			`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn","usage":{},"_meta":{"quota":{"token_count":{"input_tokens":-1,"output_tokens":2.5}}}}}`,
		}, nil, []string{`"usage"`}},
		// codex-acp 2.x sends no _meta: the tool call id names the plan.
		{"plan review (2.x)", []string{
			`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"plan-review:item-9","title":"Implement this plan?","kind":"switch_mode","status":"pending","rawInput":{"plan":"1. Fix it"}},"options":[{"optionId":"implement_plan","name":"Yes, implement this plan","kind":"allow_once"},{"optionId":"revise_plan","name":"No, and tell Codex what to do differently","kind":"reject_once"}]}}`,
			`{"jsonrpc":"2.0","id":8,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"plan-reviewer"},"options":[]}}`,
		}, []string{`"tool_call_id":"plan-review:item-9","method":"session/request_permission","id":7,"permission":{"title":"Implement this plan?","acp_kind":"switch_mode","options":[{"id":"implement_plan","name":"Yes, implement this plan","kind":"allow_once"},{"id":"revise_plan","name":"No, and tell Codex what to do differently","kind":"reject_once"}],"plan_review":true,"plan_item_id":"item-9"}}`},
			[]string{`"id":8,"permission":{"options":[],"plan_review"`}},
		{"plan review", []string{
			`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"plan-1","kind":"switch_mode","title":"Implement this plan?"},"options":[{"optionId":"yes","name":"Yes","kind":"allow_once"},{"optionId":"no","name":"No","kind":"reject_once"}],"_meta":{"codex":{"kind":"plan_review","planItemId":"item-9"}}}}`,
		}, []string{`{"type":"permission","agent":"codex","session_id":"s1","tool_call_id":"plan-1","method":"session/request_permission","id":7,"permission":{"title":"Implement this plan?","acp_kind":"switch_mode","options":[{"id":"yes","name":"Yes","kind":"allow_once"},{"id":"no","name":"No","kind":"reject_once"}],"plan_review":true,"plan_item_id":"item-9"}}`}, nil},
		{"MCP permission", []string{
			`{"jsonrpc":"2.0","id":8,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"m1","rawInput":{"server":"fs","tool":"write"}},"options":[]}}`,
		}, []string{`"permission":{"server":"fs","tool":"write","options":[]}`}, []string{`plan_review`}},
		{"compaction", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"cc1","kind":"other","title":"Compacting","status":"in_progress","_meta":{"contextCompaction":{"version":1,"trigger":"auto"}}}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"cc1","status":"completed","_meta":{"contextCompaction":{"version":1,"trigger":"auto","preTokens":200000,"postTokens":30000,"durationMs":4100,"error":null}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"cc2","status":"completed","_meta":{"contextCompaction":{"trigger":"manual","error":"context too small"}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"cc3","status":"completed","_meta":{"contextCompaction":{"error":false}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"cc4","status":"completed","_meta":{"contextCompaction":{"error":0}}}`),
		}, []string{
			`"compaction":{"compaction_id":"cc3","status":"completed"}`,
			`"compaction":{"compaction_id":"cc4","status":"completed"}`,
			`{"type":"compaction","agent":"codex","session_id":"s1","tool_call_id":"cc1","compaction":{"compaction_id":"cc1","status":"in_progress","trigger":"auto"}}`,
			`{"type":"compaction","agent":"codex","session_id":"s1","tool_call_id":"cc1","compaction":{"compaction_id":"cc1","status":"completed","trigger":"auto","pre_tokens":200000,"post_tokens":30000,"duration_ms":4100}}`,
			`"compaction":{"compaction_id":"cc2","status":"failed","error":"context too small","trigger":"manual"}`,
		}, nil},
		// codex-acp 2.x, to a client that declares session.notices.
		{"notices (2.x)", []string{
			update(`{"sessionUpdate":"notice","severity":"warning","title":"Configuration warning","description":"Unknown key foo in config.toml"}`),
			update(`{"sessionUpdate":"notice","severity":"error","title":"Deprecated configuration"}`),
			update(`{"sessionUpdate":"notice","severity":"warning","description":"no title"}`),
		}, []string{
			`{"type":"provider_error","agent":"codex","session_id":"s1","provider_error":{"severity":"warning","code":"notice","title":"Configuration warning","message":"Unknown key foo in config.toml"}}`,
			`{"type":"provider_error","agent":"codex","session_id":"s1","provider_error":{"severity":"error","code":"notice","title":"Deprecated configuration"}}`,
		}, []string{`no title`}},
		// codex-acp 2.x: AIR's key, no key at all for other clients (the
		// title says it), and ACP's compaction_update for a client that
		// declares session.compaction.
		{"compaction (2.x)", []string{
			update(`{"sessionUpdate":"tool_call","toolCallId":"cc5","kind":"think","title":"Compact conversation","status":"in_progress","_meta":{"jetbrains":{"air":{"version":1,"contextCompaction":{"version":1}}}}}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"cc6","kind":"think","title":"Compact conversation","status":"in_progress"}`),
			update(`{"sessionUpdate":"tool_call_update","toolCallId":"cc6","title":"Compact conversation","status":"completed"}`),
			update(`{"sessionUpdate":"tool_call","toolCallId":"cc7","kind":"other","title":"Compact conversation","status":"in_progress","rawInput":{"path":"notes.md"}}`),
			update(`{"sessionUpdate":"compaction_update","compactionId":"k1","status":"in_progress"}`),
			update(`{"sessionUpdate":"compaction_update","compactionId":"k1","status":"failed","error":"Codex ended the turn before compaction completed."}`),
			update(`{"sessionUpdate":"compaction_update","status":"completed"}`),
		}, []string{
			`{"type":"compaction","agent":"codex","session_id":"s1","tool_call_id":"cc5","compaction":{"compaction_id":"cc5","status":"in_progress"}}`,
			`{"type":"compaction","agent":"codex","session_id":"s1","tool_call_id":"cc6","compaction":{"compaction_id":"cc6","status":"in_progress"}}`,
			`{"type":"compaction","agent":"codex","session_id":"s1","tool_call_id":"cc6","compaction":{"compaction_id":"cc6","status":"completed"}}`,
			`{"type":"compaction","agent":"codex","session_id":"s1","compaction":{"compaction_id":"k1","status":"in_progress"}}`,
			`{"type":"compaction","agent":"codex","session_id":"s1","compaction":{"compaction_id":"k1","status":"failed","error":"Codex ended the turn before compaction completed."}}`,
		}, []string{`"compaction_id":"cc7"`, `"compaction":{"status"`}},
		{"session info", []string{
			update(`{"sessionUpdate":"session_info_update","title":"Fix the build","_meta":{"codex":{"archived":true,"closed":false}}}`),
			update(`{"sessionUpdate":"session_info_update","title":null}`),
			update(`{"sessionUpdate":"session_info_update","_meta":{"goal":null}}`),
			update(`{"sessionUpdate":"session_info_update","title":null,"title":"Kept"}`),
		}, []string{`{"type":"session_info","agent":"codex","session_id":"s1","session_info":{"title":"Fix the build","archived":true,"closed":false}}`,
			`{"type":"session_info","agent":"codex","session_id":"s1","session_info":{"title_cleared":true}}`,
			`"session_info":{"title":"Kept"}`},
			[]string{`"session_info":{}`, `"title":"Kept","title_cleared"`}},
		{"auth status", []string{
			`>{"jsonrpc":"2.0","id":9,"method":"authentication/status","params":{}}`,
			`{"jsonrpc":"2.0","id":9,"result":{"type":"chat-gpt","email":"dev@example.com"}}`,
			`>{"jsonrpc":"2.0","id":10,"method":"authentication/logout","params":{}}`,
			`{"jsonrpc":"2.0","id":10,"result":{}}`,
			`>{"jsonrpc":"2.0","id":11,"method":"authentication/status","params":{}}`,
			`{"jsonrpc":"2.0","id":11,"result":{"type":"unauthenticated"}}`,
		}, []string{
			`{"type":"auth_status","agent":"codex","method":"authentication/status","id":9,"auth_status":{"kind":"account","email":"dev@example.com"}}`,
			`{"type":"auth_status","agent":"codex","method":"authentication/status","id":11,"auth_status":{"kind":"none"}}`,
		}, []string{`"id":10`}},
		// codex-acp 2.x pushes the login state, as claude-agent-acp does.
		{"auth status pushed", []string{
			`{"jsonrpc":"2.0","method":"_auth/status_update","params":{"authStatus":{"kind":"api_key","label":"OpenAI API key"}}}`,
			`{"jsonrpc":"2.0","method":"_auth/status_update","params":{"authStatus":{"kind":"account","label":"ChatGPT Plus","account":{"email":"dev@example.com","plan":"plus"}}}}`,
			`{"jsonrpc":"2.0","method":"_auth/status_update","params":{"authStatus":"none"}}`,
		}, []string{
			`"type":"auth_status","agent":"codex","session_id":"s1","auth_status":{"kind":"api_key","label":"OpenAI API key"}}`,
			`"type":"auth_status","agent":"codex","session_id":"s1","auth_status":{"kind":"account","label":"ChatGPT Plus","email":"dev@example.com","plan":"plus"}}`,
		}, []string{`"auth_status":{}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			has(t, feed(t, conn(t, acpdialect.Options{}), tt.frames...), tt.want, tt.notWant)
		})
	}
}

func TestParseModelID(t *testing.T) {
	for _, tc := range []struct{ id, model, effort string }{
		{"gpt-5.2[high]", "gpt-5.2", "high"},
		{"gpt-5.2-codex[xhigh]", "gpt-5.2-codex", "xhigh"},
		{"gpt-5.2", "gpt-5.2", ""},
		{"gpt-5.2[]", "gpt-5.2[]", ""},
		{"[high]", "[high]", ""},
		{"a[b]c", "a[b]c", ""},
		{"a[b[c]", "a[b[c]", ""},
		{"", "", ""},
	} {
		if m, e := codex.ParseModelID(tc.id); m != tc.model || e != tc.effort {
			t.Errorf("ParseModelID(%q) = %q, %q, want %q, %q", tc.id, m, e, tc.model, tc.effort)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		name, title string
		want        bool
	}{
		{"codex-acp", "", true},
		{"@zed-industries/codex-acp", "", true},
		{"@agentclientprotocol/codex-acp", "", true},
		{"Codex", "", true},
		{"", "Codex", true},
		{"CODEX_ACP", "", true},
		{"codex", "", true},
		{"precodex", "", false},
		{"xcodex-acpx", "", false},
		{"codexx", "", false},
		{"codex2", "", false},
		{" codex-acp ", "", true},
		{"  @zed-industries/codex-acp", "", true},
		{"codexé", "", false},
		{"codex×acp", "", true},
		{"claude-code (codex-compatible)", "", false},
		{"openai-codex", "", false},
		{"@codex/claude-agent-acp", "", false},
		{"@codex", "", false},
		{"cursor-agent", "Cursor Agent", false},
		{"", "", false},
	} {
		if got := codex.Match(tc.name, tc.title); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.name, tc.title, got, tc.want)
		}
	}
}

// TestOtherAgentsIsolated: Codex frames on a Cursor, Claude or unknown
// connection give what they give without the Codex dialect, and nothing
// of Codex's.
func TestOtherAgentsIsolated(t *testing.T) {
	frames := []string{
		spawn("tool_call", "w1", "main", "A", "running", "a"),
		update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`),
		update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"},"_meta":{"codex":{"phase":"commentary"}}}`),
		update(`{"sessionUpdate":"usage_update","used":1,"size":2}`),
		update(`{"sessionUpdate":"tool_call","toolCallId":"c1","kind":"execute","title":"ls","status":"in_progress","rawInput":{"command":"ls","cwd":"/w"}}`),
		update(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"formatted_output":"x","exit_code":1}}`),
		`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p"},"options":[],"_meta":{"codex":{"kind":"plan_review"}}}}`,
	}
	other := &acpdialect.Dialect{ID: "claude", Match: func(n, _ string) bool { return n == "claude-agent-acp" }}
	for _, agent := range []string{"cursor-agent", "claude-agent-acp", "some-agent"} {
		run := func(ds ...*acpdialect.Dialect) string {
			c := acpdialect.NewRegistry(ds...).NewConn(acpdialect.Options{})
			init := []string{
				`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`,
				`{"jsonrpc":"2.0","id":0,"result":{"agentInfo":{"name":"` + agent + `"}}}`,
				`>{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`,
			}
			return feed(t, c, append(init, frames...)...)
		}
		with := run(append(dialectsBut(), codex.Dialect(), other)...)
		without := run(append(dialectsBut(), other)...)
		if with != without {
			t.Errorf("%s: output depends on the Codex dialect:\n%s\nwithout:\n%s", agent, with, without)
		}
		has(t, with, nil, []string{"subagent_task", "mcp_tool", `"shell"`, `"phase"`, `"permission"`, `"usage"`, `"codex"`})
	}
}

// dialectsBut is every built-in dialect but Codex's.
func dialectsBut() []*acpdialect.Dialect { return []*acpdialect.Dialect{cursor.Dialect()} }

// TestMCPFirstDeltaOwned: the card keeps its own copy of the first
// progress message, not a view of the frame, which the caller may reuse.
func TestMCPFirstDeltaOwned(t *testing.T) {
	c := conn(t, acpdialect.Options{})
	feed(t, c, update(`{"sessionUpdate":"tool_call","toolCallId":"m1","status":"in_progress","rawInput":{"server":"fs","tool":"read"},"_meta":{"is_mcp_tool_call":true}}`))
	buf := []byte(update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"HELLO"}}}`))
	if _, err := c.Inbound(buf); err != nil {
		t.Fatal(err)
	}
	copy(buf[bytes.Index(buf, []byte("HELLO")):], "XXXXX") // the caller reuses its buffer
	got := feed(t, c, update(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","_meta":{"mcp_output_delta":{"data":"next"}}}`))
	if !strings.Contains(got, `"output":"HELLO\nnext"`) {
		t.Errorf("got %s, want the output HELLO\\nnext", got)
	}
}

// A turn error's message is kept to 1 KiB, cut at a character's start.
func TestTurnErrorMessageCut(t *testing.T) {
	long := strings.Repeat("é", 600) // 1200 bytes
	got := feed(t, conn(t, acpdialect.Options{}),
		update(`{"sessionUpdate":"session_info_update","_meta":{"codex":{"error":{"message":"`+long+`","willRetry":true}}}}`))
	has(t, got, []string{`"message":"` + strings.Repeat("é", 512) + `"`}, []string{strings.Repeat("é", 513)})
}

// TestPermissionOptionsBounded: a permission lists its first
// MaxPermissionOptions options with an id.
func TestPermissionOptionsBounded(t *testing.T) {
	var opts []string
	for i := range codex.MaxPermissionOptions + 1 {
		opts = append(opts, fmt.Sprintf(`{"optionId":"o%d"}`, i))
	}
	_, p := codex.ParsePermission(gjson.Parse(`{"toolCall":{"toolCallId":"t"},"options":[` + strings.Join(opts, ",") + `]}`))
	if n := len(p.Options); n != codex.MaxPermissionOptions || p.Options[n-1].ID != fmt.Sprintf("o%d", n-1) {
		t.Errorf("%d options", n)
	}
}
