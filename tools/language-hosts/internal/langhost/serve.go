// Package langhost is what our language hosts have in common: serving the LanguageRuntime gRPC
// service the way the Pulumi engine starts plugins, the RPCs that do not depend on the language,
// SDK and program generation on top of pkg/v3/codegen, and running a program as a child process.
//
// Each host (cmd/pulumi-language-*) embeds *Base and adds what is specific to its language.
package langhost

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Version is the version the hosts report: the one the build stamped into the SDK's version
// package (the install script does), else the version of the sdk/v3 module we were built with.
func Version() string {
	if version.Version != "" {
		return version.Version
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/pulumi/pulumi/sdk/v3" {
				return dep.Version
			}
		}
	}
	return "v3.0.0-dev"
}

// Base implements the language-independent part of pulumirpc.LanguageRuntimeServer. RPCs that
// neither Base nor the embedding host implement answer codes.Unimplemented.
type Base struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	// Name is the plugin's executable name, e.g. "pulumi-language-nodejs"; code generators
	// record it as the tool that generated a file.
	Name string
	// Codegen generates SDKs, programs and projects for the language.
	Codegen Codegen
	// Tracing is the -tracing endpoint the engine passed, forwarded to programs.
	Tracing string

	mu            sync.Mutex
	engineAddress string
	healthOnce    sync.Once

	// ctx is cancelled by the Cancel RPC and when the engine stops answering health checks;
	// child processes run under it.
	ctx    context.Context
	cancel context.CancelFunc

	serverCtx  context.Context // done when the server is stopping
	engineGone func()          // cancels ctx and stops the server
}

// NewBase returns a Base for the plugin called name.
func NewBase(name string, cg Codegen) *Base {
	ctx, cancel := context.WithCancel(context.Background())
	return &Base{Name: name, Codegen: cg, ctx: ctx, cancel: cancel}
}

// Serve runs a language host process: it parses the arguments the engine gives every plugin
// (logging and tracing flags, then the engine's address), serves srv on a free local port, prints
// that port on stdout for the engine, and returns when the server stops.
func Serve(b *Base, srv pulumirpc.LanguageRuntimeServer) {
	// The glog flags (-v, -logtostderr) are registered on flag.CommandLine by the logging package.
	flag.StringVar(&b.Tracing, "tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	showVersion := flag.Bool("version", false, "Print the plugin version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println(Version())
		return
	}
	logging.InitLogging(false, 0, false)
	cmdutil.InitTracing(b.Name, b.Name, b.Tracing)

	// The server stops on SIGINT and when the engine goes away (see setEngine).
	serverCtx, stopServer := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stopServer()
	b.serverCtx = serverCtx
	b.engineGone = func() {
		b.cancel()
		stopServer()
	}
	stop := make(chan bool)
	go func() {
		<-serverCtx.Done()
		close(stop)
	}()

	if args := flag.Args(); len(args) > 0 {
		if err := b.setEngine(args[0]); err != nil {
			cmdutil.Exit(err)
		}
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(s, srv)
			return nil
		},
		Options: rpcutil.TracingServerInterceptorOptions(nil),
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start the language host's gRPC server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)

	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("the language host's gRPC server stopped: %w", err))
	}
}

// setEngine records the engine's address and starts watching the engine's health: when the
// engine goes away, running programs are stopped and so is the server.
func (b *Base) setEngine(addr string) error {
	b.mu.Lock()
	b.engineAddress = addr
	b.mu.Unlock()
	var err error
	b.healthOnce.Do(func() {
		err = rpcutil.Healthcheck(b.serverCtx, addr, 5*time.Minute, b.engineGone)
	})
	if err != nil {
		return fmt.Errorf("could not watch the engine's health: %w", err)
	}
	return nil
}

// EngineAddress is the engine's gRPC address, from the command line or the Handshake RPC.
func (b *Base) EngineAddress() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.engineAddress
}

// Context is cancelled when the engine cancels the host (Cancel RPC) or goes away.
func (b *Base) Context() context.Context { return b.ctx }

func (b *Base) Handshake(
	ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if err := b.setEngine(req.EngineAddress); err != nil {
		return nil, err
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (b *Base) GetPluginInfo(ctx context.Context, _ *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: strings.TrimPrefix(Version(), "v")}, nil
}

func (b *Base) Cancel(ctx context.Context, _ *emptypb.Empty) (*emptypb.Empty, error) {
	b.cancel()
	return &emptypb.Empty{}, nil
}

// GetRequiredPlugins and GetRequiredPackages report nothing: the engine then loads provider
// plugins when the program first uses them (from Pulumi.yaml `plugins.providers`, beside the
// CLI, from PATH or the plugin cache).
func (b *Base) GetRequiredPlugins(
	ctx context.Context, _ *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (b *Base) GetRequiredPackages(
	ctx context.Context, _ *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// RuntimeOptionsPrompts asks `pulumi new` nothing.
func (b *Base) RuntimeOptionsPrompts(
	ctx context.Context, _ *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

// Template leaves a new project from a template as it is.
func (b *Base) Template(ctx context.Context, _ *pulumirpc.TemplateRequest) (*pulumirpc.TemplateResponse, error) {
	return &pulumirpc.TemplateResponse{}, nil
}

// Link would add locally generated SDKs to a project. `pulumi convert` calls it even when there
// is nothing to link, which is all we support.
func (b *Base) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	if len(req.Packages) > 0 {
		return nil, status.Errorf(codes.Unimplemented,
			"%s cannot link generated SDKs into a project; add them to the project's dependencies yourself", b.Name)
	}
	return &pulumirpc.LinkResponse{}, nil
}
