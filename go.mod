module github.com/acpdialect/acpdialect

go 1.26

require (
	github.com/coder/acp-go-sdk v0.13.0
	github.com/google/go-cmp v0.7.0
	github.com/tidwall/gjson v1.20.4
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
)
