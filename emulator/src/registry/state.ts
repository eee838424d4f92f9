// The registry-database link. The registry database itself is simulated: every maintainer holds
// the same documentation blocks and ASNs, and the domain objects of those blocks' reverse zones,
// so tests can rely on what a link discovers. See docs/api-assumptions.md.
import { areaState, type Store } from "../model/store";

export const MNTNER = /^[A-Z][A-Z0-9-]{0,77}-MNT$/;
export const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const KEY_SECRET_MIN = 16;

/** What every maintainer holds in the simulated registry database. */
export const MAINTAINER_BLOCKS = [
  { prefix: "192.0.2.0/24", zone: "2.0.192.in-addr.arpa", asn: 64500 },
  { prefix: "198.51.100.0/24", zone: "100.51.198.in-addr.arpa", asn: 64500 },
  { prefix: "2001:db8::/32", zone: "8.b.d.0.1.0.0.2.ip6.arpa", asn: 64501 },
] as const;
export const MAINTAINER_ASNS = [64500, 64501] as const;
const PREVIOUS_NSERVERS = ["ns1.previous-dns.example", "ns2.previous-dns.example"];

export interface LinkRow {
  key_id: string;
  mntner: string;
  verified_at: string;
  synced_at: string | null;
  created_at: string;
}

export interface DomainObject {
  name: string;
  nserver: string[];
  ds_rdata: string[];
  mntner: string;
  updated_at: string;
}

export interface RegistryTables {
  /** account -> its link */
  links: Map<string, LinkRow>;
  /** The simulated registry database: mntner -> domain name -> object. */
  domains: Map<string, Map<string, DomainObject>>;
}

export const registryTables = areaState((): RegistryTables => ({ links: new Map(), domains: new Map() }));

/**
 * Why the registry database refuses this maintainer and key, or null when it accepts them: a
 * maintainer whose name starts `NOSUCH-` does not exist, and a key secret is accepted when it is
 * at least 16 characters long and does not start with `wrong`.
 */
export function verifyKey(mntner: string, keyId: string, keySecret: string): { field: string; message: string } | null {
  if (mntner.startsWith("NOSUCH-"))
    return { field: "mntner", message: `no maintainer ${mntner} in the registry database` };
  if (keySecret.length < KEY_SECRET_MIN || keySecret.startsWith("wrong")) {
    return { field: "key_secret", message: `the registry database refused key ${keyId} for maintainer ${mntner}` };
  }
  return null;
}

/** The maintainer's domain objects, seeded the first time any account links the maintainer. */
export function maintainerDomains(store: Store, mntner: string): Map<string, DomainObject> {
  const t = registryTables(store);
  let m = t.domains.get(mntner);
  if (!m) {
    m = new Map();
    for (const b of MAINTAINER_BLOCKS) {
      m.set(b.zone, {
        name: b.zone,
        nserver: [...PREVIOUS_NSERVERS],
        ds_rdata: [],
        mntner,
        updated_at: store.timestamp(),
      });
    }
    t.domains.set(mntner, m);
  }
  return m;
}
