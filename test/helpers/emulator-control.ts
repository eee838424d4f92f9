// Talks to a running emulator over HTTP: the API as a user's script would, plus its test-control
// endpoints (request counts, faults, accounts) under /_emulator.

// The control API answers with the emulator's own counters, as it counts them.
import type { StatsSnapshot as EmulatorStats, TokenStats } from "../../emulator/src/control/stats";

type Obj = Record<string, unknown>;

export interface EmulatorControlOptions {
  /** How many times a request refused with 429 is sent again, each after the Retry-After it names. */
  rateLimitRetries?: number;
  sleep?: (ms: number) => Promise<void>;
}

export class EmulatorControl {
  readonly root: string;
  private readonly rateLimitRetries: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    readonly baseUrl: string,
    readonly token: string,
    options: EmulatorControlOptions = {},
  ) {
    this.root = baseUrl.replace(/\/api\/v1\/?$/, "");
    this.rateLimitRetries = options.rateLimitRetries ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * One API request, as a user's script sends it: a 429 with a Retry-After is waited out and sent
   * again (a few times at most; the API refused it before doing anything, so a POST is safe to
   * repeat), any other failure throws with the status and the API's answer.
   */
  async api<T = Obj>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const retryAfterS = Number(res.headers.get("retry-after") ?? NaN);
      if (res.status === 429 && Number.isFinite(retryAfterS) && retryAfterS >= 0 && attempt < this.rateLimitRetries) {
        await this.sleep(retryAfterS * 1000);
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    }
  }

  get<T = Obj>(path: string) {
    return this.api<T>("GET", path);
  }
  post<T = Obj>(path: string, body: unknown) {
    return this.api<T>("POST", path, body);
  }
  put<T = Obj>(path: string, body: unknown) {
    return this.api<T>("PUT", path, body);
  }
  patch<T = Obj>(path: string, body: unknown) {
    return this.api<T>("PATCH", path, body);
  }
  delete(path: string) {
    return this.api("DELETE", path);
  }

  /** Every item of a list endpoint, following next_offset (or, for a bare array, until a short page). */
  async list<T = Obj>(path: string): Promise<T[]> {
    const items: T[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const sep = path.includes("?") ? "&" : "?";
      const page: T[] | { data: T[]; paging: { next_offset: number | null } } = await this.get(
        `${path}${sep}limit=500&offset=${offset}`,
      );
      const rows: T[] = Array.isArray(page) ? page : page.data;
      items.push(...rows);
      offset = Array.isArray(page) ? (rows.length < 500 ? null : offset + rows.length) : page.paging.next_offset;
    }
    return items;
  }

  services() {
    return this.list<{ id: number; type: string; name: string }>("/services");
  }

  private async control<T = Obj>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.root}/_emulator${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} /_emulator${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  stats() {
    return this.control<EmulatorStats>("GET", "/stats");
  }
  /**
   * The requests one token made, named as the emulator names it (`account:<name>`,
   * `minted:<partner>/<subject>`); zero counts for a token that made none.
   */
  async tokenStats(label: string): Promise<TokenStats> {
    return (await this.stats()).byToken[label] ?? { total: 0, rateLimited: 0, byRoute: {}, byStatus: {} };
  }
  /** The token is refused from now on, as when its owner revokes it. */
  revokeToken(token: string) {
    return this.control("POST", "/tokens/revoke", { token });
  }
  resetStats() {
    return this.control("POST", "/stats/reset");
  }
  setFaults(config: Obj) {
    return this.control("PUT", "/faults", config);
  }
  clearFaults() {
    return this.control("DELETE", "/faults");
  }
  /** Ends every injected wait at once: what was held on the wire is handled and answered now. */
  releaseHeld() {
    return this.control("POST", "/faults/release");
  }
  /** Ends a service outside the API (its subscription cancelled), with the objects that belong to it. */
  endService(id: string | number) {
    return this.control("DELETE", `/services?id=${id}`);
  }
  /** Switches the running emulator to other answers for points the API leaves "not shown". */
  setAlternatives(alternatives: readonly string[]) {
    return this.control("PUT", "/alternatives", { alternatives });
  }
  setPublicDns(name: string, ns: string[]) {
    return this.control("PUT", "/public-dns", { name, ns });
  }
  async addAccount(name: string, token?: string, scope?: "read" | "write"): Promise<string> {
    const res = await this.control<{ token: string }>("POST", "/accounts", { name, token, scope });
    return res.token;
  }
  /** Every credential partners minted for their customers so far, expired and revoked ones included. */
  async partnerCredentials(): Promise<
    { token: string; partner: string; subject: string; scope: string; expired: boolean; revoked: boolean }[]
  > {
    return (
      await this.control<{
        data: { token: string; partner: string; subject: string; scope: string; expired: boolean; revoked: boolean }[];
      }>("GET", "/partner/credentials")
    ).data;
  }
}
