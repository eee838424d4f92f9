// Starts the built plugin binary the way the engine does (engine address as the last argument,
// port read from the first stdout line) and talks gRPC to it through the generated stubs.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import * as engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";

export const ROOT = join(__dirname, "..", "..");
export const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" } as const;
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function secret(value: unknown): Record<string, unknown> {
  return { ...SECRET_SIG, value };
}

export function isSecret(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)["4dabf18193072939515e22adb298388d"] ===
      SECRET_SIG["4dabf18193072939515e22adb298388d"]
  );
}

type Obj = Record<string, unknown>;

const toStruct = (o: Obj) => Struct.fromJavaScript(o as never);
const fromStruct = (s: Struct | undefined): Obj => (s?.toJavaScript() as Obj | undefined) ?? {};

export function urn(type: string, name: string): string {
  return `urn:pulumi:test::nsp-test::${type}::${name}`;
}

/** A stand-in for the engine's log service only, so that the plugin's log lines can be inspected. */
async function startEngineLogSink(): Promise<{ address: string; logs: string[]; server: grpc.Server }> {
  const logs: string[] = [];
  const server = new grpc.Server();
  const notImplemented: grpc.handleUnaryCall<unknown, unknown> = (_c, cb) =>
    cb({ code: grpc.status.UNIMPLEMENTED } as grpc.ServiceError, null);
  server.addService(
    engineGrpc.EngineService as unknown as grpc.ServiceDefinition,
    {
      log: (call: grpc.ServerUnaryCall<enginePb.LogRequest, Empty>, cb: grpc.sendUnaryData<Empty>) => {
        logs.push(call.request.getMessage());
        cb(null, new Empty());
      },
      getRootResource: notImplemented,
      setRootResource: notImplemented,
      startDebugging: notImplemented,
      requirePulumiVersion: notImplemented,
    } as grpc.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  return { address: `127.0.0.1:${port}`, logs, server };
}

export interface PluginHandle {
  client: providerGrpc.ResourceProviderClient;
  /** The plugin's process (the launcher execs node). */
  pid: number;
  stdout: () => string;
  stderr: () => string;
  engineLogs: string[];
  /** Configure as the engine does; `instance` names an explicit provider instance (the default provider when unset). */
  configure(args: Obj, instance?: string): Promise<providerPb.ConfigureResponse>;
  checkConfig(news: Obj, instance?: string): Promise<{ inputs: Obj; failures: { property: string; reason: string }[] }>;
  check(
    type: string,
    name: string,
    news: Obj,
    olds?: Obj,
  ): Promise<{ inputs: Obj; failures: { property: string; reason: string }[] }>;
  diff(
    type: string,
    name: string,
    id: string,
    olds: Obj,
    news: Obj,
    oldInputs?: Obj,
  ): Promise<{
    changes: boolean;
    replaces: string[];
    diffs: string[];
    detailed: Record<string, number>;
    deleteBeforeReplace: boolean;
  }>;
  create(type: string, name: string, properties: Obj, preview?: boolean): Promise<{ id: string; properties: Obj }>;
  read(
    type: string,
    name: string,
    id: string,
    properties?: Obj,
    inputs?: Obj,
  ): Promise<{ id: string; properties: Obj; inputs: Obj }>;
  update(
    type: string,
    name: string,
    id: string,
    olds: Obj,
    news: Obj,
    preview?: boolean,
    oldInputs?: Obj,
    ignoreChanges?: string[],
  ): Promise<Obj>;
  delete(type: string, name: string, id: string, properties: Obj): Promise<void>;
  invoke(tok: string, args: Obj): Promise<{ result: Obj; failures: { property: string; reason: string }[] }>;
  /** One List call as `pulumi do <type> list` makes it: the results streamed, and the next page's token. */
  list(
    type: string,
    query?: Obj,
    opts?: { continuation?: string; limit?: number; pageSize?: number },
  ): Promise<{ results: { id: string; name: string }[]; continuation?: string; computed: boolean }>;
  call<Req, Res>(method: string, req: Req): Promise<Res>;
  stop(): Promise<number | null>;
}

/** Starts the plugin as the engine does: this repository's launcher unless `executable` names another (e.g. an unpacked release). */
export async function startPlugin(
  env: NodeJS.ProcessEnv = {},
  executable = join(ROOT, "bin", "pulumi-resource-nsp"),
): Promise<PluginHandle> {
  const sink = await startEngineLogSink();
  const child: ChildProcess = spawn(executable, [sink.address], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`plugin did not print a port; stderr: ${err}`)), 15_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) {
        clearTimeout(timer);
        resolve(Number(line.trim()));
      }
    });
    child.on("exit", (code) => reject(new Error(`plugin exited with ${code}: ${err}`)));
  });
  // As the engine: it takes answers up to its own 400 MiB limit, not gRPC's default of 4 MiB.
  const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
  });

  function call<Req, Res>(method: string, req: Req): Promise<Res> {
    return new Promise((resolve, reject) => {
      (client as unknown as Record<string, (r: Req, cb: (e: grpc.ServiceError | null, res: Res) => void) => void>)[
        method
      ]!.call(client, req, (e, res) => (e ? reject(e) : resolve(res)));
    });
  }

  const handle: PluginHandle = {
    client,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    engineLogs: sink.logs,
    call,
    configure(args, instance) {
      const req = new providerPb.ConfigureRequest()
        .setArgs(toStruct(args))
        .setAcceptsecrets(true)
        .setAcceptresources(false);
      if (instance) req.setUrn(urn("pulumi:providers:nsp", instance)).setName(instance).setType("pulumi:providers:nsp");
      return call("configure", req);
    },
    async checkConfig(news, instance = "default") {
      const res = await call<providerPb.CheckRequest, providerPb.CheckResponse>(
        "checkConfig",
        new providerPb.CheckRequest()
          .setUrn(urn("pulumi:providers:nsp", instance))
          .setName(instance)
          .setType("pulumi:providers:nsp")
          .setNews(toStruct(news)),
      );
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async check(type, name, news, olds = {}) {
      const res = await call<providerPb.CheckRequest, providerPb.CheckResponse>(
        "check",
        new providerPb.CheckRequest()
          .setUrn(urn(type, name))
          .setType(type)
          .setName(name)
          .setNews(toStruct(news))
          .setOlds(toStruct(olds)),
      );
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(type, name, id, olds, news, oldInputs) {
      const req = new providerPb.DiffRequest()
        .setUrn(urn(type, name))
        .setType(type)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news));
      if (oldInputs) req.setOldInputs(toStruct(oldInputs));
      const res = await call<providerPb.DiffRequest, providerPb.DiffResponse>("diff", req);
      const detailed: Record<string, number> = {};
      res.getDetaileddiffMap().forEach((v, k) => {
        detailed[k] = v.getKind();
      });
      return {
        changes: res.getChanges() === providerPb.DiffResponse.DiffChanges.DIFF_SOME,
        replaces: res.getReplacesList(),
        diffs: res.getDiffsList(),
        detailed,
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },
    async create(type, name, properties, preview = false) {
      const res = await call<providerPb.CreateRequest, providerPb.CreateResponse>(
        "create",
        new providerPb.CreateRequest()
          .setUrn(urn(type, name))
          .setType(type)
          .setName(name)
          .setProperties(toStruct(properties))
          .setPreview(preview),
      );
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },
    async read(type, name, id, properties = {}, inputs = {}) {
      const res = await call<providerPb.ReadRequest, providerPb.ReadResponse>(
        "read",
        new providerPb.ReadRequest()
          .setUrn(urn(type, name))
          .setType(type)
          .setName(name)
          .setId(id)
          .setProperties(toStruct(properties))
          .setInputs(toStruct(inputs)),
      );
      return { id: res.getId(), properties: fromStruct(res.getProperties()), inputs: fromStruct(res.getInputs()) };
    },
    async update(type, name, id, olds, news, preview = false, oldInputs, ignoreChanges = []) {
      const req = new providerPb.UpdateRequest()
        .setUrn(urn(type, name))
        .setType(type)
        .setName(name)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news))
        .setPreview(preview);
      if (oldInputs) req.setOldInputs(toStruct(oldInputs));
      req.setIgnorechangesList(ignoreChanges);
      const res = await call<providerPb.UpdateRequest, providerPb.UpdateResponse>("update", req);
      return fromStruct(res.getProperties());
    },
    async delete(type, name, id, properties) {
      await call(
        "delete",
        new providerPb.DeleteRequest()
          .setUrn(urn(type, name))
          .setType(type)
          .setName(name)
          .setId(id)
          .setProperties(toStruct(properties)),
      );
    },
    async invoke(tok, args) {
      const res = await call<providerPb.InvokeRequest, providerPb.InvokeResponse>(
        "invoke",
        new providerPb.InvokeRequest().setTok(tok).setArgs(toStruct(args)),
      );
      return {
        result: fromStruct(res.getReturn()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    list(type, query = {}, opts = {}) {
      const req = new providerPb.ListRequest()
        .setToken(type)
        .setQuery(toStruct(query))
        .setContinuationToken(opts.continuation ?? "")
        .setLimit(opts.limit ?? 0)
        .setPageSize(opts.pageSize ?? 0);
      return new Promise((resolve, reject) => {
        const results: { id: string; name: string }[] = [];
        let continuation: string | undefined;
        let computed = false;
        const stream = client.list(req);
        stream.on("data", (res: providerPb.ListResponse) => {
          if (res.hasResult()) results.push({ id: res.getResult()!.getId(), name: res.getResult()!.getName() });
          if (res.hasContinuation()) continuation = res.getContinuation()!.getContinuationToken();
          if (res.hasComputed()) computed = true;
        });
        stream.on("error", reject);
        stream.on("end", () => resolve({ results, ...(continuation !== undefined ? { continuation } : {}), computed }));
      });
    },
    async stop() {
      client.close();
      sink.server.forceShutdown();
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((res) => child.once("exit", (code) => res(code)));
      child.kill("SIGINT");
      return exited;
    },
  };
  return handle;
}

/** Strips the secret wrapper, for assertions on values. */
export function plain(value: unknown): unknown {
  return isSecret(value) ? value.value : value;
}

/** The partial state of Pulumi's initialization error carried by a failed Create or Update. */
export function initFailure(err: grpc.ServiceError): {
  id: string;
  properties: Record<string, unknown>;
  reasons: string[];
} {
  const raw = err.metadata?.get("grpc-status-details-bin")[0] as Buffer | undefined;
  if (!raw) throw new Error(`the error carries no initialization failure: ${err.message}`);
  const any = Status.deserializeBinary(new Uint8Array(raw)).getDetailsList()[0]!;
  if (!any.getTypeUrl().endsWith("pulumirpc.ErrorResourceInitFailed"))
    throw new Error(`unexpected error detail ${any.getTypeUrl()}`);
  const detail = providerPb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
  return { id: detail.getId(), properties: detail.getProperties()!.toJavaScript(), reasons: detail.getReasonsList() };
}
