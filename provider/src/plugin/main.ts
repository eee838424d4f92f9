import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { NspProvider } from "./server";
import { watchEngine } from "./engine-watch";
import { installStructCodec } from "./struct-codec";
import { startupCalls } from "./startup-calls";

// The engine starts the plugin with its own address as the last argument and waits for the port
// on the first line of stdout; anything else on stdout would break that handshake. Only gRPC and
// the protocol's messages load before the port is printed: the provider (its resource
// definitions, zod, the HTTP client) loads on the first call that needs it, so start-up stays fast.

let provider: Promise<grpc.UntypedServiceImplementation> | undefined;

/**
 * A request this large (a zone of tens of thousands of records, three times over in an Update)
 * leaves its message bytes and their decoding behind as garbage that V8 would keep until its
 * next full collection, while the call itself allocates as much again; and its work (the zone's
 * list, the plan) is garbage once the answer is built, while encoding the answer allocates as
 * much again. Collected at those two points (bin/pulumi-resource-nsp exposes `gc`; without it
 * nothing changes), the call's peak memory is its live data, not twice that. A full collection
 * of such a heap takes tens of milliseconds, against seconds of work.
 */
const LARGE_REQUEST_BYTES = 4 * 1024 * 1024;
const largeRequests = new WeakSet<object>();

/**
 * The protocol's service as generated, but remembering each request that arrived as a large
 * message, and answering with the encoded bytes as they are (the generated serializer copies them
 * into a new Buffer first: tens of MB more at the peak for a large answer).
 */
function providerServiceDefinition(): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<object, { serializeBinary(): Uint8Array }>> = {};
  const generated = ResourceProviderService as unknown as Record<
    string,
    grpc.MethodDefinition<object, { serializeBinary(): Uint8Array }>
  >;
  for (const [name, def] of Object.entries(generated)) {
    out[name] = {
      ...def,
      requestDeserialize: (bytes: Buffer) => {
        const message = def.requestDeserialize(bytes);
        if (bytes.length >= LARGE_REQUEST_BYTES) largeRequests.add(message);
        return message;
      },
      responseSerialize: (message) => {
        const bytes = message.serializeBinary();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      },
    };
  }
  return out as grpc.ServiceDefinition;
}

/**
 * A plain full collection keeps the pages it frees in V8's pool, still resident: they count in the
 * process's RSS as long as the plugin runs, on top of what the zone's HTTP bodies and buffers take
 * later from malloc (at 100,000 records, tens of MB). The "last resort" collection also hands the
 * pooled pages back to the system.
 */
function collectAfterLargeRequest(call: { request?: unknown }): void {
  const gc = (globalThis as { gc?: (options?: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void })
    .gc;
  if (gc && typeof call.request === "object" && call.request !== null && largeRequests.has(call.request))
    gc({ type: "major", execution: "sync", flavor: "last-resort" });
}

function load(engineAddress: string | undefined): Promise<grpc.UntypedServiceImplementation> {
  // A dynamic import: the build splits the provider into its own chunk, which Node reads and
  // parses only now, on the first call.
  provider ??= import("./server").then(({ NspProvider: Provider }: { NspProvider: typeof NspProvider }) =>
    new Provider(engineAddress).service(),
  );
  return provider;
}

async function main(): Promise<void> {
  // Before the first message is read: properties decode to plain values, not protobuf objects.
  installStructCodec();
  const args = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const engineAddress = args[args.length - 1];
  const service: grpc.UntypedServiceImplementation = {};
  for (const method of Object.keys(ResourceProviderService)) {
    service[method] = ((call: never, callback: (err: Error) => void) => {
      load(engineAddress).then(
        (impl) => {
          collectAfterLargeRequest(call);
          // And once more before the answer is encoded: what the call built to do its work is garbage by then.
          const answer = (...result: unknown[]) => {
            collectAfterLargeRequest(call);
            (callback as (...r: unknown[]) => void)(...result);
          };
          (impl[method] as (c: never, cb: never) => void)(call, answer as never);
        },
        (err: Error) => callback(err),
      );
    }) as grpc.UntypedHandleCall;
  }
  Object.assign(
    service,
    startupCalls(() => import("./server").then((m) => m.packageSchemaJson())),
  );
  // The engine cancels every plugin it shuts down, the one it asked only for the schema included:
  // before the provider has loaded there is nothing to stop, and nothing to load for it.
  const cancel = service.cancel as grpc.handleUnaryCall<unknown, Empty>;
  service.cancel = ((call, callback) =>
    provider ? cancel(call, callback) : callback(null, new Empty())) as grpc.handleUnaryCall<unknown, Empty>;
  // No size limit of our own on either direction: the engine sends what it holds (its own limit
  // is on what it receives), and Check names a resource too large for it before anything is written.
  const server = new grpc.Server({ "grpc.max_receive_message_length": -1, "grpc.max_send_message_length": -1 });
  server.addService(providerServiceDefinition(), service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  process.stdout.write(`${port}\n`);
  const stop = () => {
    server.tryShutdown(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // An engine that died without stopping its plugins (SIGKILL, a lost CI runner) would leave
  // this process running for good, finishing writes whose results nobody will record: end with
  // the engine instead, at once, requests in flight included.
  if (engineAddress) {
    watchEngine(engineAddress, (reason) => {
      process.stderr.write(`pulumi-resource-nsp: ${reason}; exiting\n`);
      process.exit(1);
    });
  }
}

/** Serves the engine: what the launcher (launcher.ts) calls once it has loaded this bundle. */
export function run(): void {
  main().catch((err: unknown) => {
    process.stderr.write(`pulumi-resource-nsp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

/**
 * For the build: loads the provider, makes its service and evaluates every module's definitions
 * (a plugin run evaluates a module when a call first names it), so that the code cache made after
 * it holds their compiled code; returns the package schema, which the build writes beside the
 * bundle.
 */
export async function prepare(): Promise<string> {
  installStructCodec();
  const { NspProvider: Provider, packageSchemaJson } = await import("./server");
  new Provider().service();
  return packageSchemaJson();
}
