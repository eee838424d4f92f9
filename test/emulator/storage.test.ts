// Storage destinations (/storage).
import { describe, expect, it } from "vitest";
import { useAccounts } from "../helpers/emulator-http";

const h = useAccounts("store");
const { other } = h;

const dest = {
  endpoint: "https://s3.example.net",
  bucket: "recordings",
  access_key: "AKIA1",
  secret_key: "good-secret",
};

describe("/storage/destinations", () => {
  it("binds a bucket after testing the key, never shows the secret, patches and deletes", async () => {
    const c = await h.api("POST", "/storage/destinations", dest);
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      id: expect.stringMatching(/^dst_[0-9a-f]{12}$/),
      name: "recordings",
      prefix: "",
      region: null,
      auto_meet: false,
      access_key: "AKIA1",
    });
    expect(c.body.secret_key).toBeUndefined();
    const id = c.body.id;
    expect((await h.api("GET", "/storage/destinations")).body.data.map((d: any) => d.id)).toContain(id);
    expect((await other("GET", "/storage/destinations")).body.data).toEqual([]);
    expect(
      (await h.api("PATCH", `/storage/destinations/${id}`, { auto_meet: true, prefix: "meet/" })).body,
    ).toMatchObject({ auto_meet: true, prefix: "meet/" });
    expect(
      (await h.api("PATCH", `/storage/destinations/${id}`, { secret_key: "deny-this" })).body.error.message,
    ).toMatch(/^secret_key: the test write/);
    expect((await h.api("POST", `/storage/destinations/${id}/test`)).body.ok).toBe(true);
    expect((await h.api("PATCH", `/storage/destinations/${id}`, { bucket: "other" })).status).toBe(400);
    expect((await h.api("GET", "/storage/copies")).body.data).toEqual([]);
    expect((await h.api("POST", "/storage/copies/5/retry")).status).toBe(404);
    expect((await h.api("DELETE", `/storage/destinations/${id}`)).status).toBe(204);
    expect((await h.api("DELETE", `/storage/destinations/${id}`)).status).toBe(404);
  });

  it("fails the create when the key test fails (secret keys starting with deny), and validates fields", async () => {
    const r = await h.api("POST", "/storage/destinations", { ...dest, secret_key: "deny-me" });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: "validation_error",
      message: expect.stringMatching(/^secret_key: the test write to bucket recordings/),
    });
    expect(
      (await h.api("POST", "/storage/destinations", { ...dest, endpoint: "http://s3.example.net" })).body.error.message,
    ).toMatch(/^endpoint/);
    expect((await h.api("POST", "/storage/destinations", { ...dest, bucket: "UP" })).body.error.code).toBe(
      "validation_error",
    );
    const { secret_key: _s, ...noKey } = dest;
    expect((await h.api("POST", "/storage/destinations", noKey)).status).toBe(400);
  });
});
