import { z } from "zod";
import type { CheckFailure } from "./framework/definition";
import { checkProperties } from "./framework/check";
import type { PropertyMap } from "./framework/property-values";

/**
 * The API documents give no public address, only that every path sits under `/api/v1`. This
 * placeholder is the one place to change when the address is published; until then users set
 * `nsp:baseUrl` (the emulator prints its own).
 */
export const DEFAULT_BASE_URL = "https://api.nsp.example/api/v1";

export const providerConfig = z.object({
  apiToken: z
    .string()
    .regex(/^svc_[A-Za-z0-9_-]+$/, 'must be an API token starting with "svc_"')
    .optional()
    .meta({ description: "API token (`svc_...`), sent as a bearer token. Stored as a secret.", env: ["NSP_API_TOKEN"] }),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .default(DEFAULT_BASE_URL)
    .meta({ description: "Service address including the `/api/v1` prefix.", env: ["NSP_BASE_URL"] }),
  requestsPerMinute: z
    .number()
    .int()
    .min(0)
    .default(300)
    .meta({ description: "Client-side request budget per minute, shared by every operation of this provider instance (0 switches the limiter off).", env: ["NSP_REQUESTS_PER_MINUTE"] }),
  maxRetries: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(5)
    .meta({ description: "How many times a failed request that is safe to repeat is retried.", env: ["NSP_MAX_RETRIES"] }),
  batchReads: z
    .boolean()
    .default(true)
    .meta({ description: "Serve the Reads of many children of one parent (the records of a zone, ...) from one paged list of the parent. Switch off only to compare.", env: ["NSP_BATCH_READS"] }),
});

export type ProviderConfig = z.output<typeof providerConfig>;
export const configSecrets = ["apiToken"] as const;

const envFallback: Record<keyof ProviderConfig, string> = {
  apiToken: "NSP_API_TOKEN",
  baseUrl: "NSP_BASE_URL",
  requestsPerMinute: "NSP_REQUESTS_PER_MINUTE",
  maxRetries: "NSP_MAX_RETRIES",
  batchReads: "NSP_BATCH_READS",
};

/**
 * Reads the configuration the engine sent, falling back to the environment. Values set with
 * `pulumi config set` arrive as strings even for numbers, so numeric strings are accepted.
 */
export function parseConfig(raw: PropertyMap, env: NodeJS.ProcessEnv = process.env): { config?: ProviderConfig; failures: CheckFailure[] } {
  const input: PropertyMap = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === "version" || key.startsWith("__")) continue; // engine bookkeeping, not settings
    input[key] = value;
  }
  for (const [key, variable] of Object.entries(envFallback)) {
    if ((input[key] === undefined || input[key] === "") && env[variable]) input[key] = env[variable];
  }
  for (const key of ["requestsPerMinute", "maxRetries"]) {
    const v = input[key];
    if (typeof v === "string" && /^\s*-?\d+\s*$/.test(v)) input[key] = Number(v);
  }
  if (input.batchReads === "true" || input.batchReads === "false") input.batchReads = input.batchReads === "true";
  const { value, failures } = checkProperties(providerConfig, input);
  // Never echo a rejected token back: the reason must not carry the value.
  for (const f of failures) if (f.property === "apiToken") f.reason = 'must be an API token starting with "svc_"';
  return failures.length ? { failures } : { config: value as ProviderConfig, failures };
}

export const missingTokenMessage =
  "nsp: no API token is configured. Set it with `pulumi config set --secret nsp:apiToken svc_...`, " +
  "or export NSP_API_TOKEN, or pass apiToken to an explicit provider instance.";
