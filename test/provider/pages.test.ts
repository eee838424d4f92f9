// Static-site projects, driven through the built plugin binary over gRPC against a live emulator.
import { describe, expect, it } from "vitest";
import { useProvider } from "../helpers/use-provider";

const PROJECT = "nsp:pages:Project";

type Obj = Record<string, unknown>;

const token = `svc_${"9a9e".repeat(8)}`;
const { control, plugin, checked, previewSendsNothing } = useProvider({ emulator: { accounts: [{ name: "pages", token }] } });

describe("nsp:pages:Project over gRPC", () => {
  it("walks a project through its lifecycle", async () => {
    const inputs = await checked(PROJECT, { name: "docs" });
    expect(inputs).toEqual({ name: "docs" });

    await previewSendsNothing(PROJECT, inputs, "createdAt");

    const created = await plugin.create(PROJECT, "p", inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toEqual({ name: "docs", subdomain: "docs.pages.nsp-emulator.test", liveDeployId: null, createdAt: expect.any(String) });

    const read = await plugin.read(PROJECT, "p", created.id, created.properties, inputs);
    expect(read.properties).toEqual(created.properties);
    expect(read.inputs).toEqual(inputs);
    expect(await plugin.diff(PROJECT, "p", created.id, read.properties, inputs, inputs)).toMatchObject({ changes: false, replaces: [] });

    // A deploy made by deploy tooling shows on refresh without a diff.
    const dep = await control.post<{ id: number }>(`/pages/projects/${created.id}/deploys`, {});
    await control.post(`/pages/projects/${created.id}/deploys/${dep.id}/finish`, {});
    const live = await plugin.read(PROJECT, "p", created.id, read.properties, inputs);
    expect(live.properties.liveDeployId).toBe(String(dep.id));
    expect((await plugin.diff(PROJECT, "p", created.id, live.properties, inputs, live.inputs)).changes).toBe(false);

    // The API cannot rename a project: a new name replaces.
    const renamed = await checked(PROJECT, { name: "docs-2" });
    expect(await plugin.diff(PROJECT, "p", created.id, live.properties, renamed, inputs)).toMatchObject({ changes: true, replaces: ["name"] });

    const imported = await plugin.read(PROJECT, "imp", created.id);
    expect(imported.id).toBe(created.id);
    expect(imported.inputs).toEqual({ name: "docs" });
    const importChecked = await checked(PROJECT, imported.inputs);
    expect((await plugin.diff(PROJECT, "imp", imported.id, imported.properties, importChecked, imported.inputs)).changes).toBe(false);
    await expect(plugin.read(PROJECT, "imp", "docs")).rejects.toThrow(/not a static-site project id.*<projectId>/);

    await plugin.delete(PROJECT, "p", created.id, live.properties);
    expect((await plugin.read(PROJECT, "p", created.id, live.properties, inputs)).id).toBe("");
  });

  it("sees the project deleted through the API", async () => {
    const inputs = await checked(PROJECT, { name: "gone" });
    const p = await plugin.create(PROJECT, "g", inputs);
    await control.delete(`/pages/projects/${p.id}`);
    expect((await plugin.read(PROJECT, "g", p.id, p.properties, inputs)).id).toBe("");
  });

  it("adopts a project whose create answer was lost", async () => {
    const inputs = await checked(PROJECT, { name: "lost-answer" });
    await control.resetStats();
    await control.setFaults({ rate: 1, kinds: ["reset_after"], methods: ["POST"], path: "/pages/projects$", count: 1 });
    try {
      const created = await plugin.create(PROJECT, "lost", inputs);
      expect((await control.stats()).byRoute).toMatchObject({ "POST /pages/projects": 1, "GET /pages/projects": 1 });
      expect((await control.list<{ name: string }>("/pages/projects")).filter((t) => t.name === "lost-answer")).toHaveLength(1);
      await plugin.delete(PROJECT, "lost", created.id, created.properties);
    } finally {
      await control.clearFaults();
    }
  });

  it("rejects bad input in Check, naming the property, before any request", async () => {
    await control.resetStats();
    for (const news of [{}, { name: "" }, { name: "Docs" }, { name: "-docs" }, { name: "d".repeat(59) }, { name: 7 }]) {
      const { failures } = await plugin.check(PROJECT, "bad", news);
      expect(failures.map((f) => f.property), JSON.stringify(news)).toContain("name");
    }
    expect((await control.stats()).total).toBe(0);
  });
});
