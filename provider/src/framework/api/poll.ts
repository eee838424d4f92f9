import { defaultSleep } from "../../client";

interface PollOptions<T> {
  /** One check; its result decides whether to stop. */
  check: () => Promise<T>;
  done: (result: T) => boolean;
  timeoutSeconds: number;
  intervalSeconds: number;
  signal: AbortSignal;
  /** Called once, after the first check that was not done (to say what is awaited). */
  onFirstWait?: (result: T) => void;
  /** The error when the time is up, given the last result and how many checks were made. */
  timedOut: (result: T, checks: number) => Error;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** Checks until `done` or the deadline; the last check falls on the deadline, not an interval after it. */
export async function pollUntil<T>(opts: PollOptions<T>): Promise<T> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const deadline = now() + opts.timeoutSeconds * 1000;
  for (let checks = 1; ; checks++) {
    const result = await opts.check();
    if (opts.done(result)) return result;
    const remaining = deadline - now();
    if (remaining <= 0) throw opts.timedOut(result, checks);
    if (checks === 1) opts.onFirstWait?.(result);
    await sleep(Math.min(opts.intervalSeconds * 1000, remaining), opts.signal);
  }
}
