import { z } from "zod";
import { defineResource, type OperationContext } from "../../framework/definition";
import { idRef, wireTimestamp } from "../../framework/api/wire";
import { pollUntil } from "../../framework/api/poll";
import { waitSettings, waitSettingsOf } from "../dns/wait-settings";
import { siteIdOf } from "./settings";

const TOKEN = "nsp:cdn:SiteVerification";

const verificationArgs = z.object({
  siteId: idRef("Id of the cname-mode site (`nsp:cdn:Site`) whose DNS records are awaited.").meta({ replace: true }),
  ...waitSettings({
    timeout: "How long to wait for the CNAME before failing, in seconds.",
    poll: "Seconds between two checks.",
  }),
});

const verificationState = z.object({
  verified: z.boolean().meta({ description: "Whether the site is verified." }),
  certificateRequested: z
    .boolean()
    .meta({ description: "Whether the service requested the site's certificate (it does once the site is verified)." }),
  verifiedAt: z.string().nullable().optional().meta({ description: "When the site was verified." }),
  expected: z.string().meta({ description: "The CNAME target public DNS must show for the hostname." }),
});

type State = z.output<typeof verificationArgs> & z.output<typeof verificationState>;

const verifyWire = z.looseObject({
  verified: z.boolean(),
  cname: z.string().nullable().optional(),
  acme_cname: z.string().nullable().optional(),
  expected: z.string(),
  certificate_requested: z.boolean(),
});
// Written by hand: this reads the site, not an object of its own, and works `verified` out of verified_at.
const siteWire = z.looseObject({
  hostname: z.string(),
  target: z.string().nullable().optional(),
  verified_at: wireTimestamp.nullable().optional(),
});

function waitForVerification(
  ctx: OperationContext,
  siteId: string,
  timeoutSeconds: number,
  pollSeconds: number,
): Promise<z.output<typeof verifyWire>> {
  const seen = (r: z.output<typeof verifyWire>) => (r.cname ? `a CNAME to ${r.cname}` : "no CNAME");
  return pollUntil({
    check: () => ctx.client.post(`/cdn/sites/${siteId}/verify`, undefined, { schema: verifyWire, signal: ctx.signal }),
    done: (r) => r.verified && r.certificate_requested,
    timeoutSeconds,
    intervalSeconds: pollSeconds,
    signal: ctx.signal,
    onFirstWait: (r) =>
      ctx.log("info", `waiting for site ${siteId}: public DNS shows ${seen(r)}, expected a CNAME to ${r.expected}`),
    timedOut: (r, checks) =>
      new Error(
        `${TOKEN}: site ${siteId} is not verified after ${timeoutSeconds}s (${checks} checks): public DNS ` +
          `shows ${seen(r)} (seen), expected a CNAME to ${r.expected}` +
          (`${r.verified ? " (seen, but the certificate was not requested yet)" : ""}. Add the records of the ` +
            `site's \`instructions\` at the hostname's DNS provider, then run again`),
      ),
  });
}

function stateOf(siteId: string, raw: z.output<typeof siteWire>, settings: Partial<State>): State {
  return {
    siteId,
    ...waitSettingsOf(settings),
    verified: raw.verified_at != null,
    // Verification is what requests the certificate, so a verified site has had it requested.
    certificateRequested: raw.verified_at != null,
    verifiedAt: raw.verified_at ?? null,
    expected: raw.target ?? settings.expected ?? "",
  };
}

// No shape: an action on a site (POST .../verify until it passes), not an object of its own.
export const siteVerification = defineResource({
  since: "0.1.0",
  notListed: "a wait for the CNAME, not an object of the API",
  token: TOKEN,
  description:
    "Waits until a cname-mode edge site is verified: public DNS shows the CNAME from its hostname to its " +
    "`target`, and the service has requested the certificate. It polls the API's verify operation; when " +
    "the time runs out, Create fails with the CNAME seen and the one expected. Use it to hold back what " +
    "needs the site to be live. Deleting it does nothing to the site.",
  args: verificationArgs,
  state: verificationState,
  importId: "<siteId>",

  async create(ctx, args) {
    await waitForVerification(ctx, args.siteId, args.timeoutSeconds, args.pollIntervalSeconds);
    const site = await ctx.client.get(`/cdn/sites/${args.siteId}`, { schema: siteWire, signal: ctx.signal });
    return { id: args.siteId, state: stateOf(args.siteId, site, args) };
  },

  async read(ctx, id, prior) {
    const siteId = siteIdOf(TOKEN, id);
    const site = await ctx.client.getOrUndefined(`/cdn/sites/${siteId}`, { schema: siteWire, signal: ctx.signal });
    // A site that was never verified has nothing to show: the next `up` waits for it again.
    if (site?.verified_at == null) return undefined;
    return { id: siteId, state: stateOf(siteId, site, prior) };
  },

  // The wait settings only matter while creating; nothing to send.
  async update(_ctx, _id, news, olds) {
    return { ...olds, ...news };
  },
});
