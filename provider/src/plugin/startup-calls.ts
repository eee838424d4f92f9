import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type * as grpc from "@grpc/grpc-js";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import { version } from "../../../package.json";

// For a YAML program the engine starts one plugin only to read the package schema: Handshake,
// GetPluginInfo, GetSchema, then it stops it. These three calls need nothing of the provider, so
// main.ts answers them here and such a plugin never loads the provider (its definitions, zod, the
// HTTP client), which is most of a plugin's start-up.

/**
 * The schema the build wrote beside the bundle (Node's entry script), made by this bundle's own
 * provider (scripts/build.mjs).
 */
const schemaFile = () => join(dirname(process.argv[1] ?? "."), "schema.json");

let schema: Promise<string> | undefined;

/** The package schema: the copy beside the bundle, or else the provider's own, built now. */
function packageSchema(fromProvider: () => Promise<string>): Promise<string> {
  schema ??= Promise.resolve()
    .then(() => readFileSync(schemaFile(), "utf8"))
    .catch(fromProvider);
  return schema;
}

type Unary = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => void;

/** The calls answered without the provider, by the method names of the ResourceProvider service. */
export function startupCalls(fromProvider: () => Promise<string>): Record<string, Unary> {
  return {
    handshake: (_call, callback) =>
      callback(
        null,
        new providerPb.ProviderHandshakeResponse()
          .setAcceptSecrets(true)
          .setAcceptResources(false)
          .setAcceptOutputs(false),
      ),
    getPluginInfo: (_call, callback) => callback(null, new pluginPb.PluginInfo().setVersion(version)),
    getSchema: (_call, callback) =>
      packageSchema(fromProvider).then(
        (json) => callback(null, new providerPb.GetSchemaResponse().setSchema(json)),
        (err: Error) => callback(err, null),
      ),
  };
}
