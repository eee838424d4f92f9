// Tunnels and their landing points. The tables hang off the Store through a WeakMap, like the
// other areas; ids come from the store's one counter and rows carry their account.
import { randomBytes } from "node:crypto";
import { ApiError } from "../pipeline/errors";
import type { Env } from "../pipeline/route";
import { areaTables } from "../model/store";

export interface PopRow {
  id: number;
  account: string;
  code: string;
  name: string;
  country: string;
}

export interface TunnelRow {
  id: number;
  account: string;
  name: string;
  local_url: string;
  pop_id: number;
  pop_id2: number | null;
  /** Taken from the emulator-wide pool at create, given back at delete. */
  address: string;
  credential_issued_at: string;
  created_at: string;
}

/** Which hostname list manages an edge site: the tunnel and the list's `managed_by`. */
export interface ManagedSite {
  site_id: number;
  tunnel_id: number;
  managed_by: string;
  /** Made by a hostnames PUT (deleted when dropped), or an existing site taken over with `adopt` (released when dropped). */
  created: boolean;
}

export interface LinkTables {
  pops: Map<number, PopRow>;
  tunnels: Map<number, TunnelRow>;
  /** site id -> the list that manages it. A site deleted through the edge-proxy API leaves a stale entry, skipped wherever it is read. */
  managed: Map<number, ManagedSite>;
  seeded: Set<string>;
}

/** The landing points every account is given; the API has no way to create them. */
const SEED_POPS: ReadonlyArray<Omit<PopRow, "id" | "account">> = [
  { code: "ams", name: "Amsterdam", country: "NL" },
  { code: "fra", name: "Frankfurt", country: "DE" },
  { code: "iad", name: "Ashburn", country: "US" },
  { code: "sin", name: "Singapore", country: "SG" },
];

/** Tunnel addresses come from 100.96.0.0/16 (shared address space), lowest free first. */
const POOL_BASE = (100 << 24) | (96 << 16);
const POOL_SIZE = 1 << 16;

const linkTables = areaTables(
  (): LinkTables => ({ pops: new Map(), tunnels: new Map(), managed: new Map(), seeded: new Set() }),
  { tunnels: "tunnels" },
);

/** The tables, with the caller's landing points seeded on the account's first tunnel request. */
export function linkFor(env: Env & { account: { name: string } }): LinkTables {
  const t = linkTables(env.store);
  if (!t.seeded.has(env.account.name)) {
    t.seeded.add(env.account.name);
    for (const p of SEED_POPS) {
      const id = env.store.nextId();
      t.pops.set(id, { ...p, id, account: env.account.name });
    }
  }
  return t;
}

export function newCredential(): string {
  return `lnk_${randomBytes(24).toString("hex")}`;
}

export function allocateAddress(t: LinkTables): string {
  const used = new Set([...t.tunnels.values()].map((tn) => tn.address));
  for (let i = 1; i < POOL_SIZE - 1; i++) {
    const n = POOL_BASE + i;
    const addr = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
    if (!used.has(addr)) return addr;
  }
  throw new ApiError("limit_exceeded", "no tunnel address is free; delete a tunnel first");
}

export function popView(p: PopRow) {
  return { id: p.id, code: p.code, name: p.name, country: p.country };
}
