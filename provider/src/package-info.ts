import type { PackageInfo } from "./framework/schema";
import { configSecrets, providerConfig } from "./config";

export const PROVIDER_VERSION = "0.1.0";

export const packageInfo: PackageInfo = {
  name: "nsp",
  displayName: "Network Services Platform",
  version: PROVIDER_VERSION,
  description: "Manage the Network Services Platform API as code: authoritative DNS, edge proxy, security rules, hosted RPKI, mail, tunnels, a cloud PBX and more.",
  homepage: "https://github.com/nsp-platform/pulumi-nsp",
  repository: "https://github.com/nsp-platform/pulumi-nsp",
  publisher: "nsp",
  license: "Apache-2.0",
  keywords: ["pulumi", "nsp", "dns", "cdn", "category/network"],
  language: {
    nodejs: {
      packageName: "@nsp/pulumi",
      packageDescription: "Pulumi SDK for the Network Services Platform API.",
      respectSchemaVersion: true,
      dependencies: { "@pulumi/pulumi": "^3.259.0" },
    },
    python: { packageName: "pulumi_nsp", respectSchemaVersion: true, requires: { "pulumi": ">=3.259.0,<4.0.0" } },
    go: { importBasePath: "github.com/nsp-platform/pulumi-nsp/sdk/go/nsp", generateResourceContainerTypes: true, respectSchemaVersion: true },
  },
  config: providerConfig,
  configSecrets,
};
