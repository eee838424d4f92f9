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
}

function inc(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

export class Stats {
  private s: StatsSnapshot = Stats.empty();

  private static empty(): StatsSnapshot {
    return { total: 0, mutating: 0, rateLimited: 0, byMethod: {}, byRoute: {}, byStatus: {}, faults: {} };
  }

  request(method: string, routeKey: string): void {
    this.s.total++;
    if (method !== "GET" && method !== "HEAD") this.s.mutating++;
    inc(this.s.byMethod, method);
    inc(this.s.byRoute, routeKey);
  }

  response(status: number): void {
    inc(this.s.byStatus, String(status));
    if (status === 429) this.s.rateLimited++;
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
