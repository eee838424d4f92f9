// Compute: KVM virtual machines. The API cannot create or delete them; every account is given
// the same two on its first compute request. The table hangs off the Store through a WeakMap,
// like the other areas; ids come from the store's one counter.
import { randomBytes } from "node:crypto";
import type { AccountEnv } from "../model/collection";
import { areaTables, type Store } from "../model/store";
import { withoutAccount } from "../model/tables";

type PowerState = "on" | "off";

interface VmRow {
  id: number;
  account: string;
  name: string;
  hostname: string;
  image: string;
  vcpus: number;
  memory_mb: number;
  disk_gb: number;
  ip4: string;
  ip6: string;
  power: PowerState;
  /** Last power change, restart or reinstall. */
  power_changed_at: string;
  reinstalled_at: string | null;
  created_at: string;
}

interface ComputeTables {
  vms: Map<number, VmRow>;
  seeded: Set<string>;
}

const SEED_VMS: ReadonlyArray<Pick<VmRow, "name" | "image" | "vcpus" | "memory_mb" | "disk_gb" | "power">> = [
  { name: "web-1", image: "debian-12", vcpus: 2, memory_mb: 2048, disk_gb: 40, power: "on" },
  { name: "db-1", image: "ubuntu-24.04", vcpus: 4, memory_mb: 8192, disk_gb: 160, power: "off" },
];

const computeTables = areaTables((): ComputeTables => ({ vms: new Map(), seeded: new Set() }), { vms: "vms" });

/** The tables, with the caller's machines seeded on the account's first compute request. */
export function computeFor(env: AccountEnv): ComputeTables {
  const t = computeTables(env.store);
  if (!t.seeded.has(env.account.name)) {
    t.seeded.add(env.account.name);
    const now = env.store.timestamp();
    for (const s of SEED_VMS) {
      const id = env.store.nextId();
      // Documentation addresses (RFC 5737 / RFC 3849), unique per machine.
      t.vms.set(id, {
        ...s,
        id,
        account: env.account.name,
        hostname: `vm${id}.compute.nsp-emulator.test`,
        ip4: `198.51.100.${id % 254 || 254}`,
        ip6: `2001:db8:100::${id.toString(16)}`,
        power_changed_at: now,
        reinstalled_at: null,
        created_at: now,
      });
    }
  }
  return t;
}

export function newRootPassword(): string {
  return randomBytes(18).toString("base64url");
}

export const vmView = (vm: VmRow) => withoutAccount(vm);

/**
 * Removes a machine as the console (or the service's billing) would; the API itself cannot.
 * For tests of a machine that disappears under a stack. True when it existed.
 */
export function removeVm(store: Store, id: number): boolean {
  return computeTables(store).vms.delete(id);
}
