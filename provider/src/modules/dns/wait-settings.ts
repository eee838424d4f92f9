import { z } from "zod";

const DEFAULT_TIMEOUT_SECONDS = 300;
const DEFAULT_POLL_SECONDS = 10;

/**
 * The inputs of a resource that waits for something outside (a delegation, a CNAME): the
 * provider's own settings, only used while creating. Not marked `local`: the schema lists them as
 * outputs that are always present, as they were before the roles were declared.
 */
export function waitSettings(describe: { timeout: string; poll: string }) {
  return {
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(86400)
      .default(DEFAULT_TIMEOUT_SECONDS)
      .meta({ description: describe.timeout }),
    pollIntervalSeconds: z
      .number()
      .min(0.01)
      .max(3600)
      .default(DEFAULT_POLL_SECONDS)
      .meta({ description: describe.poll }),
  };
}

/** The wait settings of a state, with the defaults where a prior state (an import) has none. */
export function waitSettingsOf(settings: { timeoutSeconds?: number; pollIntervalSeconds?: number }) {
  return {
    timeoutSeconds: settings.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    pollIntervalSeconds: settings.pollIntervalSeconds ?? DEFAULT_POLL_SECONDS,
  };
}
