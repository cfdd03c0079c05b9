module github.com/torchlint/torchlint

go 1.26.8

require (
	github.com/aymanbagabas/go-udiff v0.4.1
	github.com/owenrumney/go-sarif/v2 v2.3.3
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82
	github.com/spf13/pflag v1.1.0
)

require golang.org/x/text v0.14.0 // indirect
