// One token bucket per key (a token, or the client address for requests without a valid token):
// `limit` requests of burst, refilled continuously at `limit` per minute.

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  take(key: string): RateDecision {
    if (!this.enabled) return { allowed: true, headers: {} };
    const cap = this.perMinute;
    const perMs = cap / 60_000;
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: cap, at: t };
    b.tokens = Math.min(cap, b.tokens + Math.max(0, t - b.at) * perMs);
    b.at = t;
    this.buckets.set(key, b);
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": String(cap),
      "X-RateLimit-Remaining": String(Math.floor(b.tokens)),
      "X-RateLimit-Reset": String(Math.ceil((cap - b.tokens) / perMs / 1000)),
    };
    if (!allowed) headers["Retry-After"] = String(Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)));
    return { allowed, headers };
  }

  reset(): void {
    this.buckets.clear();
  }
}
