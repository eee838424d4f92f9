// Command pulumi-language-go is this project's own Pulumi language host for Go, limited to code
// generation.
//
// Why it exists: the Go module proxy, the only source of Pulumi we can build from, serves
// github.com/pulumi/pulumi/pkg/v3 and sdk/v3 but refuses Pulumi's own language-host module
// (github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3) at every version. This is a small,
// independent implementation of the LanguageRuntime gRPC protocol built from Pulumi's exported
// packages: pulumirpc and rpcutil (sdk/v3) for the protocol and pkg/v3/codegen/go for SDK,
// program and project generation.
//
// We need it for `pulumi package gen-sdk --language go` (GeneratePackage); `pulumi convert` to Go
// works too. Running Go programs (Run) is not implemented.
package main

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/nsp-platform/pulumi-nsp/tools/language-hosts/internal/langhost"
)

func main() {
	b := langhost.NewBase("pulumi-language-go", langhost.Codegen{
		Package: func(tool string, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest,
			_ schema.ReferenceLoader,
		) (map[string][]byte, error) {
			if len(req.ExtraFiles) > 0 {
				return nil, status.Error(codes.InvalidArgument, "overlays are not supported for Go")
			}
			return codegen.GeneratePackage(tool, pkg, req.LocalDependencies)
		},
		Program: codegen.GenerateProgram,
		Project: func(dir string, project workspace.Project, program *pcl.Program, deps map[string]string) error {
			return codegen.GenerateProject(dir, project, program, deps)
		},
	})
	langhost.Serve(b, &host{b})
}

type host struct {
	*langhost.Base
}

func (h *host) Run(context.Context, *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	return nil, status.Error(codes.Unimplemented,
		"this pulumi-language-go only generates code; it cannot run Go programs "+
			"(Pulumi's own pulumi-language-go is not available from the Go module proxy)")
}
