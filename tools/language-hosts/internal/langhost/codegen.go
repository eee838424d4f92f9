package langhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Codegen plugs a language's generators from pkg/v3/codegen into the generation RPCs.
type Codegen struct {
	// Package returns the files of an SDK for pkg (`pulumi package gen-sdk`).
	Package func(tool string, pkg *schema.Package, req *pulumirpc.GeneratePackageRequest,
		loader schema.ReferenceLoader) (map[string][]byte, error)
	// Program returns the source files for a bound PCL program (`pulumi convert`, `pulumi import`).
	Program func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error)
	// Project writes a complete project for a bound PCL program into directory (`pulumi convert`).
	Project func(directory string, project workspace.Project, program *pcl.Program,
		localDependencies map[string]string) error
}

// loader connects to the engine's schema loader; close it when done.
func loader(target string) (schema.ReferenceLoader, func(), error) {
	if target == "" {
		return nil, nil, errors.New("the engine did not pass a schema loader")
	}
	client, err := schema.NewLoaderClient(target)
	if err != nil {
		return nil, nil, err
	}
	return schema.NewCachedLoader(client), func() { _ = client.Close() }, nil
}

// bindOptions are the PCL binding options for a request: output-versioned invokes (as all of
// Pulumi's own hosts use), and lenient binding unless the request asks for strict.
func bindOptions(strict bool) []pcl.BindOption {
	opts := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	return opts
}

func (b *Base) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	if b.Codegen.Package == nil {
		return nil, fmt.Errorf("%s cannot generate SDKs", b.Name)
	}
	load, done, err := loader(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer done()

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.Schema), &spec); err != nil {
		return nil, fmt.Errorf("reading the package schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, load, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}

	files, err := b.Codegen.Package(b.Name, pkg, req, load)
	if err != nil {
		return nil, err
	}
	for name, data := range files {
		path := filepath.Join(req.Directory, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, err
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

func (b *Base) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	if b.Codegen.Program == nil {
		return nil, fmt.Errorf("%s cannot generate programs", b.Name)
	}
	load, done, err := loader(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer done()

	parser := hclsyntax.NewParser()
	for name, source := range req.Source {
		if err := parser.ParseFile(strings.NewReader(source), name); err != nil {
			return nil, err
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{
			Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics),
		}, nil
	}

	program, diags, err := pcl.BindProgram(parser.Files, load, bindOptions(req.Strict)...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}

	files, genDiags, err := b.Codegen.Program(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(append(diags, genDiags...)),
	}, nil
}

func (b *Base) GenerateProject(
	ctx context.Context, req *pulumirpc.GenerateProjectRequest,
) (*pulumirpc.GenerateProjectResponse, error) {
	if b.Codegen.Project == nil {
		return nil, fmt.Errorf("%s cannot generate projects", b.Name)
	}
	load, done, err := loader(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer done()

	program, diags, err := pcl.BindDirectory(req.SourceDirectory, load, bindOptions(req.Strict)...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProjectResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}

	var project workspace.Project
	if err := json.Unmarshal([]byte(req.Project), &project); err != nil {
		return nil, fmt.Errorf("reading the project: %w", err)
	}
	if err := b.Codegen.Project(req.TargetDirectory, project, program, req.LocalDependencies); err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}
