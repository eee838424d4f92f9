// A tunnel's hostnames are edge sites pointed at the tunnel. The hostnames PUT manages them per
// (tunnel, managed_by) list: it creates sites for new names, repoints the sites it manages that
// were pointed elsewhere (and, with `adopt`, sites it did not make), and removes the sites it
// manages that the list no longer names. Everything goes through the edge-proxy state, so the
// sites are ordinary sites of /cdn/sites as well.
import {
  type CdnState,
  type SiteRow,
  cdnFor,
  cdnState,
  defaultCdnService,
  deleteSite,
  newSite,
  siteTarget,
} from "../cdn/state";
import { ApiError } from "../pipeline/errors";
import type { Env } from "../pipeline/route";
import type { LinkTables, ManagedSite, TunnelRow } from "./state";

type AccountEnv = Env & { account: { name: string } };

export interface HostnameView {
  hostname: string;
  managed_by: string;
  site_id: number;
  target: string | null;
}

/** The managing entry of a site that still exists; stale entries (site deleted elsewhere) are dropped. */
function entryOf(t: LinkTables, st: CdnState, siteId: number): ManagedSite | undefined {
  const e = t.managed.get(siteId);
  if (e && !st.sites.has(siteId)) {
    t.managed.delete(siteId);
    return undefined;
  }
  return e;
}

function view(site: SiteRow, managedBy: string): HostnameView {
  return { hostname: site.hostname, managed_by: managedBy, site_id: site.id, target: siteTarget(site) };
}

const byHostname = (a: HostnameView, b: HostnameView) =>
  a.hostname < b.hostname ? -1 : a.hostname > b.hostname ? 1 : 0;

/**
 * The hostnames a tunnel serves through its lists: managed sites that still point at it. A managed
 * site repointed elsewhere (PUT /cdn/sites/{id}/origin) is not listed, and the next PUT of its
 * list points it back.
 */
export function tunnelHostnames(env: AccountEnv, t: LinkTables, tunnel: TunnelRow, managedBy?: string): HostnameView[] {
  // A tunnel that never had a list leaves the edge-proxy area untouched.
  if (![...t.managed.values()].some((e) => e.tunnel_id === tunnel.id)) return [];
  const st = cdnFor(env);
  const out: HostnameView[] = [];
  for (const site of env.store.list(st.sites, env.account.name)) {
    const e = entryOf(t, st, site.id);
    if (!e || e.tunnel_id !== tunnel.id || site.link_tunnel_id !== tunnel.id) continue;
    if (managedBy !== undefined && e.managed_by !== managedBy) continue;
    out.push(view(site, e.managed_by));
  }
  return out.sort(byHostname);
}

function describe(site: SiteRow, e: ManagedSite | undefined): string {
  const who = e ? `managed by "${e.managed_by}" on tunnel ${e.tunnel_id}` : `${site.dns_mode} mode`;
  return `site ${site.id}, ${who}`;
}

function pointAtTunnel(site: SiteRow, tunnelId: number): void {
  site.pages_project_id = null;
  site.link_tunnel_id = tunnelId;
}

export interface PutResult {
  tunnel_id: number;
  managed_by: string;
  hostnames: HostnameView[];
  created: string[];
  repointed: string[];
  removed: string[];
}

/**
 * Makes the list (tunnel, managedBy) serve exactly `hostnames` (normalised, without duplicates).
 * Everything is checked before anything is written.
 */
export function putHostnames(
  env: AccountEnv,
  t: LinkTables,
  tunnel: TunnelRow,
  managedBy: string,
  hostnames: readonly string[],
  adopt: boolean,
): PutResult {
  const st = cdnFor(env);
  const account = env.account.name;
  const sites = env.store.list(st.sites, account);
  const byName = new Map(sites.map((s) => [s.hostname, s]));
  const mine = (e: ManagedSite | undefined) =>
    e !== undefined && e.tunnel_id === tunnel.id && e.managed_by === managedBy;

  const toCreate: string[] = [];
  const toRepoint: Array<{ site: SiteRow; takeOver: ManagedSite | undefined | null }> = [];
  hostnames.forEach((hostname, i) => {
    const site = byName.get(hostname);
    if (!site) {
      toCreate.push(hostname);
      return;
    }
    const e = entryOf(t, st, site.id);
    if (mine(e)) {
      // null: already this list's; only its origin may need fixing.
      if (site.link_tunnel_id !== tunnel.id || site.pages_project_id !== null) toRepoint.push({ site, takeOver: null });
      return;
    }
    if (!adopt) {
      throw new ApiError(
        "conflict",
        `hostnames[${i}]: ${hostname} is already an edge site of this account (${describe(site, e)}); send adopt: true to serve it through this tunnel`,
      );
    }
    toRepoint.push({ site, takeOver: e });
  });
  const wanted = new Set(hostnames);
  const toRemove = sites.filter((s) => mine(entryOf(t, st, s.id)) && !wanted.has(s.hostname));

  const removed: string[] = [];
  for (const site of toRemove) {
    const e = t.managed.get(site.id) as ManagedSite;
    t.managed.delete(site.id);
    // A managed site someone pointed elsewhere now serves something else: it is only let go.
    if (site.link_tunnel_id !== tunnel.id) continue;
    if (e.created && site.dns_mode === "cname") deleteSite(st, site);
    else site.link_tunnel_id = null;
    removed.push(site.hostname);
  }
  const repointed: string[] = [];
  for (const { site, takeOver } of toRepoint) {
    if (takeOver !== null)
      t.managed.set(site.id, {
        site_id: site.id,
        tunnel_id: tunnel.id,
        managed_by: managedBy,
        created: takeOver?.created ?? false,
      });
    if (site.link_tunnel_id !== tunnel.id || site.pages_project_id !== null) repointed.push(site.hostname);
    pointAtTunnel(site, tunnel.id);
  }
  for (const hostname of toCreate) {
    // The site has no origin of its own: the tunnel is where its traffic goes.
    const site = newSite(env.store, {
      account,
      service_id: defaultCdnService(env.store, account),
      zone_id: null,
      hostname,
      dns_mode: "cname",
      origin: null,
    });
    pointAtTunnel(site, tunnel.id);
    t.managed.set(site.id, { site_id: site.id, tunnel_id: tunnel.id, managed_by: managedBy, created: true });
  }
  // A proxied DNS record may have been waiting for a name whose site was just deleted.
  if (removed.length > 0) cdnFor(env);
  return {
    tunnel_id: tunnel.id,
    managed_by: managedBy,
    hostnames: tunnelHostnames(env, t, tunnel, managedBy),
    created: [...toCreate].sort(),
    repointed: repointed.sort(),
    removed: removed.sort(),
  };
}

/**
 * A deleted tunnel takes the sites its lists made with it; adopted sites, and sites pointed at it
 * through PUT /cdn/sites/{id}/origin, go back to their own origin.
 */
export function releaseTunnel(env: AccountEnv, t: LinkTables, tunnel: TunnelRow): void {
  const st = cdnState(env.store);
  let deleted = false;
  for (const site of env.store.list(st.sites, env.account.name)) {
    const e = entryOf(t, st, site.id);
    if (e?.tunnel_id === tunnel.id) t.managed.delete(site.id);
    if (site.link_tunnel_id !== tunnel.id) continue;
    if (e?.tunnel_id === tunnel.id && e.created && site.dns_mode === "cname") {
      deleteSite(st, site);
      deleted = true;
    } else {
      site.link_tunnel_id = null;
    }
  }
  if (deleted) cdnFor(env);
}
