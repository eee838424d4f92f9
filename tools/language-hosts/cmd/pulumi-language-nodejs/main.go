// Command pulumi-language-nodejs is this project's own Pulumi language host for Node.js and
// TypeScript programs.
//
// Why it exists: the Go module proxy, the only source of Pulumi we can build from, serves
// github.com/pulumi/pulumi/pkg/v3 and sdk/v3 but refuses Pulumi's own language-host module
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) at every version. This is a
// small, independent implementation of the LanguageRuntime gRPC protocol built from Pulumi's
// exported packages: pulumirpc and rpcutil (sdk/v3) for the protocol, sdk/v3/nodejs/npm for
// package managers and pkg/v3/codegen/nodejs for SDK and program generation.
//
// It runs programs with the run script of the program's own @pulumi/pulumi
// (@pulumi/pulumi/cmd/run), generates SDKs (`pulumi package gen-sdk --language nodejs`), programs
// (`pulumi convert`, `pulumi import`) and projects, installs dependencies when node_modules is
// missing, and reports About/GetProgramDependencies. RunPlugin runs policy packs (analyzer
// plugins, `pulumi preview --policy-pack`) with @pulumi/pulumi/cmd/run-policy-pack. It does not
// support attaching a debugger, the bun runtime, other plugins written in Node.js (resource
// providers, converters, tools), Pack or Link.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/shlex"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/nsp-platform/pulumi-nsp/tools/language-hosts/internal/langhost"
)

// runModule is the script of @pulumi/pulumi that connects to the engine and runs a program.
const runModule = "@pulumi/pulumi/cmd/run"

// runPolicyPackModule is the script of @pulumi/pulumi that loads a policy pack (TypeScript
// through ts-node); the pack's @pulumi/policy then serves the Analyzer protocol.
const runPolicyPackModule = "@pulumi/pulumi/cmd/run-policy-pack"

func main() {
	langhost.Serve(newHost())
}

type host struct {
	*langhost.Base
}

func newHost() (*langhost.Base, pulumirpc.LanguageRuntimeServer) {
	b := langhost.NewBase("pulumi-language-nodejs", langhost.Codegen{
		Package: func(tool string, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest,
			loader schema.ReferenceLoader,
		) (map[string][]byte, error) {
			return codegen.GeneratePackage(tool, pkg, req.ExtraFiles, req.LocalDependencies, req.Local, loader)
		},
		Program: codegen.GenerateProgram,
		Project: func(dir string, project workspace.Project, program *pcl.Program, deps map[string]string) error {
			return codegen.GenerateProject(dir, project, program, deps, false /* forceTsc */, "nodejs")
		},
	})
	return b, &host{b}
}

// options are the `runtime.options` of Pulumi.yaml that this host understands.
type options struct {
	typescript     bool   // run .ts sources through ts-node (default true)
	tsconfig       string // tsconfig.json to use instead of the nearest one
	nodeargs       string // extra arguments for node
	packagemanager npm.PackageManagerType
	production     bool // install without devDependencies
}

func parseOptions(info *pulumirpc.ProgramInfo) (options, error) {
	opts := options{typescript: true, packagemanager: npm.AutoPackageManager}
	for key, value := range info.GetOptions().AsMap() {
		var ok bool
		switch key {
		case "typescript":
			opts.typescript, ok = value.(bool)
		case "production":
			opts.production, ok = value.(bool)
		case "tsconfig":
			opts.tsconfig, ok = value.(string)
		case "nodeargs":
			opts.nodeargs, ok = value.(string)
		case "packagemanager":
			var pm string
			pm, ok = value.(string)
			opts.packagemanager = npm.PackageManagerType(pm)
		default:
			ok = true // options of other hosts (e.g. bun's) are none of our business
		}
		if !ok {
			return opts, fmt.Errorf("the nodejs runtime option %q has the wrong type (%T)", key, value)
		}
	}
	return opts, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if req.GetAttachDebugger() {
		return &pulumirpc.RunResponse{Error: "this pulumi-language-nodejs cannot attach a debugger"}, nil
	}
	engine := h.EngineAddress()
	if engine == "" {
		return nil, errors.New("the engine's address is unknown: it is passed on the command line or by Handshake")
	}
	info := req.GetInfo()
	opts, err := parseOptions(info)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the PATH: " + err.Error()}, nil
	}
	runScript, err := resolveModule(ctx, node, info.GetProgramDirectory(), runModule)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args, err := shlex.Split(opts.nodeargs)
	if err != nil {
		return &pulumirpc.RunResponse{Error: "the nodeargs runtime option: " + err.Error()}, nil
	}
	args = append(args, runScript)
	flags := langhost.Flags{}
	// The program talks to the engine's resource monitor directly.
	flags.Add("monitor", req.GetMonitorAddress())
	flags.Add("engine", engine)
	flags.Add("organization", req.GetOrganization())
	flags.Add("project", req.GetProject())
	flags.Add("root-directory", info.GetRootDirectory())
	flags.Add("stack", req.GetStack())
	flags.Add("pwd", info.GetProgramDirectory())
	if req.GetDryRun() {
		flags = append(flags, "--dry-run")
	}
	flags.Add("parallel", strconv.Itoa(int(req.GetParallel())))
	flags.Add("tracing", h.Tracing)
	args = append(args, flags...)
	args = append(args, entryPoint(req))
	args = append(args, req.GetArgs()...)

	// @pulumi/pulumi accepts configuration keys as "<namespace>:<name>" (and the older
	// "<namespace>:config:<name>"); the engine sends the former.
	env, err := langhost.ConfigEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	runCtx, release := h.RunContext(ctx)
	defer release()
	cmd := exec.CommandContext(runCtx, node, args...)
	cmd.Env = append(os.Environ(), env...)
	return h.RunProgram(cmd), nil
}

// RunPlugin runs a policy pack, which is how the engine starts a Node.js analyzer when this
// language host is installed (`pulumi preview --policy-pack DIR` with `runtime: nodejs` in
// DIR/PulumiPolicy.yaml). The pack's output, including the port it prints, goes back on the stream.
func (h *host) RunPlugin(
	req *pulumirpc.RunPluginRequest, server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse],
) error {
	if req.GetKind() != "analyzer" {
		return status.Errorf(codes.Unimplemented,
			"this pulumi-language-nodejs runs only policy packs (analyzer plugins), not %s plugins written in Node.js",
			req.GetKind())
	}
	if req.GetAttachDebugger() {
		return status.Error(codes.Unimplemented, "this pulumi-language-nodejs cannot attach a debugger")
	}
	// The engine passes its own address as the only argument.
	if len(req.GetArgs()) == 0 {
		return status.Error(codes.InvalidArgument, "the engine's address is missing from the plugin's arguments")
	}
	info := req.GetInfo()
	dir := info.GetProgramDirectory()
	if dir == "" {
		return status.Error(codes.InvalidArgument, "the policy pack's directory is missing")
	}
	opts, err := parseOptions(info)
	if err != nil {
		return err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("could not find node on the PATH: %w", err)
	}
	ctx := server.Context()
	// The pack's own @pulumi/pulumi, as for a program: the one its @pulumi/policy was built against.
	script, err := resolveModule(ctx, node, dir, runPolicyPackModule)
	if err != nil {
		return err
	}
	args, err := shlex.Split(opts.nodeargs)
	if err != nil {
		return fmt.Errorf("the nodeargs runtime option: %w", err)
	}
	// run-policy-pack takes <engine-address> <program>; the program is the pack's directory.
	args = append(args, script, req.GetArgs()[0], entryPointIn(dir, info.GetEntryPoint()))
	args = append(args, req.GetArgs()[1:]...)

	runCtx, release := h.RunContext(ctx)
	defer release()
	cmd := exec.CommandContext(runCtx, node, args...)
	// The pack's directory, not req.Pwd (the stack's program): run-policy-pack compiles the
	// pack with the tsconfig.json of its working directory.
	cmd.Dir = dir
	cmd.Env = req.GetEnv()
	return h.RunPluginProcess(cmd, server)
}

// entryPointIn is the absolute path of an entry point relative to dir ("" or "." is dir itself,
// which Node resolves through its package.json "main" or index file).
func entryPointIn(dir, entryPoint string) string {
	if filepath.IsAbs(entryPoint) {
		return entryPoint
	}
	return filepath.Join(dir, entryPoint)
}

// entryPoint is the program to run, relative to the program directory ("." for its package.json
// "main").
func entryPoint(req *pulumirpc.RunRequest) string {
	if ep := req.GetInfo().GetEntryPoint(); ep != "" {
		return ep
	}
	if req.GetProgram() != "" {
		return req.GetProgram()
	}
	return "."
}

// resolveModule asks node where module resolves to from dir, i.e. which installation of
// @pulumi/pulumi the program itself would load.
func resolveModule(ctx context.Context, node, dir, module string) (string, error) {
	const script = `try { console.log(require.resolve(process.argv[1])); } ` +
		`catch (e) { console.error(e.code || e.message); process.exit(1); }`
	cmd := exec.CommandContext(ctx, node, "-e", script, module)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		reason := err.Error()
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) && len(exitErr.Stderr) > 0 {
			reason = strings.TrimSpace(string(exitErr.Stderr))
		}
		return "", fmt.Errorf("could not load %s from %s (%s): is @pulumi/pulumi installed? "+
			"Run `pulumi install` or `npm install`", module, dir, reason)
	}
	return strings.TrimSpace(string(out)), nil
}

// InstallDependencies installs the program's packages with its package manager, but only when it
// has no node_modules yet; otherwise it does nothing and prints nothing.
func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory() //nolint:staticcheck // older engines
	}
	if fi, err := os.Stat(filepath.Join(dir, "node_modules")); err == nil && fi.IsDir() {
		return nil
	}
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.IsTerminal)
	if err != nil {
		return err
	}
	defer closer.Close()

	fmt.Fprintf(stdout, "Installing dependencies in %s...\n", dir)
	name, err := npm.Install(server.Context(), opts.packagemanager, dir, opts.production, stdout, stderr)
	if err != nil {
		return fmt.Errorf("%s install failed: %w", name, err)
	}
	fmt.Fprintln(stdout, "Finished installing dependencies")
	return closer.Close()
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	resp := &pulumirpc.AboutResponse{Metadata: map[string]string{}}
	if node, err := exec.LookPath("node"); err == nil {
		resp.Executable = node
		if out, err := exec.CommandContext(ctx, node, "--version").Output(); err == nil {
			resp.Version = strings.TrimSpace(string(out))
		}
	}
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	if pm, err := npm.ResolvePackageManager(opts.packagemanager, req.GetInfo().GetProgramDirectory()); err == nil {
		resp.Metadata["packagemanager"] = pm.Name()
		if v, err := pm.Version(); err == nil {
			resp.Metadata["packagemanagerVersion"] = v.String()
		}
	}
	return resp, nil
}

func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	dir := req.GetInfo().GetProgramDirectory()
	pm, err := npm.ResolvePackageManager(opts.packagemanager, dir)
	if err != nil {
		return nil, err
	}
	packages, err := pm.ListPackages(ctx, dir, req.TransitiveDependencies)
	if err != nil {
		return nil, fmt.Errorf("listing the program's packages: %w", err)
	}
	resp := &pulumirpc.GetProgramDependenciesResponse{}
	for _, p := range packages {
		resp.Dependencies = append(resp.Dependencies, &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version})
	}
	return resp, nil
}
