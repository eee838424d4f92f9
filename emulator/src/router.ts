// A small router in the spirit of fastify: each API area is a module exporting route
// declarations; the pipeline in app.ts applies auth, scope, rate limit, parsing and validation
// to every one of them, so a handler only sees a validated body and an authenticated account.
//
// Path syntax: `:name` is an integer id segment (anything else there is `not_found`), `{name}`
// is a string segment (URL-decoded), everything else is literal.
import type { z } from "zod";
import type { AccountRecord, Store, TokenRecord } from "./store";
import type { PublicDns } from "./public-dns";
import type { AlternativeSet } from "./alternatives";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type RouteScope = "read" | "write";

type IntParamNames<P extends string> = P extends `${string}:${infer N}/${infer R}`
  ? N | IntParamNames<`/${R}`>
  : P extends `${string}:${infer N}`
    ? N
    : never;
type StrParamNames<P extends string> = P extends `${string}{${infer N}}${infer R}` ? N | StrParamNames<R> : never;
export type Params<P extends string> = { [K in IntParamNames<P>]: number } & { [K in StrParamNames<P>]: string };

/** What a handler can reach besides its request: the shared state of the emulator. */
export interface Env {
  store: Store;
  publicDns: PublicDns;
  now: () => number;
  /** The alternatives switched on: read by a route only where one changes what is written (replace-rewrites). */
  alternatives: AlternativeSet;
}

export interface Ctx<P extends string, B, Q> extends Env {
  params: Params<P>;
  body: B;
  query: Q;
  account: AccountRecord;
  token: TokenRecord;
  /** Sets the success status (default 200, or 204 when the handler returns undefined). */
  status(code: number): void;
  header(name: string, value: string): void;
}

export interface Route {
  method: HttpMethod;
  path: string;
  scope: RouteScope;
  /** A `link`-scope token may call this write route (the registry-link endpoints). */
  linkWrite?: boolean;
  /** The largest body this route takes, where it is not the emulator's usual limit (zone files). */
  maxBodyBytes?: number;
  body?: z.ZodType;
  query?: z.ZodType;
  handler: (ctx: Ctx<string, unknown, unknown>) => unknown;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Declares a route with its params, body and query typed from the path and schemas. */
export function route<
  P extends string,
  BS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
>(def: {
  method: HttpMethod;
  path: P;
  scope: RouteScope;
  linkWrite?: boolean;
  maxBodyBytes?: number;
  body?: BS;
  query?: QS;
  handler: (ctx: Ctx<P, Out<BS>, Out<QS>>) => unknown;
}): Route {
  return def as unknown as Route;
}

type Segment = { kind: "static"; value: string } | { kind: "int"; name: string } | { kind: "str"; name: string };

interface Compiled {
  route: Route;
  segments: Segment[];
  key: string;
  statics: number;
}

export type MatchResult =
  | { kind: "found"; route: Route; key: string; params: Record<string, number | string> }
  | { kind: "method_not_allowed"; allow: HttpMethod[] }
  | { kind: "not_found" };

const INT_SEGMENT = /^[1-9]\d{0,15}$/;

export class Router {
  private readonly compiled: Compiled[] = [];

  constructor(routes: Route[] = []) {
    for (const r of routes) this.add(r);
  }

  add(route: Route): void {
    const segments: Segment[] = route.path
      .split("/")
      .filter((s) => s !== "")
      .map((s): Segment => {
        if (s.startsWith(":")) return { kind: "int", name: s.slice(1) };
        if (s.startsWith("{") && s.endsWith("}")) return { kind: "str", name: s.slice(1, -1) };
        return { kind: "static", value: s };
      });
    const key = `${route.method} ${route.path}`;
    if (this.compiled.some((c) => c.key === key)) throw new Error(`duplicate route ${key}`);
    this.compiled.push({ route, segments, key, statics: segments.filter((s) => s.kind === "static").length });
  }

  routes(): Route[] {
    return this.compiled.map((c) => c.route);
  }

  /** `path` is relative to the /api/v1 prefix, e.g. `/dns/zones/7`. */
  match(method: string, path: string): MatchResult {
    const parts = path.split("/").filter((s) => s !== "");
    const hits: Array<{ c: Compiled; params: Record<string, number | string> }> = [];
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (params) hits.push({ c, params });
    }
    if (hits.length === 0) return { kind: "not_found" };
    // Literal segments win over parameters when two patterns fit the same path.
    const same = hits.filter((h) => h.c.route.method === method).sort((a, b) => b.c.statics - a.c.statics);
    const best = same[0];
    if (best) return { kind: "found", route: best.c.route, key: best.c.key, params: best.params };
    const allow = [...new Set(hits.map((h) => h.c.route.method))].sort();
    return { kind: "method_not_allowed", allow };
  }
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, number | string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, number | string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as Segment;
    const part = parts[i] as string;
    if (seg.kind === "static") {
      if (seg.value !== part) return null;
    } else if (seg.kind === "int") {
      if (!INT_SEGMENT.test(part)) return null;
      const n = Number(part);
      if (!Number.isSafeInteger(n)) return null;
      params[seg.name] = n;
    } else {
      let v: string;
      try {
        v = decodeURIComponent(part);
      } catch {
        return null;
      }
      if (v === "") return null;
      params[seg.name] = v;
    }
  }
  return params;
}
