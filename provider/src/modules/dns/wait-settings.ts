import { z } from "zod";

/**
 * The inputs of a resource that waits for something outside (a delegation, a CNAME): the
 * provider's own settings, only used while creating. Not marked `local`: the schema lists them as
 * outputs that are always present, as they were before the roles were declared.
 */
export function waitSettings(defaults: { timeoutSeconds: number; pollSeconds: number }, describe: { timeout: string; poll: string }) {
  return {
    timeoutSeconds: z.number().int().min(1).max(86400).default(defaults.timeoutSeconds).meta({ description: describe.timeout }),
    pollIntervalSeconds: z.number().min(0.01).max(3600).default(defaults.pollSeconds).meta({ description: describe.poll }),
  };
}
