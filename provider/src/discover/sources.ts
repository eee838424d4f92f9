// Where each resource type's objects are listed in the API, and what decides that an object is
// left out of the import file (made by the API itself, or owned by another resource). The import
// id itself is built from the definition's `importId` (see ids.ts), so it cannot drift from what
// the resource's Read accepts.

type Item = Record<string, unknown>;

export interface Source {
  token: string;
  /** The list path; for a child type, built from one object of the parent type. */
  list: string | ((parent: Item) => string);
  /** The type whose objects hold this type's objects (listed first, once per parent object). */
  parent?: string;
  /** Parents whose children this type's list holds (others have none by design). */
  parents?: (parent: Item) => boolean;
  /** The field that fills the last placeholder of `importId` (default `id`). */
  key?: string;
  /** Fields that make a readable name, first present wins (default name, hostname, ...). */
  label?: (item: Item, parent?: Item) => string;
  /** Objects of the list that are not this type's own objects to import. */
  skip?: (item: Item, parent?: Item) => string | undefined;
  /** Objects derived from the parent's own fields instead of a list of their own. */
  derive?: (parent: Item) => Item[];
  /** Listed only as the parent of other types; never emitted. */
  parentOnly?: boolean;
  /**
   * The zone an object belongs to, for --zone: its own, its parent's (a mailbox is on the zone of
   * its mail domain), or that of another object it hangs from, found with `find`.
   */
  zoneOf?: (item: Item, parent: Item | undefined, find: (token: string, id: unknown) => Item | undefined) => unknown;
  /** The type `zoneOf` finds objects of, listed too when --zone is given. */
  zoneVia?: string;
}

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/** A rule or route is named by its scope and what it matches. */
const ruleLabel = (item: Item) => [item.field, item.op, item.value, item.action].map(str).filter(Boolean).join("-");

export const sources: readonly Source[] = [
  // DNS
  { token: "nsp:dns:Zone", list: "/dns/zones", zoneOf: (z) => z.id },
  { token: "nsp:dns:Record", parent: "nsp:dns:Zone", list: (z) => `/dns/zones/${z.id}/records`, zoneOf: (_r, z) => z?.id },
  {
    token: "nsp:dns:ZoneDnssec",
    parent: "nsp:dns:Zone",
    list: "",
    derive: (z) => (z.dnssec === true ? [z] : []),
    label: (z) => String(z.name),
    zoneOf: (z) => z.id,
  },
  {
    token: "nsp:dns:ZoneTransfer",
    parent: "nsp:dns:Zone",
    list: "",
    derive: (z) => {
      const t = (z.transfer ?? {}) as { allow?: unknown[]; notify?: unknown[]; tsig_configured?: boolean };
      return (t.allow?.length ?? 0) + (t.notify?.length ?? 0) > 0 || t.tsig_configured ? [z] : [];
    },
    label: (z) => String(z.name),
    zoneOf: (z) => z.id,
  },
  { token: "nsp:dns:ZoneGrant", parent: "nsp:dns:Zone", list: (z) => `/dns/zones/${z.id}/grants`, key: "email", label: (g, z) => `${str(z?.name)}-${str(g.email)}`, zoneOf: (_g, z) => z?.id },
  // The API documents ranges as "address-range grants in a reverse zone": a forward zone has none.
  { token: "nsp:dns:Range", parent: "nsp:dns:Zone", parents: (z) => /\.(in-addr|ip6)\.arpa\.?$/i.test(str(z.name)), list: (z) => `/dns/zones/${z.id}/ranges`, label: (r) => str(r.prefix), zoneOf: (_r, z) => z?.id },
  // RPKI
  { token: "nsp:rpki:Ca", list: "/rpki/cas", label: (c) => str(c.handle) },
  { token: "nsp:rpki:Roa", parent: "nsp:rpki:Ca", list: (c) => `/rpki/cas/${c.id}/roas`, label: (r, c) => `${str(c?.handle)}-as${str(r.asn)}-${str(r.prefix)}-${str(r.max_length)}` },
  // Edge
  {
    token: "nsp:cdn:Site",
    list: "/cdn/sites",
    label: (s) => str(s.hostname),
    skip: (s) =>
      s.dns_mode === "zone"
        ? "zone-mode site: exists because a record of its zone is proxied (owned by that nsp:dns:Record; its settings are nsp:cdn:SiteSettings)"
        : s.link_tunnel_id != null
          ? `served by tunnel ${str(s.link_tunnel_id)} (owned by its nsp:link:TunnelHostnames)`
          : s.pages_project_id != null
            ? `custom domain of pages project ${str(s.pages_project_id)} (owned by its nsp:pages:Project)`
            : undefined,
    zoneOf: (s) => s.zone_id,
  },
  { token: "nsp:security:Rule", list: "/security/rules", label: (r) => `${r.site_id != null ? `site${str(r.site_id)}` : `zone${str(r.zone_id)}`}-${ruleLabel(r)}`, zoneOf: (r, _p, find) => r.zone_id ?? find("nsp:cdn:Site", r.site_id)?.zone_id, zoneVia: "nsp:cdn:Site" },
  // Tunnels
  { token: "nsp:link:Tunnel", list: "/link/tunnels" },
  {
    token: "nsp:link:TunnelHostnames",
    parent: "nsp:link:Tunnel",
    list: "",
    key: "managed_by",
    derive: (t) => {
      const names = new Set(((t.hostnames ?? []) as Item[]).map((h) => h.managed_by).filter((m): m is string => typeof m === "string"));
      return [...names].sort().map((managed_by) => ({ managed_by }));
    },
    label: (h, t) => `${str(t?.name)}-${str(h.managed_by)}`,
  },
  // PBX
  { token: "nsp:vgate:Pbx", list: "/vgate/pbx" },
  ...(
    [
      ["Extension", "extensions"],
      ["Trunk", "trunks"],
      ["Number", "numbers"],
      ["InboundRoute", "inbound"],
      ["OutboundRoute", "outbound"],
      ["Ivr", "ivrs"],
      ["RingGroup", "groups"],
      ["Queue", "queues"],
      ["TimeCondition", "timeconds"],
    ] as const
  ).map(
    ([name, path]): Source => ({
      token: `nsp:vgate:${name}`,
      parent: "nsp:vgate:Pbx",
      list: (p) => `/vgate/pbx/${encodeURIComponent(str(p.id))}/${path}`,
      label: (o, p) => `${str(p?.name)}-${str(o.name ?? o.number ?? o.id)}`,
    }),
  ),
  // Mail
  { token: "nsp:mail:Server", list: "/mail/servers" },
  { token: "nsp:mail:Domain", list: "/mail/domains", zoneOf: (d) => d.zone_id },
  { token: "nsp:mail:Mailbox", parent: "nsp:mail:Domain", list: (d) => `/mail/domains/${d.id}/mailboxes`, label: (m, d) => `${str(m.local)}@${str(d?.name)}`, zoneOf: (_x, d) => d?.zone_id },
  { token: "nsp:mail:Alias", parent: "nsp:mail:Domain", list: (d) => `/mail/domains/${d.id}/aliases`, label: (a, d) => `${str(a.local_part)}@${str(d?.name)}`, zoneOf: (_x, d) => d?.zone_id },
  { token: "nsp:mail:Group", parent: "nsp:mail:Domain", list: (d) => `/mail/domains/${d.id}/groups`, label: (g, d) => `${str(g.local_part)}@${str(d?.name)}`, zoneOf: (_x, d) => d?.zone_id },
  { token: "nsp:mail:DomainRule", parent: "nsp:mail:Domain", list: (d) => `/mail/domains/${d.id}/rules`, label: (r, d) => `${str(d?.name)}-${str(r.kind)}-${str(r.pattern)}`, zoneOf: (_x, d) => d?.zone_id },
  { token: "nsp:mail:Route", parent: "nsp:mail:Domain", list: (d) => `/mail/domains/${d.id}/routes`, key: "local_part", label: (r, d) => `${str(r.local_part)}@${str(d?.name)}`, zoneOf: (_x, d) => d?.zone_id },
  { token: "nsp:mail:Destination", list: "/mail/destinations", key: "addr", label: (d) => str(d.addr) },
  // Everything else: one account-wide list each.
  { token: "nsp:index:Webhook", list: "/webhooks", label: (w) => str(w.url) },
  { token: "nsp:verify:Site", list: "/verify/sites" },
  { token: "nsp:pages:Project", list: "/pages/projects" },
  { token: "nsp:sgate:Brand", list: "/sgate/brands", label: (b) => str(b.legal_name) },
  { token: "nsp:sgate:Campaign", list: "/sgate/campaigns", label: (c) => `${str(c.use_case)}-${str(c.id)}` },
  { token: "nsp:sgate:Sender", list: "/sgate/senders" },
  { token: "nsp:sgate:Template", list: "/sgate/templates" },
  { token: "nsp:sgate:Consent", list: "/sgate/consents", label: (c) => str(c.recipient) },
  { token: "nsp:sgate:Broadcast", list: "/sgate/broadcasts", skip: (b) => (b.state === "draft" ? undefined : `broadcast in state ${str(b.state)}: only drafts are managed`) },
  { token: "nsp:storage:Destination", list: "/storage/destinations", label: (d) => `${str(d.bucket)}-${str(d.prefix)}` },
  { token: "nsp:talk:Room", list: "/talk/rooms" },
  { token: "nsp:rtc:Room", list: "/rtc/rooms" },
  { token: "nsp:voice:Number", list: "/voice/numbers", key: "number", label: (n) => str(n.label || n.number) },
  { token: "nsp:stream:Channel", list: "/stream/streams" },
  { token: "nsp:vod:Asset", list: "/vod/assets", label: (a) => str(a.title || a.id) },
  { token: "nsp:vod:SigningKey", list: "/vod/keys", label: (k) => str(k.id) },
  { token: "nsp:vod:Webhook", list: "/vod/webhooks", label: (w) => str(w.url) },
  { token: "nsp:org:Member", list: "/org/members", key: "sub", label: (m) => str(m.email), skip: (m) => (m.role === "owner" ? "the account's owner, made with the account" : undefined) },
  { token: "nsp:partner:Subject", list: "/partner/subjects", key: "external_ref", label: (s) => str(s.external_ref) },
  { token: "nsp:registry:Domain", list: "/registry/domains", key: "name" },
  { token: "nsp:services:Client", parent: "nsp:services:Service", parents: (s) => s.type === "resolver", list: (s) => `/services/${s.id}/clients`, label: (c, s) => `${str(s?.name)}-${str(c.name)}` },
  // Not a resource: the resolver services the API makes with the account, listed as parents.
  { token: "nsp:services:Service", list: "/services", parentOnly: true },
];

/**
 * Types the provider manages that discovery never emits, and why. Every resource token is either
 * in `sources` or here (a test holds this), so a new resource type cannot be forgotten silently.
 */
export const notDiscovered: Readonly<Record<string, string>> = {
  "nsp:org:Organization": "made by the API with the account (one per account); import it by hand if its settings are to be managed",
  "nsp:org:Apps": "account-wide switches the API makes with the account; import id `apps` by hand if wanted",
  "nsp:meet:Settings": "account-wide defaults the API makes with the account; import id `meet-settings` by hand if wanted",
  "nsp:registry:Link": "holds a maintainer's API key the API never returns (write-only); link again with the key instead",
  "nsp:compute:VmPower": "virtual machines are made by the API (orders), not by this provider; import `<vmId>` by hand to manage power",
  "nsp:dns:ZoneVerification": "a wait for delegation, not an object of the API",
  "nsp:dns:ZoneRecords": "emitted instead of nsp:dns:Record with --zone-records",
  "nsp:cdn:SiteVerification": "a wait for the CNAME, not an object of the API",
  "nsp:cdn:SiteSettings": "settings of zone-mode sites, which are owned by their proxied record; import `<siteId>` by hand to manage them",
  "nsp:vgate:NumberFlow": "part of an nsp:vgate:Number (its flow document); import `<pbx>/<numberId>` by hand to manage it apart",
  "nsp:mail:AppPassword": "a one-time secret the API never shows again; make a new one instead",
  "nsp:services:Filter": "settings of a resolver service the API made; import `<serviceId>` by hand to manage them",
  "nsp:services:Policy": "settings of a resolver service the API made; import `<serviceId>` by hand to manage them",
  "nsp:services:ClientDdnsToken": "a one-time secret the API never shows again; rotate it instead",
  "nsp:stream:Programme": "part of a channel; import `<channelId>` by hand to manage it apart",
  "nsp:voice:NumberEndpoint": "a link between a number and an extension, with no list in the API",
  "nsp:sgate:NumberSettings": "messaging settings of numbers the API assigns; import `<number>` by hand to manage them",
  "nsp:ix:Member": "the API documents no list of memberships, only reads by id; import `<memberId>` by hand",
};
