import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { idRef, wireTimestamp } from "../../framework/api/wire";
import { pollUntil } from "../../framework/api/poll";
import { zoneIdOf } from "./ids";
import { waitSettings, waitSettingsOf } from "./wait-settings";

const TOKEN = "nsp:dns:ZoneVerification";

const verificationArgs = z.object({
  zoneId: idRef("Id of the zone whose delegation is awaited.").meta({ replace: true }),
  ...waitSettings({
    timeout: "How long to wait for the delegation before failing, in seconds.",
    poll: "Seconds between two checks of the delegation.",
  }),
});

const verificationState = z.object({
  active: z.boolean().meta({ description: "Whether the zone is active." }),
  verifiedAt: z.string().nullable().optional().meta({ description: "When the zone became active." }),
  nameServers: z.array(z.string()).meta({ description: "The name servers the delegation points at." }),
});

type VerificationState = z.output<typeof verificationArgs> & z.output<typeof verificationState>;

const verifyWire = z.looseObject({
  active: z.boolean(),
  seen: z.array(z.string()).default([]),
  expected: z.array(z.string()).default([]),
});
// Written by hand: this reads the zone, not an object of its own, and works `active` out of its status.
const zoneWire = z.looseObject({
  name: z.string(),
  status: z.string(),
  verified_at: wireTimestamp.nullable().optional(),
  name_servers: z.array(z.string()).optional(),
});

const list = (hosts: string[]) => (hosts.length ? hosts.join(", ") : "none");

async function waitForDelegation(
  ctx: OperationContext,
  zoneId: string,
  timeoutSeconds: number,
  pollSeconds: number,
): Promise<string[]> {
  const result = await pollUntil({
    check: () => ctx.client.post(`/dns/zones/${zoneId}/verify`, undefined, { schema: verifyWire, signal: ctx.signal }),
    done: (r) => r.active,
    timeoutSeconds,
    intervalSeconds: pollSeconds,
    signal: ctx.signal,
    onFirstWait: (r) =>
      ctx.log(
        "info",
        `waiting for the delegation of zone ${zoneId}: public DNS shows [${list(r.seen)}], expected [${list(r.expected)}]`,
      ),
    timedOut: (r, checks) =>
      new Error(
        `${TOKEN}: zone ${zoneId} is not active after ${timeoutSeconds}s (${checks} checks): public DNS ` +
          `shows name servers [${list(r.seen)}] (seen), expected [${list(r.expected)}]. Set the zone's name ` +
          `servers at its registrar (for a host-mode zone: the NS records in the parent zone) to the expected ` +
          `ones, then run again`,
      ),
  });
  return result.expected;
}

function stateOf(
  zoneId: string,
  raw: z.output<typeof zoneWire>,
  settings: Partial<VerificationState>,
  nameServers: string[] | undefined,
): VerificationState {
  return {
    zoneId,
    ...waitSettingsOf(settings),
    active: raw.status === "active",
    verifiedAt: raw.verified_at ?? null,
    nameServers: raw.name_servers ?? nameServers ?? [],
  };
}

// No shape: an action on a zone (POST .../verify until it passes), not an object of its own.
export const zoneVerification = defineResource({
  since: "0.1.0",
  notListed: "a wait for delegation, not an object of the API",
  token: TOKEN,
  description:
    "Waits until a zone is active, that is until public DNS delegates it to the service's name servers, " +
    "polling the API's verify operation. Create fails with the name servers seen and expected when the " +
    "time runs out. Use it to hold back what needs the zone to be live (edge sites, certificates). " +
    "Deleting it does nothing to the zone.",
  args: verificationArgs,
  state: verificationState,
  importId: "<zoneId>",

  async create(ctx, args) {
    const expected = await waitForDelegation(ctx, args.zoneId, args.timeoutSeconds, args.pollIntervalSeconds);
    const zone = await ctx.client.get(`/dns/zones/${args.zoneId}`, { schema: zoneWire, signal: ctx.signal });
    return { id: args.zoneId, state: stateOf(args.zoneId, zone, args, expected) };
  },

  async read(ctx, id, prior) {
    const zoneId = zoneIdOf(TOKEN, id);
    const zone = await ctx.client.getOrUndefined(`/dns/zones/${zoneId}`, { schema: zoneWire, signal: ctx.signal });
    // A zone that is not active has not been verified: the next `up` waits for it again.
    if (zone?.status !== "active") return undefined;
    return { id: zoneId, state: stateOf(zoneId, zone, prior, prior.nameServers) };
  },

  // The wait settings only matter while creating; nothing to send.
  async update(_ctx, _id, news, olds) {
    return { ...olds, ...news };
  },
});
