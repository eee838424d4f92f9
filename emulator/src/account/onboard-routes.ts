// Onboarding advice: how a host name can be put behind the edge proxy, from what public DNS
// shows of it and which zones the account hosts.
import { z } from "zod";
import { invalid } from "../pipeline/errors";
import { normalizeZoneName } from "../model/names";
import { type PublicDns, normalizeName } from "../control/public-dns";
import { route } from "../pipeline/route";

/** The NS set public DNS reports for the name or its nearest ancestor that has one. */
function currentNs(publicDns: PublicDns, hostname: string): string[] {
  const labels = hostname.split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const ns = publicDns.get(labels.slice(i).join("."))?.ns ?? [];
    if (ns.length > 0) return ns;
  }
  return [];
}

export const onboardRoutes = [
  route({
    method: "GET",
    path: "/onboard/recommend",
    scope: "read",
    query: z.strictObject({ hostname: z.string() }),
    handler: (ctx) => {
      const hostname = normalizeZoneName(ctx.query.hostname);
      if (hostname === null) throw invalid("hostname", "must be a host name such as www.example.com");
      const ns = currentNs(ctx.publicDns, hostname);
      const ownNs = ctx.publicDns.get(hostname)?.ns ?? [];
      const likelyApex = hostname.split(".").length === 2 || ownNs.length > 0;
      const hosted = ctx.store
        .list(ctx.store.zones, ctx.account.name)
        .filter((zn) => hostname === zn.name || hostname.endsWith(`.${zn.name}`))
        .sort((a, b) => b.name.length - a.name.length)[0];
      const modes: Array<{ mode: string; note: string }> = [];
      if (hosted)
        modes.push({
          mode: "zone",
          note: `${hosted.name} is hosted here (zone ${hosted.id}): add a proxied A, AAAA or CNAME record for ${hostname}`,
        });
      if (likelyApex) {
        if (!hosted)
          modes.push({
            mode: "zone",
            note: `move ${hostname} here: create the zone, point its NS records at the service's name servers, then proxy its records`,
          });
        modes.push({
          mode: "cname",
          note: `onboard by CNAME; at an apex this needs ALIAS, ANAME or CNAME flattening at the current DNS provider`,
        });
      } else {
        modes.push({ mode: "cname", note: `point a CNAME for ${hostname} at the site's target; nothing else moves` });
        modes.push({
          mode: "host",
          note: `delegate just ${hostname} here with NS records in its parent zone (a zone in host mode), then proxy its records`,
        });
        if (!hosted) modes.push({ mode: "zone", note: `move the whole parent domain here` });
      }
      return {
        hostname,
        likely_apex: likelyApex,
        current_ns: ns.map(normalizeName),
        modes,
        recommended: modes[0]?.mode ?? "cname",
      };
    },
  }),
];
