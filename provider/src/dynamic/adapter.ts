// The dynamic-provider adapter: pulumi.dynamic.ResourceProvider's calls mapped onto the same
// transport-free operations the gRPC server uses (framework/engine/operations.ts), so a resource behaves
// the same whether the nsp plugin or Pulumi's Node.js dynamic-provider host runs it.
//
// This file imports nothing from @pulumi/pulumi: the host process only needs plain functions.
// Two things the dynamic protocol lacks are made up for here:
//  - Diff and Read get the last state but not the last inputs. The state carries the names of
//    the inputs the program set (`__nspInputs`, names only, never values); with those, the prior
//    inputs are the state's values of those names, which is exactly what the plugin would get
//    (write-only inputs are carried in the state by carryOver).
//  - The host gives no engine log and no cancellation; messages go to stderr.
import { scrub as scrubSecrets } from "../client";
import { configureSession, type ProviderSession } from "../config/session";
import { providerConfig } from "../config/provider-config";
import { UserError } from "../framework/engine/user-error";
import type { AnyResource, CheckFailure, OperationContext } from "../framework/definition";
import {
  checkResource,
  createResource,
  deleteResource,
  diffChecked,
  InitFailedError,
  readResource,
  updateResource,
} from "../framework/engine/operations";
import { upgradeInputs, upgradeState } from "../framework/engine/state-version";
import { dropUndefined, type PropertyMap } from "../framework/engine/property-values";
import { PROVIDER_VERSION } from "../config/package-info";
import { resourcesByToken } from "../modules/all-definitions";

/** Key Pulumi reserves for the serialized provider; it travels with every input and output. */
export const PROVIDER_KEY = "__provider";
/** State key listing the input names the program set (see the file comment). */
export const INPUT_KEYS = "__nspInputs";

/** What `configure` gets from the host: the whole stack configuration, keys `<namespace>:<key>`. */
export interface DynamicConfig {
  get(key: string): string | undefined;
}

/**
 * A create or update that failed after the object came to exist. Pulumi's host turns an error
 * with `id`, `properties` and `reasons` into the engine's initialization error, so the engine
 * keeps the object with this partial state and the next `up` finishes it, as with the plugin.
 */
class PartialFailure extends UserError {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: PropertyMap,
    readonly reasons: string[],
  ) {
    super(message);
  }
}

// One session per process, shared by every resource type: the host deserializes and configures
// one provider object per type, but they must share one rate limiter, as the plugin's one
// ApiClient does.
let session: ProviderSession | undefined;

function scrub(text: string): string {
  return session ? session.scrub(text) : scrubSecrets(text);
}

function log(severity: "debug" | "info" | "warning" | "error", message: string): void {
  if (severity === "debug" && !process.env.NSP_DEBUG) return;
  process.stderr.write(`[nsp] ${severity}: ${scrub(message)}\n`);
}

/** Reads nsp:* from the stack configuration, with the same env fallbacks as the plugin. */
export function configure(config: DynamicConfig, env: NodeJS.ProcessEnv = process.env): void {
  const raw: PropertyMap = {};
  for (const key of Object.keys(providerConfig.shape)) {
    const value = config.get(`nsp:${key}`);
    if (value !== undefined) raw[key] = value;
  }
  const next = configureSession(raw, {
    userAgent: `nsp-dynamic/${PROVIDER_VERSION}`,
    log,
    tokenSettings: { config: "nsp:apiToken (`pulumi config set --secret nsp:apiToken svc_...`)", env: "NSP_API_TOKEN" },
    explicitProviders: false,
    env,
  });
  if (session?.key !== next.key) session = next;
}

/** The settings in use, without the token (tests, diagnostics). */
export function settings():
  | { baseUrl: string; requestsPerMinute: number; maxRetries: number; hasToken: boolean }
  | undefined {
  if (!session) return undefined;
  const { baseUrl, requestsPerMinute, maxRetries } = session.settings;
  return { baseUrl, requestsPerMinute, maxRetries, hasToken: session.hasToken };
}

/** Forgets the configuration (tests). */
export function reset(): void {
  session = undefined;
}

/** The host calls configure before any operation; the environment alone is enough when it did not. */
function configured(): ProviderSession {
  if (!session) configure({ get: () => undefined });
  return session!;
}

function context(token: string): OperationContext {
  return configured().context({
    signal: new AbortController().signal,
    log: (severity, message) => log(severity, `${token}: ${message}`),
  });
}

function definition(token: string): AnyResource {
  const def = resourcesByToken.get(token);
  if (!def)
    throw new UserError(`nsp: unknown resource type "${token}"; this version of @nsp/pulumi-dynamic does not know it`);
  return def;
}

/** The inputs or state without the dynamic provider's bookkeeping keys. */
function strip(props: PropertyMap | undefined): PropertyMap {
  const { [PROVIDER_KEY]: _provider, [INPUT_KEYS]: _inputs, ...rest } = props ?? {};
  return rest;
}

/**
 * The prior inputs, rebuilt from the state: the values of the input names the program set, in
 * this release's shape (a state of an earlier release lists the names that release had).
 */
export function priorInputs(def: AnyResource, state: PropertyMap): PropertyMap | undefined {
  const names = state[INPUT_KEYS];
  if (!Array.isArray(names)) return undefined;
  const inputs: PropertyMap = {};
  for (const name of names) if (typeof name === "string" && state[name] !== undefined) inputs[name] = state[name];
  const upgraded = upgradeInputs(def, inputs);
  return Object.fromEntries(Object.entries(upgraded).filter(([name]) => name in def.args.shape));
}

function inputNames(def: AnyResource, inputs: PropertyMap): string[] {
  return Object.keys(def.args.shape).filter((k) => inputs[k] !== undefined);
}

function outputs(def: AnyResource, state: PropertyMap, inputs: PropertyMap): PropertyMap {
  return dropUndefined({ ...state, [INPUT_KEYS]: inputNames(def, inputs) }) as PropertyMap;
}

/**
 * Errors leave with a clean message and without the token, as the plugin's do. `partial` gives
 * the state to keep when the object exists despite the error.
 */
async function guard<T>(fn: () => Promise<T> | T, partial?: (e: InitFailedError) => PropertyMap): Promise<T> {
  try {
    return await fn();
  } catch (caught) {
    const e = session ? session.explain(caught) : caught;
    if (e instanceof UserError) throw e;
    if (e instanceof InitFailedError && partial) {
      const message = scrub(e.message);
      throw new PartialFailure(message, e.id, partial(e), [message]);
    }
    if (process.env.NSP_DEBUG) process.stderr.write(`[nsp] ${scrub(String((e as Error)?.stack ?? e))}\n`);
    throw new UserError(scrub(e instanceof Error ? e.message : String(e)));
  }
}

export interface DynamicCheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}

export interface DynamicDiffResult {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Not read by the 3.x host (it passes on only the three fields above); kept for display tools and tests. */
  diffs: string[];
  detailedDiff: Record<string, { kind: string; inputDiff: boolean }>;
}

export function check(token: string, _olds: PropertyMap, news: PropertyMap): Promise<DynamicCheckResult> {
  return guard(async () => {
    // The host has no Configure step of its own that may fail, and a preview calls no more than
    // check and diff: the first check verifies what the plugin verifies at Configure.
    await configured().verify();
    const { inputs, failures, warnings } = checkResource(definition(token), strip(news));
    for (const w of warnings) log("warning", `${token}: ${w}`);
    return { inputs: dropUndefined(inputs) as PropertyMap, failures };
  });
}

export function diff(token: string, id: string, olds: PropertyMap, news: PropertyMap): Promise<DynamicDiffResult> {
  return guard(async () => {
    const def = definition(token);
    const d = await diffChecked(
      def,
      () => (configured().ready ? context(token) : undefined),
      id,
      strip(olds),
      strip(news),
      priorInputs(def, olds ?? {}),
    );
    const detailedDiff = Object.fromEntries(
      Object.entries(d.detailed).map(([k, kind]) => [k, { kind, inputDiff: true }]),
    );
    return {
      changes: d.changes,
      replaces: d.replaces,
      deleteBeforeReplace: d.deleteBeforeReplace,
      diffs: d.diffs,
      detailedDiff,
    };
  });
}

/**
 * A create or update: when the object exists despite the error, the engine keeps its partial
 * state, with the provider to run it later.
 */
function guardWrite<T>(token: string, inputs: PropertyMap, fn: (def: AnyResource) => Promise<T>): Promise<T> {
  const def = resourcesByToken.get(token);
  return guard(
    () => fn(definition(token)),
    def && ((e) => ({ ...outputs(def, e.state, strip(inputs)), [PROVIDER_KEY]: inputs[PROVIDER_KEY] })),
  );
}

export function create(token: string, inputs: PropertyMap): Promise<{ id: string; outs: PropertyMap }> {
  return guardWrite(token, inputs, async (def) => {
    const news = strip(inputs);
    const { id, state } = await createResource(def, context(token), news);
    return { id, outs: outputs(def, state, news) };
  });
}

export function read(
  token: string,
  id: string,
  props: PropertyMap,
): Promise<{ id: string; props?: PropertyMap; inputs?: PropertyMap }> {
  return guard(async () => {
    const def = definition(token);
    const prior = strip(props);
    // A state without the input names (not written by this adapter): take every input it holds.
    const current = upgradeState(def, prior);
    const inputs =
      priorInputs(def, props ?? {}) ??
      Object.fromEntries(
        Object.keys(def.args.shape)
          .filter((k) => current[k] !== undefined)
          .map((k) => [k, current[k]]),
      );
    const found = await readResource(def, context(token), id, prior, inputs);
    // An empty id tells the engine the object is gone.
    if (!found) return { id: "" };
    return {
      id: found.id,
      props: outputs(def, found.state, found.inputs),
      inputs: dropUndefined(found.inputs) as PropertyMap,
    };
  });
}

export function update(
  token: string,
  id: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<{ outs: PropertyMap }> {
  return guardWrite(token, news, async (def) => {
    const next = strip(news);
    const state = await updateResource(def, context(token), id, strip(olds), next, priorInputs(def, olds ?? {}));
    return { outs: outputs(def, state, next) };
  });
}

export function remove(token: string, id: string, props: PropertyMap): Promise<void> {
  return guard(() => deleteResource(definition(token), context(token), id, strip(props)));
}
