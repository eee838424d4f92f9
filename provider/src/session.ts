import { createHash } from "node:crypto";
import { ApiClient, PartnerCredentials, UnauthorizedError, type QuotaPacing } from "./client";
import type { ProviderConfig } from "./config";
import { UserError } from "./user-error";
import { Adoptions } from "./framework/adoption";
import { ListCache } from "./framework/list-cache";

export interface ApiSession {
  client: ApiClient;
  lists: ListCache;
  adoptions: Adoptions;
  /** Partner mode (`partnerSubject`): the credentials minted for the customer. */
  partner?: PartnerCredentials;
}

/**
 * The API client of one configured provider (one account), the list cache that its writes
 * keep fresh, and the registry of objects its creates adopted. The plugin and the dynamic-provider adapter both build theirs here, so the two
 * modes pace, retry and batch the same way.
 */
export function openSession(config: ProviderConfig & { apiToken: string }, userAgent: string, log: (level: "debug" | "info" | "warning", message: string) => void): ApiSession {
  let lists: ListCache | undefined;
  let adoptions: Adoptions | undefined;
  const common = {
    baseUrl: config.baseUrl,
    token: config.apiToken,
    requestsPerMinute: config.requestsPerMinute,
    // Only to measure shared pacing against the pacing before it (bench P8); not a setting users need.
    pacing: (process.env.NSP_QUOTA_PACING === "local" ? "local" : "shared") as QuotaPacing,
    maxRetries: config.maxRetries,
    userAgent,
    onLog: (level: "debug" | "info" | "warn", message: string) => log(level === "warn" ? "warning" : level, message),
  };
  // The partner's token and each credential minted with it have a rate-limit bucket of their
  // own, so the minting client paces itself apart from the customer's requests.
  const partner = config.partnerSubject ? new PartnerCredentials(new ApiClient(common), config.partnerSubject) : undefined;
  const client = new ApiClient({
    ...common,
    ...(partner ? { credentials: partner } : {}),
    onWrite: (method, path) => {
      lists?.invalidate(path);
      adoptions?.sawWrite(method, path);
    },
  });
  lists = new ListCache(client, config.batchReads);
  adoptions = new Adoptions(client);
  return { client, lists, adoptions, ...(partner ? { partner } : {}) };
}

// Per process: whatever configures a provider with a token a second time needs no second read.
const checkedTokens = new Map<string, Promise<void>>();

/**
 * One cheap read (`GET /me`) per process and token, so that a token the API does not know fails
 * when the provider is configured, a preview included, instead of at the first write. Only a
 * refused token fails here: any other problem (the network, a 5xx) is left to the operations,
 * which report it in their own terms. A partner-mode session needs none: it minted a credential.
 */
export function checkToken(session: ApiSession, config: ProviderConfig & { apiToken: string }, setting: string): Promise<void> {
  if (session.partner) return Promise.resolve();
  const key = createHash("sha256").update(`${config.baseUrl}\u0000${config.apiToken}`).digest("hex");
  let pending = checkedTokens.get(key);
  if (!pending) {
    pending = session.client.get("/me").then(
      () => undefined,
      (e: unknown) => {
        if (e instanceof UnauthorizedError) {
          throw new UserError(`nsp: the API does not know the API token in ${setting} (${e.message}); nothing was changed. Set a valid token there.`);
        }
      },
    );
    checkedTokens.set(key, pending);
  }
  return pending;
}
