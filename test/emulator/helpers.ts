// Shared helpers for the emulator contract tests: a real server on an ephemeral port and a
// tiny fetch wrapper that never throws on HTTP errors.
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
    let parsed: unknown = undefined;
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
