import { z } from "zod";
import type { CheckFailure } from "../framework/definition";
import { checkProperties } from "../framework/engine/check";
import type { PropertyMap } from "../framework/engine/property-values";
import { metaOf } from "../framework/definition/zod-walk";

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
    .meta({
      description: "API token (`svc_...`), sent as a bearer token. Stored as a secret.",
      env: ["NSP_API_TOKEN"],
    }),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .default(DEFAULT_BASE_URL)
    .meta({
      description:
        "Service address including the `/api/v1` prefix. Plain `http://` is accepted only for a loopback host " +
        "(127.0.0.0/8, `[::1]`, `localhost`: the emulator) unless `insecureHttp` is set.",
      env: ["NSP_BASE_URL"],
    }),
  insecureHttp: z
    .boolean()
    .default(false)
    .meta({
      description:
        "Allow a plain `http://` `baseUrl` on a host other than loopback. The API token then crosses the " +
        "network unencrypted; only for a trusted private network.",
      env: ["NSP_INSECURE_HTTP"],
    }),
  requestsPerMinute: z
    .number()
    .int()
    .min(0)
    .default(300)
    .meta({
      description:
        "Client-side request budget per minute, shared by every operation of this provider instance (0 " +
        "switches the limiter off).",
      env: ["NSP_REQUESTS_PER_MINUTE"],
    }),
  maxRetries: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(5)
    .meta({
      description: "How many times a failed request that is safe to repeat is retried.",
      env: ["NSP_MAX_RETRIES"],
    }),
  partnerSubject: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/,
      "must be a customer reference (`externalRef` of an `nsp:partner:Subject`): 1 to 128 letters, digits, " +
        "'.', '_', ':', '@' or '-', starting with a letter or digit",
    )
    .optional()
    .meta({
      description:
        "Partner mode: act for this managed customer (the `externalRef` of an `nsp:partner:Subject`). " +
        "`apiToken` is then the partner's token, used only to mint short-lived credentials for the customer " +
        "(read scope for reads, write scope from the first change on), renewed before they expire and kept " +
        "only in memory. Pointing an instance at another customer replaces its resources (they are made in " +
        "that customer's account).",
      env: ["NSP_PARTNER_SUBJECT"],
    }),
  batchReads: z
    .boolean()
    .default(true)
    .meta({
      description:
        "Serve the Reads of many children of one parent (the records of a zone, ...) from one paged list of " +
        "the parent. Switch off only to compare.",
      env: ["NSP_BATCH_READS"],
    }),
});

export type ProviderConfig = z.output<typeof providerConfig>;
export const configSecrets = ["apiToken"] as const;

// Declared once, in each setting's metadata (which schema.json also publishes).
const envFallback: Record<string, string> = {};
for (const [key, field] of Object.entries(providerConfig.shape)) {
  const variable = (metaOf(field) as { env?: string[] }).env?.[0];
  if (variable) envFallback[key] = variable;
}

const BOOLEAN_KEYS = ["batchReads", "insecureHttp"] as const;

/** True for hosts that never leave the machine: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  // URL keeps IPv6 literals in brackets and normalises IPv4 (`127.1` becomes `127.0.0.1`).
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why `baseUrl` is refused, or undefined when it is fine: plain http would send the bearer token
 * in clear text, which is only harmless when the request never leaves the machine.
 */
export function plainHttpRefusal(baseUrl: string, insecureHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined; // the URL check itself reports it
  }
  if (url.protocol !== "http:" || insecureHttp || isLoopbackHost(url.hostname)) return undefined;
  return (
    `uses plain http to ${url.hostname}, which would send the API token unencrypted; use https, ` +
    ("or, on a network you trust, opt in with `pulumi config set nsp:insecureHttp true` (or " +
      "NSP_INSECURE_HTTP=true, or insecureHttp on the provider instance)")
  );
}

// What each setting is when neither the user nor the environment gives it.
const defaults = providerConfig.parse({}) as Record<string, unknown>;

/** Strings to the numbers and booleans they spell: `pulumi config set` and variables give strings. */
function coerce(input: PropertyMap): void {
  for (const key of ["requestsPerMinute", "maxRetries"]) {
    const v = input[key];
    if (typeof v === "string" && /^\s*-?\d+\s*$/.test(v)) input[key] = Number(v);
  }
  for (const key of BOOLEAN_KEYS) {
    const v = input[key];
    if (v === "true" || v === "false") input[key] = v === "true";
  }
}

/**
 * Whether the user left a setting to the environment. Besides a setting absent or null (a secret
 * with no value arrives as null), the engine fills a setting it was not given from the schema's
 * `default` on some paths (`pulumi do`, explicit providers of some SDKs), which is
 * indistinguishable from the same value set by hand: the default counts as not set.
 */
function leftUnset(key: string, value: unknown): boolean {
  return value === undefined || value === null || value === "" || (key in defaults && value === defaults[key]);
}

/**
 * Reads the configuration the engine sent, falling back to the environment: what the user set,
 * else the setting's variable, else its default. Values set with `pulumi config set` arrive as
 * strings even for numbers, so numeric strings are accepted.
 */
export function parseConfig(
  raw: PropertyMap,
  env: NodeJS.ProcessEnv = process.env,
): { config?: ProviderConfig; failures: CheckFailure[] } {
  const input: PropertyMap = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === "version" || key.startsWith("__")) continue; // engine bookkeeping, not settings
    if (value !== null) input[key] = value;
  }
  coerce(input);
  for (const [key, variable] of Object.entries(envFallback)) {
    if (leftUnset(key, input[key]) && env[variable]) input[key] = env[variable];
  }
  coerce(input);
  for (const [key, value] of Object.entries(input)) if (value === "") delete input[key];
  const { value, failures } = checkProperties(providerConfig, input);
  // Never echo a rejected token back: the reason must not carry the value.
  for (const f of failures) if (f.property === "apiToken") f.reason = 'must be an API token starting with "svc_"';
  if (typeof value.baseUrl === "string" && !failures.some((f) => f.property === "insecureHttp")) {
    const refusal = plainHttpRefusal(value.baseUrl, value.insecureHttp === true);
    if (refusal) failures.push({ property: "baseUrl", reason: refusal });
  }
  return failures.length ? { failures } : { config: value as ProviderConfig, failures };
}

/** Said when a request needs the API token and none is configured. */
export function missingTokenMessage(explicitProviders: boolean): string {
  // Dynamic providers take their settings from the stack configuration only.
  const instead = explicitProviders
    ? "or export NSP_API_TOKEN, or pass apiToken to an explicit provider instance."
    : "or export NSP_API_TOKEN.";
  return `nsp: no API token is configured. Set it with \`pulumi config set --secret nsp:apiToken svc_...\`, ${instead}`;
}
