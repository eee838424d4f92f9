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
// works too. Run builds the program with `go build` (or runs the prebuilt `binary` runtime
// option) and hands it the engine's addresses and the stack's configuration in the PULUMI_*
// environment variables that Pulumi's Go SDK reads (sdk/v3/go/pulumi/run.go).
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

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

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "this pulumi-language-go cannot attach a debugger"}, nil
	}
	engine := h.EngineAddress()
	if engine == "" {
		return nil, status.Error(codes.FailedPrecondition,
			"the engine's address is unknown: it is passed on the command line or by Handshake")
	}
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}

	runCtx, release := h.RunContext(ctx)
	defer release()

	program := ""
	if binary, ok := req.GetInfo().GetOptions().AsMap()["binary"].(string); ok && binary != "" {
		program = binary
		if !filepath.IsAbs(program) {
			program = filepath.Join(dir, program)
		}
	} else {
		// Built afresh on every run, as Pulumi's own host does; Go's build cache makes a rebuild
		// of an unchanged program take about a second.
		tmp, err := os.MkdirTemp("", "pulumi-go-program-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		program = filepath.Join(tmp, "program")
		build := exec.CommandContext(runCtx, "go", "build", "-o", program, ".")
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("go build of %s failed: %v\n%s", dir, err, out)}, nil
		}
	}

	env, err := langhost.ConfigEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	env = append(env,
		"PULUMI_MONITOR="+req.GetMonitorAddress(),
		"PULUMI_ENGINE="+engine,
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_ROOT_DIRECTORY="+req.GetInfo().GetRootDirectory(),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
		"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
	)
	cmd := exec.CommandContext(runCtx, program, req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	cmd.Env = append(os.Environ(), env...)
	return h.RunProgram(cmd), nil
}
