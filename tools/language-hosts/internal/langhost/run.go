package langhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

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
