import { QuotaShare } from "./quota-share";
import { defaultSleep } from "./retry";

export type WaitReason = "quota" | "server";

export interface AcquireResult {
  /** How long the caller waited for its turn, in ms (0 when it went straight through). */
  waitedMs: number;
  /** Why it waited: the client-side quota, or a pause the server asked for (429). */
  reason?: WaitReason;
}

/**
 * `shared` (the default): the token's server bucket may be drained by other processes too, so
 * the limiter spends only this process's share of it (see QuotaShare). `local`: the bucket alone,
 * lowered to the server's Remaining; the pacing before shared pacing, kept as a baseline to
 * measure against (NSP_QUOTA_PACING=local).
 */
export type QuotaPacing = "shared" | "local";

export interface RateLimiterOptions {
  /** Bucket capacity and refill per minute; 0 disables the bucket (server pauses still apply). */
  requestsPerMinute: number;
  pacing?: QuotaPacing;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Spreads the end of a server pause (shared pacing), so processes told the same Retry-After do not all wake at once. */
  random?: () => number;
}

/** What one response said about the token's server bucket. */
export interface QuotaObservation {
  /** Requests per minute (X-RateLimit-Limit): the server bucket's size and refill. */
  limit?: number;
  remaining?: number;
  /** A 429: the server counted nothing for this request. */
  rejected?: boolean;
}

interface Waiter {
  resolve: (r: AcquireResult) => void;
  reject: (e: unknown) => void;
  enqueuedAt: number;
  reason?: WaitReason;
  signal?: AbortSignal;
  onAbort?: () => void;
}

// Float refill arithmetic leaves 0.9999999999 where 1 is meant; without this slack the pump
// would schedule a 0 ms sleep and spin.
const EPSILON = 1e-9;

/**
 * Shared pacing keeps this fraction of the server bucket, scaled by the part others drain,
 * unclaimed: requests of several processes that find the same last unit would collide in a 429.
 */
const RESERVE_FRACTION = 0.03;
/** Added to the share for the refill, so the shares of processes that compete drift towards equal. */
const PROBE_SHARE = 0.05;
/** Most a server pause is lengthened by, at random. */
const MAX_PAUSE_JITTER_MS = 1_000;

/**
 * Token bucket shared by all requests of one client: `requestsPerMinute` capacity, refilled
 * continuously. Waiters are served strictly in arrival order by a single pump, so a burst of
 * concurrent requests cannot starve an earlier one.
 *
 * With shared pacing and a server that announces its Limit, the bucket follows the server's:
 * each response sets it to this process's share of what Remaining says is left (less a small
 * reserve and the requests still on the wire), and it refills at that share of the
 * server's rate. Alone, the share is 1 and nothing is slower than the plain bucket.
 */
export class RateLimiter {
  readonly requestsPerMinute: number;
  readonly pacing: QuotaPacing;
  #capacity: number;
  #perMs: number;
  #tokens: number;
  #last: number;
  #pausedUntil = 0;
  #queue: Waiter[] = [];
  #pumping = false;
  #pumpAbort: AbortController | undefined;
  /** Requests handed a turn whose answer has not been observed yet. */
  #inFlight = 0;
  readonly #quota = new QuotaShare();
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;

  constructor(opts: RateLimiterOptions) {
    const rpm = opts.requestsPerMinute;
    if (!Number.isFinite(rpm) || rpm < 0) throw new RangeError(`requestsPerMinute must be >= 0, got ${rpm}`);
    this.requestsPerMinute = rpm;
    this.pacing = opts.pacing ?? "shared";
    this.#capacity = rpm;
    this.#perMs = rpm / 60_000;
    this.#tokens = rpm;
    this.#now = opts.now ?? Date.now;
    this.#sleep = opts.sleep ?? defaultSleep;
    this.#random = opts.random ?? Math.random;
    this.#last = this.#now();
  }

  get #limited(): boolean {
    return this.requestsPerMinute > 0;
  }

  /** This process's estimated part of the drain of the server bucket (1 while it seems alone). */
  get share(): number {
    return this.#quota.share;
  }

  /** Tokens available right now (after refill); Infinity when the bucket is disabled. */
  available(): number {
    if (!this.#limited) return Infinity;
    this.#refill(this.#now());
    return this.#tokens;
  }

  /** Resolves when the caller may send one request; rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<AcquireResult> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.#now();
    if (this.#queue.length === 0 && this.#readyAt(now) <= 0) {
      this.#take();
      return Promise.resolve({ waitedMs: 0 });
    }
    return new Promise<AcquireResult>((resolve, reject) => {
      // Whatever holds up the head of the queue also holds up this waiter.
      const waiter: Waiter = { resolve, reject, enqueuedAt: now, reason: now < this.#pausedUntil ? "server" : "quota" };
      if (signal) {
        waiter.signal = signal;
        waiter.onAbort = () => {
          const i = this.#queue.indexOf(waiter);
          if (i >= 0) this.#queue.splice(i, 1);
          // Nobody left to serve: stop the pump's timer so it does not hold the process open.
          if (this.#queue.length === 0) this.#pumpAbort?.abort();
          reject(signal.reason);
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
      void this.#pump();
    });
  }

  /**
   * The answer to a request that was handed a turn (call it once per attempt, with `{}` when no
   * answer came). Local pacing, or a server that announces no Limit: the bucket is only ever
   * lowered to Remaining, never raised, because the server's count may lag our own requests.
   */
  observe(info: QuotaObservation): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (!this.#limited || info.remaining === undefined || !Number.isFinite(info.remaining)) return;
    const now = this.#now();
    this.#refill(now);
    const remaining = Math.max(0, info.remaining);
    if (this.pacing === "local" || info.limit === undefined || !Number.isFinite(info.limit) || info.limit <= 0) {
      this.#tokens = Math.min(this.#tokens, remaining);
      return;
    }
    this.#quota.record(now, info.limit, remaining, info.rejected === true);
    const share = this.#quota.share;
    // The share is of the server's rate; the configured budget still caps this process.
    this.#perMs = Math.min(this.requestsPerMinute, info.limit * Math.min(1, share + PROBE_SHARE)) / 60_000;
    // Tokens saved while idle are this process's share of a full bucket, not the whole of it.
    this.#capacity = Math.max(1, Math.min(this.requestsPerMinute, info.limit * share));
    const reserve = RESERVE_FRACTION * info.limit * (1 - share);
    // Set, not only lowered: once others stop, what they left in the bucket is ours to spend.
    // Requests still on the wire are not in Remaining yet: ours, and others' in proportion to
    // their share (without it, processes that start together all claim the same last units).
    const before = this.#tokens;
    this.#tokens = Math.min(this.#capacity, share * (remaining - reserve) - this.#inFlight / share);
    // The pump sleeps for a wait computed from the old count; a raised count may end it sooner.
    if (this.#tokens > before) this.#pumpAbort?.abort();
  }

  /**
   * Holds every request of the client until `untilMs` (after a 429). Shared pacing lengthens the
   * pause by up to half of it (at most MAX_PAUSE_JITTER_MS), at random: Retry-After is given in
   * whole seconds, and processes told the same second would otherwise all retry together.
   */
  pauseUntil(untilMs: number): void {
    if (this.pacing === "shared") {
      const spread = Math.min(MAX_PAUSE_JITTER_MS, Math.max(0, untilMs - this.#now()) / 2);
      untilMs += Math.floor(unitRandom(this.#random) * spread);
    }
    this.#pausedUntil = Math.max(this.#pausedUntil, untilMs);
    if (this.#limited) {
      // Retry-After says when ONE request is allowed again: exactly one token waits at the end of
      // the pause, and none are minted during it; otherwise everything queued behind the pause
      // would burst out at once, straight into the next 429. Shared pacing keeps a lower count it
      // took from the server: that one request may well be another process's.
      this.#refill(this.#now());
      this.#tokens = this.pacing === "shared" ? Math.min(1, this.#tokens) : Math.min(1, this.#capacity);
      this.#last = Math.max(this.#last, this.#pausedUntil);
    }
  }

  /** Milliseconds until one request may go, 0 when one may go now. */
  #readyAt(now: number): number {
    if (now < this.#pausedUntil) return this.#pausedUntil - now;
    if (!this.#limited) return 0;
    this.#refill(now);
    if (this.#tokens + EPSILON >= 1) return 0;
    return Math.max(1, Math.ceil((1 - this.#tokens) / this.#perMs - EPSILON));
  }

  #take(): void {
    if (this.#limited) this.#tokens -= 1;
    this.#inFlight++;
  }

  #refill(now: number): void {
    const elapsed = now - this.#last;
    // A clock that steps backwards must not mint or burn tokens.
    if (elapsed > 0) this.#tokens = Math.min(this.#capacity, this.#tokens + elapsed * this.#perMs);
    this.#last = Math.max(this.#last, now);
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0) {
        const now = this.#now();
        const wait = this.#readyAt(now);
        const head = this.#queue[0];
        if (head === undefined) break;
        if (wait <= 0) {
          this.#queue.shift();
          this.#take();
          if (head.signal && head.onAbort) head.signal.removeEventListener("abort", head.onAbort);
          const waitedMs = Math.max(0, now - head.enqueuedAt);
          head.resolve(waitedMs > 0 && head.reason ? { waitedMs, reason: head.reason } : { waitedMs });
          continue;
        }
        // A server pause outranks the quota as the explanation, since it is the rarer event.
        const reason: WaitReason = now < this.#pausedUntil ? "server" : "quota";
        for (const w of this.#queue) if (w.reason !== "server") w.reason = reason;
        this.#pumpAbort = new AbortController();
        try {
          await this.#sleep(wait, this.#pumpAbort.signal);
        } catch {
          // Aborted because the queue emptied (the loop condition ends the pump) or because the
          // server's count raised the tokens (the loop computes the wait again).
        }
      }
    } finally {
      this.#pumping = false;
      this.#pumpAbort = undefined;
    }
  }
}

function unitRandom(random: () => number): number {
  const r = random();
  return Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0.5;
}
