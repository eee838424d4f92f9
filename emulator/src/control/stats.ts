// Request counters for performance tests ("how many calls did one `pulumi up` make?").
// Only /api/v1 traffic is counted; the /_emulator control API is not.

// camelCase, unlike the platform API: this is the emulator's own JS-facing control surface.
export interface StatsSnapshot {
  total: number;
  mutating: number;
  rateLimited: number;
  byMethod: Record<string, number>;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
  faults: Record<string, number>;
  /**
   * The same counts per token, each named without the token itself (see `tokenLabel`): what one
   * token's quota was spent on, such as a partner token shared by every process of a fleet.
   */
  byToken: Record<string, TokenStats>;
}

export interface TokenStats {
  total: number;
  rateLimited: number;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
}

/** The label of a request that carried no bearer token. */
export const NO_TOKEN = "none";
/** The label of a bearer token the emulator never issued. */
export const UNKNOWN_TOKEN = "unknown";

function inc(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

export class Stats {
  private s: StatsSnapshot = Stats.empty();

  private static empty(): StatsSnapshot {
    return { total: 0, mutating: 0, rateLimited: 0, byMethod: {}, byRoute: {}, byStatus: {}, faults: {}, byToken: {} };
  }

  private token(label: string): TokenStats {
    let t = this.s.byToken[label];
    if (!t) {
      t = { total: 0, rateLimited: 0, byRoute: {}, byStatus: {} };
      this.s.byToken[label] = t;
    }
    return t;
  }

  /** `token` is the caller's label (the store's `tokenLabels`, NO_TOKEN or UNKNOWN_TOKEN), never the token. */
  request(method: string, routeKey: string, token: string): void {
    this.s.total++;
    if (method !== "GET" && method !== "HEAD") this.s.mutating++;
    inc(this.s.byMethod, method);
    inc(this.s.byRoute, routeKey);
    const t = this.token(token);
    t.total++;
    inc(t.byRoute, routeKey);
  }

  response(status: number, token: string): void {
    inc(this.s.byStatus, String(status));
    const t = this.token(token);
    inc(t.byStatus, String(status));
    if (status === 429) {
      this.s.rateLimited++;
      t.rateLimited++;
    }
  }

  fault(kind: string): void {
    inc(this.s.faults, kind);
  }

  snapshot(): StatsSnapshot {
    return structuredClone(this.s);
  }

  reset(): void {
    this.s = Stats.empty();
  }
}
