module github.com/nsp-platform/pulumi-nsp/tools/language-hosts

go 1.25.11

require (
	github.com/pulumi/pulumi/pkg/v3 v3.259.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
