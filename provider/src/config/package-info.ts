import type { PackageInfo } from "../framework/engine/schema";
import { configSecrets, providerConfig } from "./provider-config";
import { version } from "../../../package.json";

// package.json's version is the one version of the plugin, schema.json, every SDK and every
// release archive (scripts/release.mjs checks that the generated files agree).
export const PROVIDER_VERSION: string = version;

export const packageInfo: PackageInfo = {
  name: "nsp",
  displayName: "Network Services Platform",
  version: PROVIDER_VERSION,
  description:
    "Manage the Network Services Platform API as code: authoritative DNS, edge proxy, security rules, " +
    "hosted RPKI, mail, tunnels, a cloud PBX and more.",
  homepage: "https://github.com/nsp-platform/pulumi-nsp",
  repository: "https://github.com/nsp-platform/pulumi-nsp",
  publisher: "nsp",
  license: "Apache-2.0",
  // Where the release archives are published (GitHub releases named v<version>), so the engine
  // and `pulumi plugin install resource nsp <version>` fetch the plugin by themselves.
  pluginDownloadURL: "github://api.github.com/nsp-platform/pulumi-nsp",
  keywords: ["pulumi", "nsp", "dns", "cdn", "category/network"],
  language: {
    nodejs: {
      packageName: "@nsp/pulumi",
      packageDescription: "Pulumi SDK for the Network Services Platform API.",
      respectSchemaVersion: true,
      dependencies: { "@pulumi/pulumi": "^3.259.0" },
    },
    python: { packageName: "pulumi_nsp", respectSchemaVersion: true, requires: { pulumi: ">=3.259.0,<4.0.0" } },
    go: {
      importBasePath: "github.com/nsp-platform/pulumi-nsp/sdk/go/nsp",
      generateResourceContainerTypes: true,
      respectSchemaVersion: true,
    },
  },
  config: providerConfig,
  configSecrets,
};
