import { describe, expect, it } from "vitest";
import { expectError, ISO_MS, useAccounts } from "../helpers/emulator-http";

const h = useAccounts("pg");
const { ro, other } = h;

describe("static-site projects", () => {
  it("creates, lists, reads and deletes a project", async () => {
    const r = await h.api("POST", "/pages/projects", { name: "docs" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      name: "docs",
      subdomain: "docs.pages.nsp-emulator.test",
      live_deploy_id: null,
      created_at: expect.stringMatching(ISO_MS),
    });
    const got = await ro("GET", `/pages/projects/${r.body.id}`);
    expect(got.body).toEqual({ ...r.body, deploys: [] });
    expect((await h.api("GET", "/pages/projects")).body.data).toContainEqual(r.body);
    expectError(await other("GET", `/pages/projects/${r.body.id}`), 404, "not_found");
    expect((await h.api("DELETE", `/pages/projects/${r.body.id}`)).status).toBe(204);
    expectError(await h.api("GET", `/pages/projects/${r.body.id}`), 404, "not_found");
  });

  it("validates names, which are unique across accounts", async () => {
    expectError(await h.api("POST", "/pages/projects", {}), 400, "validation_error", /name/);
    expectError(await h.api("POST", "/pages/projects", { name: "Docs" }), 400, "validation_error", /name/);
    expectError(await h.api("POST", "/pages/projects", { name: "-x" }), 400, "validation_error", /name/);
    expectError(await h.api("POST", "/pages/projects", { name: "x", extra: 1 }), 400, "validation_error");
    await h.api("POST", "/pages/projects", { name: "taken" });
    expectError(await other("POST", "/pages/projects", { name: "taken" }), 409, "conflict", /name/);
    expectError(await ro("POST", "/pages/projects", { name: "ro" }), 403, "forbidden");
  });

  it("starts, finishes and rolls back deploys", async () => {
    const p = (await h.api("POST", "/pages/projects", { name: "site" })).body;
    const d1 = await h.api("POST", `/pages/projects/${p.id}/deploys`);
    expect(d1.status).toBe(201);
    expect(d1.body).toMatchObject({ project_id: p.id, status: "uploading", live: false, finished_at: null });
    expectError(await h.api("POST", `/pages/projects/${p.id}/deploys/${d1.body.id}/activate`), 409, "conflict");
    const f1 = await h.api("POST", `/pages/projects/${p.id}/deploys/${d1.body.id}/finish`);
    expect(f1.body).toMatchObject({ status: "ready", live: true });
    expectError(await h.api("POST", `/pages/projects/${p.id}/deploys/${d1.body.id}/finish`), 409, "conflict");
    const d2 = (await h.api("POST", `/pages/projects/${p.id}/deploys`)).body;
    await h.api("POST", `/pages/projects/${p.id}/deploys/${d2.id}/finish`);
    expect((await h.api("GET", `/pages/projects/${p.id}`)).body.live_deploy_id).toBe(d2.id);
    const back = await h.api("POST", `/pages/projects/${p.id}/deploys/${d1.body.id}/activate`);
    expect(back.body).toMatchObject({ id: d1.body.id, live: true });
    const got = (await h.api("GET", `/pages/projects/${p.id}`)).body;
    expect(got.live_deploy_id).toBe(d1.body.id);
    expect(got.deploys.map((d: any) => d.id)).toEqual([d2.id, d1.body.id]);
    expectError(await h.api("POST", `/pages/projects/${p.id}/deploys/999999/finish`), 404, "not_found");
    expectError(await ro("POST", `/pages/projects/${p.id}/deploys`), 403, "forbidden");
  });
});
