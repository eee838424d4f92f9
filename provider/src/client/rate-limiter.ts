import { defaultSleep } from "./retry";

export type WaitReason = "quota" | "server";

export interface AcquireResult {
  /** How long the caller waited for its turn, in ms (0 when it went straight through). */
  waitedMs: number;
  /** Why it waited: the client-side quota, or a pause the server asked for (429). */
  reason?: WaitReason;
}

export interface RateLimiterOptions {
  /** Bucket capacity and refill per minute; 0 disables the bucket (server pauses still apply). */
  requestsPerMinute: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
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
 * Token bucket shared by all requests of one client: `requestsPerMinute` capacity, refilled
 * continuously. Waiters are served strictly in arrival order by a single pump, so a burst of
 * concurrent requests cannot starve an earlier one.
 */
export class RateLimiter {
  readonly requestsPerMinute: number;
  #capacity: number;
  #perMs: number;
  #tokens: number;
  #last: number;
  #pausedUntil = 0;
  #queue: Waiter[] = [];
  #pumping = false;
  #pumpAbort: AbortController | undefined;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(opts: RateLimiterOptions) {
    const rpm = opts.requestsPerMinute;
    if (!Number.isFinite(rpm) || rpm < 0) throw new RangeError(`requestsPerMinute must be >= 0, got ${rpm}`);
    this.requestsPerMinute = rpm;
    this.#capacity = rpm;
    this.#perMs = rpm / 60_000;
    this.#tokens = rpm;
    this.#now = opts.now ?? Date.now;
    this.#sleep = opts.sleep ?? defaultSleep;
    this.#last = this.#now();
  }

  get #limited(): boolean {
    return this.#capacity > 0;
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
      if (this.#limited) this.#tokens -= 1;
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
   * Learns from the server's headers: the bucket never holds more than the server says remain.
   * It is never raised, because the server's count may lag our own in-flight requests.
   */
  observe(info: { remaining?: number }): void {
    if (!this.#limited || info.remaining === undefined || !Number.isFinite(info.remaining)) return;
    this.#refill(this.#now());
    this.#tokens = Math.min(this.#tokens, Math.max(0, info.remaining));
  }

  /** Holds every request of the client until `untilMs` (after a 429). */
  pauseUntil(untilMs: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, untilMs);
    if (this.#limited) {
      // Retry-After says when ONE request is allowed again: exactly one token waits at the end of
      // the pause, and none are minted during it; otherwise everything queued behind the pause
      // would burst out at once, straight into the next 429.
      this.#refill(this.#now());
      this.#tokens = Math.min(1, this.#capacity);
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
          if (this.#limited) this.#tokens -= 1;
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
          // Aborted because the queue emptied; the loop condition ends the pump.
        }
      }
    } finally {
      this.#pumping = false;
      this.#pumpAbort = undefined;
    }
  }
}
