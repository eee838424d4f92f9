import { ApiClient } from "./client";
import type { ProviderConfig } from "./config";
import { ListCache } from "./framework/list-cache";

export interface ApiSession {
  client: ApiClient;
  lists: ListCache;
}

/**
 * The API client of one configured provider (one account), and the list cache that its writes
 * keep fresh. The plugin and the dynamic-provider adapter both build theirs here, so the two
 * modes pace, retry and batch the same way.
 */
export function openSession(config: ProviderConfig & { apiToken: string }, userAgent: string, log: (level: "debug" | "info" | "warning", message: string) => void): ApiSession {
  let lists: ListCache | undefined;
  const client = new ApiClient({
    baseUrl: config.baseUrl,
    token: config.apiToken,
    requestsPerMinute: config.requestsPerMinute,
    maxRetries: config.maxRetries,
    userAgent,
    onLog: (level, message) => log(level === "warn" ? "warning" : level, message),
    onWrite: (_method, path) => lists?.invalidate(path),
  });
  lists = new ListCache(client, config.batchReads);
  return { client, lists };
}
