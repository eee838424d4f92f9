import { appendFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import * as engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";

import { scrub } from "../client";
import { missingTokenMessage, parseConfig, configSecrets } from "../config/provider-config";
import {
  evaluatedTokens,
  type AnyFunction,
  type AnyResource,
  type CheckFailure,
  type OperationContext,
} from "../framework/definition";
import { deepEqual, type DiffResult } from "../framework/engine/diff";
import {
  checkResource,
  createResource,
  deleteResource,
  diffChecked,
  InitFailedError,
  invokeFunction,
  listResources,
  previewCreate,
  previewUpdate,
  readResource,
  updateResource,
} from "../framework/engine/operations";
import { upgradeKeys } from "../framework/engine/state-version";
import {
  containsUnknown,
  dropUndefined,
  unwrapProperties,
  wrapSecrets,
  type PropertyMap,
} from "../framework/engine/property-values";
import { buildPackageSchema } from "../framework/engine/schema";
import { packageInfo, PROVIDER_VERSION } from "../config/package-info";
import { configureSession, type ProviderSession } from "../config/session";
import { UserError } from "../framework/engine/user-error";
import { allDefinitions, functionByToken, resourceByToken } from "../modules/lazy-definitions";

type Handler<Req, Res> = grpc.handleUnaryCall<Req, Res>;

function structToObject(s: Struct | undefined): PropertyMap {
  return (s?.toJavaScript() as PropertyMap | undefined) ?? {};
}

function objectToStruct(o: PropertyMap): Struct {
  return Struct.fromJavaScript(dropUndefined(o) as Record<string, never>);
}

/** `urn:pulumi:stack::project::parent$type::name` -> `name` */
function nameFromUrn(urn: string): string | undefined {
  const parts = urn.split("::");
  return parts.length >= 4 ? parts.slice(3).join("::") : undefined;
}

/** `urn:pulumi:stack::project::parent$type::name` -> `type` */
function typeFromUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  return qualified.split("$").pop() ?? "";
}

/** The engine names its default provider instances `default` or `default_<version>`. */
function isDefaultProviderName(name: string): boolean {
  return /^default(_|$)/.test(name);
}

function failuresToPb(failures: CheckFailure[]): providerPb.CheckFailure[] {
  return failures.map((f) => new providerPb.CheckFailure().setProperty(f.property).setReason(f.reason));
}

const DIFF_KINDS: Record<string, providerPb.PropertyDiff.Kind> = {
  ADD: providerPb.PropertyDiff.Kind.ADD,
  ADD_REPLACE: providerPb.PropertyDiff.Kind.ADD_REPLACE,
  DELETE: providerPb.PropertyDiff.Kind.DELETE,
  DELETE_REPLACE: providerPb.PropertyDiff.Kind.DELETE_REPLACE,
  UPDATE: providerPb.PropertyDiff.Kind.UPDATE,
  UPDATE_REPLACE: providerPb.PropertyDiff.Kind.UPDATE_REPLACE,
};

function diffToPb(d: DiffResult): providerPb.DiffResponse {
  const res = new providerPb.DiffResponse()
    .setChanges(
      d.changes ? providerPb.DiffResponse.DiffChanges.DIFF_SOME : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
    )
    .setReplacesList(d.replaces)
    .setDiffsList(d.diffs)
    .setDeletebeforereplace(d.deleteBeforeReplace)
    .setHasdetaileddiff(true);
  const map = res.getDetaileddiffMap();
  for (const [key, kind] of Object.entries(d.detailed))
    map.set(key, new providerPb.PropertyDiff().setKind(DIFF_KINDS[kind]!).setInputdiff(true));
  return res;
}

let schemaJson: Promise<string> | undefined;

/**
 * The package schema this provider's definitions make, without the examples, which only
 * schema.json holds. The build writes it beside the bundle with schema.json's examples added, where
 * the plugin reads it without loading this module (startup-calls.ts).
 */
export function packageSchemaJson(): Promise<string> {
  schemaJson ??= allDefinitions().then(({ resources, functions }) =>
    JSON.stringify(buildPackageSchema(packageInfo, resources, functions)),
  );
  return schemaJson;
}

/**
 * The provider plugin: pulumirpc.ResourceProvider implemented directly on the generated stubs,
 * because the SDK's own provider host drops Configure's settings and has no detailed diff.
 */
export class NspProvider {
  private engine?: engineGrpc.EngineClient;
  /** Set by Configure; it alone holds the API token. */
  private session?: ProviderSession;
  /** Name of the explicit provider instance this plugin serves; undefined for the default provider. */
  private instanceName?: string;
  private readonly cancel = new AbortController();
  /** How many evaluated definitions NSP_DEBUG output has named so far. */
  private evaluatedReported = 0;

  constructor(engineAddress?: string) {
    if (engineAddress) this.engine = new engineGrpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
  }

  /** Sends a message to the engine's log, shown next to the resource; a no-op without an engine. */
  log(severity: "debug" | "info" | "warning" | "error", message: string, urn = ""): void {
    const text = this.scrub(message);
    if (!this.engine) {
      if (severity !== "debug") process.stderr.write(`[nsp] ${severity}: ${text}\n`);
      return;
    }
    const sev = {
      debug: enginePb.LogSeverity.DEBUG,
      info: enginePb.LogSeverity.INFO,
      warning: enginePb.LogSeverity.WARNING,
      error: enginePb.LogSeverity.ERROR,
    }[severity];
    this.engine.log(new enginePb.LogRequest().setSeverity(sev).setMessage(text).setUrn(urn), () => undefined);
  }

  /** Defence in depth: whatever reaches the engine never carries the token. */
  private scrub(text: string): string {
    return this.session ? this.session.scrub(text) : scrub(text);
  }

  /**
   * With several accounts in one program, an error must say which provider instance (which
   * token) it came from; the default provider's errors need no such note.
   */
  private errorMessage(err: unknown): string {
    const explained = this.session ? this.session.explain(err) : err;
    const message = this.scrub(explained instanceof Error ? explained.message : String(explained));
    return this.instanceName ? `${message} (provider ${JSON.stringify(this.instanceName)})` : message;
  }

  private context(urn: string, timeoutSeconds?: number): OperationContext {
    if (!this.session) throw new UserError(missingTokenMessage(true));
    const signals = [this.cancel.signal];
    if (timeoutSeconds && timeoutSeconds > 0) signals.push(AbortSignal.timeout(timeoutSeconds * 1000));
    return this.session.context({
      resourceName: nameFromUrn(urn),
      signal: AbortSignal.any(signals),
      log: (severity, message) => this.log(severity, message, urn),
    });
  }

  private async resourceFor(urn: string, type?: string): Promise<AnyResource> {
    const token = type || typeFromUrn(urn);
    const def = await resourceByToken(token);
    this.reportEvaluated();
    if (!def) throw new UserError(`nsp: unknown resource type "${token}"`);
    return def;
  }

  private async functionFor(token: string): Promise<AnyFunction> {
    const fn = await functionByToken(token);
    this.reportEvaluated();
    if (!fn) throw new UserError(`nsp: unknown function "${token}"`);
    return fn;
  }

  /** Under NSP_DEBUG, which definitions this process has evaluated, each time a call adds some. */
  private reportEvaluated(): void {
    const tokens = evaluatedTokens();
    if (!process.env.NSP_DEBUG || tokens.length === this.evaluatedReported) return;
    this.evaluatedReported = tokens.length;
    process.stderr.write(`[nsp] definitions evaluated: ${tokens.length} (${tokens.join(" ")})\n`);
  }

  /** Wraps a handler: errors become gRPC errors with a clean, token-free message. */
  private unary<Req, Res>(name: string, fn: (req: Req) => Promise<Res> | Res): Handler<Req, Res> {
    return (call, callback) => {
      Promise.resolve()
        .then(() => fn(call.request))
        .then(
          (res) => callback(null, res),
          (err: unknown) => {
            const message = this.errorMessage(err);
            if (!(err instanceof UserError) && process.env.NSP_DEBUG)
              process.stderr.write(`[nsp] ${name} failed: ${this.scrub(String((err as Error)?.stack ?? err))}\n`);
            const metadata = err instanceof InitFailedError ? this.initFailedMetadata(err, message) : undefined;
            callback(
              {
                code: grpc.status.UNKNOWN,
                details: message,
                message,
                ...(metadata ? { metadata } : {}),
              } as grpc.ServiceError,
              null,
            );
          },
        );
    };
  }

  /**
   * Pulumi's initialization error travels as a google.rpc.Status in the
   * `grpc-status-details-bin` trailer: the engine then keeps the object with its partial state.
   */
  private initFailedMetadata(err: InitFailedError, message: string): grpc.Metadata {
    // Create and Update annotate the error with the definition's secrets besides the inputs'.
    const { secretKeys } = err;
    const detail = new providerPb.ErrorResourceInitFailed()
      .setId(err.id)
      .setProperties(objectToStruct(wrapSecrets(err.state, secretKeys)))
      .setInputs(objectToStruct(wrapSecrets(err.inputs, secretKeys)))
      .setReasonsList([message]);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status().setCode(grpc.status.UNKNOWN).setMessage(message);
    status.addDetails(any);
    const metadata = new grpc.Metadata();
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    return metadata;
  }

  // ---- plugin lifecycle ----------------------------------------------------------------

  // Handshake, GetPluginInfo and GetSchema are answered before the provider loads (startup-calls.ts).

  attach = this.unary<pluginPb.PluginAttach, Empty>("Attach", (req) => {
    const address = req.getAddress();
    if (address) this.engine = new engineGrpc.EngineClient(address, grpc.credentials.createInsecure());
    return new Empty();
  });

  cancelRpc = this.unary<Empty, Empty>("Cancel", () => {
    this.cancel.abort(new Error("the operation was cancelled"));
    return new Empty();
  });

  // ---- configuration -------------------------------------------------------------------

  checkConfig = this.unary<providerPb.CheckRequest, providerPb.CheckResponse>("CheckConfig", (req) => {
    const news = unwrapProperties(structToObject(req.getNews()));
    const known: PropertyMap = {};
    for (const [k, v] of Object.entries(news.value)) if (!containsUnknown(v)) known[k] = v;
    // Env fallbacks are applied in Configure, where the plugin's environment is the one that counts;
    // only the http opt-in is honoured here already, so that CheckConfig never refuses what
    // Configure would accept. An opt-in not known yet is judged in Configure.
    if (containsUnknown(news.value.insecureHttp)) known.insecureHttp = true;
    const { failures } = parseConfig(known, { NSP_INSECURE_HTTP: process.env.NSP_INSECURE_HTTP });
    const inputs = wrapSecrets(news.value, new Set([...news.secretKeys, ...configSecrets]));
    // The engine prints a failure's property with its value, and a secret's value as
    // `{&{{[secret]}}}`: a failure of a secret setting names it in the reason instead.
    const secret = new Set<string>(configSecrets);
    const named = failures.map((f) =>
      secret.has(f.property)
        ? { property: "", reason: `${f.property} ${f.reason} (nsp:${f.property}; the value is not shown)` }
        : f,
    );
    return new providerPb.CheckResponse().setInputs(objectToStruct(inputs)).setFailuresList(failuresToPb(named));
  });

  diffConfig = this.unary<providerPb.DiffRequest, providerPb.DiffResponse>("DiffConfig", (req) => {
    const olds = unwrapProperties(structToObject(req.getOldInputs() ?? req.getOlds())).value;
    const news = unwrapProperties(structToObject(req.getNews())).value;
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
      (k) => k !== "version" && !deepEqual(olds[k], news[k]),
    );
    // Settings only change how the provider talks to the API, except the customer a partner acts
    // for: its objects live in another account, so they are made anew there (and deleted from the
    // old one) rather than kept in state while out of reach.
    const replaces: string[] = keys.filter((k) => k === "partnerSubject");
    const detailed = Object.fromEntries(
      keys.map((k) => [k, replaces.includes(k) ? ("UPDATE_REPLACE" as const) : ("UPDATE" as const)]),
    );
    return diffToPb({ changes: keys.length > 0, replaces, diffs: keys, detailed, deleteBeforeReplace: false });
  });

  configure = this.unary<providerPb.ConfigureRequest, providerPb.ConfigureResponse>("Configure", async (req) => {
    // Older engines send no name; the URN ends with it.
    const name = req.getName() || (req.getUrn() ?? "").split("::").pop() || "";
    this.instanceName = name && !isDefaultProviderName(name) ? name : undefined;
    let raw: PropertyMap;
    if (req.hasArgs()) {
      raw = unwrapProperties(structToObject(req.getArgs())).value;
    } else {
      // Older engines send only the flat `nsp:config:<key>` map.
      raw = {};
      req.getVariablesMap().forEach((value, key) => {
        raw[key.replace(/^nsp:(config:)?/, "")] = value;
      });
    }
    // Set before the checks, so that their errors are scrubbed of this configuration's token.
    this.session = configureSession(raw, {
      userAgent: `pulumi-resource-nsp/${PROVIDER_VERSION}`,
      log: (level, message) => this.log(level, message),
      tokenSettings: {
        // An explicit instance's errors end with its name (errorMessage).
        config: this.instanceName
          ? "the apiToken of this provider instance"
          : "nsp:apiToken of the default provider (`pulumi config set --secret nsp:apiToken svc_...`)",
        env: "NSP_API_TOKEN (the plugin's environment)",
      },
      explicitProviders: true,
    });
    // A wrong partner reference or a token the API does not know fails here, a preview included.
    await this.session.verify();
    // For measurements (tests, benchmarks): what this plugin's client did, appended at exit.
    const statsFile = process.env.NSP_STATS_FILE;
    if (statsFile && this.session.ready) {
      const { client } = this.session.api();
      process.once("exit", () => appendFileSync(statsFile, `${JSON.stringify(client.stats())}\n`));
    }
    return new providerPb.ConfigureResponse()
      .setAcceptsecrets(true)
      .setSupportspreview(true)
      .setAcceptresources(false)
      .setAcceptoutputs(false);
  });

  // ---- resources -----------------------------------------------------------------------

  check = this.unary<providerPb.CheckRequest, providerPb.CheckResponse>("Check", async (req) => {
    const def = await this.resourceFor(req.getUrn(), req.getType());
    const news = unwrapProperties(structToObject(req.getNews()));
    const { inputs, failures, warnings } = checkResource(def, news.value);
    for (const w of warnings) this.log("warning", w, req.getUrn());
    const secretKeys = new Set([...upgradeKeys(def, news.secretKeys), ...(def.secrets ?? [])]);
    return new providerPb.CheckResponse()
      .setInputs(objectToStruct(wrapSecrets(inputs, secretKeys)))
      .setFailuresList(failuresToPb(failures));
  });

  diff = this.unary<providerPb.DiffRequest, providerPb.DiffResponse>("Diff", async (req) => {
    const def = await this.resourceFor(req.getUrn(), req.getType());
    const olds = unwrapProperties(structToObject(req.getOlds())).value;
    const news = unwrapProperties(structToObject(req.getNews())).value;
    const oldInputs = req.hasOldInputs() ? unwrapProperties(structToObject(req.getOldInputs())).value : undefined;
    const ctx = () => (this.session?.ready ? this.context(req.getUrn()) : undefined);
    return diffToPb(await diffChecked(def, ctx, req.getId(), olds, news, oldInputs, req.getIgnorechangesList()));
  });

  create = this.unary<providerPb.CreateRequest, providerPb.CreateResponse>("Create", async (req) => {
    const def = await this.resourceFor(req.getUrn(), req.getType());
    const inputs = unwrapProperties(structToObject(req.getProperties()));
    const secretKeys = new Set([...inputs.secretKeys, ...(def.secrets ?? [])]);
    if (req.getPreview()) {
      await this.warnBeforeCreate(def, req.getUrn(), inputs.value);
      return new providerPb.CreateResponse()
        .setId("")
        .setProperties(objectToStruct(wrapSecrets(previewCreate(def, inputs.value), secretKeys)));
    }
    const { id, state } = await createResource(def, this.context(req.getUrn(), req.getTimeout()), inputs.value).catch(
      (e: unknown) => {
        throw InitFailedError.annotate(e, def.token, secretKeys);
      },
    );
    return new providerPb.CreateResponse().setId(id).setProperties(objectToStruct(wrapSecrets(state, secretKeys)));
  });

  /** A preview's warnings are a courtesy: unknown inputs, no token or a failed read skip them. */
  private async warnBeforeCreate(def: AnyResource, urn: string, inputs: PropertyMap): Promise<void> {
    if (!def.warnBeforeCreate || !this.session?.ready || containsUnknown(inputs)) return;
    const { inputs: args, failures } = checkResource(def, inputs);
    if (failures.length) return;
    await def
      .warnBeforeCreate(this.context(urn), args)
      .catch((e: unknown) =>
        this.log(
          "debug",
          `preview warnings of ${def.token} skipped: ${e instanceof Error ? e.message : String(e)}`,
          urn,
        ),
      );
  }

  read = this.unary<providerPb.ReadRequest, providerPb.ReadResponse>("Read", async (req) => {
    const def = await this.resourceFor(req.getUrn(), req.getType());
    const prior = unwrapProperties(structToObject(req.getProperties()));
    const priorInputs = unwrapProperties(structToObject(req.getInputs()));
    const found = await readResource(
      def,
      this.context(req.getUrn(), req.getTimeout()),
      req.getId(),
      prior.value,
      priorInputs.value,
    );
    if (!found) return new providerPb.ReadResponse().setId("");
    const secretKeys = new Set([
      ...upgradeKeys(def, [...prior.secretKeys, ...priorInputs.secretKeys]),
      ...(def.secrets ?? []),
    ]);
    return new providerPb.ReadResponse()
      .setId(found.id)
      .setProperties(objectToStruct(wrapSecrets(found.state, secretKeys)))
      .setInputs(objectToStruct(wrapSecrets(found.inputs, secretKeys)));
  });

  update = this.unary<providerPb.UpdateRequest, providerPb.UpdateResponse>("Update", async (req) => {
    const def = await this.resourceFor(req.getUrn(), req.getType());
    const olds = unwrapProperties(structToObject(req.getOlds()));
    const news = unwrapProperties(structToObject(req.getNews()));
    const secretKeys = new Set([...upgradeKeys(def, [...olds.secretKeys, ...news.secretKeys]), ...(def.secrets ?? [])]);
    const state = req.getPreview()
      ? previewUpdate(def, olds.value, news.value)
      : await updateResource(
          def,
          this.context(req.getUrn(), req.getTimeout()),
          req.getId(),
          olds.value,
          news.value,
          req.hasOldInputs() ? unwrapProperties(structToObject(req.getOldInputs())).value : undefined,
          req.getIgnorechangesList(),
        ).catch((e: unknown) => {
          throw InitFailedError.annotate(e, def.token, secretKeys);
        });
    return new providerPb.UpdateResponse().setProperties(objectToStruct(wrapSecrets(state, secretKeys)));
  });

  delete = this.unary<providerPb.DeleteRequest, Empty>("Delete", async (req) => {
    const def = await this.resourceFor(req.getUrn(), req.getType());
    const olds = unwrapProperties(structToObject(req.getProperties())).value;
    await deleteResource(def, this.context(req.getUrn(), req.getTimeout()), req.getId(), olds);
    return new Empty();
  });

  invoke = this.unary<providerPb.InvokeRequest, providerPb.InvokeResponse>("Invoke", async (req) => {
    const fn = await this.functionFor(req.getTok());
    const args = unwrapProperties(structToObject(req.getArgs())).value;
    const { result, failures } = await invokeFunction(fn, () => this.context(""), args);
    if (!result) return new providerPb.InvokeResponse().setFailuresList(failuresToPb(failures));
    return new providerPb.InvokeResponse().setReturn(objectToStruct(wrapSecrets(result, fn.secrets ?? [])));
  });

  /**
   * `pulumi do <kind> list`: one page of the API's list per call, streamed as results, then the
   * continuation token of the next page (none after the last), which the engine sends back for it.
   */
  list: grpc.handleServerStreamingCall<providerPb.ListRequest, providerPb.ListResponse> = (call) => {
    const req = call.request;
    const fail = (err: unknown) => {
      const message = this.errorMessage(err);
      call.emit("error", { code: grpc.status.UNKNOWN, details: message, message });
    };
    Promise.resolve()
      .then(async () => {
        const def = await this.resourceFor("", req.getToken());
        const query = unwrapProperties(structToObject(req.getQuery())).value;
        if (containsUnknown(query))
          return call.write(new providerPb.ListResponse().setComputed(new providerPb.ListResponse.Computed()));
        const limit = req.getLimit();
        const pageSize = req.getPageSize();
        const page = await listResources(def, () => this.context(""), query, {
          continuation: req.getContinuationToken(),
          ...(limit > 0 ? { limit } : {}),
          ...(pageSize > 0 ? { pageSize } : {}),
        });
        if (!page.objects)
          throw new UserError(
            `${def.token} list: ${page.failures.map((f) => (f.property ? `${f.property} ${f.reason}` : f.reason)).join("; ")}`,
          );
        for (const o of page.objects)
          call.write(
            new providerPb.ListResponse().setResult(new providerPb.ListResponse.Result().setId(o.id).setName(o.name)),
          );
        if (page.continuation)
          call.write(
            new providerPb.ListResponse().setContinuation(
              new providerPb.ListResponse.Continuation().setContinuationToken(page.continuation),
            ),
          );
        return undefined;
      })
      .then(() => call.end(), fail);
  };

  /** The gRPC service implementation, as registered on the server. */
  service(): grpc.UntypedServiceImplementation {
    const unimplemented: grpc.handleUnaryCall<unknown, unknown> = (_call, callback) =>
      callback(
        {
          code: grpc.status.UNIMPLEMENTED,
          details: "not implemented by nsp",
          message: "not implemented by nsp",
        } as grpc.ServiceError,
        null,
      );
    return {
      parameterize: unimplemented,
      checkConfig: this.checkConfig,
      diffConfig: this.diffConfig,
      configure: this.configure,
      invoke: this.invoke,
      call: unimplemented,
      check: this.check,
      diff: this.diff,
      create: this.create,
      read: this.read,
      list: this.list,
      update: this.update,
      delete: this.delete,
      construct: unimplemented,
      cancel: this.cancelRpc,
      attach: this.attach,
      // Only `pulumi convert` asks for mappings; there are none.
      getMapping: ((_call, callback) => callback(null, new providerPb.GetMappingResponse())) as grpc.handleUnaryCall<
        unknown,
        providerPb.GetMappingResponse
      >,
      getMappings: ((_call, callback) => callback(null, new providerPb.GetMappingsResponse())) as grpc.handleUnaryCall<
        unknown,
        providerPb.GetMappingsResponse
      >,
    } as grpc.UntypedServiceImplementation;
  }
}
