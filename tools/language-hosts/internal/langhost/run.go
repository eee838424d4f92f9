package langhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"google.golang.org/grpc"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ExitCodeBail is the exit code with which the language SDKs' run scripts say "the user has
// already been shown an actionable error": the engine is then told to bail without adding one.
const ExitCodeBail = 32

// Flags builds "--name value" pairs, leaving out empty values.
type Flags []string

// Add appends --name value when value is not empty.
func (f *Flags) Add(name, value string) {
	if value != "" {
		*f = append(*f, "--"+name, value)
	}
}

// ConfigEnv returns the environment variables in which the SDKs expect the stack's configuration
// (a JSON object of key to value) and the list of keys that are secret (a JSON array).
func ConfigEnv(config map[string]string, secretKeys []string) ([]string, error) {
	if config == nil {
		config = map[string]string{}
	}
	if secretKeys == nil {
		secretKeys = []string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	keysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return []string{"PULUMI_CONFIG=" + string(configJSON), "PULUMI_CONFIG_SECRET_KEYS=" + string(keysJSON)}, nil
}

// onlyWriter hides everything but Write, so that exec.Cmd copies the child's output through a
// pipe instead of handing it our file descriptors (Node may switch those to non-blocking mode,
// which would then break our own writes to them).
type onlyWriter struct{ io.Writer }

// RunContext returns the context to create a program's exec.Cmd with (exec.CommandContext): it
// is cancelled when the engine cancels the host or abandons the Run call (reqCtx). Call release
// when the program has finished.
func (b *Base) RunContext(reqCtx context.Context) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancel(b.ctx)
	stop := context.AfterFunc(reqCtx, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// RunProgram runs cmd, made with a context from RunContext, to completion. Its output goes to
// the host's stdout and stderr, which the engine shows as the program's output. When the context
// is cancelled the program is interrupted, and killed if it has not exited 5 seconds later.
func (b *Base) RunProgram(cmd *exec.Cmd) *pulumirpc.RunResponse {
	cmd.Stdout = onlyWriter{os.Stdout}
	cmd.Stderr = onlyWriter{os.Stderr}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second

	logging.V(5).Infof("%s: running %v", b.Name, cmd.Args)
	return RunResponse(cmd.Run())
}

// RunResponse turns the outcome of running a program into the engine's RunResponse.
func RunResponse(err error) *pulumirpc.RunResponse {
	if err == nil {
		return &pulumirpc.RunResponse{}
	}
	if errors.Is(err, context.Canceled) {
		return &pulumirpc.RunResponse{Error: "the program was cancelled"}
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not run the program: %v", err)}
	}
	switch code := exitErr.ExitCode(); code {
	case ExitCodeBail:
		// The program already reported its error through the engine.
		return &pulumirpc.RunResponse{Bail: true}
	case -1:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the program was stopped: %v", exitErr)}
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the program exited with code %d", code)}
	}
}

// RunPluginProcess runs cmd, made with a context from RunContext, as a plugin the engine asked
// for with RunPlugin: the engine reads the plugin's output (an analyzer prints its gRPC port on
// stdout) only from the stream, so stdout and stderr go there as they come, and the exit code
// last. When the context is cancelled (the engine closing the plugin) the process is interrupted,
// and killed if it has not exited 5 seconds later.
func (b *Base) RunPluginProcess(cmd *exec.Cmd, server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse]) error {
	stream := &pluginStream{server: server}
	cmd.Stdout = stream.writer(func(p []byte) *pulumirpc.RunPluginResponse {
		return &pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stdout{Stdout: p}}
	})
	cmd.Stderr = stream.writer(func(p []byte) *pulumirpc.RunPluginResponse {
		return &pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stderr{Stderr: p}}
	})
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second

	logging.V(5).Infof("%s: running plugin %v", b.Name, cmd.Args)
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return fmt.Errorf("could not run the plugin: %w", err)
	}
	return stream.send(&pulumirpc.RunPluginResponse{
		Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(cmd.ProcessState.ExitCode())},
	})
}

// pluginStream serialises the messages of a RunPlugin stream: exec.Cmd copies stdout and stderr
// in two goroutines, and a gRPC stream must not be sent on concurrently.
type pluginStream struct {
	mu     sync.Mutex
	server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse]
}

func (s *pluginStream) send(msg *pulumirpc.RunPluginResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.server.Send(msg)
}

func (s *pluginStream) writer(wrap func([]byte) *pulumirpc.RunPluginResponse) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		// exec.Cmd reuses its buffer after Write returns; the message must keep its own copy.
		if err := s.send(wrap(append([]byte(nil), p...))); err != nil {
			return 0, err
		}
		return len(p), nil
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
