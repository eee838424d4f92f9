// The app object as its users see it (server.ts, the test-control API, in-process tests): the
// fastify instance, the state behind it and the test hooks. app.ts builds it.
import type { FastifyInstance } from "fastify";
import type { AlternativeSet } from "../control/alternatives";
import type { FaultInjector } from "../control/faults";
import type { PublicDns } from "../control/public-dns";
import type { RateLimiter } from "./rate-limit";
import type { Stats, StatsSnapshot } from "../control/stats";
import type { Scope, Store } from "../model/store";

/** An account name: letters, digits, hyphens or underscores, at most 63. */
export const ACCOUNT_NAME_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/i;

export interface AccountSpec {
  name: string;
  /** `svc_` + 32 lowercase hex; random when omitted. */
  token?: string;
  scope?: Scope;
}

export interface AccountCredentials {
  name: string;
  token: string;
  scope: Scope;
}

export interface EmulatorApp {
  /** The HTTP layer: `inject()` drives it without a socket, server.ts puts it on one. */
  fastify: FastifyInstance;
  store: Store;
  faults: FaultInjector;
  publicDns: PublicDns;
  rateLimiter: RateLimiter;
  counters: Stats;
  alternatives: AlternativeSet;
  /** The credentials created by buildApp, in the order given. */
  accounts: AccountCredentials[];
  stats(): StatsSnapshot;
  resetStats(): void;
  /** Adds a token, creating (and seeding) the account when the name is new. */
  addAccount(spec: AccountSpec): AccountCredentials;
  /** The token (an account's or a minted credential) is refused from now on; false when it was not live. */
  revokeToken(token: string): boolean;
  /** The "daily" delegation re-check of active zones; returns how many were checked. */
  recheckDelegations(): number;
  /** Ends every fault's hold now, as its timer would later: a `timeout` drops its request, a `latency` handles it. Returns how many. */
  releaseHeld(): number;
  /** Cancels pending fault timers (held requests, latency); server.close() calls it. */
  shutdown(): void;
}
