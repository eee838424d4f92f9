// Command pulumi-language-python is this project's own Pulumi language host for Python programs.
//
// Why it exists: the Go module proxy, the only source of Pulumi we can build from, serves
// github.com/pulumi/pulumi/pkg/v3 and sdk/v3 but refuses Pulumi's own language-host module
// (github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3) at every version. This is a
// small, independent implementation of the LanguageRuntime gRPC protocol built from Pulumi's
// exported packages: pulumirpc and rpcutil (sdk/v3) for the protocol, sdk/v3/python/toolchain for
// virtual environments and interpreters, and pkg/v3/codegen/python for SDK and program generation.
//
// It runs programs through pulumi-language-python-exec (the script shipped in the sdk/v3 module,
// installed beside this executable) with the interpreter of the virtualenv named by the runtime
// option `virtualenv` (relative to the project directory), or python3 when there is none. It
// generates SDKs, programs and projects, creates a missing virtualenv on `pulumi install`, and
// reports About/GetProgramDependencies. It does not support typecheckers, attaching a debugger,
// running plugins written in Python (RunPlugin), Pack or Link.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"google.golang.org/grpc"

	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"

	"github.com/nsp-platform/pulumi-nsp/tools/language-hosts/internal/langhost"
)

// execScript is the Python script that connects to the engine and runs a program; it is
// installed next to this executable.
const execScript = "pulumi-language-python-exec"

func main() {
	langhost.Serve(newHost())
}

type host struct {
	*langhost.Base
}

func newHost() (*langhost.Base, pulumirpc.LanguageRuntimeServer) {
	b := langhost.NewBase("pulumi-language-python", langhost.Codegen{
		Package: func(tool string, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest,
			loader schema.ReferenceLoader,
		) (map[string][]byte, error) {
			return codegen.GeneratePackage(tool, pkg, req.ExtraFiles, loader)
		},
		Program: codegen.GenerateProgram,
		Project: func(dir string, project workspace.Project, program *pcl.Program, deps map[string]string) error {
			return codegen.GenerateProject(dir, project, program, deps, "" /* typechecker */, "" /* toolchain */)
		},
	})
	return b, &host{b}
}

// pythonOptions reads the `runtime.options` of Pulumi.yaml that this host understands.
func pythonOptions(info *pulumirpc.ProgramInfo) (toolchain.PythonOptions, error) {
	opts := toolchain.PythonOptions{
		Root:       info.GetRootDirectory(),
		ProgramDir: info.GetProgramDirectory(),
	}
	for key, value := range info.GetOptions().AsMap() {
		s, ok := value.(string)
		if !ok {
			return opts, fmt.Errorf("the python runtime option %q must be a string, not %T", key, value)
		}
		switch key {
		case "virtualenv":
			opts.Virtualenv = s
		case "toolchain":
			switch s {
			case "pip":
				opts.Toolchain = toolchain.Pip
			case "poetry":
				opts.Toolchain = toolchain.Poetry
			case "uv":
				opts.Toolchain = toolchain.Uv
			default:
				return opts, fmt.Errorf("unknown python toolchain %q", s)
			}
		case "typechecker":
			switch s {
			case "mypy":
				opts.Typechecker = toolchain.TypeCheckerMypy
			case "pyright":
				opts.Typechecker = toolchain.TypeCheckerPyright
			}
		}
	}
	return opts, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "this pulumi-language-python cannot attach a debugger"}, nil
	}
	engine := h.EngineAddress()
	if engine == "" {
		return nil, errors.New("the engine's address is unknown: it is passed on the command line or by Handshake")
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	script := filepath.Join(filepath.Dir(self), execScript)
	if _, err := os.Stat(script); err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("%s must be installed beside %s: %v", execScript, self, err)}, nil
	}

	opts, err := pythonOptions(req.GetInfo())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	if opts.Typechecker != toolchain.TypeCheckerNone {
		return &pulumirpc.RunResponse{Error: "this pulumi-language-python does not run typecheckers; " +
			"remove the typechecker runtime option"}, nil
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	flags := langhost.Flags{script}
	flags.Add("monitor", req.GetMonitorAddress())
	flags.Add("engine", engine)
	flags.Add("project", req.GetProject())
	flags.Add("root_directory", req.GetInfo().GetRootDirectory())
	flags.Add("stack", req.GetStack())
	flags.Add("pwd", req.GetPwd())
	flags.Add("dry_run", strconv.FormatBool(req.GetDryRun()))
	flags.Add("parallel", strconv.Itoa(int(req.GetParallel())))
	flags.Add("tracing", h.Tracing)
	flags.Add("organization", req.GetOrganization())
	args := append(flags, entryPoint(req))
	args = append(args, req.GetArgs()...)

	env, err := langhost.ConfigEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}

	runCtx, release := h.RunContext(ctx)
	defer release()
	cmd, err := tc.Command(runCtx, args...) // the virtualenv's python, or python3
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, env...)
	return h.RunProgram(cmd), nil
}

// entryPoint is the program to run, relative to the program directory ("." for __main__.py).
func entryPoint(req *pulumirpc.RunRequest) string {
	if ep := req.GetInfo().GetEntryPoint(); ep != "" {
		return ep
	}
	if req.GetProgram() != "" {
		return req.GetProgram()
	}
	return "."
}

// InstallDependencies creates the virtualenv and installs requirements.txt into it when the
// virtualenv does not exist yet. An existing virtualenv, and the ambient python3 when no
// virtualenv is configured, are left alone.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	opts, err := pythonOptions(req.GetInfo())
	if err != nil {
		return err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return err
	}
	venv, err := tc.VirtualEnvPath(server.Context())
	if err == nil && (venv == "" || toolchain.IsVirtualEnv(venv)) {
		return nil
	}

	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.IsTerminal)
	if err != nil {
		return err
	}
	defer closer.Close()
	err = tc.InstallDependencies(server.Context(), req.GetInfo().GetProgramDirectory(),
		req.UseLanguageVersionTools, true /* showOutput */, stdout, stderr)
	if err != nil {
		return err
	}
	return closer.Close()
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	opts, err := pythonOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	info, err := tc.About(ctx)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{
		Executable: info.PythonExecutable,
		Version:    info.PythonVersion.String(),
		Metadata:   map[string]string{"toolchain": toolchain.Name(opts.Toolchain)},
	}, nil
}

func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := pythonOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	packages, err := tc.ListPackages(ctx, req.TransitiveDependencies)
	if err != nil {
		return nil, fmt.Errorf("listing the program's packages: %w", err)
	}
	resp := &pulumirpc.GetProgramDependenciesResponse{}
	for _, p := range packages {
		resp.Dependencies = append(resp.Dependencies, &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version})
	}
	return resp, nil
}
