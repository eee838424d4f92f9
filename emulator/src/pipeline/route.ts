// Route declarations: each API area is a module exporting a list of these; app.ts registers them
// with fastify and its hooks apply auth, scope, rate limit, parsing and validation to every one,
// so a handler only sees a validated body and an authenticated account.
//
// Path syntax: `:name` is an integer id segment (anything else there is `not_found`), `{name}`
// is a string segment (URL-decoded), everything else is literal.
import type { z } from "zod";
import type { AccountRecord, Store, TokenRecord } from "../model/store";
import type { PublicDns } from "../control/public-dns";
import type { AlternativeSet } from "../control/alternatives";

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
