// Shared helpers for the emulator contract tests: a real server on an ephemeral port and a
// tiny fetch wrapper that never throws on HTTP errors.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { type BuildOptions, type RunningEmulator, startEmulator } from "../../emulator/src";

export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  /** null: send no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
  /** Send this string as the body verbatim instead of JSON-encoding `body`. */
  raw?: string;
  signal?: AbortSignal;
}

export type Api = <T = any>(method: string, path: string, body?: unknown, opts?: CallOptions) => Promise<Res<T>>;

export function makeApi(baseUrl: string, defaultToken: string): Api {
  return async (method, path, body, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? defaultToken : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (opts.raw !== undefined) payload = opts.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers["content-type"] = "application/json";
    const r = await fetch(baseUrl + path, { method, headers, body: payload, signal: opts.signal });
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: r.status, headers: r.headers, body: parsed as any, text };
  };
}

export interface Harness {
  emu: RunningEmulator;
  api: Api;
  /** The control API under /_emulator (no auth). */
  control: <T = any>(method: string, path: string, body?: unknown) => Promise<Res<T>>;
  origin: string;
}

/** An emulator without a request limit unless `rateLimitPerMinute` is given (a test about the limit). */
export async function startHarness(options: BuildOptions = {}): Promise<Harness> {
  const emu = await startEmulator({ rateLimitPerMinute: 0, ...options });
  const origin = emu.baseUrl.replace(/\/api\/v1$/, "");
  const ctl = makeApi(origin, "");
  return {
    emu,
    api: makeApi(emu.baseUrl, emu.token),
    control: (method, path, body) => ctl(method, path, body, { token: null }),
    origin,
  };
}

/** The auth_dns service id of the harness's first account. */
export async function authDnsServiceId(api: Api): Promise<number> {
  const r = await api("GET", "/services");
  const svc = (r.body.data as Array<{ id: number; type: string }>).find((s) => s.type === "auth_dns");
  if (!svc) throw new Error("no auth_dns service");
  return svc.id;
}

export async function createZone(api: Api, name: string, extra: Record<string, unknown> = {}): Promise<any> {
  const service_id = await authDnsServiceId(api);
  const r = await api("POST", "/dns/zones", { service_id, name, ...extra });
  if (r.status !== 201) throw new Error(`zone create failed: ${r.status} ${r.text}`);
  return r.body;
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** An error answer: the envelope `{ error: { code, message } }` and nothing more, with this status and code, and the message when given. */
export function expectError(
  r: { status: number; body: any },
  status: number,
  code: string,
  message?: string | RegExp,
): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(Object.keys(r.body)).toEqual(["error"]);
  expect(Object.keys(r.body.error).sort()).toEqual(["code", "message"]);
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe("string");
  if (typeof message === "string") expect(r.body.error.message).toBe(message);
  else if (message) expect(r.body.error.message).toMatch(message);
}

/** A token of the `svc_` form, the same for the same name and role on every run. */
const tokenFor = (name: string, role: string) =>
  `svc_${createHash("sha256").update(`${name}/${role}`).digest("hex").slice(0, 32)}`;

export interface Accounts extends Harness {
  /** The account's read-scoped token. */
  ro: Api;
  /** Another account, which must see none of this one's objects. */
  other: Api;
  tokens: { write: string; read: string; other: string };
}

/**
 * A harness for the file, started before its tests and closed after them, with the account `name`
 * (a write and a read-scoped token), an account named "other", and `options.accounts` besides.
 * Its fields are usable once the tests run.
 */
export function useAccounts(name: string, options: BuildOptions = {}): Accounts {
  const tokens = { write: tokenFor(name, "write"), read: tokenFor(name, "read"), other: tokenFor(name, "other") };
  let h: Harness | undefined;
  const current = () =>
    h ??
    (() => {
      throw new Error("the harness starts in beforeAll");
    })();
  beforeAll(async () => {
    h = await startHarness({
      ...options,
      accounts: [
        { name, token: tokens.write },
        { name, token: tokens.read, scope: "read" },
        { name: "other", token: tokens.other },
        ...(options.accounts ?? []),
      ],
    });
  });
  afterAll(() => h?.emu.close());
  return {
    tokens,
    api: (method, path, body, opts) => current().api(method, path, body, opts),
    ro: (method, path, body, opts) => current().api(method, path, body, { token: tokens.read, ...opts }),
    other: (method, path, body, opts) => current().api(method, path, body, { token: tokens.other, ...opts }),
    control: (method, path, body) => current().control(method, path, body),
    get emu() {
      return current().emu;
    },
    get origin() {
      return current().origin;
    },
  };
}
