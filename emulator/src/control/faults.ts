// Fault injection for testing the provider's retries: errors, dropped connections before or
// after the write, hung requests, 429 storms and latency. Off until configured.
import { z } from "zod";
import { seededRandom } from "../util/random";

const FAULT_KINDS = ["error5xx", "reset_before", "reset_after", "timeout", "rate_limit_storm", "latency"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultConfigSchema = z.strictObject({
  rate: z.number().min(0).max(1),
  kinds: z.array(z.enum(FAULT_KINDS)).min(1),
  methods: z.array(z.string().min(1)).optional(),
  path: z
    .string()
    .refine(
      (p) => {
        try {
          new RegExp(p);
          return true;
        } catch {
          return false;
        }
      },
      { error: "must be a valid regular expression" },
    )
    .optional(),
  count: z.int().min(0).optional(),
  after: z.int().min(0).optional(),
  latencyMs: z.int().min(0).max(600_000).optional(),
  timeoutMs: z.int().min(0).max(3_600_000).optional(),
  status: z.int().min(500).max(599).optional(),
  seed: z.int().optional(),
});
export type FaultConfig = z.input<typeof faultConfigSchema>;

export interface FaultDecision {
  kind: FaultKind;
  latencyMs: number;
  timeoutMs: number;
  status: number;
}

const DEFAULT_LATENCY_MS = 500;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_FAULT_STATUS = 503;

interface Active {
  config: z.output<typeof faultConfigSchema>;
  methods: Set<string> | null;
  path: RegExp | null;
  random: () => number;
  injected: number;
  passed: number;
}

export class FaultInjector {
  private active: Active | null = null;

  /** Replaces the fault configuration; throws a zod error for a bad one. */
  set(config: FaultConfig): void {
    const c = faultConfigSchema.parse(config);
    this.active = {
      config: c,
      methods: c.methods ? new Set(c.methods.map((m) => m.toUpperCase())) : null,
      path: c.path !== undefined ? new RegExp(c.path) : null,
      random: c.seed !== undefined ? seededRandom(c.seed) : Math.random,
      injected: 0,
      passed: 0,
    };
  }

  clear(): void {
    this.active = null;
  }

  describe(): { config: FaultConfig | null; injected: number; remaining: number | null } {
    const a = this.active;
    if (!a) return { config: null, injected: 0, remaining: null };
    return {
      config: a.config,
      injected: a.injected,
      remaining: a.config.count !== undefined ? Math.max(0, a.config.count - a.injected) : null,
    };
  }

  /** Decides, for one /api/v1 request, whether and how to misbehave. */
  decide(method: string, path: string): FaultDecision | null {
    const a = this.active;
    if (!a) return null;
    const c = a.config;
    if (a.methods && !a.methods.has(method)) return null;
    if (a.path && !a.path.test(path)) return null;
    // Lets a test hold everything past a known point: the first `after` eligible requests pass.
    if (c.after !== undefined && a.passed < c.after) {
      a.passed++;
      return null;
    }
    if (c.count !== undefined && a.injected >= c.count) return null;
    if (!(a.random() < c.rate)) return null;
    const kind = c.kinds.length === 1 ? c.kinds[0] : c.kinds[Math.floor(a.random() * c.kinds.length)];
    if (kind === undefined) return null;
    a.injected++;
    return {
      kind,
      latencyMs: c.latencyMs ?? DEFAULT_LATENCY_MS,
      timeoutMs: c.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      status: c.status ?? DEFAULT_FAULT_STATUS,
    };
  }
}
