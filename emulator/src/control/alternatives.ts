// Other plausible answers to the points the API documents leave "not shown". The emulator's
// default choices are in docs/api-assumptions.md; each alternative here swaps one of them, so the
// provider can be tested against every answer it must survive. They are applied to a finished
// response in one place (shapeOutcome), never inside a route, except replace-rewrites: it changes
// what the zone-file import writes, so the import reads it (importZoneText).
import type { Outcome } from "../pipeline/http";

export const ALTERNATIVES = [
  "bare-lists",
  "status-422",
  "reset-epoch",
  "epoch-timestamps",
  "bodiless-404",
  "replace-rewrites",
] as const;
export type Alternative = (typeof ALTERNATIVES)[number];

export function isAlternative(name: string): name is Alternative {
  return (ALTERNATIVES as readonly string[]).includes(name);
}

/** The alternatives switched on for one emulator; changed at run time by /_emulator/alternatives. */
export class AlternativeSet {
  #on = new Set<Alternative>();

  constructor(initial: readonly Alternative[] = []) {
    this.set(initial);
  }

  set(names: readonly Alternative[]): void {
    this.#on = new Set(names);
  }

  has(name: Alternative): boolean {
    return this.#on.has(name);
  }

  list(): Alternative[] {
    return ALTERNATIVES.filter((a) => this.#on.has(a));
  }
}

// Only fields named like timestamps are converted, so user content that happens to look like a
// date (a TXT record, a description) is never touched.
const TIMESTAMP_KEY = /(^|_)at$/;
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

function epochTimestamps(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(epochTimestamps);
  if (typeof v !== "object" || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    // Milliseconds stay as a fraction, so a client can store the same instant in either mode.
    out[k] =
      TIMESTAMP_KEY.test(k) && typeof x === "string" && RFC3339_UTC.test(x) ? Date.parse(x) / 1000 : epochTimestamps(x);
  }
  return out;
}

function isPage(body: unknown): body is { data: unknown[]; paging: unknown } {
  return (
    typeof body === "object" && body !== null && Array.isArray((body as { data?: unknown }).data) && "paging" in body
  );
}

function errorCode(body: unknown): string | undefined {
  const e = (body as { error?: { code?: unknown } } | undefined)?.error;
  return typeof e?.code === "string" ? e.code : undefined;
}

/** The response as the API would send it under the active alternatives. */
export function shapeOutcome(o: Outcome, alts: AlternativeSet, nowMs: number): Outcome {
  let { status, headers, body } = o;
  const code = errorCode(body);
  if (alts.has("bare-lists") && isPage(body)) body = body.data;
  if (alts.has("epoch-timestamps") && body !== undefined) body = epochTimestamps(body);
  if (alts.has("status-422") && code === "validation_error" && status === 400) status = 422;
  if (alts.has("bodiless-404") && code === "not_found") body = undefined;
  const reset = headers["X-RateLimit-Reset"];
  if (alts.has("reset-epoch") && reset !== undefined) {
    headers = { ...headers, "X-RateLimit-Reset": String(Math.ceil(nowMs / 1000) + Number(reset)) };
  }
  return { status, headers, body };
}
