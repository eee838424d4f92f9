// What a stack's command did, read from the engine's own structured output: the engine events
// (apitype.EngineEvent) the CLI streams on stdout with `--json`, one a line, for every command
// alike (up, destroy, and with PULUMI_ENABLE_STREAMING_JSON_PREVIEW preview and refresh
// --preview-only too). The text the CLI prints for people is never parsed. The engine writes
// these events with secrets masked ("[secret]"), as it prints them.

/** One resource's step, as the engine describes it (apitype.StepEventMetadata, in part). */
interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
  new?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
  /** The top-level properties that differ (inputs for a change, outputs for a refresh). */
  diffs?: string[];
  /** Property paths and how each differs, when the provider reports a detailed diff. */
  detailedDiff?: Record<string, { kind?: string; inputDiff?: boolean }> | null;
  /** The properties that force a replacement. */
  keys?: string[];
}

interface EngineEvent {
  resourcePreEvent?: { metadata: StepMetadata; planning?: boolean };
  resOutputsEvent?: { metadata: StepMetadata; planning?: boolean };
  summaryEvent?: { resourceChanges?: Record<string, number> | null };
  diagnosticEvent?: { severity?: string; message?: string; urn?: string };
}

/** The engine's counts per operation (`create`, `update`, `delete`, `replace`, `same`, ...). */
export type Changes = Record<string, number>;

/** One resource a command changes (or, in a preview, would change). */
export interface PlannedStep {
  urn: string;
  type: string;
  /** The engine's operation: create, update, replace, delete, import, ... */
  op: string;
  /** The names of the properties that change (for a replace, those that force it first). */
  properties: string[];
}

export interface Plan {
  changes: Changes;
  steps: PlannedStep[];
}

/** One property a refresh found different from what the state recorded. */
export interface DriftedProperty {
  name: string;
  /** Absent for a secret: that it changed is all that is ever recorded. */
  recorded?: unknown;
  actual?: unknown;
  secret?: true;
}

export interface DriftedResource {
  urn: string;
  type: string;
  /** The object no longer exists: the refresh would drop it from the state. */
  gone?: true;
  properties: DriftedProperty[];
}

export interface Drift {
  resources: DriftedResource[];
}

const SECRET = "[secret]";
/** Steps that change nothing in the account, and the provider resources (engine-side objects). */
const UNCHANGED = new Set(["same", "read", "refresh", "discard", "remove-pending-replace"]);

export function parseEvents(text: string): EngineEvent[] {
  const events: EngineEvent[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      events.push(JSON.parse(line) as EngineEvent);
    } catch {
      // A line the CLI was still writing when it was killed: the events before it stand.
    }
  }
  return events;
}

/** The summary's counts, when the command got as far as its summary. */
export function summaryOf(events: EngineEvent[]): Changes | undefined {
  let changes: Changes | undefined;
  for (const e of events) if (e.summaryEvent) changes = { ...(e.summaryEvent.resourceChanges ?? {}) };
  return changes;
}

/** The messages of the error diagnostics, once each. */
export function errorsOf(events: EngineEvent[]): string[] {
  const errors = events
    .filter((e) => e.diagnosticEvent?.severity === "error" && e.diagnosticEvent.message)
    .map((e) => e.diagnosticEvent!.message!.trim());
  return [...new Set(errors)];
}

const isProvider = (type: string) => type.startsWith("pulumi:providers:");

/** The top-level property names of a detailed diff's paths (`records[3].content` → `records`). */
function topLevel(paths: string[]): string[] {
  return [...new Set(paths.map((p) => p.split(/[.[]/)[0]!).filter((p) => p !== ""))].sort();
}

/**
 * Each resource a preview or an update plans to change, in the engine's order, with the names of
 * the properties that change. A replacement is one step (`replace`), as the summary counts it.
 */
export function planOf(events: EngineEvent[]): Plan {
  const steps: PlannedStep[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    if (!m || UNCHANGED.has(m.op) || isProvider(m.type)) continue;
    // A replacement comes as create-replacement, replace and delete-replaced steps: one change.
    const op = m.op === "create-replacement" || m.op === "delete-replaced" ? "replace" : m.op;
    const key = `${op} ${m.urn}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const properties =
      op === "replace" && m.keys?.length
        ? [...m.keys].sort()
        : topLevel([...(m.diffs ?? []), ...Object.keys(m.detailedDiff ?? {})]);
    steps.push({ urn: m.urn, type: m.type, op, properties: op === "create" || op === "delete" ? [] : properties });
  }
  return { changes: summaryOf(events) ?? {}, steps };
}

/** A value the engine masked, or a secret in its signed form. */
const isSecret = (v: unknown) => v === SECRET || (typeof v === "object" && v !== null && SECRET_SIG in v);
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/**
 * What a refresh (`pulumi refresh --preview-only`) found: each resource whose object differs from
 * its state, in the properties the engine names (its diff of what the provider read against the
 * state), with both values, and each whose object is gone. A secret, masked in the events, is
 * recorded as changed, with neither value.
 */
export function driftOf(events: EngineEvent[]): Drift {
  const resources: DriftedResource[] = [];
  for (const e of events) {
    // A refresh announces each read as `refresh` and tells what it found in the outputs event.
    const m = e.resOutputsEvent?.metadata;
    if (!m || isProvider(m.type) || m.type === "pulumi:pulumi:Stack") continue;
    if (m.op === "delete") {
      resources.push({ urn: m.urn, type: m.type, gone: true, properties: [] });
      continue;
    }
    if (m.op !== "update") continue;
    const names = topLevel([...(m.diffs ?? []), ...Object.keys(m.detailedDiff ?? {})]);
    const recordedOrActual = (side: "old" | "new", name: string) => m[side]?.outputs?.[name] ?? m[side]?.inputs?.[name];
    const properties = names.map((name): DriftedProperty => {
      const recorded = recordedOrActual("old", name);
      const actual = recordedOrActual("new", name);
      if (isSecret(recorded) || isSecret(actual)) return { name, secret: true };
      return { name, ...(recorded === undefined ? {} : { recorded }), ...(actual === undefined ? {} : { actual }) };
    });
    resources.push({ urn: m.urn, type: m.type, properties });
  }
  return { resources };
}

/** The resource's name in its stack: the last part of its URN. */
export function nameOfUrn(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/**
 * The API requests the stack's provider processes made, and how many were answered 429: the
 * plugin logs each attempt at debug level ("GET /dns/zones -> 200 in 12 ms"), which the engine
 * streams as a diagnostic event.
 */
export function requestsOf(events: EngineEvent[]): { requests: number; rateLimited: number } {
  let requests = 0;
  let rateLimited = 0;
  for (const e of events) {
    const d = e.diagnosticEvent;
    if (d?.severity !== "debug" || !d.message) continue;
    const m = /^(?:GET|HEAD|POST|PUT|PATCH|DELETE) \/\S* -> (\d{3}) in \d+ ms$/.exec(d.message.trim());
    if (!m) continue;
    requests++;
    if (m[1] === "429") rateLimited++;
  }
  return { requests, rateLimited };
}
