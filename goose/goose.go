// Package goose is the dialect of Goose (aaif-goose/goose, formerly
// block/goose) in ACP mode (`goose acp`).
//
// Goose speaks standard ACP and adds:
//
//   - One agent -> client request, _goose/unstable/session/recipe/request-params:
//     Goose asks the client for the values of a recipe's parameters. It
//     is allowlisted and answered with the safe default {"action":"cancel"}
//     (no values are invented; Goose then does not run the recipe). A
//     client that shows a form serves the method itself
//     (acpdialect.Options.ClientMethods) and answers {"action":"submit",
//     "values":{...}}.
//   - Goose groups a step's tool calls into a chain and, when the chain
//     ends, sends its summary in _meta.goose.toolChainSummary {summary,
//     count} of a tool_call_update of the chain's first tool call (and,
//     on session/load, in the replayed tool_call of that call). It is
//     carried on that card as its Chain.Summary (Goose sends no chain id).
//     Goose sends it only to a client that opted in with
//     clientCapabilities._meta.goose.toolCallLabelEnrichment: true in
//     initialize; a client that does not gets no summaries.
//   - Older Goose servers sent the legacy layout instead,
//     _meta["_goose/tool-chain-id"] and "_goose/tool-chain-summary"
//     ("working" while the chain ran, the real summary on the chain's last
//     tool call). It is still read, the same way as before.
//   - Its notification _goose/unstable/session/update (usage, status
//     messages) repeats what standard updates say: it is ignored and
//     counted, like any unknown notification.
//
// The wire facts each rule relies on, with their public sources, are in
// the module's docs/goose.md.
package goose

import (
	"github.com/acpdialect/acpdialect"
	"github.com/tidwall/gjson"
)

// ID is the dialect's identifier.
const ID = "goose"

// Goose's agent -> client request.
const MethodRecipeParams = "_goose/unstable/session/recipe/request-params"

// MethodSessionUpdate is Goose's own notification, known and left alone.
const MethodSessionUpdate = "_goose/unstable/session/update"

// Current Goose's _meta keys: its object, the chain summary in it, and
// the tool identity it puts on every tool call (left alone).
const (
	MetaGoose              = "goose"
	MetaChainSummaryObject = "toolChainSummary"
	MetaToolCall           = "toolCall"
)

// The legacy layout's tool call _meta keys (older Goose servers; see
// ParseChain).
const (
	MetaChainID      = "_goose/tool-chain-id"
	MetaChainSummary = "_goose/tool-chain-summary"
)

// ignoredGooseMeta are the keys of current Goose's _meta.goose objects the
// dialect knows and leaves alone (docs/goose.md section 4): the tool
// identity on tool calls, the message metadata on replayed frames, and
// the capability opt-ins and advertisements of initialize. Any other key
// under _meta.goose shows as new in an audit.
var ignoredGooseMeta = []string{
	MetaToolCall, "messageId", "created", "outputTokenLimitReached",
	"customNotifications", "recipeParameterRequests", "toolCallLabelEnrichment", "mcpHostCapabilities",
	"recipeParameterScopes", "localInference",
}

// Dialect returns the Goose dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    ID,
		Match: Match,
		Methods: []acpdialect.Method{
			{Name: MethodRecipeParams, Kind: acpdialect.Request, Handle: HandleRecipeParams},
		},
		ToolCall: ToolCall,
		Reads: []string{
			"_meta." + MetaGoose + "." + MetaChainSummaryObject,
			"_meta." + MetaChainID, "_meta." + MetaChainSummary,
		},
		// Goose's own notification, the _meta.goose keys it leaves alone
		// and the recipe a session/new names: known, and nothing a card or
		// event shows.
		Ignores: ignores(),
	}
}

func ignores() []string {
	ig := []string{MethodSessionUpdate, "_meta.recipeId", "_meta.recipeDeeplink"}
	for _, k := range ignoredGooseMeta {
		ig = append(ig, "_meta."+MetaGoose+"."+k)
	}
	return ig
}

// Match identifies Goose by its agentInfo name or title: "goose", in any
// case, around spaces (goose-acp sends Implementation::new("goose", ...)).
// A name that only contains it ("goose-proxy", "mongoose") is not Goose's.
func Match(name, title string) bool {
	return acpdialect.MatchExact(name, "goose") || acpdialect.MatchExact(title, "goose")
}

// CancelRecipe is the safe default answer to a recipe parameters request:
// the user gave no values, so the recipe does not run with invented ones.
var CancelRecipe = []byte(`{"action":"cancel"}`)

// HandleRecipeParams answers _goose/unstable/session/recipe/request-params
// ({sessionId, parameters: [{key, input_type, requirement, description,
// default?, options?}]}) with CancelRecipe, whatever the params.
func HandleRecipeParams(gjson.Result) acpdialect.Action {
	return acpdialect.Action{Result: CancelRecipe}
}
