// What one process can learn about a server bucket that other processes drain too: nothing is
// shared between the processes but the bucket itself, so each one reads how the bucket's
// Remaining moves against its own requests.

/** Observations older than this no longer describe who is draining the bucket. */
const MIN_WINDOW_MS = 2_000;
const MAX_WINDOW_MS = 10_000;
/** Server units a window should span for a share to mean something (Remaining is rounded down, so one reading is off by up to 1). */
const WINDOW_UNITS = 30;
/** Fewer units than this in the window: keep the last share rather than trust noise. */
const MIN_EVIDENCE_UNITS = 4;
/** A process never claims less than this of the bucket, so a newcomer among busy ones still gets going. */
const MIN_SHARE = 0.1;

interface Step {
  at: number;
  own: number;
  others: number;
}

/**
 * Estimates this process's share of the drain of the token's server bucket. Between two
 * responses the server refilled `limit/60 s × elapsed` and counted this process's request (none
 * for a 429); whatever else left the bucket was spent by others. Summed over a window, the
 * rounding of Remaining and responses arriving out of order cancel out except at the ends.
 */
export class QuotaShare {
  #limit = 0;
  #last: { at: number; remaining: number } | undefined;
  #steps: Step[] = [];
  #share = 1;

  /** Requests per minute the server last announced; 0 before any. */
  get limit(): number {
    return this.#limit;
  }

  /** This process's part of the recent drain, in [MIN_SHARE, 1]; 1 until others are seen. */
  get share(): number {
    return this.#share;
  }

  record(at: number, limit: number, remaining: number, rejected: boolean): void {
    this.#limit = limit;
    const own = rejected ? 0 : 1;
    if (this.#last) {
      const elapsed = Math.max(0, at - this.#last.at);
      // A full bucket refills nothing: the cap keeps an idle moment from looking like others' spending.
      const expected = Math.min(limit, this.#last.remaining + (elapsed * limit) / 60_000) - own;
      this.#steps.push({ at, own, others: expected - remaining });
    } else {
      this.#steps.push({ at, own, others: 0 });
    }
    this.#last = { at, remaining };
    const window = Math.min(MAX_WINDOW_MS, Math.max(MIN_WINDOW_MS, (WINDOW_UNITS / Math.max(limit, 1)) * 60_000));
    while (this.#steps.length > 0 && this.#steps[0]!.at < at - window) this.#steps.shift();
    let mine = 0;
    let others = 0;
    for (const s of this.#steps) {
      mine += s.own;
      others += s.others;
    }
    // Remaining is rounded down, which leaves up to one unit of error at the window's ends: that
    // little is no evidence of others.
    if (others <= 1) others = 0;
    if (mine + others >= MIN_EVIDENCE_UNITS) this.#share = Math.min(1, Math.max(MIN_SHARE, mine / (mine + others)));
  }
}
