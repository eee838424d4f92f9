import { ApiClient, type ApiClientOptions, type FetchInit, type LogLevel } from "../../provider/src/client";

export const TOKEN = "svc_0123456789abcdef0123456789abcdef";
export const BASE = "https://api.example.test/api/v1";

/**
 * A virtual clock. `sleep` records each wait and registers a timer; once the program has run
 * out of other work (setImmediate), the earliest timer fires and the clock jumps to its time.
 * Concurrent sleeps therefore overlap as real ones would instead of adding up.
 */
export class FakeClock {
  t = 0;
  sleeps: number[] = [];
  #timers: Array<{ due: number; seq: number; fire: () => void }> = [];
  #seq = 0;
  #scheduled = false;

  now = (): number => this.t;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    return new Promise<void>((resolve, reject) => {
      const timer = {
        due: this.t + Math.max(0, ms),
        seq: this.#seq++,
        fire: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.#timers = this.#timers.filter((x) => x !== timer);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#timers.push(timer);
      this.#schedule();
    });
  };

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#timers.sort((a, b) => a.due - b.due || a.seq - b.seq);
      const next = this.#timers.shift();
      if (!next) return;
      this.t = Math.max(this.t, next.due);
      next.fire();
      if (this.#timers.length > 0) this.#schedule();
    });
  }
}

export interface Call {
  url: string;
  path: string;
  query: URLSearchParams;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

export type Reply = Response | Error | ((call: Call, init: FetchInit) => Response | Error | Promise<Response>);

/** A scripted fetch: answers calls with `replies` in order (the last one repeats). */
export function scriptedFetch(replies: Reply[], clock?: FakeClock) {
  const calls: Call[] = [];
  let i = 0;
  const fetch = async (url: string, init: FetchInit): Promise<Response> => {
    const u = new URL(url);
    const call: Call = {
      url,
      path: u.pathname.replace(/^\/api\/v1/, ""),
      query: u.searchParams,
      method: init.method,
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      at: clock ? clock.t : 0,
    };
    calls.push(call);
    const reply = replies[Math.min(i++, replies.length - 1)];
    if (reply === undefined) throw new Error("no reply scripted");
    const r = typeof reply === "function" ? await reply(call, init) : reply;
    if (r instanceof Error) throw r;
    // Each Response body can be read once; clone so a repeated last reply still works.
    return r.clone();
  };
  return { fetch, calls };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

export function apiError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return json(status, { error: { code, message } }, headers);
}

/** An error shaped like undici's `TypeError('fetch failed', { cause: <system error> })`. */
export function systemError(code: string, message = `connect ${code} 203.0.113.1:443`): Error {
  const cause = Object.assign(new Error(message), { code, syscall: "connect" });
  return new TypeError("fetch failed", { cause });
}

export function makeClient(replies: Reply[], opts: Partial<ApiClientOptions> & { clock?: FakeClock } = {}) {
  const { clock: given, ...rest } = opts;
  const clock = given ?? new FakeClock();
  const { fetch, calls } = scriptedFetch(replies, clock);
  const logs: Array<{ level: LogLevel; message: string }> = [];
  const client = new ApiClient({
    baseUrl: BASE,
    token: TOKEN,
    fetch,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
    onLog: (level, message) => logs.push({ level, message }),
    ...rest,
  });
  return { client, calls, clock, logs };
}

export async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected the promise to reject");
}
