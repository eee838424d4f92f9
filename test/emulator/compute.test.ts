import { describe, expect, it } from "vitest";
import { removeVm } from "../../emulator/src/compute/state";
import { type Api, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("vmowner");
const { ro, other } = h;

const VM_FIELDS = [
  "id",
  "name",
  "hostname",
  "image",
  "vcpus",
  "memory_mb",
  "disk_gb",
  "ip4",
  "ip6",
  "power",
  "power_changed_at",
  "reinstalled_at",
  "created_at",
].sort();

async function vms(api: Api = h.api): Promise<any[]> {
  const r = await api("GET", "/vms");
  expect(r.status).toBe(200);
  return r.body.data;
}

describe("compute VMs", () => {
  it("seeds two machines per account, paged, readable one by one, invisible to other accounts", async () => {
    const list = await vms();
    expect(list.map((v) => [v.name, v.power])).toEqual([
      ["web-1", "on"],
      ["db-1", "off"],
    ]);
    for (const v of list) {
      expect(Object.keys(v).sort()).toEqual(VM_FIELDS);
      expect(v.created_at).toMatch(ISO_MS);
      expect(v.reinstalled_at).toBeNull();
    }
    const page = await h.api("GET", "/vms?limit=1&offset=1");
    expect(page.body.paging).toEqual({ limit: 1, offset: 1, count: 1, next_offset: null });
    expect((await h.api("GET", `/vms/${list[0].id}`)).body).toEqual(list[0]);
    expect((await other("GET", `/vms/${list[0].id}`)).status).toBe(404);
    const theirs = await vms(other);
    expect(theirs).toHaveLength(2);
    expect(theirs.map((v) => v.id)).not.toContain(list[0].id);
    expect((await h.api("GET", "/vms?colour=red")).status).toBe(400);
  });

  it("powers machines on and off, restarts only a running one, and checks the body and scope", async () => {
    const [web, db] = await vms();
    const off = await h.api("POST", `/vms/${web.id}/power`, { state: "off" });
    expect(off.status).toBe(200);
    expect(off.body.power).toBe("off");
    // Idempotent: the same state again changes nothing.
    const again = await h.api("POST", `/vms/${web.id}/power`, { state: "off" });
    expect(again.body.power_changed_at).toBe(off.body.power_changed_at);
    const restart = await h.api("POST", `/vms/${db.id}/power`, { state: "restart" });
    expect(restart.status).toBe(409);
    expect(restart.body.error.code).toBe("conflict");
    expect((await h.api("POST", `/vms/${web.id}/power`, { state: "on" })).body.power).toBe("on");
    expect((await h.api("POST", `/vms/${web.id}/power`, { state: "restart" })).body.power).toBe("on");

    const bad = await h.api("POST", `/vms/${web.id}/power`, { state: "sleep" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^state: must be one of on, off, restart/);
    expect((await h.api("POST", `/vms/${web.id}/power`, {})).body.error.message).toBe("state: is required");
    expect((await ro("POST", `/vms/${web.id}/power`, { state: "off" })).status).toBe(403);
    expect((await h.api("POST", "/vms/999999/power", { state: "off" })).status).toBe(404);
    expect((await h.api("DELETE", `/vms/${web.id}`)).status).toBe(405);
    expect((await h.api("POST", "/vms", {})).status).toBe(405);
  });

  it("reinstalls with a new root password shown in that answer only", async () => {
    const [, db] = await vms();
    const r = await h.api("POST", `/vms/${db.id}/reinstall`);
    expect(r.status).toBe(200);
    expect(r.body.root_password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(r.body.power).toBe("on");
    expect(r.body.reinstalled_at).toMatch(ISO_MS);
    const second = await h.api("POST", `/vms/${db.id}/reinstall`);
    expect(second.body.root_password).not.toBe(r.body.root_password);
    const read = await h.api("GET", `/vms/${db.id}`);
    expect(read.body).not.toHaveProperty("root_password");
    expect(JSON.stringify((await h.api("GET", "/vms")).body)).not.toContain(r.body.root_password);
  });

  it("forgets a machine removed outside the API", async () => {
    const [first] = await vms(other);
    expect(removeVm(h.emu.app.store, first.id)).toBe(true);
    expect((await other("GET", `/vms/${first.id}`)).status).toBe(404);
  });
});
