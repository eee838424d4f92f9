// A token checked once by the process that runs many stacks, instead of once in every stack.
//
// Each provider checks its token when it is configured (session.ts: `GET /me`, or in partner mode
// the mint of a read credential), so that a wrong token fails a stack at once, a preview
// included. A fleet of a thousand customers' stacks on one partner token would spend a thousand
// of the token's requests (300 a minute, shared by every worker) only on that check. The worker
// checks the token once with `checkPartnerToken` and names the variable holding it in
// NSP_VERIFIED_TOKEN_ENV for the stacks it starts; a provider whose token is the value of a
// variable named there skips its own check. What that costs: a token revoked after the worker's
// check is found only by a stack's first request that needs it (a no-change `up` makes none), and
// that request's error still names the variable.
import { ApiClient, ApiError, ForbiddenError, NotFoundError, UnauthorizedError } from "../client";
import { DEFAULT_BASE_URL, parseConfig } from "./provider-config";

/**
 * Names the environment variables (comma-separated) whose tokens the process that started this
 * one has just checked against the API; set by `nsp-fleet` for its stacks.
 */
export const VERIFIED_TOKEN_ENV = "NSP_VERIFIED_TOKEN_ENV";

/** The partner token's variable, as the customer program of examples/fleet and nsp-fleet read it. */
export const PARTNER_TOKEN_ENV = "NSP_PARTNER_TOKEN";

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The environment variables whose value is this token, by name only, so that a message about a
 * refused token can say where to fix it: a program usually reads its token from one
 * (`process.env.NSP_PARTNER_TOKEN`), which the plugin, started by the same CLI, inherits.
 */
export function variablesHolding(token: string | undefined, env: NodeJS.ProcessEnv): string[] {
  if (!token) return [];
  return Object.keys(env)
    .filter((name) => VARIABLE_NAME.test(name) && env[name] === token)
    .sort();
}

/** The variable named in NSP_VERIFIED_TOKEN_ENV that holds this token, if any: the caller has checked it. */
export function verifiedByCaller(token: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (!token) return undefined;
  return (env[VERIFIED_TOKEN_ENV] ?? "")
    .split(",")
    .map((name) => name.trim())
    .find((name) => VARIABLE_NAME.test(name) && env[name] === token);
}

/**
 * The partner token could not be confirmed. `refused`: the API refused it (unknown, revoked, or
 * not a partner's own token), so every stack on it would fail; otherwise the check itself could
 * not be made (the network, the service), and the stacks may check for themselves.
 */
export class PartnerTokenError extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
    this.name = "PartnerTokenError";
  }
}

export interface PartnerCheckOptions {
  /** The variable the token was read from, named in every message (default NSP_PARTNER_TOKEN). */
  variable?: string;
  signal?: AbortSignal;
  /** NSP_INSECURE_HTTP's value, as the stacks' providers get it: plain http:// to a host other than loopback. */
  insecureHttp?: boolean;
  userAgent?: string;
}

/**
 * Checks once that `token` is a partner's own API token the API at `baseUrl` (NSP_BASE_URL;
 * undefined for the default address) knows: one `GET /partner`, on the partner token's quota.
 * Resolves when it is; rejects with a PartnerTokenError naming the variable otherwise. The
 * messages never carry the token.
 */
export async function checkPartnerToken(
  baseUrl: string | undefined,
  token: string | undefined,
  options: PartnerCheckOptions = {},
): Promise<void> {
  const variable = options.variable ?? PARTNER_TOKEN_ENV;
  if (!token)
    throw new PartnerTokenError(
      `${variable} is not set: it holds the partner's API token (svc_...) that every customer's stack acts with`,
      true,
    );
  const { config, failures } = parseConfig(
    { apiToken: token, baseUrl: baseUrl || DEFAULT_BASE_URL },
    { NSP_INSECURE_HTTP: options.insecureHttp === true ? "true" : undefined },
  );
  if (!config?.apiToken) {
    const named = failures.map(
      (f) =>
        `${f.property === "apiToken" ? variable : f.property === "baseUrl" ? "NSP_BASE_URL" : f.property} ${f.reason}`,
    );
    throw new PartnerTokenError(named.join("; "), true);
  }
  // The client the providers use: the token is scrubbed from its errors, 5xx and network errors retried.
  const client = new ApiClient({
    baseUrl: config.baseUrl,
    token: config.apiToken,
    userAgent: options.userAgent ?? "nsp-partner-check",
  });
  let partner: { slug?: unknown; acting_for?: unknown };
  try {
    partner = await client.get<{ slug?: unknown; acting_for?: unknown }>("/partner", {
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (e instanceof UnauthorizedError)
      throw new PartnerTokenError(
        `${variable}: the API at ${config.baseUrl} does not know this token (${why}); set the partner's API token there`,
        true,
      );
    if (e instanceof ForbiddenError)
      throw new PartnerTokenError(
        `${variable}: the API at ${config.baseUrl} refuses this token the partner endpoints (${why}); it must be the partner's own API token`,
        true,
      );
    if (e instanceof NotFoundError)
      throw new PartnerTokenError(
        `${variable}: the account of this token is not a partner (${why}); it must be the partner's own API token`,
        true,
      );
    // Another refusal (a base URL that is not the API) fails every stack alike; the network, a 5xx
    // or a 429 after the client's retries say nothing about the token.
    const refused = e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 429;
    throw new PartnerTokenError(`${variable}: the token could not be checked at ${config.baseUrl}: ${why}`, refused);
  }
  // A credential minted for one customer also answers GET /partner, but it cannot mint for the others.
  if (partner.acting_for !== null && partner.acting_for !== undefined) {
    throw new PartnerTokenError(
      `${variable}: this is a credential minted for customer ${JSON.stringify(partner.acting_for)}, not the partner's own API token`,
      true,
    );
  }
}
