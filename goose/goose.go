// Package goose is the dialect of Block's Goose in ACP mode (`goose acp`,
// crates/goose-acp).
//
// Goose speaks standard ACP and adds, under "_goose/":
//
//   - One agent -> client request, _goose/unstable/session/recipe/request-params:
//     Goose asks the client for the values of a recipe's parameters. It
//     is allowlisted and answered with the safe default {"action":"cancel"}
//     (no values are invented; Goose then does not run the recipe). A
//     client that shows a form serves the method itself
//     (acpdialect.Options.ClientMethods) and answers {"action":"submit",
//     "values":{...}}.
//   - Tool calls carry _meta["_goose/tool-chain-id"] and
//     "_goose/tool-chain-summary": the group of calls the tool call belongs
//     to and the group's summary ("working" while it runs). Both are
//     carried on the card as its Chain; a real summary is not replaced by
//     the "working" placeholder. Goose sends a closed chain's summary on
//     its last tool call only: the chain's other cards keep "working".
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

// Goose's tool call _meta keys.
const (
	MetaChainID      = "_goose/tool-chain-id"
	MetaChainSummary = "_goose/tool-chain-summary"
)

// Dialect returns the Goose dialect. Each call returns a fresh value.
func Dialect() *acpdialect.Dialect {
	return &acpdialect.Dialect{
		ID:    ID,
		Match: Match,
		Methods: []acpdialect.Method{
			{Name: MethodRecipeParams, Kind: acpdialect.Request, Handle: HandleRecipeParams},
		},
		ToolCall: ToolCall,
		Reads:    []string{"_meta." + MetaChainID, "_meta." + MetaChainSummary},
		// Goose's own notification, its capability opt-ins (_meta.goose in
		// initialize) and the recipe a session/new names: known, and
		// nothing a card or event shows.
		Ignores: []string{MethodSessionUpdate, "_meta.goose", "_meta.recipeId", "_meta.recipeDeeplink"},
	}
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
