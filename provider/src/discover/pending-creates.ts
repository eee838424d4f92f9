// nsp-discover --pending-creates: after a killed `pulumi up`, the stack's state lists the creates
// that were on the wire as pending operations (URN, type, inputs, provider), because the engine
// never heard back. A create that landed made an object no state tracks; one that did not, none.
// This finds each pending create's object by its natural key and records it in the state as the
// create's resource, with that id; the creates that found nothing are cleared, so the next `up`
// makes them. Nothing the engine did not say this stack was creating is ever adopted, and a key
// that several untracked objects share is reported, not guessed.
//
// Pulumi's own `pulumi refresh --import-pending-creates <urn> <id>` would be the way, but v3.259.0
// marks the operation "importing" and then drops it without adopting anything (the refresh keeps
// only "creating" operations), which loses the object as --clear-pending-creates would. So the
// ids are written the way that command means to: the pending create's resource (its URN, inputs,
// provider, parent and dependencies as the engine recorded them) moves to the resources with its
// id (`pulumi stack import`, which drops the other pending operations, so it runs only once every
// pending create is decided), and a `pulumi refresh` then reads its outputs.
import { configureSession } from "../config/session";
import { checkResource } from "../framework/engine/operations";
import { findByNaturalKey, describeKey, idFromInputs, shellWord } from "../framework/api/natural-key";
import { unwrapProperties, type PropertyMap } from "../framework/engine/property-values";
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

interface PendingCreate {
  urn: string;
  type: string;
  /**
   * `adopt`: one untracked object has the key; `absent`: none (the create never landed);
   * `repeatable`: the create writes an object its inputs name, so the next `up` writes it again
   * and makes nothing twice. These are settled (cleared, or adopted); the others are reported.
   */
  outcome: "adopt" | "absent" | "repeatable" | "ambiguous" | "unidentifiable" | "foreign";
  id?: string;
  detail: string;
}

/** The outcomes the recovery acts on; any other leaves the state unchanged. */
export const SETTLED: ReadonlySet<PendingCreate["outcome"]> = new Set(["adopt", "absent", "repeatable"]);

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** An export made with --show-secrets holds each secret as `{<sig>, plaintext: "<json>"}`. */
function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (value && typeof value === "object") {
    const o = value as Item;
    if (SECRET_SIG in o) {
      if (typeof o.plaintext !== "string")
        throw new Error("the export holds encrypted secrets: run `pulumi stack export --show-secrets`");
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
export async function resolvePendingCreates(
  exported: ExportedDeployment,
  definitions: readonly AnyResource[],
  clientFor: (settings: PropertyMap) => ApiClient,
  signal?: AbortSignal,
): Promise<PendingCreate[]> {
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
    const { inputs: args, failures } = checkResource(
      def,
      unwrapProperties(revealed(op.resource.inputs ?? {}) as PropertyMap).value,
    );
    if (failures.length) {
      out.push({
        urn,
        type,
        outcome: "unidentifiable",
        detail: `its inputs do not check: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
      });
      continue;
    }
    const providerRef = op.resource.provider ?? "";
    let client = clients.get(providerRef);
    if (!client) {
      const [providerUrn, providerId] = [
        providerRef.slice(0, providerRef.lastIndexOf("::")),
        providerRef.slice(providerRef.lastIndexOf("::") + 2),
      ];
      const provider = resources.find((r) => r.urn === providerUrn && r.id === providerId);
      client = clientFor(revealed(provider?.inputs ?? {}) as PropertyMap);
      clients.set(providerRef, client);
    }
    const found = await findByNaturalKey(def, client, args, signal);
    const key = describeKey(def, args);
    const fixedId = found ? undefined : idFromInputs(def, args);
    if (fixedId !== undefined) {
      out.push({
        urn,
        type,
        outcome: "repeatable",
        detail: `writes the object its inputs name (${fixedId}); the next up writes it again`,
      });
      continue;
    }
    if (!found) {
      out.push({
        urn,
        type,
        outcome: "unidentifiable",
        detail: `${type} has no natural key to find it by${key ? ` (${key})` : ""}; check by hand`,
      });
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
      out.push({
        urn,
        type,
        outcome: "ambiguous",
        detail: `${untracked.length} untracked objects have ${key}: ${untracked.map((m) => m.importId).join(", ")}`,
      });
    }
  }
  return out;
}

/**
 * The deployment (as `pulumi stack export` wrote it, secrets encrypted) with each adopted pending
 * create moved to the resources with its id. Its outputs are its inputs until the refresh that
 * follows reads them. A pending create never has dependents in the state (nothing waits on a
 * create that has not finished), so the resources stay in dependency order when it is appended.
 */
export function adoptIntoDeployment<T extends { deployment: Item }>(exported: T, decided: readonly PendingCreate[]): T {
  const ids = new Map(decided.filter((d) => d.outcome === "adopt").map((d) => [d.urn, d.id!]));
  const ops = (exported.deployment.pending_operations ?? []) as { type: string; resource: Item & { urn: string } }[];
  const adopted = ops.filter((op) => op.type === "creating" && ids.has(op.resource.urn));
  return {
    ...exported,
    deployment: {
      ...exported.deployment,
      resources: [
        ...((exported.deployment.resources ?? []) as Item[]),
        ...adopted.map((op) => ({
          ...op.resource,
          id: ids.get(op.resource.urn),
          outputs: op.resource.outputs ?? op.resource.inputs ?? {},
        })),
      ],
      pending_operations: ops.filter((op) => !adopted.includes(op)),
    },
  };
}

/** The refresh after the ids are in: it reads the adopted objects' outputs and clears the creates that never landed. */
export function refreshArgs(): string[] {
  return ["refresh", "--yes", "--skip-preview", "--clear-pending-creates"];
}

export function commandLine(args: readonly string[]): string {
  return ["pulumi", ...args].map(shellWord).join(" ");
}

/** The API client of one provider configuration of the stack, environment variables as fallback. */
export function clientFromSettings(
  settings: PropertyMap,
  userAgent: string,
  log: (message: string) => void,
): ApiClient {
  const session = configureSession(settings, {
    userAgent,
    log: (level, message) => level !== "debug" && log(message),
    tokenSettings: { config: "the stack's nsp:apiToken", env: "NSP_API_TOKEN" },
    explicitProviders: true,
  });
  return session.api().client;
}
