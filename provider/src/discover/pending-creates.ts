// nsp-discover --pending-creates: after a killed `pulumi up`, the stack's state lists the creates
// that were on the wire as pending operations (URN, type, inputs, provider), because the engine
// never heard back. A create that landed made an object no state tracks; one that did not, none.
// This finds each pending create's object by its natural key and hands the ids to the engine
// (`pulumi refresh --import-pending-creates <urn> <id> ...`); the creates that found nothing are
// cleared, so the next `up` makes them. Nothing the engine did not say this stack was creating
// is ever adopted, and a key that several untracked objects share is reported, not guessed.
import { openSession } from "../session";
import { parseConfig } from "../config";
import { checkResource } from "../framework/operations";
import { findByNaturalKey, describeKey, shellWord } from "../framework/natural-key";
import { unwrapProperties, type PropertyMap } from "../framework/property-values";
import type { AnyResource } from "../framework/definition";
import type { ApiClient } from "../client";

type Item = Record<string, unknown>;

/** The parts of `pulumi stack export --show-secrets` this reads. */
export interface ExportedDeployment {
  deployment: {
    resources?: { urn: string; type: string; id?: string; inputs?: Item }[];
    pending_operations?: { type: string; resource: { urn: string; type: string; inputs?: Item; provider?: string } }[];
  };
}

export interface PendingCreate {
  urn: string;
  type: string;
  /** `adopt`: one untracked object has the key; `absent`: none (the create never landed). */
  outcome: "adopt" | "absent" | "ambiguous" | "unidentifiable" | "foreign";
  id?: string;
  detail: string;
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** An export made with --show-secrets holds each secret as `{<sig>, plaintext: "<json>"}`. */
function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (value && typeof value === "object") {
    const o = value as Item;
    if (SECRET_SIG in o) {
      if (typeof o.plaintext !== "string") throw new Error("the export holds encrypted secrets: run `pulumi stack export --show-secrets`");
      return revealed(JSON.parse(o.plaintext));
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, revealed(v)]));
  }
  return value;
}

/**
 * Decides every pending create of the export. `clientFor` opens the API client of one provider
 * configuration (the provider resource's inputs, as Configure gets them).
 */
export async function resolvePendingCreates(exported: ExportedDeployment, definitions: readonly AnyResource[], clientFor: (settings: PropertyMap) => ApiClient, signal?: AbortSignal): Promise<PendingCreate[]> {
  const byToken = new Map(definitions.map((d) => [d.token, d]));
  const resources = exported.deployment.resources ?? [];
  const clients = new Map<string, ApiClient>();
  // An object is this stack's already when a resource of its type has its id (the own id, which
  // is the last part of an import id).
  const tracked = new Set(resources.filter((r) => r.id).map((r) => `${r.type} ${r.id!.split("/").pop()}`));
  const out: PendingCreate[] = [];
  for (const op of exported.deployment.pending_operations ?? []) {
    if (op.type !== "creating") continue;
    const { urn, type } = op.resource;
    const def = byToken.get(type);
    if (!def) {
      out.push({ urn, type, outcome: "foreign", detail: "not an nsp resource; left to its own provider" });
      continue;
    }
    const { inputs: args, failures } = checkResource(def, unwrapProperties(revealed(op.resource.inputs ?? {}) as PropertyMap).value);
    if (failures.length) {
      out.push({ urn, type, outcome: "unidentifiable", detail: `its inputs do not check: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}` });
      continue;
    }
    const providerRef = op.resource.provider ?? "";
    let client = clients.get(providerRef);
    if (!client) {
      const [providerUrn, providerId] = [providerRef.slice(0, providerRef.lastIndexOf("::")), providerRef.slice(providerRef.lastIndexOf("::") + 2)];
      const provider = resources.find((r) => r.urn === providerUrn && r.id === providerId);
      client = clientFor(revealed(provider?.inputs ?? {}) as PropertyMap);
      clients.set(providerRef, client);
    }
    const found = await findByNaturalKey(def, client, args, signal);
    const key = describeKey(def, args);
    if (!found) {
      out.push({ urn, type, outcome: "unidentifiable", detail: `${type} has no natural key to find it by${key ? ` (${key})` : ""}; check by hand` });
      continue;
    }
    const untracked = found.filter((m) => !tracked.has(`${type} ${m.ownId}`));
    if (untracked.length === 0) {
      out.push({ urn, type, outcome: "absent", detail: `no untracked object with ${key}: the create never landed` });
    } else if (untracked.length === 1) {
      const match = untracked[0]!;
      // Claimed: another pending create with the same key cannot take it too.
      tracked.add(`${type} ${match.ownId}`);
      out.push({ urn, type, outcome: "adopt", id: match.importId, detail: `${key}: object ${match.importId}` });
    } else {
      out.push({ urn, type, outcome: "ambiguous", detail: `${untracked.length} untracked objects have ${key}: ${untracked.map((m) => m.importId).join(", ")}` });
    }
  }
  return out;
}

/**
 * The refresh that applies the decisions: the ids of the found objects, and, when every pending
 * create is decided, the rest cleared. Undefined when there is nothing to do.
 */
export function refreshArgs(decided: readonly PendingCreate[]): string[] | undefined {
  const imports = decided.filter((d) => d.outcome === "adopt").flatMap((d) => ["--import-pending-creates", d.urn, "--import-pending-creates", d.id!]);
  const settled = decided.every((d) => d.outcome === "adopt" || d.outcome === "absent");
  const clear = settled && decided.some((d) => d.outcome === "absent") ? ["--clear-pending-creates"] : [];
  if (!imports.length && !clear.length) return undefined;
  return ["refresh", "--yes", "--skip-preview", ...imports, ...clear];
}

export function commandLine(args: readonly string[]): string {
  return ["pulumi", ...args].map(shellWord).join(" ");
}

/** The API client of one provider configuration of the stack, environment variables as fallback. */
export function clientFromSettings(settings: PropertyMap, userAgent: string, log: (message: string) => void): ApiClient {
  const { config, failures } = parseConfig(settings);
  if (!config) throw new Error(`the provider's configuration does not check: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
  if (!config.apiToken) throw new Error("no API token in the stack's provider configuration; export NSP_API_TOKEN=svc_...");
  return openSession({ ...config, apiToken: config.apiToken }, userAgent, (level, message) => level !== "debug" && log(message)).client;
}
