// Request counters for performance tests ("how many calls did one `pulumi up` make?").
// Only /api/v1 traffic is counted; the /_emulator control API is not.

export interface StatsSnapshot {
  total: number;
  mutating: number;
  rate_limited: number;
  by_method: Record<string, number>;
  by_route: Record<string, number>;
  by_status: Record<string, number>;
  faults: Record<string, number>;
}

function inc(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

export class Stats {
  private s: StatsSnapshot = Stats.empty();

  private static empty(): StatsSnapshot {
    return { total: 0, mutating: 0, rate_limited: 0, by_method: {}, by_route: {}, by_status: {}, faults: {} };
  }

  request(method: string, routeKey: string): void {
    this.s.total++;
    if (method !== "GET" && method !== "HEAD") this.s.mutating++;
    inc(this.s.by_method, method);
    inc(this.s.by_route, routeKey);
  }

  response(status: number): void {
    inc(this.s.by_status, String(status));
    if (status === 429) this.s.rate_limited++;
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
